//! Janggun: a Janggi (Korean chess) engine.

pub mod arena;
pub mod board;
pub mod nnue;
pub mod protocol;
pub mod search;
pub mod text;
pub mod tools;
