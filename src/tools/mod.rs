//! Command-line tools built on the engine: perft, the rules batch interface,
//! the engine-vs-engine match runner.

pub mod batch;
pub mod bench;
pub mod datagen;
pub mod r#match;
pub mod perft;
pub mod selfplay;
pub mod tune;
