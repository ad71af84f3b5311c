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

/// A folder shown as a section without an `_index.md` is warned about by
/// `build` and `check`, with the file to add; the build still succeeds, and
/// once the file is there the warning is gone.
#[test]
fn a_section_without_an_index_is_warned_about_with_the_fix() {
    let dir = fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHi.\n"),
        (
            "content/my-dice/t.yaml",
            "title: T\nkind: dice\nrolls: {a: 2d6}\n",
        ),
        (
            "content/my-dice/deeper/u.yaml",
            "title: U\nkind: dice\nrolls: {b: 3d6}\n",
        ),
    ]);
    for command in ["build", "check"] {
        let run = fairdice(&[command], dir.path());
        assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
        let stderr = run.stderr_text();
        for folder in ["my-dice", "my-dice/deeper"] {
            let expected = format!(
                "warning: content/{folder}/: has no _index.md, so its section shows in the menu as"
            );
            assert!(stderr.contains(&expected), "{command}: {stderr}");
            assert!(
                stderr.contains(&format!("add content/{folder}/_index.md")),
                "{stderr}"
            );
        }
    }
    crate::common::write(
        dir.path(),
        "content/my-dice/_index.md",
        "---\ntitle: Dice\n---\n",
    );
    let stderr = fairdice(&["build"], dir.path()).stderr_text();
    assert!(!stderr.contains("content/my-dice/:"), "{stderr}");
    assert!(
        stderr.contains("content/my-dice/deeper/: has no _index.md"),
        "{stderr}"
    );
}
