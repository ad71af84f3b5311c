//! The reference documentation is tested: every scenario example in it
//! parses and builds, every kind and its figures are documented, every
//! command-line flag is described, and the CI workflow runs the documented
//! local script.

use crate::common::fairdice;
use ::fairdice::build::{self, Project};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn reference() -> String {
    fs::read_to_string(repo().join("docs/reference.md")).unwrap()
}

/// The contents of every ```yaml block, with the line it starts on.
fn yaml_blocks(markdown: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        match (&mut current, line.trim_end()) {
            (None, "```yaml") => current = Some((i + 2, String::new())),
            (Some(_), "```") => blocks.push(current.take().unwrap()),
            (Some((_, text)), line) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "an unclosed ```yaml block");
    blocks
}

/// The reference's section about `kind`, up to the next `##`/`###` heading.
fn kind_section<'a>(markdown: &'a str, kind: &str) -> Option<&'a str> {
    let heading = format!("### Kind `{kind}`\n");
    let start = markdown.find(&heading)? + heading.len();
    let rest = &markdown[start..];
    let end = rest
        .find("\n## ")
        .or_else(|| rest.find("\n### "))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

#[test]
fn every_scenario_example_parses_and_builds() {
    let text = reference();
    let blocks = yaml_blocks(&text);
    assert!(blocks.len() >= 3, "the reference has scenario examples");
    let dir = tempfile::tempdir().unwrap();
    crate::common::write(dir.path(), "content/_index.md", "# Examples\n");
    for (i, (line, yaml)) in blocks.iter().enumerate() {
        // A block that names its file (`# content/cards/log.yaml`, for an
        // example another names) is written there.
        let name = yaml
            .lines()
            .next()
            .and_then(|first| first.strip_prefix("# content/"))
            .map_or_else(|| format!("example-{i}.yaml"), str::to_string);
        ::fairdice::scenario::parse(&name, yaml)
            .unwrap_or_else(|e| panic!("docs/reference.md:{line}: {e}"));
        crate::common::write(dir.path(), &format!("content/{name}"), yaml);
    }
    // No templates/ folder: the built-in templates are used.
    let summary = build::build(&Project::at(dir.path()))
        .unwrap_or_else(|e| panic!("the examples must build and their gates hold:\n{e}"));
    assert_eq!(summary.scenarios, blocks.len());
}

#[test]
fn every_kind_is_documented_with_its_figures_and_an_example() {
    let text = reference();
    let blocks = yaml_blocks(&text);
    for kind in ::fairdice::kinds::names() {
        let section = kind_section(&text, kind)
            .unwrap_or_else(|| panic!("docs/reference.md has no section \"### Kind `{kind}`\""));
        let examples: Vec<_> = yaml_blocks(section)
            .into_iter()
            .map(|(_, yaml)| ::fairdice::scenario::parse("e.yaml", &yaml).unwrap())
            .filter(|s| s.params.kind() == kind)
            .collect();
        assert!(!examples.is_empty(), "no example of kind {kind}");
        let mut figures = BTreeSet::new();
        for example in &examples {
            let results = example
                .params
                .analyse(&::fairdice::progress::Progress::hidden())
                .to_json();
            for case in ::fairdice::gates::cases(&results) {
                figures.extend(::fairdice::gates::case_figures(case).into_keys());
            }
        }
        for figure in figures {
            assert!(
                section.contains(&format!("| `{figure}` |")),
                "kind {kind}: the figure `{figure}` is not in its table of figures"
            );
        }
    }
    assert!(blocks.iter().any(|(_, yaml)| yaml.contains("expect:")));
}

/// The long flags in a `--help` text.
fn flags(help: &str) -> BTreeSet<String> {
    help.split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']')
        .filter(|word| word.starts_with("--") && word.len() > 2)
        .map(|word| word.trim_end_matches(['.', ':']).to_string())
        .collect()
}

#[test]
fn every_command_and_flag_is_in_the_reference() {
    let text = reference();
    let here = repo();
    let help = String::from_utf8(fairdice(&["--help"], here).stdout.clone()).unwrap();
    let commands: Vec<String> = help
        .split_once("Commands:")
        .unwrap()
        .1
        .lines()
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .filter(|command| command != "help")
        .collect();
    assert!(commands.len() >= 5, "{commands:?}");
    let mut seen = BTreeSet::new();
    for command in &commands {
        assert!(
            text.contains(&format!("### `fairdice {command}")),
            "no section for `fairdice {command}`"
        );
        let help = fairdice(&[command, "--help"], here);
        for flag in flags(&String::from_utf8_lossy(&help.stdout)) {
            seen.insert(flag.clone());
            assert!(
                text.contains(&format!("`{flag}")),
                "`fairdice {command} {flag}` is not documented"
            );
        }
    }
    for flag in [
        "--no-cache",
        "--port",
        "--check",
        "--json",
        "--quiet",
        "--out",
    ] {
        assert!(seen.contains(flag), "{flag} in {seen:?}");
    }
}

#[test]
fn the_workflow_runs_the_local_script_on_content_and_template_changes() {
    let workflow: serde_yaml::Value = serde_yaml::from_str(
        &fs::read_to_string(repo().join(".github/workflows/site.yml")).unwrap(),
    )
    .unwrap();
    let paths = &workflow["on"]["push"]["paths"];
    for folder in ["content/**", "templates/**"] {
        assert!(
            paths
                .as_sequence()
                .unwrap()
                .iter()
                .any(|p| p.as_str() == Some(folder)),
            "{folder}"
        );
    }
    let text = fs::read_to_string(repo().join(".github/workflows/site.yml")).unwrap();
    assert!(
        text.contains("scripts/site-ci.sh"),
        "the workflow runs the local script"
    );
    let script = fs::read_to_string(repo().join("scripts/site-ci.sh")).unwrap();
    assert!(script.contains("--locked"), "{script}");
    assert!(script.contains(" check"), "{script}");
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(readme.contains("scripts/site-ci.sh"));
    assert!(readme.contains(".github/workflows/site.yml"));
}

/// The paragraph of `text` that begins with `start`, up to a blank line.
fn paragraph<'a>(text: &'a str, start: &str) -> Option<&'a str> {
    let from = text.find(start)?;
    let rest = &text[from..];
    Some(&rest[..rest.find("\n\n").unwrap_or(rest.len())])
}

/// Issue 26: the guide to adding a kind named 5 of 8 kinds. It and the
/// README's list name every registered kind.
#[test]
fn the_guide_and_the_readme_name_every_kind() {
    for (file, start) in [
        ("docs/adding-a-kind.md", "A kind is what"),
        ("README.md", "Kinds: "),
    ] {
        let text = fs::read_to_string(repo().join(file)).unwrap();
        let listed = paragraph(&text, start)
            .unwrap_or_else(|| panic!("{file}: no paragraph beginning {start:?}"));
        for kind in ::fairdice::kinds::names() {
            assert!(
                listed.contains(&format!("`{kind}`")),
                "{file}: the paragraph beginning {start:?} does not name the kind `{kind}` \
                 (registered in src/kinds.rs)"
            );
        }
    }
}

/// Every file or folder of the repository the guide names in backticks
/// (without a `<placeholder>`) exists.
#[test]
fn the_guide_names_only_files_that_exist() {
    let text = fs::read_to_string(repo().join("docs/adding-a-kind.md")).unwrap();
    let roots = ["src/", "tests/", "docs/", "scripts/", "templates/", "wasm/"];
    let named = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| roots.iter().any(|root| s.starts_with(root)))
        .filter(|s| !s.contains(['<', '*', ' ']));
    for path in named {
        assert!(
            repo().join(path).exists(),
            "docs/adding-a-kind.md names {path}, which does not exist"
        );
    }
}

/// GitHub's anchor for a heading: lower case, punctuation dropped but `-`
/// and `_`, each space a `-`.
fn github_anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The reference's table of contents lists every `##` and `###` heading
/// outside code, in order and nested as they are, each linked to its
/// anchor: a section added without its line fails here.
#[test]
fn the_reference_contents_list_every_section() {
    let text = reference();
    let mut fenced = false;
    let mut expected = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let (indent, heading) = match line {
            _ if fenced => continue,
            l if l.starts_with("## ") => ("", &l[3..]),
            l if l.starts_with("### ") => ("  ", &l[4..]),
            _ => continue,
        };
        expected.push(format!(
            "{indent}- [{heading}](#{})",
            github_anchor(heading)
        ));
    }
    let contents: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("- ["))
        .take_while(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    assert!(expected.len() > 30, "{expected:?}");
    assert_eq!(contents, expected);
}
