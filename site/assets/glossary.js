// Glossary marks: a word with its definition beside it, on every page
// that holds one, the printable ones included (their screen view).
// A glossary term's definition shows on hover and focus (rules.css) and
// opens on tap too (a tap does not focus a button in every browser); it
// closes with Escape, even under the pointer, or a tap elsewhere. Each
// time it shows it is moved sideways (and above its word when there is no
// room below) so that it stays inside the viewport.
(function () {
  var MARGIN = 8;
  function place(term) {
    var box = term && term.querySelector(".term-definition");
    if (!box) return;
    box.style.left = "";
    box.style.top = "";
    box.style.bottom = "";
    var rect = box.getBoundingClientRect();
    if (!rect.width) return;
    var width = document.documentElement.clientWidth;
    var shift = 0;
    if (rect.right > width - MARGIN) shift = width - MARGIN - rect.right;
    if (rect.left + shift < MARGIN) shift = MARGIN - rect.left;
    if (shift) box.style.left = shift + "px";
    var word = term.getBoundingClientRect();
    if (rect.bottom > window.innerHeight - MARGIN && word.top - rect.height > MARGIN) {
      box.style.top = "auto";
      box.style.bottom = "1.5em";
    }
  }
  function termOf(target) {
    var word = target && target.closest && target.closest(".term-word");
    return word && word.parentElement;
  }
  function close(except) {
    document.querySelectorAll(".term.open").forEach(function (term) {
      if (term !== except) term.classList.remove("open");
    });
  }
  document.addEventListener("click", function (event) {
    var term = termOf(event.target);
    close(term);
    if (!term) return;
    term.classList.remove("closed");
    term.classList.toggle("open");
    place(term);
  });
  document.addEventListener("mouseover", function (event) {
    var term = event.target.closest && event.target.closest(".term");
    if (term && !term.classList.contains("closed")) place(term);
  });
  document.addEventListener("mouseout", function (event) {
    var term = event.target.closest && event.target.closest(".term.closed");
    if (term && !term.contains(event.relatedTarget)) term.classList.remove("closed");
  });
  document.addEventListener("focusin", function (event) {
    var term = termOf(event.target);
    if (!term) return;
    term.classList.remove("closed");
    place(term);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    close(null);
    document.querySelectorAll(".term").forEach(function (term) {
      if (term.matches(":hover")) term.classList.add("closed");
    });
    var active = document.activeElement;
    if (active && active.classList.contains("term-word")) active.blur();
  });
})();
