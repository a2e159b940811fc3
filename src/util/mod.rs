//! Crate-level helpers that belong to no layer: a seeded random generator,
//! a content hash and the quoting of outside text. Nothing here imports
//! from the rest of the crate, so every layer may use them.

pub mod hash;
pub mod rng;
pub mod text;
