//! The layers run one way: foundation (engine) <- analyses <- layout <- load <- faces <- site <-
//! build <- command line. A module may use its own layer and those below,
//! never one above; and no two modules may use each other, directly or round
//! a loop (a parent and its own submodules excepted, as Rust needs).
//!
//! A plain scan of `crate::` and `super::` paths in the sources is enough:
//! it sees `use` lines and inline paths alike.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every top-level module, by layer, lowest first. A new module must be
/// placed here, or this test fails. A part of a module may be placed on a
/// layer of its own (`rulebook::releases`): it then counts as a unit apart,
/// so the rule book's parts sit on the layers they serve, one folder still.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundation",
        &[
            "engine",
            "hash",
            "progress",
            "paths",
            "limits",
            "printable",
            "flow",
            "isolated",
        ],
    ),
    // The languages read text into the engine's types.
    ("languages", &["lang"]),
    ("analyses", &["analyses"]),
    ("layout", &["layout", "kinds", "gates"]),
    (
        "load",
        &[
            "scenario",
            "content",
            "error",
            "rulebook::releases",
            "rulebook::glossary",
            "rulebook::made",
            "config",
            "history",
            "yaml",
        ],
    ),
    // What the reader's browser runs as well: charts, a scenario's blocks
    // as HTML, and the calculators (wasm/ depends on nothing above).
    ("faces", &["charts", "html", "calculator"]),
    (
        "site",
        &[
            "site",
            "markdown",
            "rulebook",
            "shortcodes",
            "output",
            "words",
        ],
    ),
    (
        "build",
        &["build", "cache", "shard", "rulebook::publish", "verify"],
    ),
    (
        "command line",
        &[
            "ui",
            "terminal",
            "roll_command",
            "anydice_command",
            "serve",
            "init",
            "main",
        ],
    ),
];

fn layer_of(module: &str) -> Option<usize> {
    let unit = unit(module);
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&unit))
}

/// The placed module or part that `module` belongs to: the longest of its
/// ancestors named in [`LAYERS`], else its top-level module.
fn unit(module: &str) -> &str {
    let placed = LAYERS.iter().flat_map(|(_, modules)| modules.iter());
    placed
        .filter(|p| is_ancestor(p, module))
        .max_by_key(|p| p.len())
        .copied()
        .unwrap_or_else(|| top(module))
}

/// Module path (`analyses::race::search`) of every source file.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    for entry in walkdir::WalkDir::new(src) {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let relative = path.strip_prefix(src).unwrap().with_extension("");
        let mut parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        if parts == ["lib"] {
            continue;
        }
        found.insert(parts.join("::"), path.to_path_buf());
    }
    found
}

/// The modules a file's code names, as paths: `crate::a::b::Item` and
/// `super::x::Item`, resolved against the file's own path.
fn references(module: &str, text: &str) -> BTreeSet<Vec<String>> {
    let own: Vec<&str> = module.split("::").collect();
    let mut found = BTreeSet::new();
    // Code only: a doc link upward is harmless. Tests are scanned too: a
    // test may not reach upward either.
    let text: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    for start in ["crate::", "super::"] {
        for (at, _) in text.match_indices(start) {
            let before = text[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: Vec<String> = text[at..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect();
            let mut resolved: Vec<String> = Vec::new();
            let mut rest = path.as_slice();
            if rest.first().is_some_and(|p| p == "crate") {
                rest = &rest[1..];
            } else {
                // `super` from a file module is its parent; from `mod.rs`
                // (a module with children) the same rule holds on its path.
                let mut base: Vec<&str> = own.clone();
                while rest.first().is_some_and(|p| p == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                resolved.extend(base.iter().map(|s| s.to_string()));
            }
            resolved.extend(rest.iter().cloned());
            found.insert(resolved);
        }
    }
    found
}

/// The longest prefix of `path` that is a module.
fn target(path: &[String], modules: &BTreeMap<String, PathBuf>) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| modules.contains_key(m))
}

fn is_ancestor(a: &str, b: &str) -> bool {
    a == b || b.starts_with(&format!("{a}::"))
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = modules(&src);
    let mut edges = BTreeMap::new();
    for (module, path) in &modules {
        let text = std::fs::read_to_string(path).unwrap();
        let targets: BTreeSet<String> = references(module, &text)
            .iter()
            .filter_map(|p| target(p, &modules))
            .filter(|t| !is_ancestor(t, module) && !is_ancestor(module, t))
            .collect();
        edges.insert(module.clone(), targets);
    }
    edges
}

fn top(module: &str) -> &str {
    module.split("::").next().unwrap()
}

#[test]
fn every_module_uses_only_its_layer_and_those_below() {
    let mut wrong = Vec::new();
    for (module, targets) in graph() {
        let Some(own) = layer_of(&module) else {
            wrong.push(format!("{module}: not in any layer (add it to LAYERS)"));
            continue;
        };
        for t in targets {
            match layer_of(&t) {
                Some(layer) if layer > own => wrong.push(format!(
                    "{module} ({}) uses {t} ({}), a layer above",
                    LAYERS[own].0, LAYERS[layer].0
                )),
                _ => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_modules_use_each_other() {
    let edges = graph();
    // Depth-first search for a back edge, at the level of files and again
    // at the level of top-level modules (and parts placed apart).
    let tops: BTreeMap<String, BTreeSet<String>> =
        edges.iter().fold(BTreeMap::new(), |mut acc, (m, ts)| {
            let entry: &mut BTreeSet<String> = acc.entry(unit(m).to_string()).or_default();
            entry.extend(
                ts.iter()
                    .map(|t| unit(t).to_string())
                    .filter(|t| t != unit(m)),
            );
            acc
        });
    for graph in [&edges, &tops] {
        if let Some(cycle) = find_cycle(graph) {
            panic!("import cycle: {}", cycle.join(" -> "));
        }
    }
}

fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|n| n == next).unwrap();
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(cycle) = visit(next, graph, state, stack) {
                        return Some(cycle);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(cycle) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(cycle);
            }
        }
    }
    None
}

#[test]
fn the_scan_sees_crate_and_super_paths() {
    let found = references(
        "analyses::race::mixed",
        "use super::search::TOO_CLOSE;\nlet x = crate::engine::to_f64(&y);\n// notcrate::x\n/// [`crate::layout`]\n",
    );
    let path = |parts: &[&str]| parts.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    assert!(found.contains(&path(&["analyses", "race", "search", "TOO_CLOSE"])));
    assert!(found.contains(&path(&["engine", "to_f64"])));
    assert_eq!(found.len(), 2);
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert!(find_cycle(&graph).is_some());
    graph.insert("b".to_string(), BTreeSet::new());
    assert!(find_cycle(&graph).is_none());
}
