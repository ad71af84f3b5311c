/* fairdice calculators: a scenario's values changed in the page and
   recomputed there by fairdice's own engine (assets/engine-NAME.js: the
   Rust code of the build, compiled to WebAssembly; each page's form names
   the engine of its kind in data-engine), in a Web Worker so the page never
   freezes. This script only carries text: the form's values to the engine,
   and the engine's HTML (escaped by the same code as the site's pages) or
   its message back. It computes and lays out nothing. */
(function () {
  "use strict";
  /* The page's words (theme.js); English where a page lacks theme.js. */
  var word = window.fairdiceWord || function (key, english, fill) { return fill ? english.replace(/\{(\w+)\}/g, function (m, name) { return fill[name]; }) : english; };
  var root = document.documentElement.getAttribute("data-root") || "";

  /* The Worker's own code. It runs from a blob: address made from this
     text and the engine's, since a page opened from file:// may not start
     a Worker from a file. */
  function workerMain() {
    var exports = null;
    function engine() {
      if (exports) return exports;
      var text = atob(self.FAIRDICE_ENGINE);
      var bytes = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      var module = new WebAssembly.Module(bytes);
      // The engine calls nothing outside itself; these imports come from
      // code the calculators never reach, and say so if they ever are.
      var imports = {};
      WebAssembly.Module.imports(module).forEach(function (entry) {
        imports[entry.module] = imports[entry.module] || {};
        imports[entry.module][entry.name] = function () {
          throw new Error("fairdice engine: " + entry.name + " is not available in the browser");
        };
      });
      exports = new WebAssembly.Instance(module, imports).exports;
      return exports;
    }
    function output(length) {
      var at = exports.fairdice_output();
      return new TextDecoder().decode(new Uint8Array(exports.memory.buffer, at, length));
    }
    self.onmessage = function (event) {
      var request = new TextEncoder().encode(event.data);
      var length;
      try {
        var at = engine().fairdice_alloc(request.length);
        new Uint8Array(exports.memory.buffer, at, request.length).set(request);
        length = exports.fairdice_call(at, request.length);
      } catch (err) {
        // A trap: the engine left its message, if it had one.
        var left = exports ? exports.fairdice_output_len() : 0;
        var message = left ? output(left) : JSON.stringify({
          status: "refused", key: null, message: "the engine stopped: " + err
        });
        exports = null;
        self.postMessage(message);
        return;
      }
      self.postMessage(output(length));
    };
  }

  /* Each engine's module (base64), once its script has run. */
  var engines = self.FAIRDICE_ENGINES = self.FAIRDICE_ENGINES || {};
  var workerAddresses = {};
  function newWorker(engine) {
    if (!workerAddresses[engine]) {
      var source = "self.FAIRDICE_ENGINE = " + JSON.stringify(engines[engine]) +
        ";\n(" + workerMain.toString() + ")();\n";
      workerAddresses[engine] = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    }
    return new Worker(workerAddresses[engine]);
  }

  var engineLoaded = {};
  /* Load assets/engine-NAME.js once, when first needed: pages weigh
     nothing more until the reader uses a calculator. */
  function withEngine(engine, then) {
    if (engines[engine]) return then();
    var waiting = engineLoaded[engine];
    if (!waiting) {
      waiting = engineLoaded[engine] = [];
      var file = "assets/engine-" + engine + ".js";
      var script = document.createElement("script");
      script.src = root + file;
      script.onload = function () {
        var failed = engines[engine] ? undefined : new Error(file + " holds no engine " + engine);
        waiting.forEach(function (f) { f(failed); });
      };
      script.onerror = function () {
        waiting.forEach(function (f) { f(new Error("could not load " + file)); });
      };
      document.head.appendChild(script);
    }
    waiting.push(then);
  }

  /* One computation at a time: a new request stops the one running (its
     Worker is terminated) and starts a fresh Worker. The engine is the
     one named, else the page's form's. */
  function Runner(engine) {
    var named = document.querySelector("[data-engine]");
    this.engine = engine || (named && named.getAttribute("data-engine"));
    this.worker = null;
    this.busy = false;
    this.serial = 0;
  }
  Runner.prototype.cancel = function () {
    this.serial++;
    if (this.busy) {
      this.worker.terminate();
      this.worker = null;
      this.busy = false;
    }
  };
  Runner.prototype.run = function (request, done) {
    var runner = this;
    var serial = ++runner.serial;
    withEngine(runner.engine, function (failed) {
      if (serial !== runner.serial) return;
      if (failed) return done({ status: "refused", key: null, message: failed.message });
      if (runner.busy) {
        runner.worker.terminate();
        runner.worker = null;
      }
      if (!runner.worker) runner.worker = newWorker(runner.engine);
      runner.busy = true;
      runner.worker.onmessage = function (event) {
        runner.busy = false;
        if (serial === runner.serial) done(JSON.parse(event.data));
      };
      runner.worker.onerror = function (event) {
        event.preventDefault();
        runner.busy = false;
        runner.worker.terminate();
        runner.worker = null;
        if (serial === runner.serial) {
          done({ status: "refused", key: null, message: "the engine stopped: " + event.message });
        }
      };
      runner.worker.postMessage(JSON.stringify(request));
    });
  };

  /* "On this page" lists the headings the page shows now: after a
     recompute (or a reset) the results' sections are listed in place of
     the old ones, in the order they stand. */
  function followContents(results) {
    var list = document.querySelector("aside.toc ul");
    if (!list) return;
    var inResults = function (id) {
      var target = document.getElementById(id);
      return !target || results.contains(target);
    };
    var items = Array.prototype.slice.call(list.children);
    var before = items.filter(function (li) {
      var a = li.querySelector("a");
      return a && !inResults(decodeURIComponent(a.getAttribute("href").slice(1)));
    });
    while (list.firstChild) list.removeChild(list.firstChild);
    before.forEach(function (li) { list.appendChild(li); });
    results.querySelectorAll("h2[id], h3[id]").forEach(function (heading) {
      var li = document.createElement("li");
      li.className = "level-" + heading.tagName.charAt(1);
      var a = document.createElement("a");
      a.href = "#" + encodeURIComponent(heading.id);
      var copy = heading.cloneNode(true);
      copy.querySelectorAll(".anchor").forEach(function (x) { x.remove(); });
      a.textContent = copy.textContent.trim();
      li.appendChild(a);
      list.appendChild(li);
    });
  }

  /* A what-if form: its inputs are the scenario's keys; a key whose value
     maps names to values (a dice page's rolls) is a group with an input per
     name and, where the values are text, a pair of inputs to add one. The results replace the page's
     blocks, and "reset" puts the page's own back. The address (?KEY=VALUE,
     or ?KEY.NAME=VALUE in a group, for each value changed) follows the form,
     so a result can be shared, and an address with values opens computed. */
  function whatIf(form) {
    var results = document.getElementById("scenario-results");
    var answer = document.getElementById("scenario-answer");
    var originalAnswer = answer ? answer.innerHTML : "";
    var status = form.querySelector(".calculator-status");
    var yaml = form.querySelector(".calculator-yaml");
    var inputs = Array.prototype.slice.call(form.querySelectorAll("input[name], textarea[name]"));
    var groups = Array.prototype.slice.call(form.querySelectorAll("fieldset[data-key]"));
    /* Every key in the form's order: a single input, or a group. */
    var keys = Array.prototype.slice.call(form.querySelectorAll("input[name], textarea[name], fieldset[data-key]"));
    function entryInputs(group) {
      return Array.prototype.slice.call(group.querySelectorAll("input[data-entry]"));
    }
    function added(group) {
      return {
        name: group.querySelector('input[data-new="name"]'),
        value: group.querySelector('input[data-new="value"]')
      };
    }
    function fields() {
      return keys.map(function (element) {
        if (element.tagName === "INPUT") return { key: element.name, value: element.value };
        /* A text area holds text as it reads (a program): the engine quotes it. */
        if (element.tagName === "TEXTAREA") return { key: element.name, value: element.value, text: true };
        var entries = entryInputs(element).map(function (input) {
          return { key: input.getAttribute("data-entry"), value: input.value };
        });
        var more = added(element);
        if (more.name && (more.name.value.trim() || more.value.value.trim())) {
          entries.push({ key: more.name.value, value: more.value.value });
        }
        /* No entry left: the key is left out, as an empty input leaves it. */
        return { key: element.getAttribute("data-key"), value: "", entries: entries,
                 text: element.hasAttribute("data-text") };
      });
    }
    var original = results.innerHTML;
    var runner = new Runner(form.getAttribute("data-engine"));
    var timer = null;
    form.hidden = false;
    function mark(key) {
      function set(input, wrong) {
        if (wrong) input.setAttribute("aria-invalid", "true");
        else input.removeAttribute("aria-invalid");
      }
      inputs.forEach(function (input) { set(input, input.name === key); });
      groups.forEach(function (group) {
        var wrong = group.getAttribute("data-key") === key;
        group.querySelectorAll("input").forEach(function (input) { set(input, wrong); });
      });
    }
    function show(response) {
      form.removeAttribute("data-busy");
      if (response.status === "done") {
        mark(null);
        if (answer) answer.innerHTML = response.answer;
        results.innerHTML = response.html;
        followContents(results);
        yaml.textContent = response.yaml;
        status.textContent = word("computed_for_values", "Computed exactly in your browser for these values.");
      } else {
        mark(response.key);
        status.textContent = response.message;
      }
      form.setAttribute("data-state", response.status);
    }
    function address(changed) {
      var query = new URLSearchParams();
      if (changed) {
        inputs.forEach(function (input) {
          if (input.value !== input.defaultValue) query.append(input.name, input.value);
        });
        groups.forEach(function (group) {
          var key = group.getAttribute("data-key");
          entryInputs(group).forEach(function (input) {
            if (input.value !== input.defaultValue) {
              query.append(key + "." + input.getAttribute("data-entry"), input.value);
            }
          });
          var more = added(group);
          if (more.name && more.name.value.trim()) query.append(key + "." + more.name.value.trim(), more.value.value);
        });
      }
      var text = query.toString();
      try {
        history.replaceState(null, "", location.pathname + (text ? "?" + text : "") + location.hash);
      } catch (e) { /* some file:// pages */ }
    }
    function compute() {
      address(true);
      form.setAttribute("data-busy", "true");
      form.setAttribute("data-state", "computing");
      status.textContent = word("computing", "Computing…");
      runner.run({ "what-if": {
        source: form.getAttribute("data-source"),
        title: form.getAttribute("data-title"),
        kind: form.getAttribute("data-kind"),
        fields: fields()
      } }, show);
    }
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(compute, 250);
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(timer);
      compute();
    });
    form.addEventListener("reset", function () {
      clearTimeout(timer);
      runner.cancel();
      setTimeout(function () {
        mark(null);
        address(false);
        if (answer) answer.innerHTML = originalAnswer;
        results.innerHTML = original;
        followContents(results);
        yaml.textContent = "";
        status.textContent = "";
        form.setAttribute("data-state", "page");
      }, 0);
    });
    var asked = new URLSearchParams(location.search);
    var opened = false;
    inputs.forEach(function (input) {
      if (asked.has(input.name)) {
        input.value = asked.get(input.name);
        opened = true;
      }
    });
    /* KEY.NAME: the group's input of that name, or else its added pair. */
    asked.forEach(function (value, name) {
      var dot = name.indexOf(".");
      var group = groups.filter(function (g) { return g.getAttribute("data-key") === name.slice(0, dot); })[0];
      if (dot < 0 || !group) return;
      var entry = name.slice(dot + 1);
      var input = entryInputs(group).filter(function (i) { return i.getAttribute("data-entry") === entry; })[0];
      var more = added(group);
      if (input) {
        input.value = value;
      } else if (more.name) {
        more.name.value = entry;
        more.value.value = value;
      } else {
        return;
      }
      opened = true;
    });
    if (opened) compute();
  }

  /* The playground: rolls in the dice language, one per line; the address
     (?roll=...&roll=...&depth=N) follows them, so a result can be shared, and an
     address with rolls opens computed. */
  function playground(form) {
    var results = document.getElementById("scenario-results");
    var status = form.querySelector(".calculator-status");
    var yaml = form.querySelector(".calculator-yaml");
    var text = form.elements.rolls;
    var depth = form.elements.explode_depth;
    var notation = form.elements.notation;
    var runner = new Runner(form.getAttribute("data-engine"));
    /* An AnyDice program goes to the engine of anydice pages, loaded
       only when one is written. */
    var programs = new Runner("anydice");
    var timer = null;
    form.hidden = false;
    var query = new URLSearchParams(location.search);
    var asked = query.getAll("roll");
    if (asked.length) text.value = asked.join("\n");
    if (query.has("program")) text.value = query.get("program");
    /* A program, not rolls: a line AnyDice starts a statement with (an
       output, a function, a loop, a setting, a comment, or a variable
       set, as X: d6), none of which reads as a roll. */
    function isProgram() {
      return /^\s*(output\b|function\s*:|loop\s|set\s*"|if\s|\\|[A-Z][A-Z_]*\s*:)/m.test(text.value);
    }
    if (query.has("depth")) depth.value = query.get("depth");
    if (query.get("notation") === "roll20") notation.value = "roll20";
    /* The standard notation is the kind's default: left out of the address and the file. */
    function how() { return notation.value === "roll20" ? "roll20" : ""; }
    /* The lines as the reader numbers them: each roll once, at its first
       line (the engine reads a roll written twice once). */
    function numbered() {
      var seen = {};
      var lines = [];
      text.value.split("\n").forEach(function (line, i) {
        var roll = line.trim();
        if (roll && !seen[roll]) {
          seen[roll] = true;
          lines.push({ number: i + 1, roll: roll });
        }
      });
      return lines;
    }
    /* The line of `lines` a refusal is about, and what is wrong with it:
       the engine names a roll by its key in the scenario ("rolls.4d6kh5:
       ..."), which the reader never wrote, so the line's number stands in
       its place. The longest roll the message starts with, so a roll that
       starts as another does ("a" and "a: b") is told apart. */
    function lineProblem(response, lines) {
      if (response.status !== "refused" || response.key !== "rolls") return null;
      var found = null;
      lines.forEach(function (line, at) {
        var prefix = "rolls." + line.roll + ": ";
        if (response.message.indexOf(prefix) === 0 && (!found || line.roll.length > found.line.roll.length)) {
          found = { at: at, line: line, message: word("line", "Line {number}", { number: line.number }) + ": " + response.message.slice(prefix.length) };
        }
      });
      return found;
    }
    /* The engine stops at the first roll it cannot read. Every problem is
       shown at once: the lines after the one refused are sent again,
       until none is refused. A line that never reads ("(") goes last, so
       the engine stops there too and computes nothing: each call only
       reads the rolls. A request typed meanwhile supersedes the search
       (the runner drops answers to older requests). */
    var UNREADABLE = "(";
    function everyProblem(first, lines, deep, done) {
      var problems = [first];
      (function next(rest) {
        if (!rest.length) return done(problems);
        var rolls = rest.map(function (line) { return line.roll; }).concat([UNREADABLE]).join("\n");
        runner.run({ playground: { rolls: rolls, explode_depth: deep, notation: how() } }, function (response) {
          var found = lineProblem(response, rest);
          if (!found) return done(problems);
          problems.push(found);
          next(rest.slice(found.at + 1));
        });
      })(lines.slice(first.at + 1));
    }
    function refused(messages) {
      status.textContent = "";
      if (messages.length === 1) {
        status.textContent = messages[0];
      } else {
        var intro = document.createElement("p");
        intro.textContent = messages.length + " lines cannot be read:";
        var list = document.createElement("ul");
        messages.forEach(function (message) {
          var item = document.createElement("li");
          item.textContent = message;
          list.appendChild(item);
        });
        status.appendChild(intro);
        status.appendChild(list);
      }
      form.removeAttribute("data-busy");
      form.setAttribute("data-state", "refused");
    }
    function show(response, lines, deep) {
      text.removeAttribute("aria-invalid");
      depth.removeAttribute("aria-invalid");
      if (response.status === "done") {
        form.removeAttribute("data-busy");
        results.innerHTML = response.answer + response.html;
        yaml.textContent = response.yaml;
        status.textContent = word("computed", "Computed exactly in your browser.");
        form.setAttribute("data-state", response.status);
        return;
      }
      (response.key === "explode_depth" ? depth : text).setAttribute("aria-invalid", "true");
      var first = lineProblem(response, lines);
      if (first) {
        return everyProblem(first, lines, deep, function (problems) {
          refused(problems.map(function (p) { return p.message; }));
        });
      }
      var depthKey = "explode_depth: ";
      refused([response.message.indexOf(depthKey) === 0 ?
        "Explode depth: " + response.message.slice(depthKey.length) : response.message]);
    }
    function computeProgram() {
      try { history.replaceState(null, "", "?" + new URLSearchParams({ program: text.value }).toString()); } catch (e) { /* some file:// pages */ }
      form.setAttribute("data-busy", "true");
      form.setAttribute("data-state", "computing");
      status.textContent = word("computing", "Computing…");
      runner.cancel();
      programs.run({ "what-if": { source: "playground.yaml", title: "Playground", kind: "anydice",
                                  fields: [{ key: "program", value: text.value, text: true }] } },
        function (response) { show(response, [], ""); });
    }
    function compute() {
      if (isProgram()) return computeProgram();
      programs.cancel();
      var address = new URLSearchParams();
      text.value.split("\n").forEach(function (line) {
        if (line.trim()) address.append("roll", line.trim());
      });
      /* The default depth is the kind's: left out of the address and the file. */
      var deep = depth.value.trim() === depth.defaultValue ? "" : depth.value.trim();
      if (deep !== "") address.append("depth", deep);
      if (how()) address.append("notation", how());
      try { history.replaceState(null, "", "?" + address.toString()); } catch (e) { /* some file:// pages */ }
      form.setAttribute("data-busy", "true");
      form.setAttribute("data-state", "computing");
      status.textContent = word("computing", "Computing…");
      var lines = numbered();
      runner.run({ playground: { rolls: text.value, explode_depth: deep, notation: how() } }, function (response) {
        show(response, lines, deep);
      });
    }
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(compute, 300);
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(timer);
      compute();
    });
    compute();
  }

  self.FAIRDICE_CALCULATOR = { Runner: Runner };
  document.addEventListener("DOMContentLoaded", function () {
    var forms = document.querySelectorAll("form.calculator");
    for (var i = 0; i < forms.length; i++) whatIf(forms[i]);
    var play = document.querySelector("form.playground");
    if (play) playground(play);
  });
})();
