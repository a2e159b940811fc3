//! Command-line tools built on the engine: the rules batch interface, bench,
//! self-play and tuning. (Perft is `crate::board::perft`; the match runner
//! is `crate::arena`.)

pub mod batch;
pub mod bench;
pub mod selfplay;
pub mod tune;
