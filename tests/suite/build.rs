//! End-to-end: small fixture sites built into temporary folders.

use crate::common::{broken_links, fixture, snapshot, write};
use fairdice::build::{self, Project};
use std::fs;

const TEN_DICE: &str = "title: Ten targets\nkind: sum-mod\ndice: d6\ntargets: [2, 10]\n";
const PAGE: &str = "---\ntitle: Method\nweight: 1\n---\n# Method\n\nBin 5 collects {{ value(scenario=\"dice/ten\", path=\"cases.1.bins.5.ways\") }} rolls.\n\n## Bins\n\n{{ table(scenario=\"dice/ten\", id=\"bins-10\") }}\n\n{{ chart(scenario=\"dice/ten\", id=\"sums-10\") }}\n\nSee [the scenario](ten.yaml) or [bins](method.md#bins).\n";

fn site_files() -> Vec<(&'static str, &'static str)> {
    vec![
        ("content/_index.md", "---\ntitle: Home\n---\nWelcome.\n"),
        (
            "content/dice/_index.md",
            "---\ntitle: Dice\n---\nSection text.\n",
        ),
        ("content/dice/ten.yaml", TEN_DICE),
        ("content/dice/method.md", PAGE),
    ]
}

#[test]
fn builds_pages_tables_charts_and_data() {
    let dir = fixture(&site_files());
    let project = Project::at(dir.path());
    let summary = build::build(&project).unwrap();
    assert_eq!((summary.pages, summary.scenarios), (3, 1));
    let site = dir.path().join("site");

    let method = fs::read_to_string(site.join("dice/method.html")).unwrap();
    assert!(
        method.contains("Bin 5 collects 6,061,868 rolls."),
        "{method}"
    );
    assert!(
        method.contains("<span class=\"shown\">6,031,368</span>"),
        "bin 0 of 10d6 mod 10"
    );
    assert!(method.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(method.contains("<title id=\"chart-dice-ten-sums-10-title\">"));
    assert!(
        method.contains("href=\"ten.html\""),
        "a link to a scenario file goes to its page"
    );

    let page = fs::read_to_string(site.join("dice/ten.html")).unwrap();
    assert!(
        page.contains("<span class=\"shown\">4,395,456</span>"),
        "total 35 of 10d6"
    );
    assert!(
        page.contains("<span class=\"exact\">1/2</span>"),
        "exact value beside the display"
    );

    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(site.join("dice/ten.json")).unwrap()).unwrap();
    assert_eq!(json["kind"], "sum-mod");
    assert_eq!(json["results"]["cases"][1]["bins"][0]["ways"], "6031368");
    let csv = fs::read_to_string(site.join("dice/ten.bins-10.csv")).unwrap();
    assert!(
        csv.starts_with("bin,ways,probability,probability (decimal)\n0,6031368,"),
        "{csv}"
    );

    assert_eq!(broken_links(&site), Vec::<String>::new());
}

#[test]
fn scenario_links_in_markdown_must_exist() {
    let mut files = site_files();
    files[3].1 = "# M\n\nSee [nowhere](missing.md) and [x](ten.html#nope).\n";
    let dir = fixture(&files);
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "content/dice/method.md:3:5: broken link \"missing.md\" (in the site \"missing.html\")"
        ),
        "{err}"
    );
    assert!(
        err.contains("content/dice/method.md:3:31: broken link \"ten.html#nope\""),
        "{err}"
    );
}

#[test]
fn output_is_deterministic() {
    let dir = fixture(&site_files());
    let project = Project::at(dir.path());
    build::build(&project).unwrap();
    let first = snapshot(&dir.path().join("site"));
    build::build(&project).unwrap();
    assert_eq!(first, snapshot(&dir.path().join("site")));
}

#[test]
fn check_reports_stale_missing_and_extra_files() {
    let dir = fixture(&site_files());
    let project = Project::at(dir.path());
    build::build(&project).unwrap();
    assert!(build::compare(&project).unwrap().is_clean());

    let site = dir.path().join("site");
    fs::write(site.join("dice/ten.json"), "{}").unwrap();
    fs::write(site.join("leftover.html"), "old").unwrap();
    fs::remove_file(site.join("dice/ten.bins-2.csv")).unwrap();
    let diff = build::compare(&project).unwrap();
    assert_eq!(diff.stale, vec!["dice/ten.json".to_string()]);
    assert_eq!(diff.extra, vec!["leftover.html".to_string()]);
    assert_eq!(diff.missing, vec!["dice/ten.bins-2.csv".to_string()]);
}

#[test]
fn a_failed_build_leaves_the_old_site_untouched() {
    let dir = fixture(&site_files());
    let project = Project::at(dir.path());
    build::build(&project).unwrap();
    let before = snapshot(&dir.path().join("site"));

    write(
        dir.path(),
        "content/dice/bad.yaml",
        "title: Bad\nkind: sum-mod\ndice: d6\ntargets: \"9..2\"\n",
    );
    let err = build::build(&project).unwrap_err().to_string();
    assert_eq!(
        err,
        "content/dice/bad.yaml:4:10: targets: the range \"9..2\" runs backwards: 9 > 2"
    );
    assert_eq!(before, snapshot(&dir.path().join("site")));

    fs::remove_file(dir.path().join("content/dice/bad.yaml")).unwrap();
    write(
        dir.path(),
        "content/dice/method.md",
        "{{ value(scenario=\"dice/ten\", path=\"cases.7\") }}\n",
    );
    let err = build::build(&project).unwrap_err().to_string();
    assert!(err.starts_with("content/dice/method.md:1:1: value(...): scenario \"dice/ten\" has no result at \"cases.7\""), "{err}");
    assert_eq!(before, snapshot(&dir.path().join("site")));
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.contains(".tmp-") || n.contains(".old-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn out_refuses_folders_it_does_not_own() {
    let dir = fixture(&site_files());
    let mut project = Project::at(dir.path());
    for out in [
        dir.path().to_path_buf(),
        dir.path().join("content"),
        "/".into(),
    ] {
        project.out = out.clone();
        let err = build::build(&project).unwrap_err().to_string();
        assert!(
            err.starts_with("refusing to write the site to"),
            "{}: {err}",
            out.display()
        );
    }
    let precious = dir.path().join("precious");
    write(&precious, "notes.txt", "keep me");
    project.out = precious.clone();
    let err = build::build(&project).unwrap_err().to_string();
    assert!(
        err.contains("not empty and holds no earlier fairdice output"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(precious.join("notes.txt")).unwrap(),
        "keep me"
    );

    project.out = dir.path().join("elsewhere/site");
    build::build(&project).unwrap();
    build::build(&project).unwrap();
    assert!(dir.path().join("elsewhere/site/dice/ten.html").is_file());
}

#[test]
fn all_load_errors_are_reported_together() {
    let mut files = site_files();
    files.push((
        "content/a.yaml",
        "title: A\nkind: sum-mod\ndice: d1\ntargets: 2\n",
    ));
    files.push(("content/b.md", "---\ntitle: B\nweight: [1]\n---\n"));
    let dir = fixture(&files);
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].starts_with("content/a.yaml:3:7: "), "{err}");
    assert!(
        lines[1].starts_with("content/b.md:3:9: front matter: weight: invalid type"),
        "{err}"
    );
}

#[test]
fn charts_of_two_scenarios_on_one_page_keep_distinct_ids() {
    let dir = fixture(&[
        ("content/a.yaml", "title: A\nkind: sum-mod\ndice: d6\ntargets: 2\n"),
        ("content/b.yaml", "title: B\nkind: sum-mod\ndice: d8\ntargets: 2\n"),
        (
            "content/both.md",
            "# Both\n\n{{ chart(scenario=\"a\", id=\"bins-2\") }}\n\n{{ chart(scenario=\"b\", id=\"bins-2\") }}\n",
        ),
    ]);
    build::build(&Project::at(dir.path())).unwrap();
    let html = fs::read_to_string(dir.path().join("site/both.html")).unwrap();
    let mut ids: Vec<&str> = html
        .split("id=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "duplicate ids on the page");
    assert!(
        html.contains("id=\"chart-a-bins-2-title\"")
            && html.contains("id=\"chart-b-bins-2-title\"")
    );
}
