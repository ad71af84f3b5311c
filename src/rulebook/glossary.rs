//! The glossary: one file of terms, `content/_glossary.yaml`, each with its
//! definition, other spellings and optionally the rule that governs it.
//! The site lists them on a glossary page and marks the first use of each
//! term on every page with its definition.

use crate::error::Error;
use serde::Deserialize;
use std::collections::HashMap;

/// The glossary's file, relative to `content/`.
pub const SOURCE: &str = "_glossary.yaml";

/// One term.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The term as the glossary lists it.
    pub term: String,
    /// What it means: plain text.
    pub definition: String,
    /// Other spellings marked like the term (plurals, verb forms).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The key of a numbered rule about the term.
    #[serde(default)]
    pub rule: Option<String>,
    /// Where the term carries this sense: pages (`rules/start-of-game.md`)
    /// and folders (`rules/`) of `content/`. Empty: every page. Outside
    /// its scope a word is marked only where the author links it as
    /// `[words](term:NAME)`.
    #[serde(default)]
    pub scope: Vec<String>,
    /// Whether uses are found and marked without the author's link
    /// (default); `false` marks the term only where it is linked.
    #[serde(default = "yes")]
    pub auto: bool,
    /// 1-based line of the entry in the file (filled when read).
    #[serde(skip)]
    pub line: usize,
}

fn yes() -> bool {
    true
}

/// Read the glossary's text: a list of entries. Errors carry the line and
/// column; two entries of one term (or alias) are refused.
pub fn parse(text: &str, prefix: &str) -> Result<Vec<Entry>, Error> {
    let file = format!("{prefix}{SOURCE}");
    let at = |line: usize, column: usize, message: String| Error::Source {
        file: file.clone(),
        line,
        column,
        message,
    };
    let mut entries: Vec<Entry> = crate::yaml::read(text).map_err(|problem| {
        let (line, column, message) = problem;
        at(
            line,
            column,
            format!(
                "glossary: {message}; expected a list of entries with term, definition and \
                 optionally aliases, rule, scope and auto"
            ),
        )
    })?;
    let starts: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("- "))
        .map(|(i, _)| i + 1)
        .collect();
    // By spelling, the line of the entry that has it: one look-up per
    // spelling, so a hundred thousand aliases cost no more than their bytes.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, entry) in entries.iter_mut().enumerate() {
        entry.line = starts.get(i).copied().unwrap_or(1);
        for name in std::iter::once(&entry.term).chain(&entry.aliases) {
            let lower = name.trim().to_lowercase();
            if lower.is_empty() {
                return Err(at(entry.line, 1, "glossary: an empty term or alias".into()));
            }
            if let Some(line) = seen.get(&lower) {
                return Err(at(
                    entry.line,
                    1,
                    format!(
                        "glossary: {name:?} is already a term or alias of the entry at line \
                         {line}: each spelling belongs to one term"
                    ),
                ));
            }
            seen.insert(lower, entry.line);
        }
    }
    Ok(entries)
}

/// Whether a page (its path in `content/`) is in a scope of pages and
/// folders; an empty scope holds every page.
pub(crate) fn in_scope(scope: &[String], page: &str) -> bool {
    scope.is_empty()
        || scope.iter().any(|s| {
            s == page
                || page
                    .strip_prefix(s.trim_end_matches('/'))
                    .is_some_and(|rest| rest.starts_with('/'))
        })
}

/// Check that each entry's scope names pages or folders of the site
/// (`sources`, paths in `content/`): a scope that holds no page would
/// silently mark the term nowhere. `file` is the glossary as reported.
pub(crate) fn check_scopes(entries: &[Entry], sources: &[&str], file: &str) -> Result<(), Error> {
    for entry in entries {
        for place in &entry.scope {
            let scope = std::slice::from_ref(place);
            if sources.iter().any(|s| in_scope(scope, s)) {
                continue;
            }
            let near = crate::engine::nearest::nearest(place, sources, 3);
            return Err(Error::Source {
                file: file.to_string(),
                line: entry.line,
                column: 1,
                message: format!(
                    "glossary: the scope of {:?} names {place:?}, which is no page or folder \
                     of content/; expected paths like rules/start-of-game.md or rules/ \
                     (nearest: {})",
                    entry.term,
                    near.join(", ")
                ),
            });
        }
    }
    Ok(())
}

/// The entries in the order a reader of `lang` (a language tag, `en-GB`,
/// `fr`) looks a word up: letters compared without their accents or case
/// (`écart` between `eau` and `essai`, as French, English and German
/// dictionaries have it), then with them; where a language's alphabet puts
/// a letter of its own after `z` or `n` (Spanish `ñ`; Swedish and Finnish
/// `å ä ö`; Danish and Norwegian `æ ø å`) it stands there.
pub(crate) fn alphabetical<'e>(entries: &'e [Entry], lang: &str) -> Vec<&'e Entry> {
    let language = lang
        .split(['-', '_'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut sorted: Vec<(Vec<u32>, String, &Entry)> = entries
        .iter()
        .map(|entry| {
            let lower = entry.term.to_lowercase();
            (primary(&lower, &language), lower, entry)
        })
        .collect();
    sorted.sort_by(|a, b| (&a.0, &a.1, &a.2.term).cmp(&(&b.0, &b.1, &b.2.term)));
    sorted.into_iter().map(|(_, _, entry)| entry).collect()
}

/// Letters with accents and the base letters they are looked up under.
const FOLDS: &[(&str, &str)] = &[
    ("àáâãäåāăą", "a"),
    ("çćĉċč", "c"),
    ("ďđ", "d"),
    ("èéêëēĕėęě", "e"),
    ("ĝğġģ", "g"),
    ("ĥħ", "h"),
    ("ìíîïĩīĭįı", "i"),
    ("ĵ", "j"),
    ("ķ", "k"),
    ("ĺļľŀł", "l"),
    ("ñńņňŉ", "n"),
    ("òóôõöøōŏő", "o"),
    ("ŕŗř", "r"),
    ("śŝşšș", "s"),
    ("ţťŧț", "t"),
    ("ùúûüũūŭůűų", "u"),
    ("ŵ", "w"),
    ("ýÿŷ", "y"),
    ("źżž", "z"),
    ("æ", "ae"),
    ("œ", "oe"),
    ("ß", "ss"),
    ("þ", "th"),
];

/// The letters a language's alphabet adds after another, in order.
fn own_letters(language: &str) -> Option<(char, &'static str)> {
    match language {
        "es" => Some(('n', "ñ")),
        "sv" | "fi" => Some(('z', "åäö")),
        "da" | "nb" | "nn" | "no" => Some(('z', "æøå")),
        _ => None,
    }
}

/// The first comparison of a lowercased term: each letter as its base
/// letter (a letter of the language's own after the one it follows).
/// Weights are code points times 8, so a language's own letters fit in
/// between; spaces, digits and signs keep their code points' order,
/// before the letters.
fn primary(lower: &str, language: &str) -> Vec<u32> {
    let own = own_letters(language);
    let mut weights = Vec::with_capacity(lower.len());
    for c in lower.chars() {
        if let Some((after, letters)) = own {
            if let Some(place) = letters.chars().position(|l| l == c) {
                weights.push(after as u32 * 8 + 1 + place as u32);
                continue;
            }
        }
        match FOLDS.iter().find(|(accented, _)| accented.contains(c)) {
            Some((_, base)) => weights.extend(base.chars().map(|b| b as u32 * 8)),
            None => weights.push(c as u32 * 8),
        }
    }
    weights
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 41, item 7b: the glossary page lists its terms in the order
    /// of the reader's language.
    #[test]
    fn terms_are_listed_alphabetically_in_the_readers_language() {
        let entries = |terms: &[&str]| -> Vec<Entry> {
            terms
                .iter()
                .map(|term| Entry {
                    term: term.to_string(),
                    definition: String::new(),
                    aliases: Vec::new(),
                    rule: None,
                    scope: Vec::new(),
                    auto: true,
                    line: 1,
                })
                .collect()
        };
        let order = |terms: &[&str], lang: &str| -> Vec<String> {
            alphabetical(&entries(terms), lang)
                .into_iter()
                .map(|e| e.term.clone())
                .collect()
        };
        let terms = [
            "tie",
            "Round",
            "banish",
            "even odds",
            "expected rolls",
            "memory zone",
        ];
        assert_eq!(
            order(&terms, "en"),
            [
                "banish",
                "even odds",
                "expected rolls",
                "memory zone",
                "Round",
                "tie"
            ]
        );
        let french = ["essai", "écart", "Eau", "zéro", "égalité", "dé", "de", "Dé"];
        assert_eq!(
            order(&french, "fr"),
            ["de", "Dé", "dé", "Eau", "écart", "égalité", "essai", "zéro"]
        );
        assert_eq!(order(&["ñu", "nz", "oa"], "es"), ["nz", "ñu", "oa"]);
        assert_eq!(order(&["ñu", "nz", "oa"], "en"), ["ñu", "nz", "oa"]);
        assert_eq!(
            order(&["öl", "zebra", "åra", "ära", "ob"], "sv-SE"),
            ["ob", "zebra", "åra", "ära", "öl"]
        );
        assert_eq!(
            order(&["øl", "æble", "zebra", "åben"], "da"),
            ["zebra", "æble", "øl", "åben"]
        );
        assert_eq!(
            order(&["Straße", "strasse", "strand"], "de"),
            ["strand", "strasse", "Straße"]
        );
    }

    #[test]
    fn entries_are_read_with_their_lines() {
        let text = "- term: banish\n  definition: Remove a card.\n  aliases: [banished]\n\
                    - term: stage\n  definition: One step.\n  rule: banish-procedure\n";
        let entries = parse(text, "content/").unwrap();
        assert_eq!(entries[1].line, 4);
        assert_eq!(entries[1].rule.as_deref(), Some("banish-procedure"));
        let err = parse(
            "- term: a\n  definition: x\n- term: b\n  definition: y\n  aliases: [A]\n",
            "content/",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("content/_glossary.yaml:3:1: glossary: \"A\" is already"),
            "{err}"
        );
        let err = parse("- term: a\n  meaning: x\n", "content/")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("content/_glossary.yaml:2:3: glossary: ")
                && err.contains("unknown field `meaning`"),
            "{err}"
        );
    }

    #[test]
    fn duplicates_among_many_aliases_are_still_found() {
        let aliases: Vec<String> = (0..20_000).map(|i| format!("w{i}")).collect();
        let text = format!(
            "- term: banish\n  definition: Remove.\n  aliases: [{}]\n\
             - term: stage\n  definition: One step.\n  aliases: [Step, W19999]\n",
            aliases.join(", ")
        );
        let err = parse(&text, "content/").unwrap_err().to_string();
        assert!(
            err.starts_with(
                "content/_glossary.yaml:4:1: glossary: \"W19999\" is already a term or alias \
                 of the entry at line 1"
            ),
            "{err}"
        );
        let err = parse(
            "- term: a\n  definition: x\n  aliases: [b, ' B ']\n",
            "content/",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("\" B \" is already"), "{err}");
        let fine = text.replace(", W19999]", "]");
        assert!(parse(&fine, "content/").unwrap()[0].auto);
        assert_eq!(parse(&fine, "content/").unwrap()[0].aliases.len(), 20_000);
    }

    #[test]
    fn a_scope_names_pages_or_folders_that_exist() {
        let text = "- term: tie\n  definition: Equal.\n- term: round\n  definition: One roll.\n  \
                    scope: [rules/start.md, guide/]\n  auto: false\n";
        let entries = parse(text, "content/").unwrap();
        assert_eq!(entries[1].scope, ["rules/start.md", "guide/"]);
        assert!(!entries[1].auto);
        let sources = ["rules/start.md", "guide/deep/a.md", "index.md"];
        assert!(check_scopes(&entries, &sources, "content/_glossary.yaml").is_ok());
        let gone = text.replace("guide/]", "rules/starts.md]");
        let err = check_scopes(
            &parse(&gone, "").unwrap(),
            &sources,
            "content/_glossary.yaml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with(
                "content/_glossary.yaml:3:1: glossary: the scope of \"round\" names \
                 \"rules/starts.md\", which is no page"
            ) && err.contains("(nearest: rules/start.md,"),
            "{err}"
        );
        // A folder is a whole name: `gui/` holds nothing here.
        let part = text.replace("guide/]", "gui/]");
        assert!(check_scopes(&parse(&part, "").unwrap(), &sources, "g").is_err());
    }
}
