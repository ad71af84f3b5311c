//! The playground's rolls: each computed in a child process of this
//! program (see [`crate::isolated`]), so that no roll can stop the server,
//! and answered as a report page or the scenario's YAML.

use super::{error_text, html, percent_decode, Response};
use crate::analyses::Budget;
use crate::isolated;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The rolls of a playground query, checked and priced as a build would,
/// as a report page (or the scenario's YAML); a refused expression
/// answers 422 with the build's message. Each request runs on its own
/// connection thread, so a long roll never holds up other requests.
fn playground_roll(query: &str, yaml: bool, budget: &Budget) -> Response {
    let mut expressions = Vec::new();
    let mut depth = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let Some(value) = percent_decode(&value.replace('+', " ")) else {
            return Response::text(400, "malformed query");
        };
        match key {
            "roll" => expressions.push(value),
            "depth" => match value.parse() {
                Ok(n) => depth = Some(n),
                Err(_) => {
                    return Response::text(422, "depth: expected a whole number from 0 to 20")
                }
            },
            _ => {}
        }
    }
    let prepared = crate::roll_command::prepare(&expressions, depth, budget);
    let page = prepared.and_then(|params| {
        if yaml {
            Ok(crate::roll_command::scenario_yaml(&params).into_bytes())
        } else {
            crate::roll_command::report(&params, budget, &crate::progress::Progress::hidden())
                .map(String::into_bytes)
        }
    });
    match page {
        Ok(body) => roll_response(200, body, yaml),
        Err(message) => cannot_roll(&message, yaml),
    }
}

/// A roll's answer: the YAML as text, or a page.
fn roll_response(code: u16, body: Vec<u8>, yaml: bool) -> Response {
    if yaml {
        Response {
            body,
            ..Response::text(code, "")
        }
    } else {
        html(code, body)
    }
}

/// A refused roll (422), saying why.
fn cannot_roll(message: &str, yaml: bool) -> Response {
    if yaml {
        return Response::text(422, message);
    }
    html(
        422,
        format!(
            "<!DOCTYPE html><html lang=\"en\"><meta charset=\"utf-8\"><title>Cannot roll</title>\
             <p role=\"alert\" style=\"font: 16px system-ui, sans-serif; color: #b00020\">{}</p></html>",
            crate::html::escape(message)
        )
        .into_bytes(),
    )
}

/// The hidden command that serve's child runs for a playground roll
/// (`fairdice __serve-roll QUERY`): the status code on the first line,
/// then the body. Held to `budget` by its own watchdog.
pub fn answer_roll(
    query: &str,
    yaml: bool,
    budget: &Budget,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    crate::roll_command::watch_process(budget);
    let response = playground_roll(query, yaml, budget);
    writeln!(out, "{}", response.code)?;
    out.write_all(&response.body)?;
    out.flush()
}

/// Rolls computed at once: each child may use a scenario's whole budget,
/// so more than two would let a few requests take the machine's memory
/// (four took `serve` to 3.65 GB when rolls ran in its own process).
pub const MAX_ROLLS_AT_ONCE: usize = 2;

/// Rolls being computed now.
static ROLLING: AtomicUsize = AtomicUsize::new(0);

/// A place among the rolls computed at once, given back when dropped.
struct Turn;

impl Turn {
    fn take() -> Option<Turn> {
        ROLLING
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_ROLLS_AT_ONCE).then_some(n + 1)
            })
            .ok()
            .map(|_| Turn)
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        ROLLING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A playground roll computed by a child process of this program (see
/// [`isolated`]), so no roll can stop the server; past
/// [`MAX_ROLLS_AT_ONCE`], answered 503.
pub(super) fn roll_in_child(query: &str, yaml: bool, budget: &Budget) -> Response {
    let Some(_turn) = Turn::take() else {
        return Response::text(503, "other rolls are being computed: try again in a moment");
    };
    let mut args: Vec<std::ffi::OsString> = vec![
        "__serve-roll".into(),
        "--budget".into(),
        budget.factor.to_string().into(),
    ];
    if yaml {
        args.push("--yaml".into());
    }
    // A query of its own, never read as a flag.
    args.extend(["--".into(), query.into()]);
    let time = Duration::from_secs_f64(budget.seconds() * 2.0 + 5.0);
    let done = match isolated::run(&args, budget, time) {
        Ok(done) => done,
        Err(err) => return Response::text(500, &format!("cannot start the roll: {err}")),
    };
    let answer = (done.code == Some(0))
        .then(|| {
            let split = done.stdout.iter().position(|&b| b == b'\n')?;
            let code: u16 = std::str::from_utf8(&done.stdout[..split])
                .ok()?
                .parse()
                .ok()?;
            Some((code, done.stdout[split + 1..].to_vec()))
        })
        .flatten();
    match answer {
        Some((code @ (200 | 422), body)) => roll_response(code, body, yaml),
        Some((code, body)) => Response::text(code, &String::from_utf8_lossy(&body)),
        None => cannot_roll(&error_text(&done), yaml),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_more_than_two_rolls_are_computed_at_once() {
        let first = Turn::take().expect("a first turn");
        let second = Turn::take().expect("a second turn");
        assert!(Turn::take().is_none());
        assert_eq!(
            roll_in_child("roll=d6", false, &Budget::default()).code,
            503
        );
        drop(first);
        let third = Turn::take().expect("a turn given back");
        drop((second, third));
        assert_eq!(ROLLING.load(Ordering::SeqCst), 0);
    }
}
