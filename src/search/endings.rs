//! Game endings inside the search, scored by the rule set without full
//! move generation: two passes, an accepted bikjang, repetition (with the
//! perpetual-check rule) and the move limit. Under counting rule sets these
//! are won or lost by the count, not drawn.

use super::score::MATE;
use super::search::Searcher;
use crate::board::movegen::no_moves_by_rule;
use crate::board::repetition::{scan_in_tree, Verdict};
use crate::board::rules::count_winner;
use crate::board::RuleSet;

impl Searcher<'_> {
    /// The rules' verdict when the game ends without a claim by the count
    /// (or as a draw where the rule set does not count), side to move's view.
    pub(super) fn count_score(&self, ply: usize) -> i32 {
        if !self.pos.rules().counting() {
            return 0;
        }
        if count_winner(&self.pos) == self.pos.side_to_move() {
            MATE - ply as i32
        } else {
            -(MATE - ply as i32)
        }
    }

    /// Endings that need no move generation: two passes, an accepted
    /// bikjang, repetition, the move limit. Side to move's view.
    pub(super) fn rule_end(&self, ply: usize) -> Option<i32> {
        let pos = &self.pos;
        if no_moves_by_rule(pos) {
            return Some(self.count_score(ply));
        }
        if let Some(Verdict::Repeated {
            them_checking,
            us_checking,
        }) = scan_in_tree(pos, ply)
        {
            return Some(self.repetition_score(them_checking, us_checking, ply));
        }
        if pos.halfmove() >= pos.rules().move_limit() && !pos.in_check() {
            return Some(self.count_score(ply));
        }
        None
    }

    /// `them`/`us`: that side checked on every move of the cycle.
    fn repetition_score(&self, them: bool, us: bool, ply: usize) -> i32 {
        let win = MATE - ply as i32;
        if them != us {
            return if them { win } else { -win };
        }
        if self.pos.rules() == RuleSet::Kojf {
            // The side that made the repetition (the opponent) loses.
            return win;
        }
        self.count_score(ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::board::{parse_move, Notation};
    use crate::search::ordering::History;
    use crate::search::search::Shared;
    use crate::search::time::TimeManager;
    use crate::search::tt::TranspositionTable;
    use crate::search::Control;
    use crate::search::Limits;
    use std::sync::atomic::{AtomicBool, AtomicU64};

    /// Plays `moves` from `fen` and asks the search's rule check about the
    /// end, with the whole line inside the search tree.
    fn rule_end_after(fen: &str, rules: RuleSet, moves: &[&str]) -> Option<i32> {
        let mut pos = Position::from_fen(fen, rules).unwrap();
        for s in moves {
            let m = parse_move(&pos, s, Notation::Uci).unwrap();
            pos.make(m);
        }
        let tt = TranspositionTable::new(1);
        let control = Control::new();
        let lmr = crate::search::margins::LmrTable::new(175);
        let shared = Shared {
            tt: &tt,
            abort: AtomicBool::new(false),
            nodes: vec![AtomicU64::new(0)],
            control: &control,
            node_limit: u64::MAX,
            soft_node_limit: u64::MAX,
            ablation: crate::search::Ablation::None,
            net: None,
            margins: Default::default(),
            lmr: &lmr,
        };
        let mut hist = History::new();
        let tm = TimeManager::new(&Limits::default(), 0);
        let s = Searcher::new(0, pos, &shared, &mut hist, Vec::new(), tm);
        s.rule_end(moves.len())
    }

    #[test]
    fn repetition_is_decided_by_the_count_or_drawn() {
        let fen = "3k5/9/9/9/9/9/9/9/4K4/R7r w - - 0 1";
        let line = ["a1a3", "i1i3", "a3a1", "i3i1"];
        // Equal material: Han wins the count, and Cho is to move.
        assert_eq!(
            rule_end_after(fen, RuleSet::Janggi, &line),
            Some(-(MATE - 4))
        );
        assert_eq!(rule_end_after(fen, RuleSet::Casual, &line), Some(0));
        assert_eq!(rule_end_after(fen, RuleSet::Janggi, &line[..3]), None);
    }

    #[test]
    fn perpetual_check_loses() {
        // Cho checks on every move; the count (Cho far ahead) does not matter.
        let fen = "R8/3k5/9/9/9/9/9/9/4K4/9 w - - 0 1";
        let line = ["a10a9", "d9d10", "a9a10", "d10d9"];
        assert_eq!(
            rule_end_after(fen, RuleSet::Janggi, &line),
            Some(-(MATE - 4))
        );
        assert_eq!(
            rule_end_after(fen, RuleSet::Casual, &line),
            Some(-(MATE - 4))
        );
    }

    #[test]
    fn double_pass_ends_by_count() {
        let fen = "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1";
        // Cho (a chariot up) passes, Han passes: Cho wins the count.
        let v = rule_end_after(fen, RuleSet::Janggi, &["e2e2", "d10d10"]);
        assert_eq!(v, Some(MATE - 2));
        let v = rule_end_after(fen, RuleSet::Traditional, &["e2e2", "d10d10"]);
        assert_eq!(v, Some(0));
    }
}
