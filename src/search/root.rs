//! The root of the search: which moves may be answered (decided here once,
//! for every caller), and the search of each of them, which keeps its score
//! and line for the iterative deepening loop to sort and report.

use super::ordering::{capture_victim, moving_piece};
use super::score::INF;
use super::search::Searcher;
use super::{Ablation, Limits, Report};
use crate::board::{legal_moves, Move, MoveList, Position};

/// The moves the search may answer, and why the set is what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootSet {
    /// No legal move (checkmate, or the game ended by two passes or an
    /// accepted bikjang).
    NoLegalMove,
    /// UCCI `banmoves` forbade every legal move.
    AllBanned,
    /// At least one move; `note` says when `searchmoves` had to be ignored.
    Moves {
        moves: Vec<Move>,
        note: Option<String>,
    },
}

impl RootSet {
    /// Legal moves (the rule set's history bans included), less `banmoves`,
    /// narrowed to `searchmoves` unless that leaves nothing. A ban is a
    /// rule the GUI sets, so it always holds; `searchmoves` is a wish.
    pub fn new(pos: &Position, limits: &Limits) -> RootSet {
        let mut legal = MoveList::new();
        legal_moves(pos, &mut legal);
        if legal.is_empty() {
            return RootSet::NoLegalMove;
        }
        let allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !limits.banmoves.contains(m))
            .collect();
        if allowed.is_empty() {
            return RootSet::AllBanned;
        }
        if limits.searchmoves.is_empty() {
            return RootSet::Moves {
                moves: allowed,
                note: None,
            };
        }
        let narrowed: Vec<Move> = allowed
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if narrowed.is_empty() {
            RootSet::Moves {
                moves: allowed,
                note: Some(
                    "searchmoves leaves no allowed move; searching all allowed moves".into(),
                ),
            }
        } else {
            RootSet::Moves {
                moves: narrowed,
                note: None,
            }
        }
    }

    pub fn moves(&self) -> &[Move] {
        match self {
            RootSet::Moves { moves, .. } => moves,
            _ => &[],
        }
    }
}

impl Searcher<'_> {
    /// The root: searches `root_moves[pv_idx..]`, records each one's score
    /// and line. Scores of moves that fail low stay -INF (order kept).
    pub fn root_search(
        &mut self,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        pv_idx: usize,
        report: &mut dyn FnMut(Report),
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[0] = 0;
        self.set_root_eval();
        let mut best = -INF;
        let in_check = self.pos.in_check();
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.id == 0 && self.tm.elapsed_ms() > 3000 {
                report(Report::CurrMove {
                    depth: depth as u32,
                    mv: m,
                    number: (i + 1) as u32,
                });
            }
            let piece = moving_piece(&self.pos, m);
            let quiet = capture_victim(&self.pos, m).is_none();
            self.stack[0].moved = Some((piece, m));
            self.seldepth = self.seldepth.max(1);
            let nodes_before = self.nodes;
            self.make(m);
            let gives_check = self.pos.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let v = if i == pv_idx {
                -self.search(-beta, -alpha, new_depth, 1, false)
            } else {
                let r = if depth >= 3
                    && quiet
                    && !gives_check
                    && !in_check
                    && i > pv_idx + 3
                    && self.uses(Ablation::LateMoveReductions)
                {
                    (self.shared.lmr.get(depth, i) - 1).max(0)
                } else {
                    0
                };
                let mut v = -self.search(-alpha - 1, -alpha, new_depth - r, 1, true);
                if v > alpha && r > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, new_depth, 1, false);
                }
                v
            };
            self.unmake();
            // Before any reordering below: the effort the time manager
            // weighs belongs to this move.
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.aborted() && self.root_depth > 1 {
                return best;
            }
            if i == pv_idx || v > alpha {
                let mut pv = vec![m];
                let len = self.pv_len[1];
                pv.extend(self.pv[1][..len].iter().flatten());
                let rm = &mut self.root_moves[i];
                rm.score = v;
                rm.pv = pv;
                rm.seldepth = self.seldepth;
                if i > pv_idx && v > alpha {
                    // A new best: first in line even if the iteration is cut short.
                    self.root_moves[pv_idx..=i].rotate_right(1);
                }
            } else {
                self.root_moves[i].score = -INF;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }
}
