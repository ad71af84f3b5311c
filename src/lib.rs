//! fairdice: exact fairness analyses of dice procedures, rendered as a static site.

pub mod engine;
