//! The alpha-beta search of one thread: principal variation search with
//! quiescence, check extension, mate-distance pruning, null move (a real
//! pass), reverse futility, futility, exchange-test pruning, late move
//! pruning and reductions.
//! Game endings are scored by the rule set: checkmate, two passes, bikjang
//! accepted, repetition (perpetual check loses) and the move limit, which
//! under counting rule sets are won or lost by the count, not drawn.

use super::correction::Slots;
use super::eval::piece_value;
use super::margins::{self as m, LmrTable, Margins};
use super::ordering::{capture_victim, is_bad_capture, moving_piece, History, Picker};
use super::picker::MovePicker;
use super::score::MAX_PLY;
use super::score::{INF, MATE, WIN_BOUND};
use super::see::see_ge;
use super::time::TimeManager;
use super::tt::{TranspositionTable, TtHit};
use super::{Ablation, Bound, Control};
use crate::board::{legal_captures, legal_moves, Move, Piece, PieceKind, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What all threads of one search share.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub abort: AtomicBool,
    /// Nodes of each thread, published every 1024 nodes and at the end.
    pub nodes: Vec<AtomicU64>,
    pub control: &'a Control,
    pub node_limit: u64,
    /// Checked only between iterations (`Limits::soft_nodes`).
    pub soft_node_limit: u64,
    /// A feature switched off for measurement (`Ablation::None` in play).
    pub ablation: Ablation,
    /// The network when NNUE evaluates, else the classical evaluation.
    pub net: Option<&'a crate::nnue::Network>,
    pub margins: Margins,
    pub lmr: &'a LmrTable,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// Nodes this thread spent below this move in the whole search (all
    /// iterations and re-searches): the time manager's measure of effort.
    pub nodes: u64,
}

#[derive(Copy, Clone, Default)]
pub(super) struct Frame {
    eval: i32,
    /// The move a singular-extension search leaves out at this ply.
    excluded: Option<Move>,
    /// The move made from this ply, with its piece.
    pub(super) moved: Option<(Piece, Move)>,
}

pub struct Searcher<'a> {
    pub id: usize,
    pub pos: Position,
    pub shared: &'a Shared<'a>,
    pub hist: &'a mut History,
    pub nodes: u64,
    pub seldepth: usize,
    pub root_moves: Vec<RootMove>,
    /// The last fully searched depth and its best root move.
    pub best_completed: Option<(i32, RootMove)>,
    pub tm: TimeManager,
    /// A ponder search that has not been hit yet: no time limit.
    pub pondering: bool,
    pub single_thread: bool,
    pub root_depth: i32,
    pub(super) stack: Vec<Frame>,
    pub(super) pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 2],
    /// One accumulator level per ply, when NNUE evaluates.
    pub(super) acc: Option<crate::nnue::Accumulators>,
    /// The ply of the last node that returned a rule ending's score, reset
    /// on entry to every node: right after a call at ply p+1 returns, it
    /// equals p+1 exactly when that child was itself a rule ending.
    rule_end_ply: usize,
}

#[inline]
fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_BOUND {
        s + ply as i32
    } else if s <= -WIN_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_BOUND {
        s - ply as i32
    } else if s <= -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The table's score in place of `eval` when its bound says the true
/// value lies beyond `eval` in the score's direction (or it is exact), and
/// it is not a mate score.
#[inline]
fn refined_by_table(eval: i32, t: &TtHit, ply: usize) -> i32 {
    let s = from_tt(t.score, ply);
    let better = match t.bound {
        Bound::Exact => true,
        Bound::Lower => s > eval,
        Bound::Upper => s < eval,
    };
    if better && s.abs() < WIN_BOUND {
        s
    } else {
        eval
    }
}

impl<'a> Searcher<'a> {
    pub fn new(
        id: usize,
        pos: Position,
        shared: &'a Shared<'a>,
        hist: &'a mut History,
        root_moves: Vec<RootMove>,
        tm: TimeManager,
    ) -> Searcher<'a> {
        let acc = shared.net.map(|net| {
            let mut acc = crate::nnue::Accumulators::new(net, MAX_PLY + 8);
            acc.refresh(net, &pos);
            acc
        });
        Searcher {
            id,
            pos,
            single_thread: shared.nodes.len() == 1,
            shared,
            hist,
            nodes: 0,
            seldepth: 0,
            root_moves,
            best_completed: None,
            tm,
            pondering: false,
            root_depth: 0,
            stack: vec![Frame::default(); MAX_PLY + 4],
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            acc,
            rule_end_ply: usize::MAX,
        }
    }

    /// A tunable margin's value in this search.
    #[inline]
    pub(super) fn margin(&self, i: usize) -> i32 {
        self.shared.margins.get(i)
    }

    /// How much a quiet move searched at `lmr_depth` may lose by the
    /// exchange test before it is pruned: Stockfish 11's
    /// (32 - min(d, 18)) * d^2 with its 32 rescaled to `SeeQuiet`.
    #[inline]
    fn see_quiet_margin(&self, lmr_depth: i32) -> i32 {
        self.margin(m::SEE_QUIET) * (32 - lmr_depth.min(18)) * lmr_depth * lmr_depth / 32
    }

    /// Whether a pruning feature is on (all are, unless one is ablated).
    /// The static evaluation `raw` corrected by what the search learned
    /// (`CorrWeight` percent of the correction history; 0 leaves it as is).
    #[inline]
    fn corrected(&self, raw: i32, slots: Option<Slots>) -> i32 {
        match slots {
            Some(s) => (raw + self.hist.corr.get(s, self.margin(m::CORR_WEIGHT)))
                .clamp(-WIN_BOUND + 1, WIN_BOUND - 1),
            None => raw,
        }
    }

    /// The node's correction-history slots, when correction is on.
    #[inline]
    fn corr_slots(&self, ply: usize) -> Option<Slots> {
        (self.margin(m::CORR_WEIGHT) != 0).then(|| Slots::of(&self.pos, self.prev_move(ply)))
    }

    #[inline]
    pub(super) fn uses(&self, feature: Ablation) -> bool {
        self.shared.ablation != feature
    }

    #[inline]
    pub fn aborted(&self) -> bool {
        self.shared.abort.load(Ordering::Relaxed)
    }

    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Counts a node; the main thread also watches the clock, `stop`,
    /// `ponderhit` and the node limit. Returns true when the search must end.
    #[inline]
    fn poll(&mut self) -> bool {
        self.nodes += 1;
        if self.id == 0 {
            if self.single_thread && self.nodes >= self.shared.node_limit {
                self.shared.abort.store(true, Ordering::Relaxed);
            }
            if self.nodes & 1023 == 0 {
                self.publish_nodes();
                self.check_limits();
            }
        } else if self.nodes & 1023 == 0 {
            self.publish_nodes();
        }
        self.aborted()
    }

    pub fn check_limits(&mut self) {
        let c = self.shared.control;
        if c.stopped() {
            self.shared.abort.store(true, Ordering::Relaxed);
            return;
        }
        if self.pondering && c.pondering_hit() {
            self.pondering = false;
            self.tm.start = std::time::Instant::now();
        }
        if !self.pondering && self.tm.hard_expired() {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
        if !self.single_thread && self.shared.total_nodes() >= self.shared.node_limit {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
    }

    #[inline]
    fn prev_move(&self, ply: usize) -> Option<(Piece, Move)> {
        if ply == 0 {
            None
        } else {
            self.stack[ply - 1].moved
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = Some(m);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    pub(super) fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        if self.poll() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        self.rule_end_ply = usize::MAX;
        if let Some(s) = self.rule_end(ply) {
            self.rule_end_ply = ply;
            return s;
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }

        let key = self.pos.key();
        // A singular-extension search asks about this position without its
        // table move: the table's score and move (which include that move)
        // are no answer to it, and its result must not overwrite the entry;
        // the static evaluation it keeps still holds.
        let excluded = self.stack[ply].excluded;
        let probed = self.shared.tt.probe(key);
        let tt = probed.filter(|_| excluded.is_none());
        let tt_move = tt.and_then(|t| t.mv);
        if let Some(t) = tt {
            let s = from_tt(t.score, ply);
            if !pv_node
                && t.depth >= depth
                && match t.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }

        // Internal iterative reduction: a node worth searching deeply was
        // searched before and left a move; without one, ordering is blind,
        // so spend less here and let the next iteration fill the table.
        if depth >= 4
            && tt_move.is_none()
            && excluded.is_none()
            && (pv_node || cut)
            && self.uses(Ablation::InternalIterativeReduction)
        {
            depth -= 1;
        }

        let raw_eval = if in_check {
            -INF
        } else if let Some(t) = probed {
            t.eval
        } else {
            self.evaluate()
        };
        let slots = if in_check { None } else { self.corr_slots(ply) };
        let eval = self.corrected(raw_eval, slots);
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        let static_eval = eval;
        // A table score whose bound points away from the static evaluation
        // is a better estimate for the pruning decisions below.
        let eval = match tt {
            Some(t) if !in_check => refined_by_table(eval, &t, ply),
            _ => eval,
        };

        if !pv_node && !in_check && excluded.is_none() && beta.abs() < WIN_BOUND {
            // Reverse futility: far above beta at low depth.
            if depth <= 6
                && eval - self.margin(m::RFP) * (depth - improving as i32) >= beta
                && self.uses(Ablation::ReverseFutility)
            {
                return eval;
            }
            // Null move, played as a real pass (legal whenever not in check,
            // so there is no zugzwang). Not right after the opponent passed
            // (two passes end the game), nor in bikjang (a pass accepts it),
            // nor with only soldiers and palace pieces left.
            let officers = self.pos.pieces(self.pos.side_to_move())
                & (self.pos.kind(PieceKind::Chariot)
                    | self.pos.kind(PieceKind::Cannon)
                    | self.pos.kind(PieceKind::Horse));
            if depth >= 3
                && eval >= beta
                && !self.pos.last_was_pass()
                && !self.pos.bikjang()
                && officers.any()
                && self.prev_move(ply).is_some()
                && self.uses(Ablation::NullMove)
            {
                let r = self.margin(m::NMP_BASE)
                    + depth / 4
                    + ((eval - beta) / self.margin(m::NMP_EVAL_DIV).max(1)).min(3);
                let pass = Move::pass(self.pos.king(self.pos.side_to_move()));
                self.stack[ply].moved = None;
                self.make(pass);
                let v = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut);
                self.unmake();
                if self.aborted() {
                    return 0;
                }
                if v >= beta {
                    return if v >= WIN_BOUND { beta } else { v };
                }
            }

            // ProbCut: a capture that wins enough material that a shallow
            // search already beats beta by a margin will almost surely
            // beat beta at full depth too.
            let pc_beta = beta + self.margin(m::PROBCUT) - 60 * improving as i32;
            if depth >= 5
                && !tt.is_some_and(|t| t.depth >= depth - 3 && from_tt(t.score, ply) < pc_beta)
                && self.uses(Ablation::ProbCut)
            {
                if let Some(v) = self.probcut(pc_beta, (eval, raw_eval), depth, ply, tt_move, cut) {
                    return v;
                }
                if self.aborted() {
                    return 0;
                }
            }
        }

        let prev = self.prev_move(ply);
        let mut picker = MovePicker::new(&self.pos, tt_move, self.hist, ply, prev);
        if !picker.has_moves() {
            return -MATE + ply as i32;
        }
        if self.pos.halfmove() >= self.pos.rules().move_limit() {
            // In check with a way out: the move limit ends the game now.
            return self.count_score(ply);
        }
        let side = self.pos.side_to_move().index();
        let mut best = -INF;
        let mut best_move = None;
        let mut moves_searched = 0usize;
        let mut quiets: [(Piece, Move); 64] = [(
            Piece::ChoGeneral,
            Move::pass(self.pos.king(self.pos.side_to_move())),
        ); 64];
        let mut n_quiets = 0;
        let original_alpha = alpha;
        let bikjang = self.pos.bikjang();
        let mut best_by_rule = false;
        let se_depth = self.margin(m::SINGULAR_DEPTH);

        while let Some((m, order)) = picker.next(&self.pos, self.hist) {
            if Some(m) == excluded {
                continue;
            }
            let victim = capture_victim(&self.pos, m);
            let quiet = victim.is_none();
            let piece = moving_piece(&self.pos, m);

            let gives_check = self.pos.gives_check(m);
            // In bikjang the pass ends the game on the count: a result, not
            // a quiet move to prune.
            let ends_game = m.is_pass() && bikjang;
            if quiet && !ends_game && best > -WIN_BOUND && !in_check && moves_searched > 0 {
                let lmp = (self.margin(m::LMP_BASE) + depth * depth) / (2 - improving as i32);
                let late = !pv_node
                    && depth <= 5
                    && moves_searched as i32 >= lmp
                    && self.uses(Ablation::LateMovePruning);
                // The depth this move would get after its late-move reduction.
                let reduction = self.shared.lmr.get(depth, moves_searched + 1);
                let lmr_depth = (depth - 1 - reduction).max(0);
                let futile = lmr_depth <= 6
                    && eval
                        + self.margin(m::FUTILITY_BASE)
                        + self.margin(m::FUTILITY_DEPTH) * lmr_depth
                        <= alpha
                    && self.uses(Ablation::Futility);
                let unpromising = lmr_depth < 3
                    && self.uses(Ablation::HistoryPruning)
                    && self.hist.cont_score(piece, m, prev) < 0;
                // A quiet move that loses more by the exchange test than a
                // margin growing with its depth. The pass loses nothing, so
                // this never prunes it (bikjang may hang on it).
                let losing = || {
                    !m.is_pass()
                        && self.uses(Ablation::SeePruning)
                        && !see_ge(&self.pos, m, -self.see_quiet_margin(lmr_depth))
                };
                if late {
                    // Late move pruning only grows stricter as the node goes
                    // on (more moves searched, a better best): every later
                    // quiet move that gives no check will be pruned too, so
                    // the picker need not order them.
                    picker.skip_quiets();
                }
                // All of these spare checks, which are judged below.
                if !gives_check && (late || futile || unpromising || losing()) {
                    continue;
                }
            }
            // Captures and checks that lose more by the exchange test than
            // a margin a ply, at shallow non-PV nodes, as in Stockfish 11
            // and Fairy-Stockfish. (An earlier form, which pruned captures
            // in PV nodes too and spared checks, lost 100 +/- 76 Elo in 64
            // games: docs/RESULTS.md.)
            if (!quiet || gives_check)
                && !pv_node
                && depth <= 6
                && best > -WIN_BOUND
                && !in_check
                && moves_searched > 0
                && self.uses(Ablation::SeePruning)
                && !see_ge(&self.pos, m, -self.margin(m::SEE_CAPTURE) * depth)
            {
                continue;
            }

            // Checks that lose material are not extended: Janggi's chariots
            // and cannons give so many checks that extending sacrifices
            // too swells the tree at depth.
            let mut ext = (gives_check
                && ply < 2 * self.root_depth as usize
                && see_ge(&self.pos, m, 0)) as i32;
            // Singular extension: when every other move falls well short of
            // the table move's score, the table move is the position's only
            // move and gets a ply more. A decided table score (mate, or a
            // rule ending: the count, bikjang, the move limit, perpetual
            // check) is no bound to measure the others against. The table
            // move may be the pass.
            if let Some(t) = tt.filter(|t| {
                se_depth > 0
                    && Some(m) == t.mv
                    && depth >= se_depth
                    && t.depth >= depth - 3
                    && t.bound != Bound::Upper
                    && from_tt(t.score, ply).abs() < WIN_BOUND
                    && ply < 2 * self.root_depth as usize
            }) {
                let tt_score = from_tt(t.score, ply);
                let s_beta = tt_score - 2 * depth;
                self.stack[ply].excluded = Some(m);
                let v = self.search(s_beta - 1, s_beta, (depth - 1) / 2, ply, cut);
                self.stack[ply].excluded = None;
                if self.aborted() {
                    return 0;
                }
                if v < s_beta {
                    ext = 1;
                } else if s_beta >= beta {
                    // Multi-cut: another move beats beta too.
                    return s_beta;
                } else if tt_score >= beta {
                    // Not singular, and it already beat beta: spend less.
                    ext = -1;
                }
            }
            self.stack[ply].moved = Some((piece, m));
            self.make_giving_check(m, gives_check);
            self.shared.tt.prefetch(self.pos.key());
            let new_depth = depth - 1 + ext;
            moves_searched += 1;

            let v = if moves_searched == 1 {
                -self.search(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut)
            } else {
                let mut r = 0;
                // Quiet moves, checks and losing captures are reduced;
                // captures that win or hold material are not.
                if depth >= 3
                    && moves_searched > 1 + pv_node as usize
                    && (quiet || is_bad_capture(order))
                    && self.uses(Ablation::LateMoveReductions)
                {
                    r = self.shared.lmr.get(depth, moves_searched);
                    r -= pv_node as i32;
                    r += !improving as i32;
                    r += cut as i32;
                    r -= gives_check as i32;
                    if quiet {
                        let h = self.hist.quiet_score(side, piece, m, prev);
                        r -= (h / self.margin(m::HIST_DIV).max(1)).clamp(-2, 2);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut v = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if v > alpha && r > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut);
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
                v
            };
            let child_rule_end = self.rule_end_ply == ply + 1;
            self.unmake();
            if self.aborted() {
                return 0;
            }

            if v > best {
                best = v;
                best_by_rule = child_rule_end;
                if v > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        if quiet {
                            self.hist.update_quiet(
                                side,
                                ply,
                                depth,
                                (piece, m),
                                &quiets[..n_quiets],
                                prev,
                            );
                        }
                        break;
                    }
                    alpha = v;
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = (piece, m);
                n_quiets += 1;
            }
        }

        if moves_searched == 0 {
            // Everything was pruned: fail low softly.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_some() {
            // Not the position's value, nor a lesson about its evaluation.
            return best;
        }
        // The evaluation's error, learned where the result says something
        // about it: not from a capture (which only says the position was
        // not quiet), not from a bound on the wrong side of the evaluation,
        // never from a decided score or one a rule ending gave.
        if let Some(s) = slots {
            let learn = !best_by_rule
                && best.abs() < WIN_BOUND
                && best_move.is_none_or(|m| capture_victim(&self.pos, m).is_none())
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval);
            if learn {
                self.hist.corr.learn(s, depth, raw_eval, best);
            }
        }
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.shared.tt.store(
            key,
            best_move.or(tt_move),
            to_tt(best, ply),
            stored_eval,
            depth,
            bound,
        );
        best
    }

    /// Tries winning captures against `pc_beta`: a quiescence search first,
    /// then a search four plies shallower. Returns the score that proves
    /// the cut, if one does. `raw_eval` is what the table keeps.
    fn probcut(
        &mut self,
        pc_beta: i32,
        (eval, raw_eval): (i32, i32),
        depth: i32,
        ply: usize,
        tt_move: Option<Move>,
        cut: bool,
    ) -> Option<i32> {
        let mut picker = Picker::new(&self.pos, tt_move, legal_captures);
        let mut tries = 0;
        while let Some((m, _)) = picker.pick() {
            if tries >= 2 + 2 * cut as usize {
                break;
            }
            if !see_ge(&self.pos, m, pc_beta - eval) {
                continue;
            }
            tries += 1;
            self.stack[ply].moved = Some((moving_piece(&self.pos, m), m));
            self.make(m);
            self.shared.tt.prefetch(self.pos.key());
            let mut v = -self.qsearch(-pc_beta, -pc_beta + 1, ply + 1);
            if v >= pc_beta {
                v = -self.search(-pc_beta, -pc_beta + 1, depth - 4, ply + 1, !cut);
            }
            self.unmake();
            if self.aborted() {
                return None;
            }
            if v >= pc_beta {
                let key = self.pos.key();
                self.shared.tt.store(
                    key,
                    Some(m),
                    to_tt(v, ply),
                    raw_eval,
                    depth - 3,
                    Bound::Lower,
                );
                return Some(v);
            }
        }
        None
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        if self.poll() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        self.rule_end_ply = usize::MAX;
        if let Some(s) = self.rule_end(ply) {
            self.rule_end_ply = ply;
            return s;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        let key = self.pos.key();
        let tt = self.shared.tt.probe(key);
        if let Some(t) = tt {
            let s = from_tt(t.score, ply);
            if !pv_node
                && match t.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }
        let tt_move = tt.and_then(|t| t.mv);
        let mut picker;
        let mut best;
        let mut stand;
        let mut raw = 0;
        if in_check {
            picker = Picker::new(&self.pos, tt_move, legal_moves);
            if picker.list.is_empty() {
                return -MATE + ply as i32;
            }
            best = -INF;
            stand = -INF;
        } else {
            raw = tt.map_or_else(|| self.evaluate(), |t| t.eval);
            stand = self.corrected(raw, self.corr_slots(ply));
            // A table score bounded on the right side is a better guess at
            // what standing pat is worth than the static evaluation.
            if let Some(t) = tt {
                stand = refined_by_table(stand, &t, ply);
            }
            best = stand;
            if self.pos.bikjang() {
                // The side to move may pass and accept the bikjang ending.
                best = best.max(self.count_score(ply));
            }
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            picker = Picker::new(&self.pos, tt_move, legal_captures);
        }
        let mut best_move = None;
        // A recapture on the point the last move went to settles the
        // exchange under way: it is never pruned by count or futility.
        let recapture_on = ply
            .checked_sub(1)
            .and_then(|p| self.stack[p].moved)
            .map(|(_, m)| m.to());
        let mut tried = 0;
        while let Some((m, _)) = picker.pick() {
            tried += 1;
            if !in_check {
                let spared = m.is_pass() || Some(m.to()) == recapture_on || self.pos.gives_check(m);
                if !spared && best > -WIN_BOUND {
                    // After the first two captures (the best by MVV-LVA),
                    // the rest rarely change the score.
                    if tried > 2 {
                        continue;
                    }
                    // Futility by the victim: even winning it cannot lift
                    // the score to alpha.
                    let futile = stand
                        + capture_victim(&self.pos, m).map_or(0, piece_value)
                        + self.margin(m::QS_DELTA);
                    if futile <= alpha {
                        best = best.max(futile);
                        continue;
                    }
                }
                if !see_ge(&self.pos, m, 0) {
                    continue;
                }
            } else if best > -WIN_BOUND && !m.is_pass() && !see_ge(&self.pos, m, 0) {
                // One evasion has shown the side is not mated: the
                // evasions that lose material by the exchange test wait.
                continue;
            }
            self.stack[ply].moved = Some((moving_piece(&self.pos, m), m));
            self.make(m);
            self.shared.tt.prefetch(self.pos.key());
            let v = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake();
            if self.aborted() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if best == -INF {
            // In check, every evasion was searched and failed: can't happen
            // with moves present; keep the bound sane.
            best = alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        // The table keeps the static evaluation, not the table-informed stand-pat.
        let stored_eval = if in_check { 0 } else { raw };
        self.shared
            .tt
            .store(key, best_move, to_tt(best, ply), stored_eval, 0, bound);
        best
    }
}
