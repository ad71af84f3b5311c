/* fairdice theme switch: follows the system until the reader picks a theme,
   then remembers the choice. Loaded in <head> so the page never flashes the
   wrong colours. */
(function () {
  "use strict";
  var KEY = "fairdice-theme";
  var root = document.documentElement;

  /* The interface's words in the page's language (its data-words, from
     templates/i18n/), shared with the other scripts: word("copied",
     "Copied") is the page's word, or the English given. `{count}` and
     the like are filled from `fill`. */
  var words = {};
  try { words = JSON.parse(root.getAttribute("data-words") || "{}"); } catch (e) { words = {}; }
  window.fairdiceWord = function (key, english, fill) {
    var text = typeof words[key] === "string" ? words[key] : english;
    Object.keys(fill || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(String(fill[name]));
    });
    return text;
  };
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function current() {
    return root.getAttribute("data-theme") || (system && system.matches ? "dark" : "light");
  }
  var saved = stored();
  if (saved === "dark" || saved === "light") root.setAttribute("data-theme", saved);

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    function label() {
      var dark = current() === "dark";
      var word = window.fairdiceWord;
      button.textContent = dark ? word("light_theme", "Light theme") : word("dark_theme", "Dark theme");
      button.setAttribute("aria-label", dark ? word("to_light_theme", "Switch to the light theme") : word("to_dark_theme", "Switch to the dark theme"));
    }
    button.hidden = false;
    label();
    button.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem(KEY, next); } catch (e) { /* private mode: not remembered */ }
      label();
    });
    if (system && system.addEventListener) system.addEventListener("change", label);
  });
})();
