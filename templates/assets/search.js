/* fairdice search: ranks pages from the index in search-index.js (loaded by
   a <script> tag, so it works from file://). "/" focuses the box; Enter
   opens the first result; ?q=word on any page runs a search. */
(function () {
  "use strict";
  var index = window.FAIRDICE_SEARCH;
  var form = document.getElementById("search-form");
  var input = document.getElementById("search-input");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  if (!index || !form || !input || !list) return;
  var root = document.documentElement.getAttribute("data-root") || "";
  var STOP = " a an and are as at be by for from has in is it its of on or that the this to was with ";
  var terms = Object.keys(index.terms);
  var pageCount = index.pages.length;
  var averageLength = index.pages.reduce(function (sum, p) { return sum + p[3]; }, 0) / (pageCount || 1);
  form.hidden = false;

  /* The same split as the index builder: letters and digits, lowercase. */
  function words(text) {
    return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(function (w) {
      return w.length >= 2 && !/^[0-9]+$/.test(w) && STOP.indexOf(" " + w + " ") < 0;
    });
  }

  /* Adds each page's score for one query word (BM25): exact matches count
     fully, words that start with it (the word being typed) count half; rare
     words weigh more than common ones, and repeats in a long page less than
     in a short one. */
  function scoreWord(word, scores) {
    var found = false;
    terms.forEach(function (term) {
      var weight = term === word ? 1 : term.indexOf(word) === 0 ? 0.5 : 0;
      if (!weight) return;
      var postings = index.terms[term];
      var rarity = Math.log(1 + pageCount / (postings.length / 2));
      for (var i = 0; i < postings.length; i += 2) {
        var page = postings[i];
        var count = postings[i + 1];
        var length = index.pages[page][3] / (averageLength || 1);
        var saturated = (count * 2.2) / (count + 1.2 * (0.25 + 0.75 * length));
        scores[page] = (scores[page] || 0) + weight * rarity * saturated;
        found = true;
      }
    });
    return found;
  }

  function search(query) {
    var queryWords = words(query);
    if (!queryWords.length) return [];
    var total = null;
    for (var q = 0; q < queryWords.length; q++) {
      var scores = {};
      scoreWord(queryWords[q], scores);
      if (total === null) {
        total = scores;
      } else {
        /* Every word must match: keep pages found by all of them. */
        var both = {};
        Object.keys(total).forEach(function (page) {
          if (scores[page]) both[page] = total[page] + scores[page];
        });
        total = both;
      }
    }
    return Object.keys(total).map(function (page) {
      var title = index.pages[page][0].toLowerCase();
      var bonus = queryWords.every(function (w) { return title.indexOf(w) >= 0; }) ? 10 : 0;
      return { page: index.pages[page], score: total[page] + bonus };
    }).sort(function (a, b) {
      return b.score - a.score || (a.page[0] < b.page[0] ? -1 : 1);
    }).slice(0, 12);
  }

  function show(query) {
    var results = search(query);
    list.textContent = "";
    results.forEach(function (result) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = root + result.page[1];
      link.textContent = result.page[0];
      var summary = document.createElement("span");
      summary.textContent = result.page[2];
      item.appendChild(link);
      item.appendChild(summary);
      list.appendChild(item);
    });
    list.hidden = !query.trim();
    if (query.trim() && !results.length) {
      var none = document.createElement("li");
      none.className = "none";
      none.textContent = "No page contains every word of that search.";
      list.appendChild(none);
    }
    if (status) status.textContent = query.trim() ? results.length + " pages found" : "";
  }

  input.addEventListener("input", function () { show(input.value); });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = list.querySelector("a");
    if (first) window.location.href = first.href;
  });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { input.value = ""; show(""); input.blur(); }
    if (event.key === "ArrowDown") {
      var first = list.querySelector("a");
      if (first) { event.preventDefault(); first.focus(); }
    }
  });
  document.addEventListener("keydown", function (event) {
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) || event.target.isContentEditable;
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });
  document.addEventListener("click", function (event) {
    if (!form.contains(event.target)) list.hidden = true;
  });
  input.addEventListener("focus", function () { if (input.value.trim()) list.hidden = false; });

  var match = /[?&]q=([^&#]*)/.exec(window.location.search);
  if (match) {
    input.value = decodeURIComponent(match[1].replace(/\+/g, " "));
    show(input.value);
  }
})();
