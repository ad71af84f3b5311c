//! Every limit on the work a command may do, in one place: the budget that
//! `--budget` scales, and the watchdog that holds a running command to it.
//!
//! Estimates refuse what is too costly before any work starts (see
//! `analyses::cost`); the watchdog is the guard for what no estimate
//! covers, such as a template that loops. It samples the process's resident
//! memory (Linux only; elsewhere memory is not watched) and the age of every
//! timed [`phase`], and stops the process with a clear error and exit code 1
//! when either is over budget.

mod allocator;

pub use allocator::Guarded;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// How much work a command may do; `factor` (`--budget`) scales every
/// default below.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Multiplier of every default, from `--budget`; see [`Budget::check`].
    pub factor: f64,
    /// What the command makes of the results, which decides what showing
    /// their tables costs.
    pub form: Form,
}

/// What a command makes of the results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Pages, reports or terminal tables: the costliest form, and the one
    /// every estimate covers unless told otherwise.
    Pages,
    /// The JSON contract alone (`eval --json`, `roll --json`): no table is
    /// laid out.
    Json,
    /// The JSON contract spelled as it is written (`roll --json`): its
    /// rows are made and written a chunk at a time, never all held.
    Streamed,
    /// Pages computed in a reader's browser (the what-if forms and the
    /// playground): costed as pages, and a refusal gives no command-line
    /// advice, since a reader has no command line there.
    Browser,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(1.0)
    }
}

impl Budget {
    /// `factor` times every default, for a command that makes pages.
    pub const fn new(factor: f64) -> Budget {
        Budget {
            factor,
            form: Form::Pages,
        }
    }

    /// This budget for a command that prints the JSON contract alone when
    /// `json` is true.
    pub fn printing(self, json: bool) -> Budget {
        Budget {
            form: if json { Form::Json } else { Form::Pages },
            ..self
        }
    }

    /// This budget for `roll`, which streams the JSON contract when `json`
    /// is true.
    pub fn streaming(self, json: bool) -> Budget {
        Budget {
            form: if json { Form::Streamed } else { Form::Pages },
            ..self
        }
    }

    /// Time allowed for one scenario.
    pub(crate) const SECONDS: f64 = 30.0;
    /// Peak memory allowed for one scenario, output included.
    pub(crate) const BYTES: f64 = 256e6;
    /// The whole build (every scenario of a site, or every file given to
    /// `eval`) may cost this many scenarios' worth, in time and memory; the
    /// watchdog holds the process to that memory.
    pub(crate) const SCENARIOS_PER_BUILD: f64 = 4.0;
    /// Time allowed for rendering one template once.
    pub(crate) const TEMPLATE_SECONDS: f64 = 10.0;
    /// The smallest and largest factors: beyond, sizes derived from the
    /// budget stop meaning anything (a thousand times is 256 GB a scenario).
    pub(crate) const MIN_FACTOR: f64 = 0.001;
    /// See [`Budget::MIN_FACTOR`].
    pub(crate) const MAX_FACTOR: f64 = 1000.0;

    /// Read a `--budget` value: a number from [`Budget::MIN_FACTOR`] to
    /// [`Budget::MAX_FACTOR`].
    pub fn parse(text: &str) -> Result<Budget, String> {
        let factor = text.trim().parse::<f64>().map_err(|_| {
            format!("expected a number such as 4 (times the default budget), found {text:?}")
        })?;
        let budget = Budget::new(factor);
        budget.check()?;
        Ok(budget)
    }

    /// A factor out of range is refused, saying what is allowed.
    pub fn check(&self) -> Result<(), String> {
        if (Self::MIN_FACTOR..=Self::MAX_FACTOR).contains(&self.factor) {
            return Ok(());
        }
        Err(format!(
            "--budget {} is out of range: expected a factor from {} to {} \
             (times the default of {} s and {} MB a scenario)",
            self.factor,
            Self::MIN_FACTOR,
            Self::MAX_FACTOR,
            Self::SECONDS,
            Self::BYTES / 1e6
        ))
    }

    /// The factor in range, so that no size derived from it overflows even
    /// when [`Budget::check`] was skipped.
    fn clamped(&self) -> f64 {
        if self.factor.is_nan() {
            return 1.0;
        }
        self.factor.clamp(Self::MIN_FACTOR, Self::MAX_FACTOR)
    }

    /// Time allowed for one scenario.
    pub fn seconds(&self) -> f64 {
        Self::SECONDS * self.clamped()
    }

    /// Memory allowed for one scenario.
    pub fn bytes(&self) -> f64 {
        Self::BYTES * self.clamped()
    }

    /// Time allowed for every scenario together.
    pub(crate) fn build_seconds(&self) -> f64 {
        self.seconds() * Self::SCENARIOS_PER_BUILD
    }

    /// Memory allowed for every scenario together, and for the process.
    pub fn build_bytes(&self) -> f64 {
        self.bytes() * Self::SCENARIOS_PER_BUILD
    }

    /// Time allowed for one template rendering.
    pub(crate) fn template_seconds(&self) -> f64 {
        Self::TEMPLATE_SECONDS * self.clamped()
    }

    /// The smallest factor that covers `needed` times the defaults, as
    /// `--budget N` advice, or `None` when no factor would.
    pub(crate) fn advice(needed: f64) -> Option<String> {
        let factor = needed.ceil().max(1.0);
        (needed.is_finite() && factor <= Self::MAX_FACTOR).then(|| format!("`--budget {factor}`"))
    }
}

/// Megabytes, as messages show them.
pub fn megabytes(bytes: f64) -> String {
    format!("{:.0} MB", (bytes / 1e6).max(1.0))
}

/// The watchdog's shared state: whether it is armed, and what each thread
/// is doing.
#[derive(Default)]
struct State {
    /// Nested [`watch`] guards alive, and the budget and command of the last.
    armed: usize,
    budget: Budget,
    command: &'static str,
    /// The phases in progress, oldest first.
    phases: Vec<Active>,
    next_id: u64,
}

struct Active {
    id: u64,
    what: String,
    since: Instant,
    kind: Kind,
}

/// What a phase is, which decides its deadline and the advice when it runs
/// past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A stage of a command: untimed.
    Stage,
    /// A template rendering: [`Budget::template_seconds`].
    Template,
    /// Work on content: [`Budget::seconds`], a scenario's time, since a
    /// page's work holds the templates and tables it expands.
    Content,
    /// A scenario's computation: [`Budget::seconds`], whatever its
    /// estimate said (an estimate is a guess; this is the guard).
    Compute,
}

impl Kind {
    fn deadline(self, budget: &Budget) -> Option<Duration> {
        match self {
            Kind::Stage => None,
            Kind::Template => Some(budget.template_seconds()),
            Kind::Content | Kind::Compute => Some(budget.seconds()),
        }
        .map(Duration::from_secs_f64)
    }

    fn hint(self) -> &'static str {
        match self {
            Kind::Template | Kind::Stage => {
                "look for a loop that does not end (a `for` over a long range, or loops \
                 nested inside loops)"
            }
            // That work is linear in its input: only a very large one is late.
            Kind::Content => "make it smaller (split the page or the file)",
            Kind::Compute => {
                "make the scenario smaller (its estimate was too low: please report it)"
            }
        }
    }
}

struct Watchdog {
    state: Mutex<State>,
    wake: Condvar,
}

/// How often the watchdog looks.
const TICK: Duration = Duration::from_millis(20);

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<Watchdog> = OnceLock::new();
    WATCHDOG.get_or_init(|| Watchdog {
        state: Mutex::new(State::default()),
        wake: Condvar::new(),
    })
}

/// The state, even if a thread panicked while holding it (it holds no
/// invariant a panic could break half-way).
fn state() -> MutexGuard<'static, State> {
    watchdog()
        .state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Holds the process to a budget while alive (see [`watch`]).
#[must_use = "the watchdog is disarmed when this is dropped"]
pub(crate) struct Watch(());

/// Hold this process to `budget` until the guard is dropped: above
/// [`Budget::build_bytes`] of resident memory, or when a timed [`phase`]
/// runs past its deadline, the process prints an error naming `command`
/// (such as "the build") and what it was doing, and exits with code 1.
///
/// Dropping the guard disarms the watchdog before it returns, and the
/// watchdog decides and exits while holding the same lock: so once the
/// guard is dropped the process is never stopped, and a command disarms
/// before it writes its output (a half-written site or report is
/// impossible).
pub(crate) fn watch(budget: &Budget, command: &'static str) -> Watch {
    static THREAD: OnceLock<()> = OnceLock::new();
    {
        let mut state = state();
        state.armed += 1;
        state.budget = *budget;
        state.command = command;
        allocator::hold_to(Some(memory_limit(budget, machine_bytes())));
    }
    THREAD.get_or_init(|| {
        // Without the thread nothing is watched, which is how it was before;
        // a process that cannot start one has bigger problems to report.
        let _ = std::thread::Builder::new()
            .name("fairdice-watchdog".into())
            .spawn(run);
    });
    watchdog().wake.notify_all();
    Watch(())
}

impl Watch {
    /// Stay armed for the rest of the process (for commands whose output
    /// is only printed).
    pub fn keep(self) {
        std::mem::forget(self);
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut state = state();
        state.armed = state.armed.saturating_sub(1);
        if state.armed == 0 {
            allocator::hold_to(None);
        }
    }
}

/// What a thread is doing, for the watchdog's messages; timed phases also
/// have a deadline. Ends when dropped.
#[must_use = "the phase ends when this is dropped"]
pub struct Phase(u64);

fn begin(what: String, kind: Kind) -> Phase {
    if cfg!(target_arch = "wasm32") {
        // In the browser module there is no watchdog thread to read the
        // phases, and asking the clock would trap: nothing to record.
        return Phase(u64::MAX);
    }
    let mut state = state();
    let id = state.next_id;
    state.next_id += 1;
    state.phases.push(Active {
        id,
        what,
        since: Instant::now(),
        kind,
    });
    Phase(id)
}

impl Drop for Phase {
    fn drop(&mut self) {
        let mut state = state();
        if let Some(i) = state.phases.iter().rposition(|p| p.id == self.0) {
            state.phases.remove(i);
        }
    }
}

/// A stage of a command ("computing the scenarios"), named in messages.
pub(crate) fn stage(what: impl Into<String>) -> Phase {
    begin(what.into(), Kind::Stage)
}

/// A phase that must end within [`Budget::template_seconds`], such as
/// "rendering templates/page.html for the page "Home"".
pub(crate) fn phase(what: impl Into<String>) -> Phase {
    begin(what.into(), Kind::Template)
}

/// A phase of work on content that must end within [`Budget::seconds`],
/// such as "numbering the rules of content/rules/start.md": reading the
/// glossary, marking its terms, numbering rules and comparing releases are
/// linear in their input, so only an input far larger than any site's, or
/// work that went quadratic again, runs late; the stages around them are
/// untimed, and without this a hostile file held the build for minutes.
pub fn content(what: impl Into<String>) -> Phase {
    begin(what.into(), Kind::Content)
}

/// Computing one scenario (`what` names it), held to [`Budget::seconds`]
/// whatever its price said: the watchdog stops a computation that runs
/// past the budget its estimate promised.
pub fn compute(what: impl Into<String>) -> Phase {
    begin(what.into(), Kind::Compute)
}

/// The timed phase of rendering the template `name` for the page whose
/// `title` the template's context holds.
pub fn template(name: &str, title: Option<&str>) -> Phase {
    let page = title.map_or(String::new(), |title| format!(" for the page {title:?}"));
    phase(format!("rendering templates/{name}{page}"))
}

/// The process's resident memory, where the system tells it cheaply.
pub(crate) fn resident_bytes() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
        // SAFETY: sysconf only reads a system constant.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        pages.checked_mul(u64::try_from(page).ok()?)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The watchdog thread: sleeps while disarmed, otherwise looks every
/// [`TICK`] (the first time a tick after it is armed, so a command over
/// sooner never reads `/proc`) and stops the process on the first limit
/// passed. The memory is read without the lock, so the threads at work
/// never wait on the files of `/proc`; the verdict is made holding it.
fn run() {
    let dog = watchdog();
    let mut state = state();
    loop {
        if state.armed == 0 {
            state = dog
                .wake
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            continue;
        }
        state = dog
            .wake
            .wait_timeout(state, TICK)
            .map_or_else(|poisoned| poisoned.into_inner().0, |(state, _)| state);
        if state.armed == 0 {
            continue;
        }
        drop(state);
        let (resident, machine) = (resident_bytes(), machine_bytes());
        state = self::state();
        if state.armed == 0 {
            continue;
        }
        if let Some(message) = verdict(&state, resident, machine, Instant::now()) {
            // Still holding the lock: a guard being dropped waits for this.
            exit_with(&message);
        }
    }
}

/// Why the process must stop now, if it must.
/// `machine` is the memory the system has: a budget beyond most of it
/// would end in the system killing the process without a word.
fn verdict(
    state: &State,
    resident: Option<u64>,
    machine: Option<u64>,
    now: Instant,
) -> Option<String> {
    let budget = state.budget;
    // The latest late phase is the most specific (a page's comparison of
    // releases, rather than the page).
    let late = state.phases.iter().rev().find_map(|p| {
        let deadline = p.kind.deadline(&budget)?;
        (now.saturating_duration_since(p.since) > deadline).then_some((p, deadline))
    });
    if let Some((late, deadline)) = late {
        return Some(format!(
            "{} took more than {:.0} s and was stopped: {}, or {}",
            late.what,
            deadline.as_secs_f64(),
            late.kind.hint(),
            advice(budget.clamped() * 2.0)
        ));
    }
    let resident = resident? as f64;
    if resident <= memory_limit(&budget, machine) {
        return None;
    }
    Some(over_memory(state, machine, resident, "used more than"))
}

/// The memory a watched process may hold: its budget, or most of the
/// machine when the budget is beyond it (past that the system would kill
/// the process without a word).
fn memory_limit(budget: &Budget, machine: Option<u64>) -> f64 {
    let most_of_machine = machine.map_or(f64::INFINITY, |m| m as f64 * 0.9);
    budget.build_bytes().min(most_of_machine)
}

/// Why a process that `did` (used more than, or asked at once for more
/// than) its limit, measured at `bytes`, is stopped.
fn over_memory(state: &State, machine: Option<u64>, bytes: f64, did: &str) -> String {
    let budget = state.budget;
    let limit = memory_limit(&budget, machine);
    // The most recent phase is the most specific thing going on.
    let doing = state
        .phases
        .iter()
        .rev()
        .find(|p| p.kind != Kind::Stage)
        .or(state.phases.last())
        .map_or("working", |p| p.what.as_str());
    let (whose, or) = if limit < budget.build_bytes() {
        (
            " (most of this machine's)",
            "use a machine with more memory".to_string(),
        )
    } else {
        ("", advice(budget.clamped() * bytes / limit))
    };
    format!(
        "{} {did} {}{whose} of memory while {doing}, and was stopped: \
         make the pages, scenarios or templates smaller, or {or}",
        state.command,
        megabytes(limit),
    )
}

/// What to do about a command that needs `needed` times the default
/// budget.
fn advice(needed: f64) -> String {
    match Budget::advice(needed) {
        Some(flag) => format!("raise the budget with {flag}"),
        None => "no budget would cover it".into(),
    }
}

/// Stop the process for work that failed where its price said it would
/// run (a program priced by a run cut short at the pricing limit, which
/// fails later): the error names the phase it stopped in, exit code 1, as
/// the watchdog does, rather than a panic with no place.
pub(crate) fn stop_failed(message: &str) -> ! {
    let state = state();
    let doing = state
        .phases
        .iter()
        .rev()
        .find(|p| p.kind == Kind::Compute)
        .map_or("working", |p| p.what.as_str());
    exit_with(&format!("{doing}: {message}"));
}

/// Stop the process for one request of `bytes` over the armed limit (see
/// [`allocator`]), with the watchdog's message and exit code.
fn stop_for_request(bytes: f64) -> ! {
    let state = state();
    let message = over_memory(
        &state,
        machine_bytes(),
        bytes,
        "asked at once for more than",
    );
    exit_with(&message);
}

/// The one way a limit ends the process: the error on stderr, exit code 1.
fn exit_with(message: &str) -> ! {
    eprintln!("error: {}", crate::printable::printable(message));
    std::process::exit(1);
}

/// The memory the system has, where it tells it cheaply.
fn machine_bytes() -> Option<u64> {
    static MACHINE: OnceLock<Option<u64>> = OnceLock::new();
    *MACHINE.get_or_init(|| {
        let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        kilobytes.checked_mul(1024)
    })
}

/// Whether a price of `priced` seconds is fair for work that took `took`
/// (issue 42): within 10 times either way; under 50 ms, where start-up and
/// the clock dominate, it only has to stay under half a second. The one
/// standard the release benchmarks of prices hold every estimate to.
pub fn priced_fairly(priced: f64, took: f64) -> bool {
    if took < 0.05 {
        priced < 0.5
    } else {
        (0.1..=10.0).contains(&(priced / took))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_bounded_and_say_what_is_allowed() {
        assert_eq!(Budget::parse("4"), Ok(Budget::new(4.0)));
        assert_eq!(Budget::parse(" 0.5 "), Ok(Budget::new(0.5)));
        for bad in [
            "1e12", "1001", "0", "-1", "0.0001", "inf", "NaN", "lots", "",
        ] {
            let err = Budget::parse(bad).unwrap_err();
            assert!(
                err.contains("from 0.001 to 1000") || err.contains("expected a number"),
                "{bad}: {err}"
            );
        }
        // Sizes stay finite even from a factor that skipped the check.
        for factor in [f64::INFINITY, f64::NAN, 1e300, -5.0, 0.0] {
            let budget = Budget::new(factor);
            assert!(budget.bytes().is_finite() && budget.bytes() > 0.0);
            assert!(budget.build_bytes() <= 256e6 * 4.0 * 1000.0);
            assert!(budget.template_seconds() <= 10.0 * 1000.0);
        }
        assert_eq!(Budget::advice(3.2).as_deref(), Some("`--budget 4`"));
        assert_eq!(Budget::advice(0.3).as_deref(), Some("`--budget 1`"));
        assert_eq!(Budget::advice(2e3), None);
        assert_eq!(Budget::advice(f64::NAN), None);
    }

    fn state_with(phases: &[(&str, bool, u64)], now: Instant) -> State {
        State {
            armed: 1,
            budget: Budget::default(),
            command: "the build",
            phases: phases
                .iter()
                .enumerate()
                .map(|(id, &(what, timed, age))| Active {
                    id: id as u64,
                    what: what.into(),
                    since: now - Duration::from_secs(age),
                    kind: if timed { Kind::Template } else { Kind::Stage },
                })
                .collect(),
            next_id: phases.len() as u64,
        }
    }

    #[test]
    fn the_verdict_names_the_phase_the_limit_and_the_flag() {
        let now = Instant::now();
        let calm = state_with(&[("rendering the site", false, 100)], now);
        assert_eq!(verdict(&calm, Some(50_000_000), None, now), None);
        assert_eq!(verdict(&calm, None, None, now), None);
        let busy = state_with(
            &[
                ("rendering the site", false, 3),
                (
                    "rendering templates/page.html for the page \"Home\"",
                    true,
                    1,
                ),
            ],
            now,
        );
        let message = verdict(&busy, Some(2_500_000_000), Some(1 << 40), now).unwrap();
        assert!(
            message.starts_with(
                "the build used more than 1024 MB of memory while rendering \
                 templates/page.html for the page \"Home\""
            ),
            "{message}"
        );
        assert!(message.contains("`--budget 3`"), "{message}");
        let stuck = state_with(&[("rendering templates/x.html", true, 11)], now);
        let message = verdict(&stuck, Some(1), None, now).unwrap();
        assert!(
            message.starts_with("rendering templates/x.html took more than 10 s"),
            "{message}"
        );
        assert!(message.contains("`--budget 2`"), "{message}");
        assert!(message.contains("look for a loop"), "{message}");
        // Of two late phases, the inner one is named, with its own advice.
        let mut nested = state_with(
            &[
                ("rendering content/releases/1.1.0.md", true, 32),
                ("comparing release 1.1.0 with the one before", true, 31),
            ],
            now,
        );
        for phase in &mut nested.phases {
            phase.kind = Kind::Content;
        }
        // Content work has a scenario's time, not a template's.
        let younger = |state: &State| State {
            phases: state
                .phases
                .iter()
                .map(|p| Active {
                    what: p.what.clone(),
                    since: p.since + Duration::from_secs(20),
                    ..*p
                })
                .collect(),
            ..State::default()
        };
        assert_eq!(verdict(&younger(&nested), Some(1), None, now), None);
        let message = verdict(&nested, Some(1), None, now).unwrap();
        assert_eq!(
            message,
            "comparing release 1.1.0 with the one before took more than 30 s and was stopped: \
             make it smaller (split the page or the file), or raise the budget with `--budget 2`"
        );
        // A scenario's computation has a scenario's time, whatever its
        // estimate said (issue 39, item 6).
        let mut computing = state_with(&[("computing rules/race.yaml", true, 31)], now);
        computing.phases[0].kind = Kind::Compute;
        let message = verdict(&computing, Some(1), None, now).unwrap();
        assert!(
            message.starts_with("computing rules/race.yaml took more than 30 s and was stopped"),
            "{message}"
        );
        assert!(message.contains("estimate was too low"), "{message}");
        assert_eq!(verdict(&younger(&computing), Some(1), None, now), None);
        // Untimed stages may take as long as they need.
        let slow = state_with(&[("computing the scenarios", false, 1000)], now);
        assert_eq!(verdict(&slow, Some(1), None, now), None);
        let hopeless = state_with(&[], now);
        let message = verdict(&hopeless, Some(u64::MAX), None, now).unwrap();
        assert!(message.contains("while working"), "{message}");
        assert!(message.contains("no budget would cover it"), "{message}");
        // A budget beyond the machine is held to most of the machine.
        let mut generous = state_with(&[], now);
        generous.budget = Budget::new(1000.0);
        let machine = Some(8_000_000_000);
        assert_eq!(verdict(&generous, Some(7_000_000_000), machine, now), None);
        let message = verdict(&generous, Some(7_300_000_000), machine, now).unwrap();
        assert!(
            message.contains("more than 7200 MB (most of this machine's) of memory"),
            "{message}"
        );
        assert!(
            message.ends_with("use a machine with more memory"),
            "{message}"
        );
    }

    #[test]
    fn phases_end_when_dropped_and_memory_is_measured() {
        let outer = stage("outer");
        let inner = template("page.html", Some("Home"));
        {
            let state = state();
            let names: Vec<&str> = state.phases.iter().map(|p| p.what.as_str()).collect();
            assert!(names.contains(&"rendering templates/page.html for the page \"Home\""));
        }
        drop(inner);
        drop(outer);
        // Other tests may hold phases of their own; ours are gone.
        assert!(!state().phases.iter().any(|p| p.what == "outer"));
        if cfg!(target_os = "linux") {
            let bytes = resident_bytes().expect("statm");
            assert!(bytes > 1_000_000 && bytes < 1 << 40, "{bytes}");
        }
    }
}
