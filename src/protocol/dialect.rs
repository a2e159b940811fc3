//! The two protocol dialects (UCI, UCCI). What differs between them
//! besides move notation (option names, `info` and `bestmove` lines) is
//! written by `uci.rs` and `ucci.rs`, which depend on this file, not the
//! other way round.

use crate::board::{move_to_string, Move, Notation};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ucci,
}

impl Dialect {
    pub fn notation(self) -> Notation {
        match self {
            Dialect::Uci => Notation::Uci,
            Dialect::Ucci => Notation::Ucci,
        }
    }

    pub fn mv(self, m: Move) -> String {
        move_to_string(m, self.notation())
    }
}
