//! The estimate against the steps a run spends, on small programs.

use super::*;

fn steps(source: &str) -> f64 {
    super::super::run(source, 1e9).unwrap().steps
}

fn estimated(source: &str) -> Estimate {
    estimate(source).unwrap()
}

#[test]
fn small_programs_are_priced_near_their_run() {
    for source in [
        "output 3d6",
        "output [highest 3 of 4d6]",
        "function: roll R:n { if R = 6 { result: 6 + [roll d6] } result: R }\noutput [roll d6]",
        "loop N over {1..20} { output Nd6 }",
        "X: 0\nloop I over {1..10} { X: X + d6 }\noutput X",
        "function: count S:s { result: [count {5,6} in S] }\noutput [count 6d6]",
    ] {
        let (real, guess) = (steps(source), estimated(source));
        assert!(guess.complete, "{source}");
        let ratio = guess.steps / real;
        eprintln!(
            "{source:?}: run {real}, estimate {}, ratio {ratio:.2}",
            guess.steps
        );
        assert!((0.1..=10.0).contains(&ratio), "{source}: {ratio}");
    }
}

/// Programs whose work is past any budget are estimated far over the
/// default 30 s at once, in milliseconds, without running them.
#[test]
fn hostile_programs_are_priced_far_over_the_budget_at_once() {
    let budget = 30.0;
    for source in [
        // Deep recursion, twice at each level.
        "set \"maximum function depth\" to 10000\nfunction: f N:n { result: [f N+1] + [f N+2] }\noutput [f 1]",
        // Recursion that expands a die at each level.
        "set \"maximum function depth\" to 1000\nfunction: f X:n { result: X + [f d6] }\noutput [f d6]",
        // Wide dice.
        "output d1000000 + d1000000",
        "output d1000000 * d1000000",
        "function: f X:n { result: X }\noutput [f d1000000 + d1000000]",
        // Loops over long sequences, alone and nested.
        "loop I over {1..10000000000} { X: I + 1 }",
        "loop A over {1..100000} { loop B over {1..100000} { X: A * B } }",
        // Many dice.
        "output [highest 500 of 1000d1000]",
        "output 1000d1000 * 1000d1000",
        "function: f S:s { result: 1@S }\noutput [f 100d100]",
    ] {
        let started = std::time::Instant::now();
        let guess = estimated(source);
        let took = started.elapsed().as_secs_f64();
        assert!(took < 0.5, "{source}: the estimate took {took} s");
        let far = guess.far_over(budget);
        assert!(far.is_some(), "{source}: estimated {guess}");
        eprintln!("{source:?}: {guess} in {:.2} ms", took * 1e3);
    }
    // 1000d1000 alone: about 4 times the budget, which the run's own
    // charge refuses before it sums anything.
    let sum = estimated("output 1000d1000");
    assert!(
        sum.seconds() > budget && sum.far_over(budget).is_none(),
        "{sum}"
    );
    let refusal = super::super::run("output 1000d1000", budget).unwrap_err();
    assert!(refusal.to_string().contains("over its budget"), "{refusal}");
}

#[test]
fn a_refusal_names_the_estimate_and_the_dearest_part() {
    let guess = estimated("X: 3d6\noutput X\noutput d1000000 * d1000000");
    let message = guess.far_over(30.0).unwrap();
    assert!(
        message.starts_with(
            "the program is estimated before running at about 1.5e12 steps (about 4.9e4 s of work)"
        ),
        "{message}"
    );
    assert!(
        message.contains("the dearest part is an operation on dice at line 3"),
        "{message}"
    );
    assert!(estimated("output 3d6").far_over(30.0).is_none());
}

/// Dice of dice with many known values: priced without listing every sum.
#[test]
fn dice_counted_by_a_die_are_priced_quickly() {
    let started = std::time::Instant::now();
    let guess = estimated("output d64 d d{1,3,7,15,31,63,127,255,511}");
    assert!(started.elapsed().as_secs_f64() < 0.5, "{guess}");
    assert!(guess.steps > 0.0);
}
