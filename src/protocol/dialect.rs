//! The three dialects one conversation core speaks. What differs between
//! them (the handshake, option lines, `info`/thinking lines, how an answer
//! is written) is rendered by `uci.rs`, `ucci.rs` and `cecp.rs`, which
//! depend on this file, not the other way round.

use crate::board::Notation;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ucci,
    /// XBoard/WinBoard's protocol (chosen by a first line `xboard`).
    Cecp,
}

impl Dialect {
    /// How moves are written: UCI's ranks 1..10, or 0..9 for UCCI and CECP.
    pub fn notation(self) -> Notation {
        match self {
            Dialect::Uci => Notation::Uci,
            Dialect::Ucci | Dialect::Cecp => Notation::Ucci,
        }
    }
}
