/* fairdice theme switch: follows the system until the reader picks a theme,
   then remembers the choice. Loaded in <head> so the page never flashes the
   wrong colours. */
(function () {
  "use strict";
  var KEY = "fairdice-theme";
  var root = document.documentElement;
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
      button.textContent = dark ? "Light theme" : "Dark theme";
      button.setAttribute("aria-label", dark ? "Switch to the light theme" : "Switch to the dark theme");
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
