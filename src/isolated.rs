//! Work that can end a process, or run without end, runs in a child
//! process with a wall clock (and, for this program's own children, a cap
//! on its address space): `serve`'s rebuilds and playground rolls may
//! panic (a bug), be refused memory by the system (an abort no Rust code
//! can catch) or be stopped by the watchdog (which exits the process it
//! watches), and the browser that prints the PDF may take minutes on a
//! large site. Whatever happens to the child, the caller reads an outcome.

use crate::limits::Budget;
use std::ffi::OsString;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a child ended, with what it printed.
#[derive(Debug)]
pub(crate) struct Finished {
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// What it printed, each stream cut at [`MAX_OUTPUT`].
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Why it did not end by itself, if it did not.
    pub stopped: Option<String>,
    /// The address space it was allowed, if capped.
    pub cap: Option<u64>,
}

impl Finished {
    /// The child's own words when it failed, or what ended it.
    pub fn failure(&self) -> String {
        let said = String::from_utf8_lossy(&self.stderr).trim().to_string();
        match (&self.stopped, self.code) {
            (Some(why), _) => why.clone(),
            (None, Some(_)) if !said.is_empty() => said,
            (None, Some(code)) => format!("the work ended with exit code {code}"),
            (None, None) => format!(
                "the work was ended by the system (it ran out of the memory it may use{}, \
                 or crashed): make it smaller{}",
                self.cap.map_or(String::new(), |cap| format!(
                    ", {}",
                    crate::limits::megabytes(cap as f64)
                )),
                if said.is_empty() {
                    String::new()
                } else {
                    format!(": {said}")
                }
            ),
        }
    }
}

/// The most of each stream kept: a page of the playground, or every error
/// of a build, fits many times over.
const MAX_OUTPUT: u64 = 256 << 20;

/// The address space a child may reserve: the process budget that the
/// child's own watchdog holds it to, plus room for what is reserved and
/// never used (thread stacks, allocator arenas). Past it an allocation
/// fails and the child aborts, alone.
fn address_space(budget: &Budget) -> u64 {
    (budget.build_bytes() as u64).saturating_add(4 << 30)
}

/// Run this program with `args` under `budget`'s memory cap, for at most
/// `time`.
pub(crate) fn run(args: &[OsString], budget: &Budget, time: Duration) -> std::io::Result<Finished> {
    let mut command = Command::new(std::env::current_exe()?);
    command.args(args);
    let cap = address_space(budget);
    cap_memory(&mut command, cap);
    Ok(Finished {
        cap: Some(cap),
        ..run_command(command, time)?
    })
}

/// Run `command` for at most `time`: its output is read while it runs (so
/// a full pipe never blocks it) and it is killed at the deadline.
pub(crate) fn run_command(mut command: Command, time: Duration) -> std::io::Result<Finished> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn()?;
    let read = |stream: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(stream) = stream {
                let mut stream = stream.take(MAX_OUTPUT);
                let _ = stream.read_to_end(&mut bytes);
                // Drain the rest so the child never blocks on a full pipe.
                let _ = std::io::copy(&mut stream.into_inner(), &mut std::io::sink());
            }
            bytes
        })
    };
    let stdout = read(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let stderr = read(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + time;
    let mut stopped = None;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            stopped = Some(format!(
                "the work took more than {:.0} s and was stopped: make it smaller, \
                 or raise the budget with --budget",
                time.as_secs_f64()
            ));
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(Finished {
        code: status.code(),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        stopped,
        cap: None,
    })
}

/// Limit the child's address space, where the system allows it.
fn cap_memory(command: &mut Command, bytes: u64) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let limit = libc::rlimit {
            rlim_cur: bytes as libc::rlim_t,
            rlim_max: bytes as libc::rlim_t,
        };
        // SAFETY: between fork and exec only setrlimit runs, which is
        // async-signal-safe and touches no memory of the parent's.
        unsafe {
            command.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    #[cfg(not(unix))]
    let _ = (command, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child ended by a signal is reported with the cap it really had,
    /// not the default budget's.
    #[test]
    fn a_child_ended_by_the_system_names_its_own_cap() {
        let budget = Budget::new(2.0);
        let ended = Finished {
            code: None,
            stdout: Vec::new(),
            stderr: b"memory allocation of 9 bytes failed\n".to_vec(),
            stopped: None,
            cap: Some(address_space(&budget)),
        };
        assert_eq!(address_space(&budget), 2_048_000_000 + (4 << 30));
        assert_eq!(
            ended.failure(),
            "the work was ended by the system (it ran out of the memory it may use, \
             6343 MB, or crashed): make it smaller: memory allocation of 9 bytes failed"
        );
        let stopped = Finished {
            stopped: Some("took too long".into()),
            ..ended
        };
        assert_eq!(stopped.failure(), "took too long");
    }
}
