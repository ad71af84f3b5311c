//! `fairdice serve`: build, serve the site on the loopback interface,
//! rebuild when `content/` or `templates/` change, and reload open pages.
//!
//! Each rebuild is an ordinary `build` (cached, atomic), so the folder on
//! disk always holds the last good site and is what gets served. A page
//! learns about rebuilds by polling a small JSON endpoint; the script that
//! does so is added to HTML responses only, never to the files on disk. A
//! failed build is shown in the terminal and as an overlay on the page,
//! over the last good site.
//!
//! Any page the user opens can send requests here, so the server answers
//! only requests that name it (Host) and come from its own pages (Origin),
//! redirects only to its own paths, and bounds each request's size and
//! time and the number of connections.

mod roll;

pub use roll::answer_roll;
use roll::roll_in_child;

use crate::analyses::Budget;
use crate::build::Project;
use crate::error::{Error, Result};
use crate::isolated;
use crate::ui::Ui;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

/// How often the watcher looks for changes.
pub(crate) const POLL: Duration = Duration::from_millis(300);

/// The endpoint pages poll for the build version and error.
pub const VERSION_PATH: &str = "/__fairdice/version";
/// The dice playground: expressions in, the engine's page out.
pub(crate) const PLAYGROUND_PATH: &str = "/__fairdice/playground";
/// The playground's results for `?roll=EXPR&roll=EXPR&depth=N`: the page
/// `fairdice report` would write for those rolls.
const ROLL_PATH: &str = "/__fairdice/roll";
/// The scenario file for the same query, as text.
const ROLL_YAML_PATH: &str = "/__fairdice/roll.yaml";

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
            .map_err(|e| Error::Usage(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
        let addr = listener.local_addr().map_err(|e| Error::io(".", e))?;
        let status = Arc::new(Mutex::new(Status::default()));
        let stop = Arc::new(AtomicBool::new(false));
        rebuild(&project, &status, ui);

        let listener_thread = {
            let site = Arc::new(Site {
                out: project.out.clone(),
                budget: project.budget,
                status: status.clone(),
                port: addr.port(),
            });
            let stop = stop.clone();
            std::thread::spawn(move || accept_loop(listener, &site, &stop))
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

/// Build in a child process (see [`isolated`]), and record the outcome
/// for the pages and the terminal: whatever the build does (a panic, an
/// allocation the system refuses, the watchdog stopping it), the server
/// goes on serving the last good site.
fn rebuild(project: &Project, status: &Mutex<Status>, ui: Ui) {
    let budget = project.budget;
    // The build's own watchdog stops it at its budget; the wall clock is
    // the guard for what it does not time.
    let time = Duration::from_secs_f64(budget.build_seconds() * 5.0);
    let finished = isolated::run(&build_args(project), &budget, time);
    let mut status = status.lock().unwrap_or_else(|e| e.into_inner());
    match finished {
        Ok(done) if done.code == Some(0) => {
            if !ui.quiet {
                eprint!("{}", String::from_utf8_lossy(&done.stderr));
            }
            status.version += 1;
            status.error = None;
        }
        outcome => {
            let message = match outcome {
                Ok(done) => error_text(&done),
                Err(err) => format!("cannot start the build: {err}"),
            };
            ui.error(&Error::Usage(message.clone()));
            ui.note("the last good site is still served");
            status.error = Some(message);
        }
    }
}

/// The command line of a build of `project`, as `fairdice build` reads it.
fn build_args(project: &Project) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = vec![
        "build".into(),
        "--root".into(),
        project.root.clone().into(),
        "--out".into(),
        project.out.clone().into(),
        "--budget".into(),
        project.budget.factor.to_string().into(),
    ];
    if !project.cache.is_enabled() {
        args.push("--no-cache".into());
    }
    args
}

/// A failed child's errors without their `error: ` labels, or what ended
/// it when it said nothing.
fn error_text(done: &isolated::Finished) -> String {
    let stderr = String::from_utf8_lossy(&done.stderr);
    let errors: Vec<&str> = stderr
        .lines()
        .filter_map(|line| line.strip_prefix("error: "))
        .collect();
    if errors.is_empty() || done.stopped.is_some() {
        done.failure()
    } else {
        errors.join("\n")
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

/// What the listener and every connection share.
struct Site {
    /// The folder served.
    out: PathBuf,
    /// The build's budget, which the playground applies too.
    budget: Budget,
    status: Arc<Mutex<Status>>,
    /// The port listened on: the only one a request may name.
    port: u16,
}

/// Connections served at once. One more is answered 503 and closed, so a
/// flood of connections cannot exhaust threads or memory.
pub const MAX_CONNECTIONS: usize = 64;

/// Longest request line (414 beyond it).
const MAX_REQUEST_LINE: usize = 8 * 1024;
/// Most header bytes and lines (431 beyond them).
const MAX_HEADER_BYTES: usize = 64 * 1024;
const MAX_HEADERS: usize = 100;
/// Time for the whole request to arrive (408 after it), whatever the pace:
/// a client sending a byte at a time cannot hold a connection longer.
const REQUEST_TIME: Duration = Duration::from_secs(5);
/// Time for the client to take the whole response.
const RESPONSE_TIME: Duration = Duration::from_secs(30);
/// After answering, what the client still sends is read and dropped for
/// this long (and at most this much), so the answer reaches it instead of a
/// connection reset.
const LINGER_TIME: Duration = Duration::from_secs(1);
const LINGER_BYTES: u64 = 1 << 20;

/// The names this server answers to; any other (a DNS-rebinding page's
/// domain) is refused. The port must be the one listened on.
const LOOPBACK_NAMES: [&str; 3] = ["127.0.0.1", "localhost", "[::1]"];

/// Paths of the server's own endpoints, which cross-site pages may not use.
const ENDPOINTS: &str = "/__fairdice/";

fn accept_loop(listener: TcpListener, site: &Arc<Site>, stop: &AtomicBool) {
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else {
            // Out of descriptors, say: wait rather than spin.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let Some(slot) = Slot::take(&active) else {
            refuse_busy(&stream);
            continue;
        };
        let site = site.clone();
        // A failed spawn drops the closure: its slot and stream go with it.
        let _ = std::thread::Builder::new()
            .name("fairdice-serve".into())
            .spawn(move || {
                let _slot = slot;
                handle(&stream, &site);
            });
    }
}

/// One of the [`MAX_CONNECTIONS`] places, given back when dropped (even if
/// its handler panics).
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(active: &Arc<AtomicUsize>) -> Option<Slot> {
        active
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_CONNECTIONS).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(active.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Answer 503 without reading the request; the answer is small, so a
/// client that does not read cannot hold the listener.
fn refuse_busy(stream: &TcpStream) {
    let busy = Response::text(503, "too many connections at once: try again");
    let _ = busy.send(&mut Timed::new(stream, Duration::from_millis(200)), false);
    let _ = stream.shutdown(Shutdown::Both);
}

/// A connection with a deadline for a whole exchange, not for each read or
/// write.
struct Timed<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl<'a> Timed<'a> {
    fn new(stream: &'a TcpStream, time: Duration) -> Timed<'a> {
        Timed {
            stream,
            until: Instant::now() + time,
        }
    }

    fn left(&self) -> std::io::Result<Duration> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        Ok(left)
    }
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.stream.set_read_timeout(Some(self.left()?))?;
        let mut stream = self.stream;
        stream.read(buf)
    }
}

impl Write for Timed<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.stream.set_write_timeout(Some(self.left()?))?;
        let mut stream = self.stream;
        stream.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let mut stream = self.stream;
        stream.flush()
    }
}

/// Answer one request, then close the connection.
fn handle(stream: &TcpStream, site: &Site) {
    let mut reader = BufReader::new(Timed::new(stream, REQUEST_TIME));
    let (response, head_only) = match read_request(&mut reader) {
        Ok(request) => (answer(&request, site), request.method == "HEAD"),
        Err(Some(refusal)) => (refusal, false),
        Err(None) => return,
    };
    drop(reader);
    let _ = response.send(&mut Timed::new(stream, RESPONSE_TIME), head_only);
    let _ = stream.shutdown(Shutdown::Write);
    let mut rest = Timed::new(stream, LINGER_TIME).take(LINGER_BYTES);
    let _ = std::io::copy(&mut rest, &mut std::io::sink());
}

/// A request's line and headers, within the limits above.
struct Request {
    method: String,
    target: String,
    /// Names in lower case.
    headers: Vec<(String, String)>,
}

impl Request {
    /// The one value of a header; two of the same are refused, as a
    /// proxy and this server could read different ones.
    fn header(&self, name: &str) -> std::result::Result<Option<&str>, Response> {
        let mut values = self.headers.iter().filter(|(n, _)| n == name);
        let first = values.next().map(|(_, v)| v.as_str());
        if values.next().is_some() {
            return Err(Response::text(400, &format!("more than one {name} header")));
        }
        Ok(first)
    }
}

/// One line read with a cap on its length.
enum Line {
    /// The line, without its line ending, and how many bytes it took.
    Read(Vec<u8>, usize),
    TooLong,
    TimedOut,
    /// The client closed or failed before a whole line.
    Closed,
}

fn read_line(reader: &mut impl BufRead, max: usize) -> Line {
    let mut line = Vec::new();
    let cap = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    match reader.take(cap).read_until(b'\n', &mut line) {
        Ok(_) if line.last() == Some(&b'\n') => {
            let taken = line.len();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            Line::Read(line, taken)
        }
        Ok(_) if line.len() > max => Line::TooLong,
        Ok(_) => Line::Closed,
        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => Line::TimedOut,
        Err(_) => Line::Closed,
    }
}

/// Read the request line and headers. `Err(None)`: the client left before
/// a whole request, and gets no answer.
fn read_request(reader: &mut impl BufRead) -> std::result::Result<Request, Option<Response>> {
    let timed_out = || Some(Response::text(408, "the request took too long to arrive"));
    let line = match read_line(reader, MAX_REQUEST_LINE) {
        Line::Read(line, _) => line,
        Line::TooLong => {
            let text = format!("the request line is longer than {MAX_REQUEST_LINE} bytes");
            return Err(Some(Response::text(414, &text)));
        }
        Line::TimedOut => return Err(timed_out()),
        Line::Closed => return Err(None),
    };
    let mut request = request_line(&line).map_err(Some)?;
    let too_large = || {
        let text = format!(
            "the request headers are longer than {MAX_HEADER_BYTES} bytes or {MAX_HEADERS} lines"
        );
        Some(Response::text(431, &text))
    };
    let mut budget = MAX_HEADER_BYTES;
    loop {
        let (line, taken) = match read_line(reader, budget) {
            Line::Read(line, taken) => (line, taken),
            Line::TooLong => return Err(too_large()),
            Line::TimedOut => return Err(timed_out()),
            Line::Closed => return Err(None),
        };
        if line.is_empty() {
            return Ok(request);
        }
        if request.headers.len() == MAX_HEADERS {
            return Err(too_large());
        }
        budget = budget.saturating_sub(taken);
        request.headers.push(header_line(&line).map_err(Some)?);
    }
}

/// `METHOD /target HTTP/1.1`, with single spaces and no control
/// characters anywhere.
fn request_line(line: &[u8]) -> std::result::Result<Request, Response> {
    let bad = || Response::text(400, "expected a request line: GET /path HTTP/1.1");
    let text = std::str::from_utf8(line).map_err(|_| bad())?;
    let mut parts = text.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let valid = is_token(method)
        && !target.is_empty()
        && target.bytes().all(|b| b.is_ascii_graphic())
        && matches!(version, "HTTP/1.0" | "HTTP/1.1");
    if !valid {
        return Err(bad());
    }
    Ok(Request {
        method: method.to_string(),
        target: target.to_string(),
        headers: Vec::new(),
    })
}

/// `Name: value`, the name in lower case.
fn header_line(line: &[u8]) -> std::result::Result<(String, String), Response> {
    let text = String::from_utf8_lossy(line);
    let bad = || Response::text(400, "expected a header line: Name: value");
    let (name, value) = text.split_once(':').ok_or_else(bad)?;
    let value = value.trim_matches([' ', '\t']);
    if !is_token(name) || value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(bad());
    }
    Ok((name.to_ascii_lowercase(), value.to_string()))
}

/// An HTTP token: a method or header name.
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Refuse what is not for this server, then serve the path.
fn answer(request: &Request, site: &Site) -> Response {
    match admit(request, site.port) {
        Ok(target) => respond(target, site),
        Err(refusal) => refusal,
    }
}

/// The path requested, if the request names this server (Host, or the
/// authority of an absolute target), comes from no other origin, and is a
/// GET or HEAD.
fn admit(request: &Request, port: u16) -> std::result::Result<&str, Response> {
    let target = request.target.as_str();
    let (authority, path) = if target.starts_with('/') {
        (None, target)
    } else if target
        .get(..7)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http://"))
    {
        let rest = &target[7..];
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let path = if rest[end..].starts_with('/') {
            &rest[end..]
        } else {
            "/"
        };
        (Some(&rest[..end]), path)
    } else {
        return Err(Response::text(400, "the request target must start with /"));
    };
    // An absolute target's authority overrides the Host header (RFC 9112).
    let host = match authority {
        Some(authority) => authority,
        None => request
            .header("host")?
            .ok_or_else(|| Response::text(400, "a Host header is required"))?,
    };
    if !is_own_host(host, port) {
        let text = format!(
            "this server answers only to 127.0.0.1:{port}, localhost:{port} and [::1]:{port}"
        );
        return Err(Response::text(421, &text));
    }
    if let Some(origin) = request.header("origin")? {
        let own = origin
            .get(..7)
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http://"))
            && is_own_host(&origin[7..], port);
        if !own {
            return Err(Response::text(
                403,
                "requests from other origins are refused",
            ));
        }
    }
    if path.starts_with(ENDPOINTS) {
        let site = request.header("sec-fetch-site")?;
        if site.is_some_and(|site| !matches!(site, "same-origin" | "none")) {
            return Err(Response::text(403, "requests from other sites are refused"));
        }
    }
    if request.method != "GET" && request.method != "HEAD" {
        return Err(Response::text(405, "only GET and HEAD are served"));
    }
    Ok(path)
}

/// `host` (a Host header or an origin without its scheme) names this
/// server: a loopback name with the port listened on (or none, on port 80).
fn is_own_host(host: &str, port: u16) -> bool {
    LOOPBACK_NAMES.iter().any(|name| {
        host.eq_ignore_ascii_case(&format!("{name}:{port}"))
            || (port == 80 && host.eq_ignore_ascii_case(name))
    })
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
            body: format!("{text}\n").into_bytes(),
        }
    }

    fn send(&self, stream: &mut impl Write, head_only: bool) -> std::io::Result<()> {
        let reason = match self.code {
            200 => "OK",
            301 => "Moved Permanently",
            400 => "Bad Request",
            403 => "Forbidden",
            404 => "Not Found",
            405 => "Method Not Allowed",
            408 => "Request Timeout",
            414 => "URI Too Long",
            421 => "Misdirected Request",
            431 => "Request Header Fields Too Large",
            503 => "Service Unavailable",
            _ => "Error",
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

fn respond(target: &str, site: &Site) -> Response {
    let (out, status) = (&site.out, &site.status);
    let path = target.split(['?', '#']).next().unwrap_or("/");
    match path {
        PLAYGROUND_PATH => return html(200, PLAYGROUND.as_bytes().to_vec()),
        ROLL_PATH | ROLL_YAML_PATH => {
            let query = target.split('#').next().unwrap_or("");
            let query = query.split_once('?').map_or("", |(_, q)| q);
            return roll_in_child(query, path == ROLL_YAML_PATH, &site.budget);
        }
        _ => {}
    }
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
                location: Some(folder_address(&relative)),
                ..Response::text(301, "moved")
            };
        }
        return serve_file(&file.join("index.html"));
    }
    serve_file(&file)
}

/// The address of a folder of the site, built from its resolved path and
/// never from the request: one `/`, then encoded names, so it cannot name
/// another host (`//host`, `/\host`) or break the header.
fn folder_address(relative: &Path) -> String {
    let mut address = String::from("/");
    for part in relative.components() {
        if let Component::Normal(name) = part {
            crate::paths::encode_segment(&name.to_string_lossy(), &mut address);
            address.push('/');
        }
    }
    address
}

/// The playground page, served as written (it loads nothing else).
const PLAYGROUND: &str = include_str!("serve/playground.html");

fn html(code: u16, body: Vec<u8>) -> Response {
    Response {
        code,
        content_type: "text/html; charset=utf-8",
        location: None,
        body,
    }
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
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
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
        assert_eq!(site_path("/%+f"), None, "hex digits only, no sign");
    }

    #[test]
    fn redirects_name_a_folder_of_this_server_only() {
        for (target, address) in [
            ("//evil.example", "/evil.example/"),
            ("///evil.example/./", "/evil.example/"),
            ("/%2F%2Fevil.example", "/evil.example/"),
            ("/./%2e/evil.example", "/evil.example/"),
            ("/\\\\evil.example", "/%5C%5Cevil.example/"),
            ("/\\evil.example/", "/%5Cevil.example/"),
            ("/%5Cevil.example", "/%5Cevil.example/"),
            ("/a%0D%0ALocation:%20//x", "/a%0D%0ALocation%3A%20/x/"),
            ("/a%09b/%20", "/a%09b/%20/"),
            ("/.", "/"),
            ("/r\u{e9}gles", "/r%C3%A9gles/"),
        ] {
            let relative = site_path(target).unwrap();
            assert_eq!(folder_address(&relative), address, "{target}");
        }
    }

    fn read(bytes: &[u8]) -> std::result::Result<Request, Option<u16>> {
        read_request(&mut std::io::Cursor::new(bytes)).map_err(|r| r.map(|r| r.code))
    }

    #[test]
    fn requests_are_read_within_limits() {
        let ok = read(b"GET /a HTTP/1.1\r\nHost: x\r\nX-A:  b \r\n\r\n").unwrap();
        assert_eq!((ok.method.as_str(), ok.target.as_str()), ("GET", "/a"));
        assert_eq!(ok.headers[1], ("x-a".to_string(), "b".to_string()));
        assert!(
            read(b"GET / HTTP/1.0\nHost: x\n\n").is_ok(),
            "bare line feeds"
        );

        let long_line = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_REQUEST_LINE));
        assert_eq!(read(long_line.as_bytes()).err(), Some(Some(414)));
        let endless = vec![b'a'; 10 * MAX_REQUEST_LINE];
        assert_eq!(read(&endless).err(), Some(Some(414)));
        let long_header = format!(
            "GET / HTTP/1.1\r\nX: {}\r\n\r\n",
            "a".repeat(MAX_HEADER_BYTES)
        );
        assert_eq!(read(long_header.as_bytes()).err(), Some(Some(431)));
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "X: y\r\n".repeat(MAX_HEADERS + 1)
        );
        assert_eq!(read(many.as_bytes()).err(), Some(Some(431)));
        let line = format!("X: {}\r\n", "a".repeat(1000));
        let bulky = format!("GET / HTTP/1.1\r\n{}\r\n", line.repeat(MAX_HEADERS * 2 / 3));
        assert_eq!(
            read(bulky.as_bytes()).err(),
            Some(Some(431)),
            "the total counts"
        );
        let just = format!("GET / HTTP/1.1\r\n{}\r\n", "X: y\r\n".repeat(MAX_HEADERS));
        assert!(read(just.as_bytes()).is_ok());

        assert_eq!(read(b"").err(), Some(None));
        assert_eq!(read(b"GET / HTTP/1.1\r\nHost: x\r\n").err(), Some(None));
    }

    #[test]
    fn malformed_requests_are_refused() {
        for request in [
            "GET  / HTTP/1.1\r\n\r\n",
            "GET\t/ HTTP/1.1\r\n\r\n",
            "GET /a\tb HTTP/1.1\r\n\r\n",
            "GET /a\rb HTTP/1.1\r\n\r\n",
            "GET /\u{e9} HTTP/1.1\r\n\r\n",
            "GET /\r\n\r\n",
            "GET / HTTP/2.0\r\n\r\n",
            "GET / HTTP/1.1 x\r\n\r\n",
            "G(T / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\n Host: x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\x0bb\r\n\r\n",
            "GET / HTTP/1.1\r\nHo st: x\r\n\r\n",
        ] {
            assert_eq!(
                read(request.as_bytes()).err(),
                Some(Some(400)),
                "{request:?}"
            );
        }
    }

    fn admitted(request: &str, port: u16) -> std::result::Result<String, u16> {
        let request = read(request.as_bytes()).unwrap();
        admit(&request, port)
            .map(str::to_string)
            .map_err(|r| r.code)
    }

    #[test]
    fn only_requests_for_this_server_are_admitted() {
        let get = |target: &str, headers: &str| {
            admitted(&format!("GET {target} HTTP/1.1\r\n{headers}\r\n"), 4000)
        };
        for host in ["127.0.0.1:4000", "LocalHost:4000", "[::1]:4000"] {
            assert_eq!(get("/a", &format!("Host: {host}\r\n")), Ok("/a".into()));
        }
        for host in [
            "evil.example",
            "evil.example:4000",
            "127.0.0.1",
            "127.0.0.1:4001",
            "127.0.0.1:4000.evil.example",
            "127.0.0.1:4000@evil.example",
            "localhost.:4000",
            "",
        ] {
            assert_eq!(get("/", &format!("Host: {host}\r\n")), Err(421), "{host}");
        }
        assert_eq!(get("/", ""), Err(400), "Host is required");
        let two = "Host: 127.0.0.1:4000\r\nHost: evil.example\r\n";
        assert_eq!(get("/", two), Err(400));

        let host = "Host: evil.example\r\n";
        assert_eq!(get("http://127.0.0.1:4000/a?b", host), Ok("/a?b".into()));
        assert_eq!(get("HTTP://localhost:4000", host), Ok("/".into()));
        assert_eq!(get("http://localhost:4000?x", host), Ok("/".into()));
        let own = "Host: 127.0.0.1:4000\r\n";
        for target in [
            "http://evil.example/a",
            "http://evil.example:4000//127.0.0.1:4000/",
            "http://127.0.0.1:4000@evil.example/",
        ] {
            assert_eq!(get(target, own), Err(421), "{target}");
        }
        for target in [
            "https://127.0.0.1:4000/",
            "evil.example/",
            "*",
            "\\evil.example",
        ] {
            assert_eq!(get(target, own), Err(400), "{target}");
        }

        for origin in ["http://127.0.0.1:4000", "http://localhost:4000"] {
            let headers = format!("{own}Origin: {origin}\r\n");
            assert!(get(VERSION_PATH, &headers).is_ok(), "{origin}");
        }
        for origin in [
            "http://evil.example",
            "null",
            "https://127.0.0.1:4000",
            "http://127.0.0.1:4001",
            "http://127.0.0.1:4000/",
        ] {
            let headers = format!("{own}Origin: {origin}\r\n");
            assert_eq!(get(VERSION_PATH, &headers), Err(403), "{origin}");
            assert_eq!(get("/", &headers), Err(403), "{origin}");
        }
        for (site, code) in [
            ("same-origin", None),
            ("none", None),
            ("same-site", Some(403)),
            ("cross-site", Some(403)),
        ] {
            let headers = format!("{own}Sec-Fetch-Site: {site}\r\n");
            assert_eq!(get(VERSION_PATH, &headers).err(), code, "{site}");
            assert!(get("/", &headers).is_ok(), "pages may be linked to");
        }

        let post = admitted("POST / HTTP/1.1\r\nHost: localhost:4000\r\n\r\n", 4000);
        assert_eq!(post, Err(405));
        assert_eq!(get("/", "Host: localhost\r\n"), Err(421));
        assert!(admitted("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", 80).is_ok());
    }

    #[test]
    fn the_script_goes_before_the_end_of_the_body() {
        let page = String::from_utf8(with_reload_script(b"<body><p>x</p></body></html>")).unwrap();
        assert!(page.starts_with("<body><p>x</p><script data-fairdice-serve>"));
        assert!(page.ends_with("</script>\n</body></html>"));
    }
}
