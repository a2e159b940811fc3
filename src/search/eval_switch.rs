//! Where the search meets the evaluation: every move the search makes or
//! takes back goes through here, so that the NNUE accumulators follow the
//! position, and every static evaluation is asked here, so that one switch
//! (`Settings::eval`) chooses between the network and the classical terms.

use super::eval;
use super::search::Searcher;
use crate::board::{Color, Move};

impl Searcher<'_> {
    /// Makes `m` on the position and, with NNUE, pushes its accumulators.
    #[inline]
    pub(super) fn make(&mut self, m: Move) {
        self.push_accumulators(m);
        self.pos.make(m);
    }

    /// `make` with `gives_check` the answer of `Position::gives_check(m)`.
    #[inline]
    pub(super) fn make_giving_check(&mut self, m: Move, gives_check: bool) {
        self.push_accumulators(m);
        self.pos.make_giving_check(m, gives_check);
    }

    /// With NNUE, notes `m` in the accumulators (before it is made).
    #[inline]
    fn push_accumulators(&mut self, m: Move) {
        if let Some(acc) = self.acc.as_mut() {
            acc.push(&self.pos, m);
        }
    }

    #[inline]
    pub(super) fn unmake(&mut self) {
        if let Some(acc) = self.acc.as_mut() {
            acc.pop();
        }
        self.pos.unmake();
    }

    /// Static evaluation, side to move's view, centipawns. The net does not
    /// see the move-limit clock, so the classical count term (what the
    /// count would decide as the limit nears) is added to its output.
    #[inline]
    pub(super) fn evaluate(&mut self) -> i32 {
        match (self.acc.as_mut(), self.shared.net) {
            (Some(acc), Some(net)) => {
                let stm = self.pos.side_to_move();
                let count = eval::count_term(&self.pos);
                let count = if stm == Color::Cho { count } else { -count };
                acc.evaluate(net, &self.pos) + count
            }
            _ => eval::evaluate(&self.pos),
        }
    }
}
