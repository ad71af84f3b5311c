/* fairdice search: looks words up in the index of search-index.js (loaded
   by a <script> tag, so it works from file://) and shows each page found
   with the section where its words are, the words marked in context. The
   index is built and weighted at build time (src/site/search.rs); this
   script only adds weights up, ranks and displays, and puts page text in
   the document as text only. "/" focuses the box; Enter opens the first
   result; ?q=word on any page runs a search. */
(function () {
  "use strict";
  /* The page's words (theme.js); English where a page lacks theme.js. */
  var word = window.fairdiceWord || function (key, english, fill) { return fill ? english.replace(/\{(\w+)\}/g, function (m, name) { return fill[name]; }) : english; };
  var index = window.FAIRDICE_SEARCH;
  var form = document.getElementById("search-form");
  var input = document.getElementById("search-input");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  if (!index || !form || !input || !list) return;
  var root = document.documentElement.getAttribute("data-root") || "";
  var STOP = " a an and are as at be by for from has in is it its of on or that the this to was with ";
  /* The index builder's split (search.rs `words`): runs of letters and
     digits, with a dot between two digits kept ("1.2.3", "0.25") and a
     thousands separator read away ("3,084" is the word "3084"). */
  var TOKEN = /(?:[\p{Alphabetic}\p{N}]|(?<=[0-9])\.(?=[0-9])|(?<=[0-9]),(?=[0-9]{3}(?![0-9])))+/gu;
  /* Scripts written without spaces (search.rs `is_unspaced`): Chinese
     characters and Japanese kana, indexed as overlapping pairs. */
  var UNSPACED = /^[\u3005\u3040-\u30FF\u31F0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF66-\uFF9F\u{20000}-\u{2FFFF}]$/u;
  var terms = Object.keys(index.terms);
  var MAX_RESULTS = 12;
  var CONTEXT_BEFORE = 60;
  var CONTEXT_AFTER = 140;
  form.hidden = false;

  function tokens(text) {
    var found = [];
    var match;
    TOKEN.lastIndex = 0;
    while ((match = TOKEN.exec(text))) {
      pieces(match[0].toLowerCase(), match.index, found);
    }
    return found;
  }

  /* search.rs `pairs_where_unspaced`: a token cut where its script
     changes, each run of unspaced characters as its overlapping pairs. */
  function pieces(token, start, found) {
    var run = [];
    var other = null;
    var at = start;
    function endOther() {
      if (other) found.push({ word: other.word, start: other.start, end: other.end });
      other = null;
    }
    function endRun() {
      if (run.length === 1) found.push({ word: run[0].c, start: run[0].at, end: run[0].at + run[0].c.length });
      for (var i = 0; i + 1 < run.length; i++) {
        found.push({ word: run[i].c + run[i + 1].c, start: run[i].at, end: run[i + 1].at + run[i + 1].c.length });
      }
      run = [];
    }
    Array.from(token).forEach(function (c) {
      if (UNSPACED.test(c)) {
        endOther();
        run.push({ c: c, at: at });
      } else {
        endRun();
        if (!other) other = { word: "", start: at, end: at };
        if (c !== ",") other.word += c;
        other.end = at + c.length;
      }
      at += c.length;
    });
    endOther();
    endRun();
  }

  function kept(word) {
    return (Array.from(word).length >= 2 || /^\p{N}+$/u.test(word) || UNSPACED.test(word)) &&
      STOP.indexOf(" " + word + " ") < 0;
  }

  function queryWords(query) {
    var seen = {};
    return tokens(query).map(function (t) { return t.word; }).filter(function (word) {
      if (!kept(word) || seen[word]) return false;
      seen[word] = true;
      return true;
    });
  }

  function count(flags) {
    return flags.filter(Boolean).length;
  }

  /* How many query words a page's title holds: whole words, and words
     it holds at least as the start of one of its words. */
  var titles = {};
  function inTitle(number, words) {
    var own = titles[number] || (titles[number] = tokens(index.pages[number][0]).map(function (t) { return t.word; }));
    return {
      whole: count(words.map(function (w) { return own.indexOf(w) >= 0; })),
      any: count(words.map(function (w) { return own.some(function (t) { return t.indexOf(w) === 0; }); }))
    };
  }

  /* Pages holding every query word, whole or as the start of a word. A
     page whose title holds more of the words ranks first (whole words
     before starts of words: "advantage" finds the page titled "Advantage
     and disadvantage" before a section of another page); then the page
     with more whole-word matches; then by weight. */
  function search(words) {
    var pages = {};
    words.forEach(function (word, q) {
      terms.forEach(function (term) {
        var whole = term === word;
        if (!whole && term.indexOf(word) !== 0) return;
        var postings = index.terms[term];
        for (var i = 0; i < postings.length; i += 2) {
          var section = postings[i];
          var weight = whole ? postings[i + 1] : postings[i + 1] / 2;
          var number = index.sections[section][0];
          var page = pages[number] || (pages[number] = { number: number, found: [], whole: [], score: 0, sections: {} });
          page.found[q] = true;
          if (whole) page.whole[q] = true;
          page.score += weight;
          var part = page.sections[section] || (page.sections[section] = { section: section, found: [], score: 0 });
          part.found[q] = true;
          part.score += weight;
        }
      });
    });
    var results = Object.keys(pages).map(function (key) { return pages[key]; }).filter(function (page) {
      return count(page.found) === words.length;
    });
    results.forEach(function (page) {
      page.title = inTitle(page.number, words);
      page.wholeWords = count(page.whole);
      page.best = Object.keys(page.sections).map(function (key) { return page.sections[key]; }).sort(function (a, b) {
        return count(b.found) - count(a.found) || b.score - a.score || a.section - b.section;
      })[0];
    });
    return results.sort(function (a, b) {
      return b.title.whole - a.title.whole || b.title.any - a.title.any ||
        b.wholeWords - a.wholeWords || b.score - a.score || a.number - b.number;
    }).slice(0, MAX_RESULTS);
  }

  function matches(word, words) {
    return words.some(function (w) { return word === w || word.indexOf(w) === 0; });
  }

  /* The words in context: a window of the section's text around its first
     whole-word match (else its first prefix match), each match marked. */
  function snippet(text, words) {
    var found = tokens(text);
    var first = found.filter(function (t) { return words.indexOf(t.word) >= 0; })[0] ||
      found.filter(function (t) { return matches(t.word, words); })[0];
    if (!first) return null;
    var from = Math.max(0, first.start - CONTEXT_BEFORE);
    var to = Math.min(text.length, first.start + CONTEXT_AFTER);
    if (from > 0) from = Math.min(first.start, text.indexOf(" ", from) + 1 || first.start);
    if (to < text.length) to = Math.max(first.end, text.lastIndexOf(" ", to));
    var out = document.createElement("span");
    out.className = "snippet";
    var at = from;
    function addText(piece) { out.appendChild(document.createTextNode(piece)); }
    if (from > 0) addText("… ");
    found.forEach(function (t) {
      if (t.start < from || t.start < at || t.end > to || !matches(t.word, words)) return;
      addText(text.slice(at, t.start));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(t.start, t.end);
      out.appendChild(mark);
      at = t.end;
    });
    addText(text.slice(at, to));
    if (to < text.length) addText(" …");
    return out;
  }

  function show(query) {
    var words = queryWords(query);
    var results = words.length ? search(words) : [];
    list.textContent = "";
    results.forEach(function (result) {
      var page = index.pages[result.number];
      var section = index.sections[result.best.section];
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = root + page[1] + (section[1] ? "#" + section[1] : "");
      link.textContent = page[0] + (section[2] ? " › " + section[2] : "");
      item.appendChild(link);
      var context = snippet(section[3], words);
      if (!context) {
        context = document.createElement("span");
        context.textContent = page[2];
      }
      item.appendChild(context);
      list.appendChild(item);
    });
    list.hidden = !query.trim();
    if (query.trim() && !results.length) {
      var none = document.createElement("li");
      none.className = "none";
      none.textContent = word("search_none", "No page contains every word of that search.");
      list.appendChild(none);
    }
    if (status) {
      status.textContent = !query.trim() ? "" : results.length === 1 ?
        word("search_found_one", "1 page found") :
        word("search_found_many", "{count} pages found", { count: results.length });
    }
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
    try {
      input.value = decodeURIComponent(match[1].replace(/\+/g, " "));
    } catch (malformed) {
      input.value = match[1];
    }
    show(input.value);
  }
})();
