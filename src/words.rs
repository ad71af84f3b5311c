//! The interface's own words per language: `templates/i18n/<lang>.yaml`.
//!
//! English (`en.yaml`) is the reference: it names every word the templates
//! and the browser scripts use. Another language's catalogue gives the same
//! keys in its words, how it writes numbers, and (under `figures`) its words
//! for the captions, headers and chart labels of scenarios shown on its
//! pages. A key it lacks is shown in English and reported by `fairdice
//! check`, like a rule not yet translated.

use crate::error::{Error, Result};
use crate::layout::blocks::{Chart, Table};
use crate::layout::locale::NumberStyle;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Where catalogues live under `templates/`.
pub const FOLDER: &str = "i18n/";

/// The reference language, whose catalogue names every key.
const REFERENCE: &str = "en";

/// The keys the browser scripts read (from the page's `data-words`).
const SCRIPT_KEYS: [&str; 14] = [
    "search_none",
    "search_found_one",
    "search_found_many",
    "copy_link",
    "copied",
    "copy_link_to_rule",
    "dark_theme",
    "light_theme",
    "to_dark_theme",
    "to_light_theme",
    "computing",
    "computed_for_values",
    "computed",
    "line",
];

/// One language's catalogue, as written.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Catalogue {
    /// How numbers are written; English's when left out.
    #[serde(default)]
    numbers: Option<NumberStyle>,
    /// The interface's words, by key.
    #[serde(default)]
    words: BTreeMap<String, String>,
    /// Words of scenarios' figures, by their English words.
    #[serde(default)]
    figures: BTreeMap<String, String>,
    /// How dates are written; ISO 8601 (`2026-11-23`) when left out.
    #[serde(default)]
    dates: Option<DateStyle>,
}

/// How a language writes a date.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct DateStyle {
    /// With `{day}`, `{month}` and `{year}`: `{day} {month} {year}`.
    pattern: String,
    /// The twelve months' names, January first.
    months: [String; 12],
    /// The first day of a month, where it is not `1` (`1er` in French).
    #[serde(default)]
    first_day: Option<String>,
}

/// Every language's catalogue.
#[derive(Debug, Clone, Default)]
pub struct Catalogues {
    by_lang: BTreeMap<String, Catalogue>,
}

/// The words of one page's language, English where it lacks one.
#[derive(Debug, Clone)]
pub struct Words<'a> {
    /// Every key, in the page's language where it has the word.
    pub words: BTreeMap<&'a str, &'a str>,
    /// How the page writes numbers.
    pub numbers: NumberStyle,
    figures: Option<&'a BTreeMap<String, String>>,
    dates: Option<&'a DateStyle>,
    /// Whether the page's language has a catalogue: without one every
    /// word is English, and the frame is marked so.
    pub own: bool,
}

impl Catalogues {
    /// The catalogues among the template files (`i18n/<lang>.yaml`), each
    /// read with its problems placed by line and column.
    pub fn read<'f>(files: impl Iterator<Item = (&'f str, &'f [u8])>) -> Result<Catalogues> {
        let mut by_lang = BTreeMap::new();
        let mut errors = Vec::new();
        for (relative, bytes) in files {
            let Some(lang) = (relative.strip_prefix(FOLDER)).and_then(|f| f.strip_suffix(".yaml"))
            else {
                continue;
            };
            let file = format!("templates/{relative}");
            let text = match std::str::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) => {
                    errors.push(Error::file(&file, "not valid UTF-8: save it as UTF-8"));
                    continue;
                }
            };
            match crate::yaml::read::<Catalogue>(text) {
                Ok(catalogue) => {
                    by_lang.insert(lang.to_string(), catalogue);
                }
                Err((line, column, message)) => errors.push(Error::Source {
                    file,
                    line,
                    column,
                    message,
                }),
            }
        }
        match Error::from_list(errors) {
            Some(err) => Err(err),
            None => Ok(Catalogues { by_lang }),
        }
    }

    /// The catalogues compiled in (English alone), for what renders
    /// without a project's templates: reports and tests.
    pub fn builtin() -> &'static Catalogues {
        static BUILTIN: std::sync::OnceLock<Catalogues> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| {
            let english = include_str!("../templates/i18n/en.yaml");
            let file = format!("{FOLDER}{REFERENCE}.yaml");
            Catalogues::read(std::iter::once((file.as_str(), english.as_bytes())))
                .expect("the compiled-in English catalogue reads")
        })
    }

    /// The words of `lang`, English filling what it lacks.
    pub fn words(&self, lang: &str) -> Words<'_> {
        let reference = self.by_lang.get(REFERENCE);
        let own = self.by_lang.get(lang);
        let mut words: BTreeMap<&str, &str> = BTreeMap::new();
        for catalogue in [reference, own].into_iter().flatten() {
            words.extend(
                catalogue
                    .words
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str())),
            );
        }
        Words {
            words,
            numbers: own.and_then(|c| c.numbers.clone()).unwrap_or_default(),
            figures: own.filter(|_| lang != REFERENCE).map(|c| &c.figures),
            dates: own.and_then(|c| c.dates.as_ref()),
            own: own.is_some(),
        }
    }

    /// The reference's keys that `lang` has no word for.
    pub fn missing(&self, lang: &str) -> Vec<&str> {
        let Some(reference) = self.by_lang.get(REFERENCE) else {
            return Vec::new();
        };
        let own = self.by_lang.get(lang);
        reference
            .words
            .keys()
            .filter(|key| !own.is_some_and(|c| c.words.contains_key(*key)))
            .map(String::as_str)
            .collect()
    }

    /// What `fairdice check` says of each translation's interface words:
    /// the keys a language lacks, or its missing catalogue.
    pub fn report(&self, languages: &[&str]) -> Vec<Error> {
        let mut found = Vec::new();
        for lang in languages {
            let file = format!("templates/{FOLDER}{lang}.yaml");
            if !self.by_lang.contains_key(*lang) {
                found.push(Error::file(
                    &file,
                    format!(
                        "{lang}: no catalogue of the interface's words, so menus, search and \
                         footer are shown in English: copy templates/{FOLDER}{REFERENCE}.yaml \
                         to {file} and translate its words"
                    ),
                ));
                continue;
            }
            let missing = self.missing(lang);
            if !missing.is_empty() {
                found.push(Error::file(
                    &file,
                    format!(
                        "{lang}: {} interface word(s) not translated, shown in English: {}; \
                         add them under words: as in templates/{FOLDER}{REFERENCE}.yaml",
                        missing.len(),
                        missing.join(", ")
                    ),
                ));
            }
        }
        found
    }
}

impl Words<'_> {
    /// The word of `key`; the key itself when no catalogue has it (a
    /// project's own `en.yaml` without it), so a page still renders.
    pub fn word<'k>(&'k self, key: &'k str) -> &'k str {
        self.words.get(key).copied().unwrap_or(key)
    }

    /// An ISO date (`2026-11-23`) as the language writes it (`23 novembre
    /// 2026`); as it is when the language keeps ISO dates or it is not one.
    pub fn date(&self, iso: &str) -> String {
        let parts: Vec<&str> = iso.split('-').collect();
        let (Some(style), [year, month, day]) = (self.dates, parts.as_slice()) else {
            return iso.to_string();
        };
        let (Ok(m), Ok(d)) = (month.parse::<usize>(), day.parse::<u32>()) else {
            return iso.to_string();
        };
        let Some(month_name) = m.checked_sub(1).and_then(|m| style.months.get(m)) else {
            return iso.to_string();
        };
        let day = match (&style.first_day, d) {
            (Some(first), 1) => first.clone(),
            _ => d.to_string(),
        };
        style
            .pattern
            .replace("{day}", &day)
            .replace("{month}", month_name)
            .replace("{year}", year)
    }

    /// The words a table shows around its figures.
    pub fn table_words(&self) -> crate::html::TableWords<'_> {
        crate::html::TableWords {
            show_exact: self.word("show_exact"),
            csv_link: self.word("csv_link"),
        }
    }

    /// The words the browser scripts read, as one JSON object.
    pub fn for_scripts(&self) -> String {
        let shown: BTreeMap<&str, &str> = SCRIPT_KEYS
            .iter()
            .filter_map(|key| self.words.get(key).map(|w| (*key, *w)))
            .collect();
        serde_json::to_string(&shown).expect("a map of strings is JSON")
    }

    /// A scenario's figure words in this language, where the catalogue
    /// has them.
    fn figure(&self, english: &mut String) {
        if let Some(own) = self.figures.and_then(|f| f.get(english.as_str())) {
            english.clone_from(own);
        }
    }

    /// The words of a table or chart shown on this language's page that
    /// its catalogue has no words for (none on the reference's pages).
    pub fn untranslated<'t>(&self, shown: impl IntoIterator<Item = &'t String>) -> Vec<&'t str> {
        let Some(figures) = self.figures else {
            return Vec::new();
        };
        let mut missing: Vec<&str> = shown
            .into_iter()
            .filter(|w| !w.trim().is_empty() && !figures.contains_key(w.as_str()))
            .map(String::as_str)
            .collect();
        missing.dedup();
        missing
    }

    /// A table shown on this language's page: its caption and headers in
    /// the language's words where it has them, its numbers in its style.
    pub fn table(&self, table: &mut Table) {
        self.figure(&mut table.caption);
        table.columns.iter_mut().for_each(|c| self.figure(c));
    }

    /// A chart shown on this language's page: its title, description and
    /// axis labels in the language's words where it has them.
    pub fn chart(&self, chart: &mut Chart) {
        self.figure(&mut chart.title);
        self.figure(&mut chart.description);
        // A point's tooltip names its place by the x axis's label ("2
        // players, 2d6: …"): the label's words there follow the label.
        let english = chart.x_label.clone();
        self.figure(&mut chart.x_label);
        if english != chart.x_label && !english.is_empty() {
            for title in chart.series.iter_mut().flat_map(|s| s.titles.iter_mut()) {
                *title = whole_words_replaced(title, &english, &chart.x_label);
            }
        }
        self.figure(&mut chart.y_label);
    }
}

/// `text` with each whole-word `from` (not inside another word) as `to`.
fn whole_words_replaced(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + from.len()..].chars().next();
        let whole =
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric);
        out.push_str(&rest[..at]);
        out.push_str(if whole { to } else { from });
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The project's own template files, as the build embeds them.
    fn template_files() -> Vec<(String, Vec<u8>)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
        walkdir::WalkDir::new(&dir)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let relative = e.path().strip_prefix(&dir).unwrap();
                let name = relative.to_string_lossy().replace('\\', "/");
                (name, std::fs::read(e.path()).unwrap())
            })
            .collect()
    }

    fn defaults() -> Catalogues {
        let files = template_files();
        Catalogues::read(files.iter().map(|(n, b)| (n.as_str(), b.as_slice())))
            .expect("the default catalogues read")
    }

    /// Every word the templates and scripts use is in the reference, and
    /// the French catalogue has all of them: a key added to one template
    /// without its French fails here, not on a reader's screen.
    #[test]
    fn french_has_every_word_english_has() {
        let catalogues = defaults();
        assert!(
            catalogues.missing("fr").is_empty(),
            "{:?}",
            catalogues.missing("fr")
        );
        let words = catalogues.words("fr");
        assert!(words.own);
        assert_eq!(words.words["previous"], "Précédent");
        assert_eq!(words.numbers.decimal, ",");
        for key in SCRIPT_KEYS {
            assert!(catalogues.by_lang["en"].words.contains_key(key), "{key}");
        }
    }

    /// Every `t.KEY` a default template uses is a key of the reference.
    #[test]
    fn every_key_a_template_uses_is_in_english() {
        let catalogues = defaults();
        let english = &catalogues.by_lang["en"].words;
        let mut used = 0;
        for (name, bytes) in template_files() {
            if !name.ends_with(".html") {
                continue;
            }
            let text = String::from_utf8_lossy(&bytes);
            for (at, _) in text.match_indices("t.") {
                let before = text[..at].chars().last();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                    continue;
                }
                let key: String = text[at + 2..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if key.is_empty() {
                    continue;
                }
                used += 1;
                assert!(
                    english.contains_key(&key),
                    "{name} uses t.{key}, not in en.yaml"
                );
            }
        }
        assert!(used > 20, "only {used} words used");
    }

    #[test]
    fn a_tooltip_names_its_place_in_the_axis_words() {
        assert_eq!(
            whole_words_replaced("2 players, 2d6: 73/648", "players", "joueurs"),
            "2 joueurs, 2d6: 73/648"
        );
        assert_eq!(
            whole_words_replaced("multiplayers", "players", "joueurs"),
            "multiplayers"
        );
    }

    #[test]
    fn dates_are_written_as_the_language_writes_them() {
        let catalogues = defaults();
        let fr = catalogues.words("fr");
        assert_eq!(fr.date("2026-11-23"), "23 novembre 2026");
        assert_eq!(fr.date("2027-01-01"), "1er janvier 2027");
        assert_eq!(fr.date("2027-13-01"), "2027-13-01");
        assert_eq!(fr.date("soon"), "soon");
        assert_eq!(catalogues.words("en").date("2026-11-23"), "2026-11-23");
    }

    /// The HTML module's English table words are the catalogue's.
    #[test]
    fn table_words_agree_with_english() {
        let catalogues = defaults();
        let en = catalogues.words("en");
        let words = en.table_words();
        let english = crate::html::TableWords::ENGLISH;
        assert_eq!(
            (words.show_exact, words.csv_link),
            (english.show_exact, english.csv_link)
        );
    }

    #[test]
    fn a_missing_word_is_english_and_reported() {
        let en = "words:\n  next: Next\n  previous: Previous\n";
        let de = "numbers: {decimal: \",\", group: \".\", unit: \" \"}\nwords:\n  next: Weiter\n";
        let catalogues = Catalogues::read(
            [
                ("i18n/en.yaml", en.as_bytes()),
                ("i18n/de.yaml", de.as_bytes()),
            ]
            .into_iter(),
        )
        .unwrap();
        let words = catalogues.words("de");
        assert_eq!(words.words["next"], "Weiter");
        assert_eq!(words.words["previous"], "Previous");
        assert!(words.own && !catalogues.words("es").own);
        let report: Vec<String> = catalogues
            .report(&["de", "es"])
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(report.len(), 2, "{report:?}");
        assert!(report[0].contains("templates/i18n/de.yaml") && report[0].contains("previous"));
        assert!(report[1].contains("templates/i18n/es.yaml") && report[1].contains("no catalogue"));
    }

    #[test]
    fn a_bad_catalogue_is_placed() {
        let bad = "words:\n  next: Next\n  nope: [\n";
        let err = Catalogues::read([("i18n/xx.yaml", bad.as_bytes())].into_iter()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("templates/i18n/xx.yaml:"), "{text}");
        let unknown = "colours: {}\n";
        let err = Catalogues::read([("i18n/xx.yaml", unknown.as_bytes())].into_iter()).unwrap_err();
        assert!(err.to_string().contains("colours"), "{err}");
    }
}
