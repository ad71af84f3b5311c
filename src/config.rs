//! The site file, `fairdice.yaml` at the project root: what the whole site
//! needs to know about where it lives (title, address, language, source
//! repository). Optional: without it the site is titled by its home page,
//! in English, with no absolute addresses.
//!
//! Every value checks itself while it is read, so a bad one is reported at
//! its own line and column. Addresses are `http:` or `https:` only, so
//! nothing written here can become a `javascript:` link.

use crate::error::{Error, Result};
use crate::paths;
use serde::de::{self, Deserializer};
use serde::Deserialize;
use std::path::Path;

/// The site file's name, at the project root.
pub const FILE: &str = "fairdice.yaml";

/// The settings of the whole site.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The site's name, in every page title and the header; default: the
    /// home page's title.
    #[serde(default)]
    pub title: Option<Title>,
    /// Where the site is published; enables `sitemap.xml`, canonical links
    /// and absolute link-preview addresses.
    #[serde(default)]
    pub base_url: Option<BaseUrl>,
    /// The pages' language, as `<html lang>`.
    #[serde(default)]
    pub language: Language,
    /// Where the sources are kept; enables "edit this page" links.
    #[serde(default)]
    pub repository: Option<WebAddress>,
    /// The branch edit links open (default `main`).
    #[serde(default)]
    pub branch: Branch,
    /// The languages the site is translated into, each with its name in
    /// its own language (`fr: Français`); translations live in
    /// `content/_translations/<code>/`.
    #[serde(default, deserialize_with = "language_names")]
    pub translations: std::collections::BTreeMap<Language, String>,
}

impl Config {
    /// The address of a page from its output path, when the site has one.
    pub(crate) fn page_url(&self, output: &str) -> Option<String> {
        let base = self.base_url.as_ref()?;
        Some(format!("{}{}", base.0, paths::href("", output)))
    }

    /// The "edit this page" address of a source file in `content/`.
    pub(crate) fn edit_url(&self, source: &str) -> Option<String> {
        let repository = self.repository.as_ref()?;
        let mut url = format!(
            "{}/edit/{}/content/",
            repository.0.trim_end_matches('/'),
            self.branch.0
        );
        url.push_str(&paths::href("", source));
        Some(url)
    }
}

/// Read `ROOT/fairdice.yaml`; the defaults when there is none.
pub fn load(root: &Path) -> Result<Config> {
    let path = root.join(FILE);
    if !path.exists() && !path.is_symlink() {
        return Ok(Config::default());
    }
    let text = crate::content::read_text(&path, FILE)?;
    parse(&text).map_err(|(line, column, message)| Error::Source {
        file: FILE.into(),
        line,
        column,
        message,
    })
}

/// Parse the site file's text; errors carry line, column and message.
pub fn parse(text: &str) -> std::result::Result<Config, (usize, usize, String)> {
    let blank = text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    if blank {
        return Ok(Config::default());
    }
    let config: Config = crate::yaml::read(text)?;
    let own = &config.language;
    if let Some(code) = config.translations.keys().find(|code| code.is(&own.0)) {
        let (line, column) = key_place(text, &code.0);
        let own = &own.0;
        return Err((
            line,
            column,
            format!(
                "translations: {:?} is the site's own language (`language: {own}`): list \
                 only the languages the pages are translated into",
                code.0
            ),
        ));
    }
    Ok(config)
}

/// Where the key `code` is written under `translations:`, for errors.
fn key_place(text: &str, code: &str) -> (usize, usize) {
    let under = text
        .lines()
        .position(|l| l.starts_with("translations:"))
        .unwrap_or(0);
    text.lines()
        .enumerate()
        .skip(under)
        .find_map(|(i, l)| {
            let column = l.len() - l.trim_start().len();
            let key = l.trim_start().trim_start_matches(['"', '\'']);
            key.starts_with(code)
                .then_some((i + 1, column + 1))
                .filter(|_| {
                    key[code.len()..]
                        .trim_start_matches(['"', '\''])
                        .starts_with(':')
                })
        })
        .unwrap_or((under + 1, 1))
}

/// A value read from a string and checked by `check`, which says what was
/// expected when it fails. Checking inside the visitor lets serde_yaml
/// attach the value's line and column to the error.
fn checked<'de, D, T>(
    deserializer: D,
    check: fn(&str) -> std::result::Result<T, String>,
) -> std::result::Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    struct Checked<T>(fn(&str) -> std::result::Result<T, String>);
    impl<T> de::Visitor<'_> for Checked<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: de::Error>(self, text: &str) -> std::result::Result<T, E> {
            (self.0)(text).map_err(E::custom)
        }
    }
    deserializer.deserialize_str(Checked(check))
}

/// The site's name: one line of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Title(pub String);

impl<'de> Deserialize<'de> for Title {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        checked(d, |text| {
            let text = text.trim();
            if text.is_empty() || text.contains(['\n', '\r']) {
                return Err("expected the site's name on one line, such as \"House rules\"".into());
            }
            Ok(Title(text.to_string()))
        })
    }
}

/// An `http:` or `https:` address, checked so that it can go into an
/// attribute and an XML file as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebAddress(pub String);

impl WebAddress {
    /// Check `text`: a scheme of `http` or `https`, a host, and only the
    /// characters an address may hold unencoded.
    pub fn parse(text: &str) -> std::result::Result<Self, String> {
        let example = "such as \"https://example.org/rules/\"";
        let lower = text.to_ascii_lowercase();
        let rest = lower
            .strip_prefix("https://")
            .or_else(|| lower.strip_prefix("http://"))
            .ok_or_else(|| {
                format!("{text:?} is not a web address: expected one starting with https:// or http://, {example}")
            })?;
        let bad = text.chars().find(|&c| {
            !c.is_ascii_graphic()
                || matches!(
                    c,
                    '"' | '\'' | '<' | '>' | '\\' | '`' | '{' | '}' | '|' | '^'
                )
        });
        if let Some(c) = bad {
            return Err(format!(
                "{text:?} holds {c:?}, which a web address cannot hold as it is: percent-encode it (a space is %20)"
            ));
        }
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        if host.is_empty() || host.contains('@') {
            return Err(format!(
                "{text:?} has no host name (or has a user name before `@`): expected an address {example}"
            ));
        }
        check_authority(host)
            .map_err(|why| format!("{text:?}: {why}: expected an address {example}"))?;
        let scheme_len = text.len() - rest.len();
        Ok(WebAddress(format!(
            "{}{}",
            &lower[..scheme_len],
            &text[scheme_len..]
        )))
    }
}

/// A host name (labels of letters, digits and inner hyphens), an IPv4
/// address or a bracketed IPv6 one, then optionally `:` and a port from 1
/// to 65535.
fn check_authority(authority: &str) -> std::result::Result<(), String> {
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => (host, Some(port)),
        _ => (authority, None),
    };
    if let Some(port) = port {
        let number = port.parse::<u16>().ok().filter(|&p| p > 0);
        if number.is_none() || !port.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("port {port:?} is not a port: expected 1 to 65535"));
        }
    }
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return match inner.parse::<std::net::Ipv6Addr>() {
            Ok(_) => Ok(()),
            Err(_) => Err(format!("{host:?} is not an IPv6 address")),
        };
    }
    let label = |l: &str| {
        (1..=63).contains(&l.len())
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    let name = host.strip_suffix('.').unwrap_or(host);
    if host.len() > 253 || !name.split('.').all(label) {
        return Err(format!(
            "{host:?} is not a host name: letters, digits and hyphens between dots, no hyphen at either end of a part"
        ));
    }
    Ok(())
}

impl<'de> Deserialize<'de> for WebAddress {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        checked(d, WebAddress::parse)
    }
}

/// Where the site is published: a web address without query or fragment,
/// kept with a final `/` so page paths append to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl(pub String);

impl BaseUrl {
    /// The path part (`/rules/` of `https://example.org/rules/`).
    pub fn path(&self) -> &str {
        let after_scheme = self.0.split_once("//").map_or("", |(_, rest)| rest);
        after_scheme.find('/').map_or("/", |i| &after_scheme[i..])
    }
}

impl<'de> Deserialize<'de> for BaseUrl {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        checked(d, |text| {
            let address = WebAddress::parse(text)?;
            if address.0.contains(['?', '#']) {
                return Err(format!(
                    "{text:?} has a query or fragment: expected the address of the site's folder, such as \"https://example.org/rules/\""
                ));
            }
            let mut url = address.0;
            if !url.ends_with('/') {
                url.push('/');
            }
            Ok(BaseUrl(url))
        })
    }
}

/// A language tag such as `en`, `fr` or `pt-BR` (BCP 47's shape), kept as
/// written. Tags are compared without regard to case (`FR` is `fr`), by
/// [`Language::is`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Language(pub String);

impl Language {
    /// Check `text`'s shape: a primary tag of 2 or 3 letters, then parts
    /// of 1 to 8 letters or digits, joined by `-`.
    fn parse(text: &str) -> std::result::Result<Language, String> {
        let mut parts = text.split('-');
        let primary = parts.next().unwrap_or("");
        let primary_ok =
            (2..=3).contains(&primary.len()) && primary.chars().all(|c| c.is_ascii_alphabetic());
        let rest_ok = parts
            .all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()));
        if primary_ok && rest_ok {
            Ok(Language(text.to_string()))
        } else {
            Err(format!(
                "{text:?} is not a language tag: expected one such as \"en\", \"fr\" or \"pt-BR\""
            ))
        }
    }

    /// Whether this is the language `code` (case aside: tags name the
    /// same language in any capitals).
    pub fn is(&self, code: &str) -> bool {
        self.0.eq_ignore_ascii_case(code)
    }
}

/// A language's name in its own words (`Français`), for the switcher.
struct LanguageName(String);

/// The declared translations, each code a language tag listed once (case
/// aside) and each name checked, at its place.
fn language_names<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<std::collections::BTreeMap<Language, String>, D::Error> {
    type Names = std::collections::BTreeMap<Language, String>;
    struct Map;
    impl<'de> de::Visitor<'de> for Map {
        type Value = Names;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("languages with their names, such as `fr: Français`")
        }
        fn visit_map<A: de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> std::result::Result<Names, A::Error> {
            let mut names = Names::new();
            while let Some(code) = map.next_key_seed(NewLanguage(&names))? {
                let name: LanguageName = map.next_value()?;
                names.insert(code, name.0);
            }
            Ok(names)
        }
    }
    d.deserialize_map(Map)
}

/// The most translations a site may declare: enough for every official
/// language of the European Union (24) and then some; a site grows by a
/// copy of itself for each.
pub const MAX_TRANSLATIONS: usize = 40;

/// A language code not among those already listed, checked while it is
/// read so that an error is located at the key written twice.
struct NewLanguage<'a>(&'a std::collections::BTreeMap<Language, String>);

impl<'de> de::DeserializeSeed<'de> for NewLanguage<'_> {
    type Value = Language;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Language, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> de::Visitor<'de> for NewLanguage<'_> {
    type Value = Language;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a language tag")
    }
    fn visit_str<E: de::Error>(self, text: &str) -> std::result::Result<Language, E> {
        if self.0.len() >= MAX_TRANSLATIONS {
            return Err(E::custom(format!(
                "a site has at most {MAX_TRANSLATIONS} translations (each is a copy of every \
                 page: 200 made a 136 MB site): list fewer, or publish the others as sites \
                 of their own"
            )));
        }
        let code = Language::parse(text).map_err(E::custom)?;
        match self.0.keys().find(|listed| listed.is(text)) {
            Some(listed) => Err(E::custom(format!(
                "{text:?} is listed twice (as {:?} above; capitals aside, a tag \
                 names one language): list each language once",
                listed.0
            ))),
            None => Ok(code),
        }
    }
}

impl<'de> Deserialize<'de> for LanguageName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        checked(d, |text| {
            let text = text.trim();
            if text.is_empty() || text.contains(['\n', '\r']) {
                return Err(
                    "expected the language's name in its own language on one line, such as \
                     \"Français\""
                        .into(),
                );
            }
            Ok(LanguageName(text.to_string()))
        })
    }
}

impl Default for Language {
    fn default() -> Self {
        Language("en".into())
    }
}

impl<'de> Deserialize<'de> for Language {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        checked(d, Language::parse)
    }
}

/// A git branch name, as it goes into an edit address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch(pub String);

impl Default for Branch {
    fn default() -> Self {
        Branch("main".into())
    }
}

impl<'de> Deserialize<'de> for Branch {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        checked(d, |text| {
            let ok = !text.is_empty()
                && !text.starts_with(['-', '/', '.'])
                && !text.contains("..")
                && text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c));
            if ok {
                Ok(Branch(text.to_string()))
            } else {
                Err(format!(
                    "{text:?} is not a branch name: expected one of letters, digits, `-`, `_`, `.` and `/`, such as \"main\""
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> (usize, usize, String) {
        parse(text).unwrap_err()
    }

    #[test]
    fn a_full_site_file_reads() {
        let config = parse(
            "title: House rules\nbase_url: HTTPS://example.org/rules\nlanguage: pt-BR\n\
             repository: https://github.com/me/rules/\nbranch: release/2\n",
        )
        .unwrap();
        assert_eq!(config.title, Some(Title("House rules".into())));
        assert_eq!(config.language.0, "pt-BR");
        assert_eq!(
            config.page_url("a b/index.html").as_deref(),
            Some("https://example.org/rules/a%20b/index.html")
        );
        assert_eq!(config.base_url.as_ref().unwrap().path(), "/rules/");
        assert_eq!(
            config.edit_url("games/x#1.yaml").as_deref(),
            Some("https://github.com/me/rules/edit/release/2/content/games/x%231.yaml")
        );
    }

    #[test]
    fn defaults_without_a_file() {
        let config = parse("# nothing yet\n").unwrap();
        assert_eq!(config.language.0, "en");
        assert_eq!(config.page_url("index.html"), None);
        assert_eq!(config.edit_url("index.md"), None);
        assert_eq!(
            parse("base_url: https://example.org")
                .unwrap()
                .base_url
                .unwrap()
                .path(),
            "/"
        );
    }

    #[test]
    fn bad_values_are_located_and_say_what_was_expected() {
        let (line, column, message) = error("title: T\nbase_url: javascript:alert(1)\n");
        assert_eq!((line, column), (2, 11));
        assert!(
            message.contains("starting with https:// or http://"),
            "{message}"
        );

        let (line, column, message) = error("repository: \"https://x.org/a b\"\n");
        assert_eq!((line, column), (1, 13));
        assert!(message.contains("percent-encode"), "{message}");

        let (line, _, message) = error("title: T\nlanguage: english\n");
        assert_eq!(line, 2);
        assert!(message.contains("not a language tag"), "{message}");

        let (line, column, message) = error("title: T\nbase-url: https://x.org/\n");
        assert_eq!((line, column), (2, 1));
        assert!(message.contains("unknown field `base-url`"), "{message}");

        for bad in [
            "base_url: https://x.org/?a=1",
            "base_url: \"https://\"",
            "base_url: https://me@evil.org/",
            "repository: \"https://x.org/\\\"onmouseover\"",
            "branch: ../x",
            "title: [1]",
            "language: 12",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn translations_are_bounded() {
        let listed = |n: usize| {
            let mut text = String::from("translations:\n");
            for i in 0..n {
                text.push_str(&format!("  fr-x{i}: L{i}\n"));
            }
            text
        };
        assert!(parse(&listed(MAX_TRANSLATIONS)).is_ok());
        let (line, column, message) = error(&listed(MAX_TRANSLATIONS + 1));
        assert_eq!((line, column), (MAX_TRANSLATIONS + 2, 3), "{message}");
        assert!(message.contains("at most 40 translations"), "{message}");
    }

    #[test]
    fn translations_are_languages_with_their_own_names() {
        let config =
            parse("language: en\ntranslations:\n  fr: Français\n  pt-BR: Português\n").unwrap();
        let names: Vec<(&str, &str)> = config
            .translations
            .iter()
            .map(|(code, name)| (code.0.as_str(), name.as_str()))
            .collect();
        assert_eq!(names, [("fr", "Français"), ("pt-BR", "Português")]);

        let (line, column, message) =
            error("language: fr\ntranslations:\n  en: English\n  fr: Français\n");
        assert_eq!((line, column), (4, 3));
        assert!(message.contains("is the site's own language"), "{message}");

        let (line, column, message) = error("translations:\n  french: Français\n");
        assert_eq!((line, column), (2, 3));
        assert!(
            message.contains("\"french\" is not a language tag"),
            "{message}"
        );

        // Capitals aside: a tag names one language, listed once, never the
        // site's own.
        let (line, column, message) = error("language: en\ntranslations:\n  EN: English\n");
        assert_eq!((line, column), (3, 3));
        assert_eq!(
            message,
            "translations: \"EN\" is the site's own language (`language: en`): list only the \
             languages the pages are translated into"
        );
        for (text, twice, first) in [
            (
                "translations:\n  fr: Français\n  FR: Français\n",
                "FR",
                "fr",
            ),
            (
                "translations:\n  fr: Français\n  de: Deutsch\n  fr: Franglais\n",
                "fr",
                "fr",
            ),
        ] {
            let (line, column, message) = error(text);
            assert_eq!((line, column), (text.lines().count(), 3), "{text}");
            assert_eq!(
                message,
                format!(
                    "translations: {twice:?} is listed twice (as {first:?} above; capitals \
                     aside, a tag names one language): list each language once"
                )
            );
        }

        let (line, _, message) = error("translations:\n  fr: \"\"\n");
        assert_eq!(line, 2);
        assert!(message.contains("name in its own language"), "{message}");
    }

    #[test]
    fn hosts_and_ports_must_be_real() {
        for bad in [
            "https://example.org:99999/",
            "https://example.org:0/",
            "https://example.org:+80/",
            "https://example.org:/",
            "https://-/",
            "https://-x.org/",
            "https://x-.org/",
            "https://a..b/",
            "https://x_y.org/",
            "https://[::zz]/",
        ] {
            let (_, _, message) = error(&format!("base_url: {bad}\n"));
            assert!(message.contains("expected an address"), "{bad}: {message}");
        }
        for good in [
            "https://example.org:8080/rules/",
            "http://localhost/",
            "https://127.0.0.1:1/",
            "https://[::1]:443/",
            "https://xn--lan-bpa.fr/",
            "https://example.org./",
        ] {
            assert!(parse(&format!("base_url: {good}\n")).is_ok(), "{good}");
        }
    }
}
