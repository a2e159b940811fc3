//! Command-line tools built on the engine: perft, bench, the rules batch
//! interface, self-play and tuning. (The match runner is `crate::arena`.)

pub mod batch;
pub mod bench;
pub mod perft;
pub mod selfplay;
pub mod tune;
