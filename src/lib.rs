//! Janggun: a Janggi (Korean chess) engine.

// Every unsafe operation says why it is sound, each in its own block.
#![deny(clippy::undocumented_unsafe_blocks)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod arena;
pub mod board;
pub mod nnue;
pub mod protocol;
pub mod search;
pub mod tools;
pub mod train;
pub mod util;
