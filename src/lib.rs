//! fairdice: exact fairness analyses of dice procedures, rendered as a static site.
//!
//! Data flows one way: [`content`] loads pages and [`scenario`]s, [`analyses`]
//! compute exact results with the [`engine`], [`site`] renders them through
//! Tera, and [`output`] writes the site atomically. [`build`] tells that story
//! in order.

pub mod analyses;
pub mod anydice_command;
pub mod build;
pub mod cache;
pub mod calculator;
pub mod charts;
pub mod config;
pub mod content;
pub mod engine;
pub mod error;
pub(crate) mod flow;
pub mod gates;
pub mod hash;
pub(crate) mod history;
pub mod html;
pub mod init;
pub(crate) mod isolated;
pub mod kinds;
pub mod lang;
pub mod layout;
pub mod limits;
pub mod markdown;
pub mod output;
pub mod paths;
pub mod printable;
pub mod progress;
pub mod roll_command;
pub mod rulebook;
pub mod scenario;
pub mod serve;
pub mod shard;
pub mod shortcodes;
pub mod site;
pub mod terminal;
pub mod ui;
pub mod verify;
pub mod words;
pub mod yaml;
