//! Command-line tools built on the engine: the rules batch interface, bench,
//! self-play and tuning.

pub mod batch;
pub mod bench;
pub mod r#match;
pub mod selfplay;
pub mod tune;
