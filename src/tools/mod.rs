//! Command-line tools built on the engine: perft, the rules batch interface.

pub mod batch;
pub mod bench;
pub mod perft;
pub mod selfplay;
pub mod tune;
pub mod ucilite;
