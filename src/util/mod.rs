//! Crate-level helpers that belong to no layer: a seeded random generator,
//! a content hash, the quoting of outside text, the opening of files
//! named from outside, the writing of outputs and the tools' writes to stdout. Nothing here imports
//! from the rest of the crate, so every layer may use them.

pub mod file;
pub mod hash;
pub mod outfile;
pub mod rng;
pub mod stdout;
pub mod text;
