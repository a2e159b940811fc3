//! The two protocol dialects (UCI, UCCI): what differs between them is
//! move notation and how `info` and `bestmove` are written.

use super::{ucci, uci};
use crate::board::{move_to_string, Move, Notation};
use crate::search::Info;

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

    pub fn info(self, i: &Info, show_wdl: bool, multipv: bool) -> String {
        match self {
            Dialect::Uci => uci::info(i, show_wdl),
            Dialect::Ucci => ucci::info(i, multipv),
        }
    }

    pub fn bestmove(self, best: Option<Move>, ponder: Option<Move>) -> String {
        match self {
            Dialect::Uci => uci::bestmove(best, ponder),
            Dialect::Ucci => ucci::bestmove(best, ponder),
        }
    }

    /// What FSF prints when the root has no legal move.
    pub fn no_move_info(self) -> String {
        match self {
            Dialect::Uci => "info depth 0 score mate 0".to_string(),
            Dialect::Ucci => format!("info depth 0 score {}", -ucci::MATE_VALUE),
        }
    }
}
