//! Janggun: a Janggi (Korean chess) engine.

pub mod board;
pub mod search;
pub mod tools;
