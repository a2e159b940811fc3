//! The rules that need a position: the bikjang rule in force, history bans,
//! and the one question every caller asks: is the game over here, how, and
//! who won?

use super::movegen::legal_moves;
use super::moves::{Move, MoveList};
use super::position::Position;
use super::repetition::{self, Verdict};
use super::ruleset::RuleSet;
use super::square::Color;
use std::fmt;

impl RuleSet {
    /// Is the bikjang rule in force in this position?
    #[inline]
    pub fn bikjang_in_force(self, pos: &Position) -> bool {
        match self {
            RuleSet::Janggi | RuleSet::Traditional => true,
            RuleSet::Modern | RuleSet::Casual => false,
            RuleSet::Kja => {
                pos.material_points(Color::Cho) < 30 && pos.material_points(Color::Han) < 30
            }
            // From the move after the first capture.
            RuleSet::Kojf => pos.piece_count() < 32,
        }
    }

    /// Removes moves that the game's history forbids. KJA: a move that would
    /// repeat a position for the third time is illegal unless both sides are
    /// under 30 points.
    pub fn apply_history_bans(self, pos: &Position, list: &mut MoveList) {
        if self.history_bans_apply(pos) {
            list.retain(|m| !self.banned_by_history(pos, m));
        }
    }

    /// Can the game's history ban any move here? Only then need
    /// `banned_by_history` be asked.
    #[inline]
    pub fn history_bans_apply(self, pos: &Position) -> bool {
        self == RuleSet::Kja
            && pos.halfmove() >= 4
            && (pos.material_points(Color::Cho) >= 30 || pos.material_points(Color::Han) >= 30)
    }

    /// Does the history ban the (board-legal) move `m`, where
    /// `history_bans_apply`?
    pub fn banned_by_history(self, pos: &Position, m: Move) -> bool {
        // A capture starts a new repetition window, so only quiet moves and
        // passes can repeat; their resulting key is known without making them.
        if !m.is_pass() && pos.piece_at(m.to()).is_some() {
            return false;
        }
        let h = pos.history();
        let now = h.len() - 1;
        let span = (pos.halfmove() as usize).min(now);
        let key = pos.key_after(m);
        let earlier = (1..=span)
            .step_by(2)
            .filter(|&d| h[now - d].key == key)
            .count();
        earlier + 1 >= 3
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    Win(Color),
    Draw,
}

impl Outcome {
    /// "1-0", "0-1" or "1/2-1/2" (Cho is white).
    pub fn result_string(self) -> &'static str {
        match self {
            Outcome::Win(Color::Cho) => "1-0",
            Outcome::Win(Color::Han) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum EndReason {
    Checkmate,
    DoublePass,
    Bikjang,
    Repetition,
    PerpetualCheck,
    MoveLimit,
    BackAndForth,
}

impl EndReason {
    pub const ALL: [EndReason; 7] = [
        EndReason::Checkmate,
        EndReason::DoublePass,
        EndReason::Bikjang,
        EndReason::Repetition,
        EndReason::PerpetualCheck,
        EndReason::MoveLimit,
        EndReason::BackAndForth,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::DoublePass => "double pass",
            EndReason::Bikjang => "bikjang",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::MoveLimit => "move limit",
            EndReason::BackAndForth => "back-and-forth",
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct GameEnd {
    pub outcome: Outcome,
    pub reason: EndReason,
    /// The outcome was decided by counting material.
    pub counted: bool,
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.outcome.result_string(), self.reason.name())?;
        if self.counted {
            write!(f, " (count)")?;
        }
        Ok(())
    }
}

/// Counting: Cho wins iff its points exceed Han's by more than Han's 1.5 bonus.
pub fn count_winner(pos: &Position) -> Color {
    if pos.material_points(Color::Cho) - pos.material_points(Color::Han) > 1 {
        Color::Cho
    } else {
        Color::Han
    }
}

fn counted_or_draw(pos: &Position, reason: EndReason) -> GameEnd {
    if pos.rules().counting() {
        GameEnd {
            outcome: Outcome::Win(count_winner(pos)),
            reason,
            counted: true,
        }
    } else {
        GameEnd {
            outcome: Outcome::Draw,
            reason,
            counted: false,
        }
    }
}

/// Endings that need no claim: checkmate, two passes, bikjang accepted.
pub fn immediate_end(pos: &Position) -> Option<GameEnd> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    if !list.is_empty() {
        return None;
    }
    if pos.last_was_pass() {
        let h = pos.history();
        let n = h.len();
        if n >= 2 && h[n - 2].mv.is_some_and(|m| m.is_pass()) {
            return Some(counted_or_draw(pos, EndReason::DoublePass));
        }
        if pos.bikjang() {
            return Some(counted_or_draw(pos, EndReason::Bikjang));
        }
    }
    Some(GameEnd {
        outcome: Outcome::Win(!pos.side_to_move()),
        reason: EndReason::Checkmate,
        counted: false,
    })
}

/// Endings by the move limit and repetition (perpetual check, the
/// janggimodern shuttle rule and KOJF's fourth repetition included).
pub fn optional_end(pos: &Position) -> Option<GameEnd> {
    let rules = pos.rules();
    if pos.halfmove() >= rules.move_limit() && (!pos.in_check() || has_legal_move(pos)) {
        return Some(counted_or_draw(pos, EndReason::MoveLimit));
    }
    let stm = pos.side_to_move();
    match repetition::scan(pos)? {
        Verdict::Shuttle => Some(GameEnd {
            outcome: Outcome::Win(stm),
            reason: EndReason::BackAndForth,
            counted: false,
        }),
        Verdict::Repeated {
            them_checking,
            us_checking,
        } => {
            if them_checking != us_checking {
                let winner = if them_checking { stm } else { !stm };
                return Some(GameEnd {
                    outcome: Outcome::Win(winner),
                    reason: EndReason::PerpetualCheck,
                    counted: false,
                });
            }
            if rules == RuleSet::Kojf {
                // The fourth repetition loses for the side that made it.
                return Some(GameEnd {
                    outcome: Outcome::Win(stm),
                    reason: EndReason::Repetition,
                    counted: false,
                });
            }
            Some(counted_or_draw(pos, EndReason::Repetition))
        }
    }
}

fn has_legal_move(pos: &Position) -> bool {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    !list.is_empty()
}

/// The whole verdict: immediate endings first, then the optional ones.
pub fn game_end(pos: &Position) -> Option<GameEnd> {
    immediate_end(pos).or_else(|| optional_end(pos))
}
