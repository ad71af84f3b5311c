//! `fairdice serve`: build, serve the site on the loopback interface,
//! rebuild when `content/` or `templates/` change, and reload open pages.
//!
//! Each rebuild is an ordinary `build` (cached, atomic), so the folder on
//! disk always holds the last good site and is what gets served. A page
//! learns about rebuilds by polling a small JSON endpoint; the script that
//! does so is added to HTML responses only, never to the files on disk. A
//! failed build is shown in the terminal and as an overlay on the page,
//! over the last good site.

use crate::build::{self, Project};
use crate::error::{Error, Result};
use crate::ui::{self, Ui};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

/// How often the watcher looks for changes.
pub const POLL: Duration = Duration::from_millis(300);

/// The endpoint pages poll for the build version and error.
pub const VERSION_PATH: &str = "/__fairdice/version";

/// What pages learn from the version endpoint.
#[derive(Debug, Default)]
struct Status {
    /// Bumped after each successful build, so pages reload.
    version: u64,
    /// The last build's error, shown as an overlay until a build succeeds.
    error: Option<String>,
}

/// A running server: the listener thread and the watcher thread.
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Server {
    /// Build once, then serve `project.out` on `127.0.0.1:port` (0 picks a
    /// free port) and watch the sources. A failed first build still serves,
    /// showing the error.
    pub fn start(project: Project, port: u16, ui: Ui) -> Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .map_err(|e| Error::Refused(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
        let addr = listener.local_addr().map_err(|e| Error::io(".", e))?;
        let status = Arc::new(Mutex::new(Status::default()));
        let stop = Arc::new(AtomicBool::new(false));
        rebuild(&project, &status, ui);

        let listener_thread = {
            let (out, status, stop) = (project.out.clone(), status.clone(), stop.clone());
            std::thread::spawn(move || accept_loop(listener, &out, &status, &stop))
        };
        let watcher_thread = {
            let (status, stop) = (status.clone(), stop.clone());
            std::thread::spawn(move || watch_loop(&project, &status, &stop, ui))
        };
        Ok(Server {
            addr,
            stop,
            threads: vec![listener_thread, watcher_thread],
        })
    }

    /// Where the site is served.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serve until the process ends.
    pub fn wait(self) {
        for thread in self.threads {
            let _ = thread.join();
        }
    }

    /// Stop serving and watching, and wait for both threads.
    pub fn stop(self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept with one last connection.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        self.wait();
    }
}

/// Build, and record the outcome for the pages and the terminal.
fn rebuild(project: &Project, status: &Mutex<Status>, ui: Ui) {
    let result = build::build(project);
    let mut status = status.lock().unwrap_or_else(|e| e.into_inner());
    match result {
        Ok(summary) => {
            ui.summary("built", &project.out, &summary);
            status.version += 1;
            status.error = None;
        }
        Err(err) => {
            ui.error(&err);
            ui.note("the last good site is still served");
            status.error = Some(ui::error_lines(&err).join("\n"));
        }
    }
}

/// Files the watcher follows: path to (modified time, length).
type Snapshot = BTreeMap<PathBuf, (Option<SystemTime>, u64)>;

fn snapshot(project: &Project) -> Snapshot {
    let mut files = Snapshot::new();
    for folder in ["content", "templates"] {
        for entry in walkdir::WalkDir::new(project.root.join(folder))
            .into_iter()
            .filter_map(std::result::Result::ok)
            .filter(|e| e.file_type().is_file())
        {
            if let Ok(meta) = entry.metadata() {
                files.insert(
                    entry.path().to_path_buf(),
                    (meta.modified().ok(), meta.len()),
                );
            }
        }
    }
    files
}

fn watch_loop(project: &Project, status: &Mutex<Status>, stop: &AtomicBool, ui: Ui) {
    let mut seen = snapshot(project);
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(POLL);
        let now = snapshot(project);
        if now != seen {
            seen = now;
            ui.note("change detected: rebuilding");
            rebuild(project, status, ui);
        }
    }
}

fn accept_loop(listener: TcpListener, out: &Path, status: &Arc<Mutex<Status>>, stop: &AtomicBool) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let (out, status) = (out.to_path_buf(), status.clone());
        std::thread::spawn(move || {
            let _ = handle(stream, &out, &status);
        });
    }
}

/// Answer one request, then close the connection.
fn handle(mut stream: TcpStream, out: &Path, status: &Mutex<Status>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Skip the headers: nothing in them changes the answer.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let response = if method != "GET" && method != "HEAD" {
        Response::text(405, "only GET and HEAD are served")
    } else {
        respond(target, out, status)
    };
    response.send(&mut stream, method == "HEAD")
}

/// One HTTP response.
struct Response {
    code: u16,
    content_type: &'static str,
    location: Option<String>,
    body: Vec<u8>,
}

impl Response {
    fn text(code: u16, text: &str) -> Response {
        Response {
            code,
            content_type: "text/plain; charset=utf-8",
            location: None,
            body: text.as_bytes().to_vec(),
        }
    }

    fn send(&self, stream: &mut TcpStream, head_only: bool) -> std::io::Result<()> {
        let reason = match self.code {
            200 => "OK",
            301 => "Moved Permanently",
            404 => "Not Found",
            _ => "Method Not Allowed",
        };
        let mut head = format!(
            "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Cache-Control: no-store\r\nConnection: close\r\n",
            self.code,
            self.content_type,
            self.body.len()
        );
        if let Some(location) = &self.location {
            head.push_str(&format!("Location: {location}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes())?;
        if !head_only {
            stream.write_all(&self.body)?;
        }
        stream.flush()
    }
}

fn respond(target: &str, out: &Path, status: &Mutex<Status>) -> Response {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    if path == VERSION_PATH {
        let status = status.lock().unwrap_or_else(|e| e.into_inner());
        let body = serde_json::json!({ "version": status.version, "error": status.error });
        return Response {
            code: 200,
            content_type: "application/json",
            location: None,
            body: body.to_string().into_bytes(),
        };
    }
    let Some(relative) = site_path(path) else {
        return not_found();
    };
    let file = out.join(&relative);
    if file.is_dir() {
        if !path.ends_with('/') {
            return Response {
                location: Some(format!("{path}/")),
                ..Response::text(301, "moved")
            };
        }
        return serve_file(&file.join("index.html"));
    }
    serve_file(&file)
}

fn not_found() -> Response {
    Response {
        code: 404,
        content_type: "text/html; charset=utf-8",
        location: None,
        body: with_reload_script(b"<!DOCTYPE html><title>Not found</title><h1>Not found</h1>"),
    }
}

fn serve_file(file: &Path) -> Response {
    let Ok(bytes) = std::fs::read(file) else {
        return not_found();
    };
    let content_type = content_type(file);
    let body = if content_type.starts_with("text/html") {
        with_reload_script(&bytes)
    } else {
        bytes
    };
    Response {
        code: 200,
        content_type,
        location: None,
        body,
    }
}

/// A URL path as a path inside the site, or `None` if it would leave it.
fn site_path(url_path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(url_path)?;
    let relative = Path::new(decoded.trim_start_matches('/'));
    let safe = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    safe.then(|| relative.to_path_buf())
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "csv" => "text/csv; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Polls the version endpoint: reloads after a successful rebuild, and
/// shows the last build error over the page until one succeeds.
const RELOAD_SCRIPT: &str = r#"<script data-fairdice-serve>
(function () {
  var seen = null;
  function overlay(error) {
    var box = document.getElementById("fairdice-error");
    if (!error) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("pre");
      box.id = "fairdice-error";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:60vh;overflow:auto;margin:0;padding:1em;z-index:2147483647;background:#2b0b0b;color:#fff;font:14px/1.45 monospace;white-space:pre-wrap;border-top:4px solid #e53935";
      document.body.appendChild(box);
    }
    box.textContent = "fairdice: the build failed; this is the last good site.\n\n" + error;
  }
  function poll() {
    fetch("/__fairdice/version", { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (s) {
        if (seen !== null && s.version !== seen) { location.reload(); return; }
        seen = s.version;
        overlay(s.error);
      })
      .catch(function () {})
      .then(function () { setTimeout(poll, 500); });
  }
  poll();
})();
</script>
"#;

/// The page with the reload script before `</body>` (or at the end).
fn with_reload_script(html: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(html);
    match text.rfind("</body>") {
        Some(at) => format!("{}{RELOAD_SCRIPT}{}", &text[..at], &text[at..]).into_bytes(),
        None => format!("{text}{RELOAD_SCRIPT}").into_bytes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_paths_stay_inside_the_site() {
        assert_eq!(site_path("/a/b.html"), Some(PathBuf::from("a/b.html")));
        assert_eq!(site_path("/a%20b.html"), Some(PathBuf::from("a b.html")));
        assert_eq!(site_path("/../etc/passwd"), None);
        assert_eq!(site_path("/a/%2e%2e/%2e%2e/x"), None);
        assert_eq!(site_path("/%zz"), None);
    }

    #[test]
    fn the_script_goes_before_the_end_of_the_body() {
        let page = String::from_utf8(with_reload_script(b"<body><p>x</p></body></html>")).unwrap();
        assert!(page.starts_with("<body><p>x</p><script data-fairdice-serve>"));
        assert!(page.ends_with("</script>\n</body></html>"));
    }
}
