//! The rule book: numbered rules, the glossary, releases and their changes.
//!
//! Reading order: [`releases`] and [`glossary`] read their files as content
//! loads; [`numbering`] plans each numbered page's rules and [`terms`] marks
//! glossary terms, both applied by the markdown renderer; [`Book`] places
//! every rule of the site; [`changes`] compares releases; `views` hands
//! all of it to the templates in `templates/rulebook/`; [`publish`]
//! snapshots a release and prints the site.
//!
//! Its parts sit on the layers they serve (see `tests/suite/layers.rs`):
//! releases and glossary where content loads, publish where the build
//! runs, the rest beside the site.

mod changes;
pub mod glossary;
pub mod made;
mod numbering;
pub mod publish;
pub mod releases;
mod rules;
mod terms;
mod translations;
mod views;

pub(crate) use changes::{
    add_glossary_page, add_pages, change_page, history_page, History, GLOSSARY_PAGE,
};
pub use numbering::Numbering;
pub use rules::RULES_JSON;
pub(crate) use rules::{rules_json, rules_shown, Book, Placed};
pub(crate) use terms::TERM_TEMPLATE;
pub use terms::{Term, Terms};
pub(crate) use translations::{
    glossary_errors, outdated, published, report, Language, Renumbered, Translated, Translations,
};
pub(crate) use views::glossary_html;
