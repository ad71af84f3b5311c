//! Faults mid-build: a failing write, a kill during the swap, two builds at
//! once, and determinism across thread counts.

use crate::common::{fixture, snapshot, write};
use fairdice::build::{self, Project};
use fairdice::output;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn site_files() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "content/_index.md",
            "---\ntitle: Home\n---\nSee [ten](ten.yaml).\n",
        ),
        (
            "content/ten.yaml",
            "title: Ten\nkind: sum-mod\ndice: d6\ntargets: \"2..12\"\n",
        ),
    ]
}

#[test]
fn a_write_error_on_any_file_leaves_the_old_site() {
    let dir = fixture(&site_files());
    let project = Project::at(dir.path());
    build::build(&project).unwrap();
    let site = dir.path().join("site");
    let before = snapshot(&site);
    write(
        dir.path(),
        "content/ten.yaml",
        "title: Ten, edited\nkind: sum-mod\ndice: d6\ntargets: \"2..12\"\n",
    );
    let files = build::render_site(&project).unwrap().files;
    for failing in [0, 1, files.len() / 2, files.len() - 1] {
        let count = AtomicUsize::new(0);
        let result = output::write_site_with(&site, &files, &|path: &Path, bytes: &[u8]| {
            if count.fetch_add(1, Ordering::SeqCst) == failing {
                return Err(std::io::Error::other("disk full (simulated)"));
            }
            std::fs::write(path, bytes)
        });
        let err = result.unwrap_err().to_string();
        assert!(err.contains("disk full (simulated)"), "{err}");
        assert_eq!(snapshot(&site), before, "failing write {failing}");
        assert_no_leftovers(dir.path());
    }
    output::write_site(&site, &files).unwrap();
    assert_ne!(snapshot(&site), before);
}

fn assert_no_leftovers(root: &Path) {
    let leftovers: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.contains(".tmp-") || n.contains(".old-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn fairdice(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fairdice"));
    command
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

#[test]
fn a_build_killed_at_any_moment_leaves_the_old_site_or_the_new_one() {
    let dir = fixture(&site_files());
    assert!(fairdice(dir.path())
        .arg("build")
        .status()
        .unwrap()
        .success());
    let old = snapshot(&dir.path().join("site"));
    write(
        dir.path(),
        "content/ten.yaml",
        "title: Ten, edited\nkind: sum-mod\ndice: d6\ntargets: \"2..30\"\n",
    );
    // Kill builds after a range of delays, so that some die while writing
    // and some during or after the swap.
    let mut new = None;
    let mut outcomes = [0usize; 2];
    for step in 0..30u64 {
        let mut child = fairdice(dir.path()).arg("build").spawn().unwrap();
        std::thread::sleep(Duration::from_millis(step * 7));
        let _ = child.kill();
        let _ = child.wait();
        let now = snapshot(&dir.path().join("site"));
        if now == old {
            outcomes[0] += 1;
            continue;
        }
        let reference = new.get_or_insert_with(|| {
            let check = dir.path().join("check");
            let mut project = Project::at(dir.path());
            project.out = check.clone();
            build::build(&project).unwrap();
            snapshot(&check)
        });
        assert_eq!(
            &now,
            reference,
            "after a kill at {} ms the site is a mix",
            step * 7
        );
        outcomes[1] += 1;
        // Put the old site back for the next round.
        write(
            dir.path(),
            "content/ten.yaml",
            "title: Ten\nkind: sum-mod\ndice: d6\ntargets: \"2..12\"\n",
        );
        assert!(fairdice(dir.path())
            .arg("build")
            .status()
            .unwrap()
            .success());
        write(
            dir.path(),
            "content/ten.yaml",
            "title: Ten, edited\nkind: sum-mod\ndice: d6\ntargets: \"2..30\"\n",
        );
    }
    // The next build tidies whatever a killed one left behind.
    assert!(fairdice(dir.path())
        .arg("build")
        .status()
        .unwrap()
        .success());
    assert_no_leftovers(dir.path());
    eprintln!(
        "killed builds: {} left the old site, {} the new one",
        outcomes[0], outcomes[1]
    );
}

#[test]
fn two_builds_at_once_are_serialised() {
    let dir = fixture(&site_files());
    let children: Vec<_> = (0..3)
        .map(|_| fairdice(dir.path()).arg("build").spawn().unwrap())
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_no_leftovers(dir.path());
    let site = snapshot(&dir.path().join("site"));
    assert!(fairdice(dir.path())
        .args(["build", "--check"])
        .status()
        .unwrap()
        .success());
    assert!(!site.is_empty());
}

#[test]
fn a_held_lock_makes_the_next_build_wait_and_say_so() {
    use std::os::unix::io::AsRawFd;
    let dir = fixture(&site_files());
    let lock = std::fs::File::create(dir.path().join(".site.lock")).unwrap();
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) }, 0);
    let mut child = fairdice(dir.path()).arg("build").spawn().unwrap();
    // Read the build's stderr as it comes, and wait (bounded) for it to say
    // it is waiting: a loaded machine may take a while to get there.
    let stderr = child.stderr.take().unwrap();
    let (lines, said) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let _ = lines.send(line);
        }
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let mut waiting = false;
    while !waiting && std::time::Instant::now() < deadline {
        if let Ok(line) = said.recv_timeout(Duration::from_millis(200)) {
            waiting = line.contains("another fairdice build is writing this site; waiting");
        }
    }
    assert!(waiting, "the build said it was waiting for the lock");
    assert!(
        !dir.path().join("site").exists(),
        "the build waits for the lock"
    );
    drop(lock);
    assert!(child.wait().unwrap().success());
    assert!(dir.path().join("site/index.html").is_file());
}

#[test]
fn one_thread_or_two_the_site_is_byte_identical() {
    let dir = fixture(&site_files());
    let mut sites = Vec::new();
    for threads in ["1", "2", "2"] {
        let out = fairdice(dir.path())
            .arg("build")
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert!(out.status.success());
        sites.push(snapshot(&dir.path().join("site")));
    }
    assert_eq!(sites[0], sites[1]);
    assert_eq!(sites[1], sites[2]);
}
