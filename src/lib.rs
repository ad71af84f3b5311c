//! fairdice: exact fairness analyses of dice procedures, rendered as a static site.
//!
//! Data flows one way: [`content`] loads pages and [`scenario`]s, [`analyses`]
//! compute exact results with the [`engine`], [`site`] renders them through
//! Tera, and [`output`] writes the site atomically.

pub mod analyses;
pub mod engine;
pub mod format;
pub mod report;
pub mod scenario;
