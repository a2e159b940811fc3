//! Repetition judged over the game history, with the outcomes Fairy-Stockfish
//! gives: perpetual check, and for janggimodern the shuttle rule (a piece
//! brought to A and then moved A-B-A-B-A... see `scan`).
//!
//! Distances below count plies back from the current position: the state at
//! distance d is `history[now - d]`; its `mv` is the move that led into it.
//! Moves at even distances were made by the side that just moved ("them"),
//! positions at odd distances had them to move.

use super::moves::Move;
use super::position::{Position, State};
use super::ruleset::RuleSet;
use super::square::PieceKind;

pub enum Verdict {
    /// The current position occurred often enough to end the game. The flags
    /// say whether a side checked on every move of the cycle.
    Repeated {
        them_checking: bool,
        us_checking: bool,
    },
    /// janggimodern: the side that just moved shuttled a piece; it loses.
    Shuttle,
}

fn reverse(m: Move) -> Move {
    Move::new(m.to(), m.from())
}

/// Looks back over the plies since the last capture for an ending by
/// repetition, as the game judges it. The window needs at least four plies.
pub fn scan(pos: &Position) -> Option<Verdict> {
    scan_from(pos, 0, true)
}

/// The same look-back inside a search tree `tree_ply` plies deep: a
/// position repeated within the tree ends the line at its first
/// repetition, since whoever chose it can repeat it again. The shuttle rule
/// is left to the game verdict.
pub fn scan_in_tree(pos: &Position, tree_ply: usize) -> Option<Verdict> {
    scan_from(pos, tree_ply, false)
}

fn scan_from(pos: &Position, tree_ply: usize, with_shuttle: bool) -> Option<Verdict> {
    let h: &[State] = pos.history();
    let now = h.len() - 1;
    let end = (pos.halfmove() as usize).min(now);
    if end < 4 {
        return None;
    }
    let at = |d: usize| &h[now - d];
    let rules = pos.rules();
    let needed = rules.repetition_count();

    let mut shuttle = if with_shuttle && rules == RuleSet::Modern {
        shuttle_start(pos)
    } else {
        0
    };
    let mut them_checking = at(0).in_check && at(2).in_check;
    let mut us_checking = at(1).in_check && at(3).in_check;
    let key = at(0).key;
    let mut seen = 1;

    let mut i = 4;
    while i <= end {
        if shuttle > 0 {
            if i < end && at(i + 1).in_check {
                shuttle = 0;
            } else if shuttle < 4 {
                let reference = if shuttle == 1 { at(0).mv } else { at(i - 2).mv };
                shuttle = if reference.is_some() && at(i).mv == reference.map(reverse) {
                    shuttle + 1
                } else {
                    0
                };
            } else {
                let arrived = at(i).mv;
                let left = at(i - 2).mv;
                match (arrived, left) {
                    (Some(a), Some(l)) if at(i).captured.is_none() && l.from() == a.to() => {
                        return Some(Verdict::Shuttle);
                    }
                    _ => shuttle = 0,
                }
            }
        }
        them_checking &= at(i).in_check;
        if at(i).key == key {
            seen += 1;
            if i <= tree_ply || seen == needed {
                return Some(Verdict::Repeated {
                    them_checking,
                    us_checking,
                });
            }
        }
        if i < end {
            us_checking &= at(i + 1).in_check;
        }
        i += 2;
    }
    None
}

/// Where the shuttle count starts: 2 if their last two moves undo each other,
/// 1 if the earlier one was a pass, 0 if the rule cannot apply (their last
/// move was a pass or by the general or a guard, or they were in check).
fn shuttle_start(pos: &Position) -> u8 {
    let h = pos.history();
    let now = h.len() - 1;
    let at = |d: usize| &h[now - d];
    let Some(last) = at(0).mv else { return 0 };
    if last.is_pass() || at(1).in_check || at(3).in_check {
        return 0;
    }
    match pos.piece_at(last.to()).map(|p| p.kind()) {
        Some(PieceKind::General | PieceKind::Guard) | None => return 0,
        _ => {}
    }
    match at(2).mv {
        Some(m) if m == reverse(last) => 2,
        Some(m) if m.is_pass() => 1,
        _ => 0,
    }
}
