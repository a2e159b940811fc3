//! The main search's move picker, in stages: the table move before any
//! move is generated, then captures by MVV-LVA (the exchange test made only
//! when a capture's turn comes; the losing ones wait), the killers and the
//! counter move, then the quiet moves (the pass among them) by history, and
//! the losing captures last. Many nodes cut off before the quiet moves'
//! turn (more than half of those on the bench), and never generate them.
//!
//! The order is that of scoring every legal move up front (`ordering`'s
//! scores) and handing them out best first, equal scores in generation
//! order, as the tests check, with one difference in the search: the quiet
//! moves' history is read when their stage comes, so it includes what the
//! subtrees of the moves before them taught (as in Stockfish).

use super::ordering::{
    capture_victim, first_best, moving_piece, mvv_lva, History, Prevs, BAD_CAPTURE, GOOD_CAPTURE,
    KILLER, TT_SCORE,
};
use super::see::see_ge;
use crate::board::movegen::Legal;
use crate::board::moves::MAX_MOVES;
use crate::board::{legal_moves, Move, MoveList, Position};

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    Captures,
    Killer0,
    Killer1,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    /// Every legal move generated and scored at once (in check, or where
    /// the game's history bans the pass: see `MovePicker::new`).
    All,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    /// `None` in stage `All`, which needs no legality filter.
    legal: Option<Legal>,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    prevs: Prevs,
    /// The stage's moves; below `n_bad`, the losing captures put aside
    /// (in points whose captures were already handed out), in the order
    /// they were found, which is their order by score.
    list: MoveList,
    /// The scores of `list` (for a capture, its MVV-LVA value alone).
    scores: [i32; MAX_MOVES],
    next: usize,
    n_bad: usize,
    /// Only quiet moves that give check are still wanted (`skip_quiets`).
    skip_quiets: bool,
    /// The moves left in `list` were filtered since `skip_quiets` was set.
    skipped: bool,
}

impl MovePicker {
    // Inlined into the search's one call site. The picker (two kilobytes)
    // is still copied into the node's frame: callgrind counts the copy,
    // and inlining alone did not remove it.
    #[inline(always)]
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        hist: &History,
        ply: usize,
        prevs: Prevs,
    ) -> MovePicker {
        let mut p = MovePicker {
            stage: Stage::TtMove,
            // Built in place: `Legal` is a few hundred bytes.
            legal: (!pos.in_check()).then(|| Legal::new(pos)),
            tt_move,
            killers: hist.killers[ply],
            counter: hist.counter_move(prevs),
            prevs,
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
            n_bad: 0,
            skip_quiets: false,
            skipped: false,
        };
        // The staged order needs to know the node has a move without
        // generating them all: a legal pass proves it. Outside check a pass
        // is legal in every rule set unless the game's history bans it
        // (KJA); then, and in check (evasions are few), generate everything.
        let pass = Move::pass(pos.king(pos.side_to_move()));
        if !p.legal.as_ref().is_some_and(|l| l.is_legal(pos, pass)) {
            p.legal = None;
            p.stage = Stage::All;
            legal_moves(pos, &mut p.list);
            p.score_all(pos, hist);
        }
        p
    }

    /// False only when the side to move has no legal move (checkmate, or
    /// every move banned).
    pub fn has_moves(&self) -> bool {
        self.stage != Stage::All || !self.list.is_empty()
    }

    /// The search prunes from now on every quiet move that does not give
    /// check (but the pass that accepts a bikjang): late move pruning only
    /// grows stricter as a node goes on. The picker then hands out only the
    /// quiet moves `spared_by_late_pruning`, in the same order, without
    /// ordering the rest.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move and its ordering score (see `is_bad_capture`), each
    /// legal move exactly once.
    pub fn next(&mut self, pos: &Position, hist: &History) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    if let Some(m) = self.tt_move.filter(|&m| self.is_legal(pos, m)) {
                        return Some((m, TT_SCORE));
                    }
                    // Not legal here (an older position's, or another's by
                    // a key collision): it is in no list below either.
                    self.tt_move = None;
                }
                Stage::GenCaptures => self.gen_captures(pos),
                Stage::Captures => {
                    let Some(i) = self.select() else {
                        self.stage = Stage::Killer0;
                        continue;
                    };
                    let (m, s) = (self.list.as_slice()[i], self.scores[i]);
                    if see_ge(pos, m, 0) {
                        return Some((m, GOOD_CAPTURE + s));
                    }
                    // `n_bad <= i`: the point is free.
                    self.list.as_mut_slice()[self.n_bad] = m;
                    self.scores[self.n_bad] = s;
                    self.n_bad += 1;
                }
                Stage::Killer0 => {
                    self.stage = Stage::Killer1;
                    let k = self.killers[0];
                    if let Some(m) = k.filter(|&m| self.quiet_special(pos, m, &[])) {
                        return Some((m, KILLER + 2));
                    }
                }
                Stage::Killer1 => {
                    self.stage = Stage::Counter;
                    let k = self.killers[1];
                    if let Some(m) = k.filter(|&m| self.quiet_special(pos, m, &[self.killers[0]])) {
                        return Some((m, KILLER + 1));
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let done = [self.killers[0], self.killers[1]];
                    if let Some(m) = self.counter.filter(|&m| self.quiet_special(pos, m, &done)) {
                        return Some((m, KILLER));
                    }
                }
                Stage::GenQuiets => self.gen_quiets(pos, hist),
                Stage::Quiets => {
                    self.drop_skipped(pos);
                    if let Some(i) = self.select() {
                        return Some((self.list.as_slice()[i], self.scores[i]));
                    }
                    self.stage = Stage::BadCaptures;
                    self.next = 0;
                }
                Stage::BadCaptures => {
                    if self.next < self.n_bad {
                        let i = self.next;
                        self.next += 1;
                        return Some((self.list.as_slice()[i], BAD_CAPTURE + self.scores[i]));
                    }
                    self.stage = Stage::Done;
                }
                Stage::All => {
                    self.drop_skipped(pos);
                    return self
                        .select()
                        .map(|i| (self.list.as_slice()[i], self.scores[i]));
                }
                Stage::Done => return None,
            }
        }
    }

    // The two generation stages stay out of line: inlined, their setup
    // (counts and masks of the position) was hoisted to the top of `next`
    // and paid on every call, though each runs once a node.
    #[inline(never)]
    fn gen_captures(&mut self, pos: &Position) {
        if let Some(legal) = &mut self.legal {
            legal.captures(pos, &mut self.list);
        }
        self.score_captures(pos);
        self.stage = Stage::Captures;
    }

    #[inline(never)]
    fn gen_quiets(&mut self, pos: &Position, hist: &History) {
        self.list.truncate(self.n_bad);
        self.next = self.n_bad;
        if let Some(legal) = &self.legal {
            legal.quiets(pos, &mut self.list);
        }
        self.score_quiets(pos, hist);
        self.skipped = self.skip_quiets;
        self.stage = Stage::Quiets;
    }

    #[inline]
    fn is_legal(&self, pos: &Position, m: Move) -> bool {
        self.legal.as_ref().is_some_and(|l| l.is_legal(pos, m))
    }

    /// A killer or the counter move is handed out before the quiet moves
    /// when it is a legal quiet move here that was not handed out already
    /// (as the table move or as one of `done`).
    #[inline]
    fn quiet_special(&self, pos: &Position, m: Move, done: &[Option<Move>]) -> bool {
        Some(m) != self.tt_move
            && !done.contains(&Some(m))
            && capture_victim(pos, m).is_none()
            && self.is_legal(pos, m)
            && (!self.skip_quiets || spared_by_late_pruning(pos, m))
    }

    /// Drops from the moves left the quiet ones that give no check, once
    /// `skip_quiets` is set; the others keep their order.
    #[inline]
    fn drop_skipped(&mut self, pos: &Position) {
        if !self.skip_quiets || self.skipped {
            return;
        }
        self.skipped = true;
        let mut n = self.next;
        for i in self.next..self.list.len() {
            let m = self.list.as_slice()[i];
            if capture_victim(pos, m).is_some() || spared_by_late_pruning(pos, m) {
                self.list.as_mut_slice()[n] = m;
                self.scores[n] = self.scores[i];
                n += 1;
            }
        }
        self.list.truncate(n);
    }

    /// The index of the best move left, moved to the front of those left so
    /// that the others keep their order (equal scores go in generation
    /// order); `None` when the stage's moves are spent.
    #[inline]
    fn select(&mut self) -> Option<usize> {
        let n = self.list.len();
        let first = self.next;
        if first >= n {
            return None;
        }
        let best = first + first_best(&self.scores[first..n]);
        if best != first {
            self.list.as_mut_slice()[first..=best].rotate_right(1);
            self.scores[first..=best].rotate_right(1);
        }
        self.next = first + 1;
        Some(first)
    }

    /// MVV-LVA scores of the captures, the table move dropped.
    fn score_captures(&mut self, pos: &Position) {
        let mut n = 0;
        for i in 0..self.list.len() {
            let m = self.list.as_slice()[i];
            if Some(m) == self.tt_move {
                continue;
            }
            self.list.as_mut_slice()[n] = m;
            self.scores[n] = mvv_lva(pos, m);
            n += 1;
        }
        self.list.truncate(n);
    }

    /// History scores of the quiet moves from `next` on, the moves handed
    /// out already dropped.
    fn score_quiets(&mut self, pos: &Position, hist: &History) {
        let side = pos.side_to_move().index();
        let done = [self.tt_move, self.killers[0], self.killers[1], self.counter];
        let mut n = self.next;
        for i in self.next..self.list.len() {
            let m = self.list.as_slice()[i];
            if done.contains(&Some(m)) || (self.skip_quiets && !spared_by_late_pruning(pos, m)) {
                continue;
            }
            self.list.as_mut_slice()[n] = m;
            self.scores[n] = hist.quiet_score(side, moving_piece(pos, m), m, self.prevs);
            n += 1;
        }
        self.list.truncate(n);
    }

    /// Every move scored at once, with the scores the stages hand out.
    fn score_all(&mut self, pos: &Position, hist: &History) {
        let side = pos.side_to_move().index();
        for i in 0..self.list.len() {
            let m = self.list.as_slice()[i];
            self.scores[i] = if Some(m) == self.tt_move {
                TT_SCORE
            } else if capture_victim(pos, m).is_some() {
                let mvv = mvv_lva(pos, m);
                if see_ge(pos, m, 0) {
                    GOOD_CAPTURE + mvv
                } else {
                    BAD_CAPTURE + mvv
                }
            } else if Some(m) == self.killers[0] {
                KILLER + 2
            } else if Some(m) == self.killers[1] {
                KILLER + 1
            } else if Some(m) == self.counter {
                KILLER
            } else {
                hist.quiet_score(side, moving_piece(pos, m), m, self.prevs)
            };
        }
    }
}

#[cfg(test)]
#[path = "picker_tests.rs"]
mod tests;

/// The quiet moves late move pruning never prunes: checks, and the pass
/// that accepts a bikjang (it ends the game on the count).
#[inline]
fn spared_by_late_pruning(pos: &Position, m: Move) -> bool {
    (m.is_pass() && pos.bikjang()) || pos.gives_check(m)
}
