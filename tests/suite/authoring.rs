//! Errors that lead to the fix: a single value where a list is expected,
//! references that list what exists.

use crate::common::{fairdice, fixture};

/// `eval --json` of one scenario file in a fresh project: exit status, stdout, stderr.
fn eval(yaml: &str) -> (bool, String, String) {
    let dir = fixture(&[("s.yaml", yaml)]);
    let run = fairdice(&["eval", "--json", "--quiet", "s.yaml"], dir.path());
    (
        run.status.success(),
        String::from_utf8_lossy(&run.stdout).replace("s.yaml", "FILE"),
        run.stderr_text(),
    )
}

#[test]
fn a_single_value_reads_as_a_list_of_one() {
    for (one, list) in [
        (
            "title: T\nkind: reroll\ncards: [3, 5]\ndice: d20\n",
            "title: T\nkind: reroll\ncards: [3, 5]\ndice: [d20]\n",
        ),
        (
            "title: T\nkind: first-player\nplayers: 3\ndice: 2d6\nties: reroll-tied\n",
            "title: T\nkind: first-player\nplayers: 3\ndice: [2d6]\nties: [reroll-tied]\n",
        ),
        (
            "title: T\nkind: reroll\ncards: 4\ndice: d6\n",
            "title: T\nkind: reroll\ncards: [4]\ndice: [d6]\n",
        ),
    ] {
        let (ok, printed, stderr) = eval(one);
        assert!(ok, "{one}: {stderr}");
        assert_eq!(printed, eval(list).1, "{one}");
    }
}

#[test]
fn a_bad_single_value_is_reported_where_it_stands() {
    for (yaml, expected) in [
        (
            "title: T\nkind: reroll\ncards: 3\ndice: d1\n",
            "s.yaml:4:7: ",
        ),
        (
            "title: T\nkind: first-player\nplayers: 2\ndice: d6\nties: reroll-some\n",
            "s.yaml:5:7: ",
        ),
        (
            "title: T\nkind: first-player\nplayers: 2\ndice: {d6: 1}\nties: reroll-all\n",
            "one value or a list of values, such as [d6, d8]",
        ),
    ] {
        let (ok, _, stderr) = eval(yaml);
        assert!(!ok, "{yaml}");
        assert!(stderr.contains(expected), "{yaml}: {stderr}");
    }
}
