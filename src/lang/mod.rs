//! The languages fairdice reads besides its own scenario files. Each is a
//! front end: it reads text into a syntax tree and lowers it onto the
//! engine's types ([`crate::engine::Outcomes`]), so every figure comes from
//! the one exact engine. The kinds (`crate::analyses`) read their dice
//! values through them; nothing here knows a kind.

pub mod anydice;
/// The dice notation: `4d6dl1`, `2d20kh1`, `8d10>=7`, in every family.
pub(crate) mod dice;
