// A copy-link button beside each rule number. Made by script, so pages
// read without script, printed pages and the search index never hold it.
(function () {
  /* The page's words (theme.js); English where a page lacks theme.js. */
  var word = window.fairdiceWord || function (key, english, fill) { return fill ? english.replace(/\{(\w+)\}/g, function (m, name) { return fill[name]; }) : english; };
  function fallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } catch (e) { /* nothing to copy with */ }
    area.remove();
  }
  document.querySelectorAll(".rule-number").forEach(function (number) {
    var rule = number.closest("[id]");
    if (!rule) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-link";
    button.textContent = word("copy_link", "Copy link");
    button.setAttribute("aria-label", word("copy_link_to_rule", "Copy a link to rule {number}", { number: number.textContent }));
    button.addEventListener("click", function () {
      var url = location.href.split("#")[0] + "#" + rule.id;
      var done = function () {
        button.textContent = word("copied", "Copied");
        setTimeout(function () { button.textContent = word("copy_link", "Copy link"); }, 1500);
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(url).then(done, function () { fallback(url); done(); });
      } else {
        fallback(url);
        done();
      }
    });
    if (/^H[1-6]$/.test(rule.tagName)) {
      // Out of the heading, so its accessible name stays number and words.
      var marks = rule.nextElementSibling;
      if (!marks || !marks.classList.contains("rule-marks")) {
        marks = document.createElement("p");
        marks.className = "rule-marks";
        rule.insertAdjacentElement("afterend", marks);
      }
      marks.insertBefore(button, marks.firstChild);
    } else {
      number.insertAdjacentElement("afterend", button);
    }
  });
})();
