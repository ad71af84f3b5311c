//! `fairdice serve`: answers on a free loopback port, injects the reload
//! script in served pages only, picks up edits, and shows build errors over
//! the last good site.

use crate::common::{fixture, write};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Stops the server when the test ends, even on failure.
pub(crate) struct Serving(pub(crate) Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn start(root: &std::path::Path) -> (Serving, String) {
    start_with(root, &[])
}

/// [`start`] with more arguments for `serve`.
pub(crate) fn start_with(root: &std::path::Path, more: &[&str]) -> (Serving, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(["serve", "--port", "0", "--quiet"])
        .args(more)
        .current_dir(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let serving = Serving(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let addr = line
        .trim()
        .strip_prefix("serving http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    (serving, addr)
}

/// GET a path; the status code and the body.
pub(crate) fn get(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let code = response[9..12].parse().unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (code, body)
}

pub(crate) fn status(addr: &str) -> serde_json::Value {
    serde_json::from_str(&get(addr, "/__fairdice/version").1).unwrap()
}

/// Poll until `done` holds, for at most 30 s.
pub(crate) fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn serves_reloads_after_edits_and_overlays_errors() {
    let dir = fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nFirst words.\n"),
        (
            "content/s.yaml",
            "title: S\nkind: sum-mod\ndice: d6\ntargets: 2\n",
        ),
    ]);
    let (_server, addr) = start(dir.path());

    let (code, home) = get(&addr, "/");
    assert_eq!(code, 200);
    assert!(home.contains("First words."), "{home}");
    assert!(
        home.contains("<script data-fairdice-serve>"),
        "served pages reload"
    );
    let on_disk = std::fs::read_to_string(dir.path().join("site/index.html")).unwrap();
    assert!(!on_disk.contains("data-fairdice-serve"), "never on disk");
    assert_eq!(get(&addr, "/s.json").0, 200);
    assert_eq!(get(&addr, "/nowhere.html").0, 404);
    assert_eq!(get(&addr, "/../Cargo.toml").0, 404);
    let first = status(&addr);
    assert_eq!(first["error"], serde_json::Value::Null);

    write(
        dir.path(),
        "content/_index.md",
        "---\ntitle: Home\n---\nSecond words.\n",
    );
    wait_for("the rebuild after an edit", || {
        status(&addr)["version"] != first["version"]
    });
    assert!(get(&addr, "/").1.contains("Second words."));

    write(
        dir.path(),
        "content/s.yaml",
        "title: S\nkind: sum-mod\ndice: d1\ntargets: 2\n",
    );
    wait_for("the build error", || status(&addr)["error"].is_string());
    let error = status(&addr)["error"].as_str().unwrap().to_string();
    assert!(error.starts_with("content/s.yaml:3:7: "), "{error}");
    let (code, page) = get(&addr, "/");
    assert_eq!(code, 200);
    assert!(
        page.contains("Second words."),
        "the last good site stays served"
    );

    write(
        dir.path(),
        "content/s.yaml",
        "title: S\nkind: sum-mod\ndice: d6\ntargets: 3\n",
    );
    wait_for("the error to clear", || status(&addr)["error"].is_null());
}
