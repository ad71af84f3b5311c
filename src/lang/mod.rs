//! The languages fairdice reads besides its own scenario files. Each is a
//! front end: it reads text into a syntax tree and lowers it onto the
//! engine's types ([`crate::engine::Outcomes`]), so every figure comes from
//! the one exact engine.

pub mod anydice;
