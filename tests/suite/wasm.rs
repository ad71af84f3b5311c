//! The engine in the reader's browser (assets/engine-NAME.js, built from `wasm/`):
//! the committed site's calculators used in Debian's headless Chromium over
//! `file://`, and what they show compared with the native library's own.
//!
//! A calculator answers from a Web Worker, after the page has loaded, so
//! Chromium is driven through the DevTools protocol on a pipe
//! (`--remote-debugging-pipe`: NUL-separated JSON on file descriptors 3 and
//! 4), which lets the test wait for an answer; no driver crate is needed.
//! Skipped, with a notice, without Chromium; under `CI=true` a missing
//! Chromium fails.

use fairdice::calculator::{self, Field, Request, Response};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

const CHROMIUM: &str = "/usr/bin/chromium";
/// Only a runaway guard: every answer here comes in seconds.
const PATIENCE: Duration = Duration::from_secs(300);

/// Chromium and the pipe to it.
struct Browser {
    child: Child,
    commands: std::io::PipeWriter,
    replies: Receiver<Value>,
    next_id: u64,
    /// Console messages, exceptions and log entries seen so far.
    events: Vec<Value>,
    _profile: tempfile::TempDir,
}

impl Browser {
    fn launch() -> Option<Browser> {
        if !Path::new(CHROMIUM).exists() {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{CHROMIUM} not found and CI=true: .ci/run installs it (apt-get install chromium)"
            );
            eprintln!("NOTICE: {CHROMIUM} not found, WebAssembly browser test skipped");
            return None;
        }
        let profile = tempfile::tempdir().unwrap();
        let (their_commands, commands) = std::io::pipe().unwrap();
        let (mut replies_in, their_replies) = std::io::pipe().unwrap();
        let (read_fd, write_fd) = (their_commands.as_raw_fd(), their_replies.as_raw_fd());
        let mut command = Command::new(CHROMIUM);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-pipe",
                "about:blank",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: fcntl and dup2 are async-signal-safe; the pipe ends stay
        // open in the parent until the child has started. Both ends are
        // first copied above 3 and 4 (closed at exec), so neither is
        // overwritten by the other's dup2, and dup2 onto 3 and 4 clears
        // close-on-exec.
        unsafe {
            command.pre_exec(move || {
                let read = libc::fcntl(read_fd, libc::F_DUPFD_CLOEXEC, 10);
                let write = libc::fcntl(write_fd, libc::F_DUPFD_CLOEXEC, 10);
                if read < 0 || write < 0 || libc::dup2(read, 3) < 0 || libc::dup2(write, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium starts");
        drop((their_commands, their_replies));
        let (send, replies) = mpsc::channel();
        std::thread::spawn(move || {
            let mut pending = Vec::new();
            let mut chunk = [0u8; 1 << 16];
            loop {
                let read = match replies_in.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(read) => read,
                };
                pending.extend_from_slice(&chunk[..read]);
                while let Some(end) = pending.iter().position(|&b| b == 0) {
                    let message: Vec<u8> = pending.drain(..=end).collect();
                    let value = serde_json::from_slice(&message[..end]).expect("protocol JSON");
                    if send.send(value).is_err() {
                        return;
                    }
                }
            }
        });
        Some(Browser {
            child,
            commands,
            replies,
            next_id: 0,
            events: Vec::new(),
            _profile: profile,
        })
    }

    /// Send one command and wait for its reply, keeping the events that
    /// arrive meanwhile.
    fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.commands.write_all(&bytes).unwrap();
        loop {
            let reply = self
                .replies
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("no reply to {method} in {PATIENCE:?}"));
            if reply["id"] == json!(id) {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply["result"].clone();
            }
            self.events.push(reply);
        }
    }

    /// Wait for an event of this name on this session.
    fn wait_for(&mut self, session: &str, method: &str) {
        if let Some(i) = self
            .events
            .iter()
            .position(|e| e["method"] == method && e["sessionId"] == session)
        {
            self.events.remove(i);
            return;
        }
        loop {
            let event = self
                .replies
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("no {method} in {PATIENCE:?}"));
            if event["method"] == method && event["sessionId"] == session {
                return;
            }
            self.events.push(event);
        }
    }

    /// Open `path` in a new tab and wait for its load event.
    fn open(&mut self, path: &Path) -> String {
        self.open_url(&format!("file://{}", path.display()))
    }

    /// Open `url` in a new tab and wait for its load event.
    fn open_url(&mut self, url: &str) -> String {
        let target = self.send(None, "Target.createTarget", json!({"url": "about:blank"}));
        let attached = self.send(
            None,
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        let session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            self.send(Some(&session), domain, json!({}));
        }
        self.send(Some(&session), "Page.navigate", json!({"url": url}));
        self.wait_for(&session, "Page.loadEventFired");
        session
    }

    /// The value of a script run in the page (a promise is awaited).
    fn eval(&mut self, session: &str, script: &str) -> Value {
        let result = self.send(
            Some(session),
            "Runtime.evaluate",
            json!({"expression": script, "awaitPromise": true, "returnByValue": true}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "the script failed: {}",
            result["exceptionDetails"]
        );
        result["result"]["value"].clone()
    }

    /// Console errors and warnings, uncaught exceptions and error log
    /// entries of a session.
    fn complaints(&self, session: &str) -> Vec<String> {
        self.events
            .iter()
            .filter(|e| e["sessionId"] == session)
            .filter(|e| match e["method"].as_str() {
                Some("Runtime.exceptionThrown") => true,
                Some("Runtime.consoleAPICalled") => {
                    matches!(
                        e["params"]["type"].as_str(),
                        Some("error" | "warning" | "assert")
                    )
                }
                Some("Log.entryAdded") => {
                    matches!(
                        e["params"]["entry"]["level"].as_str(),
                        Some("error" | "warning")
                    )
                }
                _ => false,
            })
            .map(|e| e["params"].to_string())
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The project's committed site (CI checks it is current).
fn site() -> PathBuf {
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("site");
    assert!(
        site.join("assets/engine-dice.js").is_file(),
        "build the site first: cargo run --release -- build"
    );
    site
}

/// Script: set the form's inputs, submit, and wait until the page shows an
/// answer; returns the status, the message and every result cell.
fn use_form(values: &[(&str, &str)]) -> String {
    let values = serde_json::to_string(&values).unwrap();
    format!(
        r##"new Promise(function (resolve) {{
  var form = document.querySelector("form.calculator");
  {values}.forEach(function (pair) {{
    var input = pair[0].charAt(0) === "#" ? form.querySelector(pair[0]) : form.elements[pair[0]];
    input.value = pair[1];
  }});
  form.dispatchEvent(new Event("submit", {{ cancelable: true }}));
  (function poll() {{
    var state = form.getAttribute("data-state");
    if (state !== "done" && state !== "refused") return setTimeout(poll, 20);
    resolve({{
      state: state,
      status: form.querySelector(".calculator-status").textContent,
      invalid: Array.prototype.map.call(form.querySelectorAll("[aria-invalid=true]"), function (i) {{ return i.name; }}),
      cells: Array.prototype.map.call(document.querySelectorAll("#scenario-results td"), function (td) {{
        return td.textContent;
      }}),
      charts: document.querySelectorAll("#scenario-results svg").length
    }});
  }})();
}})"##
    )
}

/// The text of every `<td>` of laid-out HTML, tags dropped and entities
/// decoded: what the browser's `textContent` gives of the same cells.
fn cells(html: &str) -> Vec<String> {
    let decode = |text: &str| {
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#x27;", "'")
            .replace("&#x2F;", "/")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    };
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<td") {
        let open_end = start + rest[start..].find('>').unwrap();
        let close = open_end + rest[open_end..].find("</td>").unwrap();
        let mut text = String::new();
        let mut in_tag = false;
        for c in rest[open_end + 1..close].chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        found.push(decode(&text));
        rest = &rest[close..];
    }
    found
}

fn first_player(players: &str) -> Request {
    let source = include_str!("../../content/rules/first-player.yaml");
    let scenario = fairdice::scenario::parse("rules/first-player.yaml", source).unwrap();
    let mut form = calculator::form(&scenario).unwrap();
    form.fields[0].value = players.into();
    Request {
        source: form.source,
        title: form.title,
        kind: form.kind,
        fields: form.fields,
    }
}

fn field_values(request: &Request) -> Vec<(&str, &str)> {
    request
        .fields
        .iter()
        .map(|Field { key, value, .. }| (key.as_str(), value.as_str()))
        .collect()
}

#[test]
fn what_if_on_the_first_player_page_shows_the_native_figures() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let page = site().join("rules/first-player.html");
    let session = browser.open(&page);
    let request = first_player("5");
    let shown = browser.eval(&session, &use_form(&field_values(&request)));
    assert_eq!(shown["state"], "done", "{shown}");

    let Response::Done { html, results, .. } = calculator::calculate(&request) else {
        panic!("the native calculator refused five players")
    };
    let expected = cells(&html);
    let in_browser: Vec<String> = serde_json::from_value(shown["cells"].clone()).unwrap();
    assert_eq!(in_browser, expected);
    // Five players only, every case, with exact fractions in the titles.
    let cases = results["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 8, "4 dice x 2 tie rules");
    assert!(cases.iter().all(|c| c["players"] == 5), "{results}");
    assert!(
        in_browser.iter().any(|c| c.contains('/')),
        "exact fractions"
    );
    assert_eq!(shown["charts"], html.matches("<svg").count());
    assert_eq!(browser.complaints(&session), Vec::<String>::new());
}

/// Script: wait until the what-if form computes nothing (a page opened
/// with values in its address computes them by itself); then what it
/// shows, the address, and the links of "On this page" and the headings
/// the page holds now.
const WAIT_FOR_ANSWER: &str = r##"new Promise(function (resolve) {
  var form = document.querySelector("form.calculator");
  (function poll() {
    var state = form.getAttribute("data-state");
    if (state === "computing") return setTimeout(poll, 20);
    var links = Array.prototype.map.call(document.querySelectorAll("aside.toc a"), function (a) {
      return decodeURIComponent(a.getAttribute("href").slice(1));
    });
    var headings = Array.prototype.map.call(document.querySelectorAll("article h2[id], article h3[id]"), function (h) {
      return h.id;
    });
    resolve({
      state: state,
      search: location.search,
      links: links,
      headings: headings,
      rolls: Array.prototype.map.call(form.querySelectorAll("fieldset[data-key=rolls] input"), function (i) {
        return i.value;
      }),
      cells: Array.prototype.map.call(document.querySelectorAll("#scenario-results td"), function (td) {
        return td.textContent;
      })
    });
  })();
})"##;

#[test]
fn a_what_if_answer_is_a_link_that_reopens_it_and_the_contents_follow_it() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let page = site().join("dice/first-player-duel.html");
    let session = browser.open(&page);
    let before = browser.eval(&session, WAIT_FOR_ANSWER);
    assert!(
        before["links"].as_array().is_some_and(|l| !l.is_empty()),
        "{before}"
    );
    assert_eq!(before["links"], before["headings"], "{before}");
    // One roll changed and one added, each in its own input.
    let shown = browser.eval(
        &session,
        &use_form(&[
            ("#calculator-rolls-2", "2d6+1"),
            ("#calculator-rolls-new-name", "one die"),
            ("#calculator-rolls-new-value", "1d12"),
        ]),
    );
    assert_eq!(shown["state"], "done", "{shown}");
    let after = browser.eval(&session, WAIT_FOR_ANSWER);
    // Only the changed values are in the address, each by its name.
    let query = "?rolls.second+seat=2d6%2B1&rolls.one+die=1d12";
    assert_eq!(after["search"], query, "{after}");
    assert_eq!(
        after["rolls"],
        serde_json::json!(["2d6", "2d6+1", "one die", "1d12"])
    );
    // "On this page" links every heading now on the page, and nothing else.
    assert_eq!(after["links"], after["headings"], "{after}");
    assert_ne!(
        after["headings"], before["headings"],
        "the question changed the sections"
    );
    // Opened from that address, the page computes the same answer.
    let shared = browser.open_url(&format!("file://{}{query}", page.display()));
    let reopened = browser.eval(&shared, WAIT_FOR_ANSWER);
    assert_eq!(reopened["state"], "done", "{reopened}");
    assert_eq!(reopened["rolls"], after["rolls"]);
    assert_eq!(reopened["cells"], after["cells"]);
    assert_eq!(reopened["links"], reopened["headings"], "{reopened}");
    // Back to the page's values: its own address and sections again.
    let reset = browser.eval(
        &shared,
        "new Promise(function (resolve) { document.querySelector('form.calculator').reset(); \
         setTimeout(function () { resolve(location.search); }, 50); })",
    );
    assert_eq!(reset, "");
    let back = browser.eval(&shared, WAIT_FOR_ANSWER);
    assert_eq!(back["headings"], before["headings"]);
    assert_eq!(back["links"], back["headings"]);
    assert_eq!(browser.complaints(&shared), Vec::<String>::new());
}

#[test]
fn a_bad_value_shows_the_builds_message_inline_and_nothing_runs() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let session = browser.open(&site().join("rules/first-player.html"));
    let request = first_player("1");
    let shown = browser.eval(&session, &use_form(&field_values(&request)));
    assert_eq!(shown["state"], "refused", "{shown}");
    let Response::Refused { key, message } = calculator::calculate(&request) else {
        panic!("one player computed")
    };
    assert_eq!(shown["status"], json!(message));
    assert_eq!(shown["invalid"], json!([key.unwrap()]));
    assert!(message.contains("players"), "{message}");

    // Markup typed in a field comes back as text, never as elements.
    let hostile = "<img src=x onerror=\"window.ran=1\">";
    let shown = browser.eval(&session, &use_form(&[("dice", hostile)]));
    assert_eq!(shown["state"], "refused", "{shown}");
    assert!(
        shown["status"].as_str().unwrap().contains("<img"),
        "{shown}"
    );
    let ran = browser.eval(
        &session,
        "new Promise(function (r) { setTimeout(function () { r([typeof window.ran, document.images.length]); }, 200); })",
    );
    assert_eq!(ran, json!(["undefined", 0]));
    assert_eq!(browser.complaints(&session), Vec::<String>::new());
}

#[test]
fn new_input_cancels_the_computation_running() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let session = browser.open(&site().join("rules/first-player.html"));
    let heavy = serde_json::to_string(&json!({"what-if": {
        "source": "rules/first-player.yaml", "title": "t", "kind": "first-player",
        "fields": [{"key": "players", "value": "2..24"}, {"key": "dice", "value": "[3d20]"},
                   {"key": "ties", "value": "[reroll-all, reroll-tied]"}]
    }}))
    .unwrap();
    let light = serde_json::to_string(&json!({"what-if": {
        "source": "rules/first-player.yaml", "title": "t", "kind": "first-player",
        "fields": [{"key": "players", "value": "3"}, {"key": "dice", "value": "[d6]"},
                   {"key": "ties", "value": "[reroll-all]"}]
    }}))
    .unwrap();
    // Alone, the heavy request takes this long (the worker compiles the
    // module first, as it does again after a cancellation).
    let alone = browser.eval(
        &session,
        &format!(
            r#"new Promise(function (resolve) {{
  var start = performance.now();
  new FAIRDICE_CALCULATOR.Runner().run({heavy}, function (answer) {{
    resolve([answer.status, performance.now() - start]);
  }});
}})"#
        ),
    );
    assert_eq!(alone[0], "done", "{alone}");
    let heavy_ms = alone[1].as_f64().unwrap();
    // Started, then replaced by a light request 100 ms later: only the
    // light answer arrives, long before the heavy one could have.
    let raced = browser.eval(
        &session,
        &format!(
            r#"new Promise(function (resolve) {{
  var runner = new FAIRDICE_CALCULATOR.Runner(), answers = [], start = performance.now();
  runner.run({heavy}, function (answer) {{ answers.push("heavy " + answer.status); }});
  setTimeout(function () {{
    runner.run({light}, function (answer) {{
      answers.push("light " + answer.status);
      var light = performance.now() - start;
      setTimeout(function () {{ resolve([answers, light]); }}, {wait});
    }});
  }}, 100);
}})"#,
            wait = (heavy_ms * 1.2) as u64
        ),
    );
    assert_eq!(raced[0], json!(["light done"]), "{raced}");
    let light_ms = raced[1].as_f64().unwrap();
    eprintln!("heavy alone {heavy_ms:.0} ms; light after cancelling it {light_ms:.0} ms");
    assert!(
        light_ms < heavy_ms,
        "the light answer came after {light_ms} ms, the heavy one alone takes {heavy_ms} ms"
    );
    assert_eq!(browser.complaints(&session), Vec::<String>::new());
}

mod playground;
use playground::{playground_answer, playground_url};

/// The playground's form with these rolls at the default explode depth.
fn rolls(text: &str) -> calculator::Playground {
    calculator::Playground {
        rolls: text.into(),
        explode_depth: String::new(),
        notation: String::new(),
    }
}

/// Seconds the playground takes for `expression` in the browser (the
/// module already compiled) and natively (this test's build of the same
/// calculator), each the best of three.
fn timed(browser: &mut Browser, session: &str, expression: &str) -> (f64, f64) {
    let call = serde_json::to_string(&json!({ "playground": { "rolls": expression } })).unwrap();
    let browser_ms = browser.eval(
        session,
        &format!(
            r#"new Promise(function (resolve) {{
  var runner = new FAIRDICE_CALCULATOR.Runner(), best = Infinity, left = 4;
  (function next() {{
    var start = performance.now();
    runner.run({call}, function (answer) {{
      if (answer.status !== "done") return resolve(answer.message);
      if (left < 4) best = Math.min(best, performance.now() - start);
      if (--left) next(); else resolve(best);
    }});
  }})();
}})"#
        ),
    );
    let browser_ms = browser_ms
        .as_f64()
        .unwrap_or_else(|| panic!("{expression}: {browser_ms}"));
    let call = calculator::Call::Playground(rolls(expression));
    let native_ms = (0..3)
        .map(|_| {
            let start = std::time::Instant::now();
            assert!(matches!(calculator::answer(&call), Response::Done { .. }));
            start.elapsed().as_secs_f64() * 1000.0
        })
        .fold(f64::INFINITY, f64::min);
    (browser_ms / 1000.0, native_ms / 1000.0)
}

#[test]
fn heavy_rolls_in_the_browser_against_the_native_engine() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let session = browser.open_url(&playground_url(&["d6"]));
    browser.eval(&session, &playground_answer(""));
    // 800d6, not 1000d6: a page of 1000d6 is over the default budget since
    // the cost model was measured again (its report takes 243-369 MB), and
    // the browser applies the build's default budget.
    for expression in ["800d6", "200d20kh20"] {
        let (wasm, native) = timed(&mut browser, &session, expression);
        eprintln!(
            "TIMING {expression}: browser {wasm:.3} s, native {native:.3} s, ratio {:.2}",
            wasm / native
        );
        // A runaway guard only (the machine is shared): the report gives
        // the measured ratio.
        assert!(wasm < 60.0, "{expression} took {wasm} s in the browser");
    }
    assert_eq!(browser.complaints(&session), Vec::<String>::new());
}

#[test]
fn only_pages_with_a_calculator_load_its_script_and_none_loads_the_engine_up_front() {
    let site = site();
    let (mut with_form, mut without) = (Vec::new(), 0);
    for entry in walkdir::WalkDir::new(&site) {
        let entry = entry.unwrap();
        if entry.path().extension().and_then(|e| e.to_str()) != Some("html") {
            continue;
        }
        let html = std::fs::read_to_string(entry.path()).unwrap();
        let relative = entry
            .path()
            .strip_prefix(&site)
            .unwrap()
            .display()
            .to_string();
        // The print page holds every page's article but leaves the forms
        // out: paper cannot use them.
        let calculator = html.contains("<form class=\"calculator\"")
            || html.contains("<form class=\"playground");
        if relative == "print.html" {
            assert!(!calculator, "print.html carries a what-if form");
        }
        assert_eq!(
            html.contains("assets/calculator.js\"></script>"),
            calculator,
            "{relative}: the script goes with a calculator and only with one"
        );
        for engine in ["dice", "rules", "cards"] {
            assert!(
                !html.contains(&format!("engine-{engine}.js")),
                "{relative}: the engine loads on first use"
            );
        }
        if calculator {
            with_form.push(relative);
        } else {
            without += 1;
        }
    }
    for page in [
        "playground.html",
        "rules/first-player.html",
        "rules/banishing.html",
        "dice/advantage.html",
    ] {
        assert!(with_form.iter().any(|p| p == page), "{page}: {with_form:?}");
    }
    assert!(without > 10, "most pages carry no calculator");
}

#[test]
fn what_if_on_a_dice_page_shows_the_native_figures() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let source = include_str!("../../content/dice/advantage.yaml");
    let scenario = fairdice::scenario::parse("dice/advantage.yaml", source).unwrap();
    let form = calculator::form(&scenario).unwrap();
    assert_eq!(form.fields[0].key, "rolls");
    let mut request = Request {
        source: form.source,
        title: form.title,
        kind: form.kind,
        fields: form.fields,
    };
    // Each roll has its input, named in words; one is changed, three are
    // emptied (left out) and one is added.
    let names: Vec<&str> = (request.fields[0].entries.iter())
        .map(|e| e.key.as_str())
        .collect();
    assert_eq!(names, ["advantage", "normal", "disadvantage", "plus five"]);
    let entry = |key: &str, value: &str| Field {
        key: key.into(),
        value: value.into(),
        ..Field::default()
    };
    request.fields[0].entries = vec![
        entry("advantage", "2d20kh1 + 1"),
        entry("normal", ""),
        entry("disadvantage", ""),
        entry("plus five", ""),
        entry("plain", "d20 + 3"),
    ];
    let session = browser.open(&site().join("dice/advantage.html"));
    let labels = browser.eval(
        &session,
        "Array.prototype.map.call(document.querySelectorAll('fieldset[data-key=rolls] label'), \
         function (l) { return l.textContent; })",
    );
    assert_eq!(
        labels,
        serde_json::json!([
            "advantage",
            "normal",
            "disadvantage",
            "plus five",
            "Add one: its name",
            "and its value"
        ])
    );
    let shown = browser.eval(
        &session,
        &use_form(&[
            ("#calculator-rolls-1", "2d20kh1 + 1"),
            ("#calculator-rolls-2", ""),
            ("#calculator-rolls-3", ""),
            ("#calculator-rolls-4", ""),
            ("#calculator-rolls-new-name", "plain"),
            ("#calculator-rolls-new-value", "d20 + 3"),
        ]),
    );
    assert_eq!(shown["state"], "done", "{shown}");
    let Response::Done { html, .. } = calculator::calculate(&request) else {
        panic!("the native calculator refused")
    };
    let in_browser: Vec<String> = serde_json::from_value(shown["cells"].clone()).unwrap();
    assert_eq!(in_browser, cells(&html));
    let charts = html.matches("<svg").count();
    assert!(charts > 0);
    assert_eq!(shown["charts"], charts);
    // 2d20kh1 + 1 reaches 21 with chance 39/400 (1 - (19/20)^2 of a 20).
    assert!(
        html.contains("data-value=\"21\" data-probability=\"39/400\""),
        "{html}"
    );
    assert_eq!(browser.complaints(&session), Vec::<String>::new());
}

/// The forms read their values without YAML (the browser carries no YAML
/// library): every what-if form in `content/`, sent back unchanged, gives
/// the build's exact results for its scenario file.
#[test]
fn every_form_in_content_computes_what_its_file_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let content = fairdice::content::load(&root).unwrap();
    let mut forms = 0;
    for scenario in &content.scenarios {
        let source = &scenario.source;
        let Some(form) = calculator::form(scenario) else {
            continue;
        };
        let request = Request {
            source: form.source,
            title: form.title,
            kind: form.kind,
            fields: form.fields,
        };
        let Response::Done { results, .. } = calculator::calculate(&request) else {
            panic!("{source}: the form refuses its own values: {request:?}");
        };
        let page = scenario
            .params
            .analyse(&fairdice::progress::Progress::hidden())
            .page(&fairdice::layout::Alone);
        let mut built = page.results;
        // A value taken from another scenario (a match's p_first from a
        // log) is in the form as the value taken: the form computes at
        // it, without the log's interval.
        if let Some(file) = built.as_object_mut() {
            file.remove("p_first_from");
        }
        let cases = built.get_mut("cases").and_then(Value::as_array_mut);
        for case in cases.into_iter().flatten() {
            if let Some(case) = case.as_object_mut() {
                case.remove("p_match_interval");
            }
        }
        assert!(
            results == built,
            "{source}: the form's results differ from the file's"
        );
        forms += 1;
    }
    assert!(forms >= 10, "only {forms} forms in content");
}

/// Each kind's page computes with its own engine, and loads no other
/// (`assets/engine-NAME.js`, one per engine of the registry).
#[test]
fn each_page_loads_only_the_engine_of_its_kind() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    for (page, engine) in [
        ("cards/sixty-cards.html", "cards"),
        ("cards/match-formats.html", "cards"),
        ("rules/banishing.html", "rules"),
        ("dice/success-pool.html", "dice"),
    ] {
        let session = browser.open(&site().join(page));
        let shown = browser.eval(&session, &use_form(&[]));
        assert_eq!(shown["state"], "done", "{page}: {shown}");
        let loaded = browser.eval(&session, "Object.keys(self.FAIRDICE_ENGINES)");
        assert_eq!(loaded, json!([engine]), "{page}");
        assert_eq!(browser.complaints(&session), Vec::<String>::new());
    }
}
