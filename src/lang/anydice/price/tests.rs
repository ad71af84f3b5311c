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
