//! `fairdice serve` against a hostile client: every redirect stays on this
//! server, requests naming another host or coming from another origin are
//! refused, oversized and slow requests are cut off, and a flood of
//! connections is turned away without a thread each. Requests are raw TCP,
//! so nothing normalises them on the way.

use crate::common::fixture;
use crate::serve::{start, start_with, status, wait_for, Serving};
use fairdice::serve::{MAX_CONNECTIONS, VERSION_PATH};
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// Send `request` (from a thread, so a large one cannot block the test)
/// and read the answer until the server closes.
fn exchange(addr: &str, request: Vec<u8>) -> String {
    let stream = TcpStream::connect(addr).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let sending = std::thread::spawn(move || {
        // The server may answer and close before all of a huge request.
        let _ = writer.write_all(&request);
    });
    let answer = read_answer(stream);
    let _ = sending.join();
    answer
}

/// Everything the server sends until it closes (or resets, which may follow
/// an answer to a request it did not read whole).
fn read_answer(mut stream: TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut bytes = Vec::new();
    let mut buf = [0; 8192];
    while let Ok(n) = stream.read(&mut buf) {
        if n == 0 || bytes.len() > 1 << 20 {
            break;
        }
        bytes.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn code(answer: &str) -> u16 {
    answer
        .get(9..12)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"))
}

fn head(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map_or(answer, |(h, _)| h)
}

fn location(answer: &str) -> Option<&str> {
    head(answer)
        .lines()
        .find_map(|line| line.strip_prefix("Location: "))
}

fn get(addr: &str, target: &str, headers: &str) -> String {
    exchange(
        addr,
        format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\n{headers}\r\n").into_bytes(),
    )
}

/// A line of the server's `/proc/PID/status`, in its unit (kB or a count).
#[cfg(target_os = "linux")]
fn proc_status(server: &Serving, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.0.id())).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in {status}"))
}

#[test]
fn redirects_stay_on_this_server() {
    let dir = fixture(&[("content/_index.md", "---\ntitle: Home\n---\nHi.\n")]);
    let (_server, addr) = start(dir.path());
    // Folders whose names try to leave the server once written into a
    // Location header. The site on disk is not rebuilt while content/ and
    // templates/ stay as they are.
    let site = dir.path().join("site");
    for name in [
        "evil.example",
        "\\evil.example",
        "a\r\nSet-Cookie: x=1",
        "tab\tname",
    ] {
        std::fs::create_dir(site.join(name)).unwrap();
    }
    let port = addr.rsplit(':').next().unwrap();

    for (target, expected) in [
        ("//evil.example", "/evil.example/"),
        ("///evil.example", "/evil.example/"),
        ("/%2F%2Fevil.example", "/evil.example/"),
        ("/%2f/evil.example", "/evil.example/"),
        ("/./evil.example", "/evil.example/"),
        ("//./evil.example", "/evil.example/"),
        ("//evil.example/.", "/evil.example/"),
        ("//evil.example/%2e", "/evil.example/"),
        ("//evil.example?next=//elsewhere.example", "/evil.example/"),
        ("//evil.example#//elsewhere.example", "/evil.example/"),
        ("/\\evil.example", "/%5Cevil.example/"),
        ("/%5Cevil.example", "/%5Cevil.example/"),
        ("//%5cevil.example", "/%5Cevil.example/"),
        (
            "/a%0D%0ASet-Cookie:%20x=1",
            "/a%0D%0ASet-Cookie%3A%20x%3D1/",
        ),
        ("/tab%09name", "/tab%09name/"),
        ("/.", "/"),
        ("//.", "/"),
        ("/%2e", "/"),
    ] {
        let answer = get(&addr, target, "");
        assert_eq!(code(&answer), 301, "{target}: {answer}");
        let to = location(&answer).unwrap();
        assert_eq!(to, expected, "{target}");
        assert!(
            !head(&answer).lines().any(|l| l.starts_with("Set-Cookie")),
            "{target}: {answer:?}"
        );
    }
    let absolute = format!("http://127.0.0.1:{port}//evil.example");
    let answer = get(&addr, &absolute, "");
    assert_eq!(location(&answer), Some("/evil.example/"), "{answer}");

    // Raw tabs, carriage returns and doubled spaces in the request line
    // are refused whole, not split into a target.
    for request in [
        "GET //evil.example\t HTTP/1.1\r\n",
        "GET\t//evil.example HTTP/1.1\r\n",
        "GET /\t//evil.example HTTP/1.1\r\n",
        "GET //evil.example\rLocation: //x HTTP/1.1\r\n",
        "GET  //evil.example HTTP/1.1\r\n",
        "GET //evil.example\r\n",
        "GET evil.example HTTP/1.1\r\n",
    ] {
        let answer = exchange(&addr, format!("{request}Host: {addr}\r\n\r\n").into_bytes());
        assert_eq!(code(&answer), 400, "{request:?}: {answer}");
        assert_eq!(location(&answer), None);
    }
    // A folder's address with the slash is served, never redirected.
    assert_eq!(code(&get(&addr, "/", "")), 200);
    assert_eq!(code(&get(&addr, "//", "")), 200);
}

#[test]
fn requests_for_other_hosts_or_origins_are_refused() {
    let dir = fixture(&[("content/_index.md", "---\ntitle: Home\n---\nHi.\n")]);
    let (_server, addr) = start(dir.path());
    let port = addr.rsplit(':').next().unwrap();
    let raw = |target: &str, headers: &str| {
        exchange(
            &addr,
            format!("GET {target} HTTP/1.1\r\n{headers}\r\n").into_bytes(),
        )
    };

    for host in [format!("localhost:{port}"), format!("LOCALHOST:{port}")] {
        let answer = raw(VERSION_PATH, &format!("Host: {host}\r\n"));
        assert_eq!(code(&answer), 200, "{host}: {answer}");
    }
    // A DNS-rebinding page reaches 127.0.0.1 under its own name.
    for host in [
        "rebind.example".to_string(),
        format!("rebind.example:{port}"),
        format!("127.0.0.1:{port}.rebind.example"),
        format!("127.0.0.1:{port}@rebind.example"),
        format!("127.0.0.2:{port}"),
        "127.0.0.1".to_string(),
        "127.0.0.1:1".to_string(),
        "0.0.0.0".to_string(),
    ] {
        for target in [VERSION_PATH, "/", "/index.html"] {
            let answer = raw(target, &format!("Host: {host}\r\n"));
            assert_eq!(code(&answer), 421, "{host} {target}: {answer}");
            assert!(!answer.contains("\"version\""), "{answer}");
        }
    }
    assert_eq!(code(&raw(VERSION_PATH, "")), 400, "no Host");
    let two = format!("Host: {addr}\r\nHost: rebind.example\r\n");
    assert_eq!(code(&raw(VERSION_PATH, &two)), 400, "two Hosts");
    let absolute = format!("http://rebind.example:{port}{VERSION_PATH}");
    let answer = raw(&absolute, &format!("Host: {addr}\r\n"));
    assert_eq!(code(&answer), 421, "the absolute target's host wins");

    // Pages of other origins, even with the right Host.
    for (headers, refused) in [
        ("Origin: http://other.example\r\n".to_string(), true),
        ("Origin: null\r\n".to_string(), true),
        (format!("Origin: https://{addr}\r\n"), true),
        ("Origin: http://127.0.0.1:1\r\n".to_string(), true),
        ("Sec-Fetch-Site: cross-site\r\n".to_string(), true),
        ("Sec-Fetch-Site: same-site\r\n".to_string(), true),
        (format!("Origin: http://{addr}\r\n"), false),
        (format!("Origin: http://localhost:{port}\r\n"), false),
        ("Sec-Fetch-Site: same-origin\r\n".to_string(), false),
    ] {
        let answer = get(&addr, VERSION_PATH, &headers);
        let expected = if refused { 403 } else { 200 };
        assert_eq!(code(&answer), expected, "{headers:?}: {answer}");
    }
}

#[test]
fn oversized_requests_are_cut_off() {
    let dir = fixture(&[("content/_index.md", "---\ntitle: Home\n---\nHi.\n")]);
    let (server, addr) = start(dir.path());
    #[cfg(target_os = "linux")]
    let peak_before = proc_status(&server, "VmHWM:");

    let mut endless = b"GET /".to_vec();
    endless.resize(64 << 20, b'a');
    let answer = exchange(&addr, endless);
    assert_eq!(code(&answer), 414, "{answer}");
    let mut no_line_end = vec![b'G'; 16 << 20];
    no_line_end.extend_from_slice(b" / HTTP/1.1\r\n\r\n");
    assert_eq!(code(&exchange(&addr, no_line_end)), 414);

    let start = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n");
    let variants = [
        format!("{start}X-Long: {}\r\n\r\n", "a".repeat(32 << 20)),
        format!("{start}{}\r\n", "X: y\r\n".repeat(100_000)),
        format!(
            "{start}{}\r\n",
            format!("X: {}\r\n", "b".repeat(4000)).repeat(40)
        ),
        format!("{start}X-Unended: {}", "c".repeat(1 << 20)),
    ];
    for request in variants {
        let answer = exchange(&addr, request.into_bytes());
        assert_eq!(code(&answer), 431, "{}", head(&answer));
    }
    #[cfg(target_os = "linux")]
    {
        let growth = proc_status(&server, "VmHWM:").saturating_sub(peak_before);
        assert!(growth < 16 * 1024, "the server grew by {growth} kB");
    }
    assert_eq!(code(&get(&addr, "/", "")), 200, "still serving");
}

#[test]
fn slow_requests_time_out() {
    let dir = fixture(&[("content/_index.md", "---\ntitle: Home\n---\nHi.\n")]);
    let (_server, addr) = start(dir.path());
    let began = Instant::now();
    // One sends nothing; one sends a byte at a time, each well within any
    // per-read timeout, forever.
    let idle = TcpStream::connect(&addr).unwrap();
    let drip = TcpStream::connect(&addr).unwrap();
    let mut dripping = drip.try_clone().unwrap();
    let host = addr.clone();
    std::thread::spawn(move || {
        let _ = write!(dripping, "GET / HTTP/1.1\r\nHost: {host}\r\nX: ");
        while dripping.write_all(b"a").is_ok() {
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    for stream in [idle, drip] {
        let answer = read_answer(stream);
        assert_eq!(code(&answer), 408, "{answer}");
    }
    let took = began.elapsed();
    assert!(took < Duration::from_secs(15), "{took:?}");
    assert_eq!(code(&get(&addr, "/", "")), 200, "still serving");
}

#[test]
fn connection_floods_are_turned_away() {
    let dir = fixture(&[("content/_index.md", "---\ntitle: Home\n---\nHi.\n")]);
    let (server, addr) = start(dir.path());
    // Connections that hold their place by sending nothing.
    let held: Vec<TcpStream> = (0..MAX_CONNECTIONS)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    let began = Instant::now();
    let mut refused = 0;
    for _ in 0..200 {
        let stream = TcpStream::connect(&addr).unwrap();
        let answer = read_answer(stream);
        if !answer.is_empty() {
            assert_eq!(code(&answer), 503, "{answer}");
            refused += 1;
        }
    }
    assert!(refused > 150, "only {refused} of 200 answered 503");
    #[cfg(target_os = "linux")]
    {
        let threads = proc_status(&server, "Threads:");
        assert!(threads < MAX_CONNECTIONS as u64 + 16, "{threads} threads");
    }
    assert!(
        began.elapsed() < Duration::from_secs(15),
        "turned away fast"
    );

    for stream in &held {
        let _ = stream.shutdown(Shutdown::Both);
    }
    drop(held);
    wait_for("a free place", || code(&get(&addr, "/", "")) == 200);
}

/// Issue 39: nothing a request or a saved file does takes the server down.
/// A rebuild that the watchdog stops (a template that never ends) and a
/// roll the engine once panicked on each run in a child process; the
/// server answers on, shows the error, and rebuilds on the next save.
#[test]
fn a_build_or_roll_that_stops_its_process_leaves_the_server_serving() {
    let dir = fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHi.\n"),
        (
            "content/s.yaml",
            "title: S\nkind: sum-mod\ndice: d6\ntargets: [2]\n",
        ),
    ]);
    let root = dir.path();
    let (_serving, addr) = start_with(root, &["--budget", "0.1"]);
    let (code, body) = crate::serve::get(&addr, "/__fairdice/roll?roll=d6!kh0");
    assert_eq!(code, 422, "{body}");
    assert!(body.contains("keeps no dice"), "{body}");
    let (code, body) = crate::serve::get(&addr, "/__fairdice/roll.yaml?roll=2d6");
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("2d6"), "{body}");
    // A template that loops for ever: the build's watchdog stops the
    // build's process, which is no longer the server's.
    let forever = "{% for i in range(end=100000) %}{% for j in range(end=100000) %}\
                   {% if i == j %}.{% endif %}{% endfor %}{% endfor %}";
    let template = root.join("templates/page.html");
    let original = std::fs::read_to_string(&template).unwrap();
    std::fs::write(
        &template,
        original.replacen("{{", &format!("{forever}{{{{"), 1),
    )
    .unwrap();
    wait_for("the stopped build", || status(&addr)["error"].is_string());
    let error = status(&addr)["error"].as_str().unwrap().to_string();
    assert!(
        error.contains("took more than 1 s and was stopped"),
        "{error}"
    );
    assert_eq!(crate::serve::get(&addr, "/index.html").0, 200);
    std::fs::write(&template, original).unwrap();
    wait_for("the next build", || status(&addr)["error"].is_null());
}
