//! The pages the rule book makes where the author wrote none: the list of
//! releases, what changed in each, the rules' history and the glossary.
//! They are data, made as content loads, which the site renders straight
//! through the rule book's templates: no markdown is written for them.

/// What a page the rule book made shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Made {
    /// The list of releases (`releases/_index.md`).
    Releases,
    /// Every rule across the releases (`releases/history.md`).
    History,
    /// What changed in one release (`releases/<version>.md`).
    Changes {
        /// The release's version.
        version: String,
    },
    /// The glossary's terms (`glossary.md`).
    Glossary,
}

impl Made {
    /// The markdown an author would write for the same page: the shortcode
    /// that places the same list, published beside the page as its source.
    pub fn markdown(&self) -> String {
        let call = match self {
            Made::Releases => "releases()".to_string(),
            Made::History => "history()".to_string(),
            Made::Changes { version } => format!("changes(version=\"{version}\")"),
            Made::Glossary => "glossary()".to_string(),
        };
        format!("{{{{ {call} }}}}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn its_markdown_is_the_shortcode_an_author_would_write() {
        let changes = Made::Changes {
            version: "1.0.0".into(),
        };
        assert_eq!(changes.markdown(), "{{ changes(version=\"1.0.0\") }}\n");
        assert_eq!(Made::Glossary.markdown(), "{{ glossary() }}\n");
    }
}
