//! Move ordering: the histories, killers and counter moves the search
//! learns, the ordering scores, and the captures-only picker of quiescence
//! and ProbCut. The main search's staged picker is `picker`.

use super::eval::piece_value;
use super::score::MAX_PLY;
use crate::board::{Move, MoveList, Piece, Position, NUM_PIECES, NUM_SQUARES};

const HIST_MAX: i32 = 16384;

/// Per-thread learning tables, kept between searches of one game.
pub struct History {
    /// [side][from][to]
    butterfly: Vec<i16>,
    /// [previous piece][previous to][piece][to]
    cont: Vec<i16>,
    /// [previous piece][previous to]
    counter: Vec<Option<Move>>,
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// What searches learned about the static evaluation's errors.
    pub corr: super::correction::Correction,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

#[inline]
fn bidx(side: usize, m: Move) -> usize {
    (side * NUM_SQUARES + m.from().index()) * NUM_SQUARES + m.to().index()
}

#[inline]
fn cidx(prev: (Piece, Move), piece: Piece, m: Move) -> usize {
    ((prev.0.index() * NUM_SQUARES + prev.1.to().index()) * NUM_PIECES + piece.index())
        * NUM_SQUARES
        + m.to().index()
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let v = *entry as i32;
    let b = bonus.clamp(-HIST_MAX, HIST_MAX);
    *entry = (v + b - v * b.abs() / HIST_MAX) as i16;
}

/// A cutoff's history bonus at `depth`: Fairy-Stockfish's schedule, which
/// learns from shallow cutoffs several times faster than the old
/// `min(16 d^2, 1600)` (328 against 64 at depth 2, 1315 against 400 at 5).
#[inline]
fn bonus(depth: i32) -> i32 {
    (7 * depth * depth + 280 * depth - 260).clamp(0, 2400)
}

impl History {
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * NUM_SQUARES * NUM_SQUARES],
            cont: vec![0; NUM_PIECES * NUM_SQUARES * NUM_PIECES * NUM_SQUARES],
            counter: vec![None; NUM_PIECES * NUM_SQUARES],
            killers: [[None; 2]; MAX_PLY + 2],
            corr: super::correction::Correction::new(),
        }
    }

    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.cont.fill(0);
        self.counter.fill(None);
        self.killers = [[None; 2]; MAX_PLY + 2];
        self.corr.clear();
    }

    pub fn quiet_score(
        &self,
        side: usize,
        piece: Piece,
        m: Move,
        prev: Option<(Piece, Move)>,
    ) -> i32 {
        let mut s = self.butterfly[bidx(side, m)] as i32;
        if let Some(p) = prev {
            s += self.cont[cidx(p, piece, m)] as i32;
        }
        s
    }

    /// The counter-move history score alone (0 without a previous move).
    pub fn cont_score(&self, piece: Piece, m: Move, prev: Option<(Piece, Move)>) -> i32 {
        prev.map_or(0, |p| self.cont[cidx(p, piece, m)] as i32)
    }

    pub fn counter_move(&self, prev: Option<(Piece, Move)>) -> Option<Move> {
        prev.and_then(|p| self.counter[p.0.index() * NUM_SQUARES + p.1.to().index()])
    }

    /// The table cut this node off with its move, a quiet one: a cutoff it
    /// caused before (`fail_high`) rewards it as a searched cutoff would,
    /// without moves tried before it; a bound below alpha punishes it. The
    /// node is not searched, so this is all it teaches the ordering.
    pub fn update_tt_cutoff(
        &mut self,
        side: usize,
        ply: usize,
        depth: i32,
        best: (Piece, Move),
        prev: Option<(Piece, Move)>,
        fail_high: bool,
    ) {
        if fail_high {
            self.update_quiet(side, ply, depth, best, &[], prev);
        } else {
            gravity(&mut self.butterfly[bidx(side, best.1)], -bonus(depth));
        }
    }

    /// A quiet move caused a cutoff: reward it, punish the quiets tried before it.
    pub fn update_quiet(
        &mut self,
        side: usize,
        ply: usize,
        depth: i32,
        best: (Piece, Move),
        tried: &[(Piece, Move)],
        prev: Option<(Piece, Move)>,
    ) {
        let bonus = bonus(depth);
        let k = &mut self.killers[ply];
        if k[0] != Some(best.1) {
            k[1] = k[0];
            k[0] = Some(best.1);
        }
        if let Some(p) = prev {
            self.counter[p.0.index() * NUM_SQUARES + p.1.to().index()] = Some(best.1);
        }
        gravity(&mut self.butterfly[bidx(side, best.1)], bonus);
        if let Some(p) = prev {
            gravity(&mut self.cont[cidx(p, best.0, best.1)], bonus);
        }
        for &(pc, m) in tried {
            gravity(&mut self.butterfly[bidx(side, m)], -bonus);
            if let Some(p) = prev {
                gravity(&mut self.cont[cidx(p, pc, m)], -bonus);
            }
        }
    }
}

// The ordering scores, shared by both pickers: the table move, captures
// that do not lose by the exchange test (by MVV-LVA), the killers and the
// counter move, quiet moves by history (well inside +-2^16), losing captures.
pub(super) const TT_SCORE: i32 = 1 << 30;
pub(super) const GOOD_CAPTURE: i32 = 1 << 28;
pub(super) const KILLER: i32 = 1 << 27;
pub(super) const BAD_CAPTURE: i32 = -(1 << 28);

/// Most valuable victim, least valuable attacker.
#[inline]
pub(super) fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = capture_victim(pos, m).map_or(0, piece_value);
    let attacker = pos.piece_at(m.from()).map_or(0, |a| piece_value(a.kind()));
    victim * 8 - attacker / 8
}

/// Captures with scores, handed out best first (quiescence and ProbCut; the
/// main search has `picker::MovePicker`).
pub struct Picker {
    pub list: MoveList,
    scores: [i32; crate::board::moves::MAX_MOVES],
    next: usize,
}

impl Picker {
    /// The moves `generate` lists, by MVV-LVA, the table move first (the
    /// captures, or every evasion in check). `generate` fills the picker's
    /// own list, so no list built apart is moved in.
    #[inline(always)]
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        generate: impl FnOnce(&Position, &mut MoveList),
    ) -> Picker {
        let mut p = Picker {
            list: MoveList::new(),
            scores: [0; crate::board::moves::MAX_MOVES],
            next: 0,
        };
        generate(pos, &mut p.list);
        for (i, &m) in p.list.iter().enumerate() {
            p.scores[i] = if Some(m) == tt_move {
                TT_SCORE
            } else {
                mvv_lva(pos, m)
            };
        }
        p
    }

    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let n = self.list.len();
        if self.next >= n {
            return None;
        }
        let best = self.next + first_best(&self.scores[self.next..n]);
        let moves = self.list.as_mut_slice();
        moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let out = (moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(out)
    }
}

/// The place of the highest score, the first of equal ones (`scores` is
/// not empty). The maximum first, a reduction the compiler vectorises, then
/// its place: a plain scan for the best costs several times as much over
/// the quiet moves, and this is the search's most frequent loop.
#[inline]
pub fn first_best(scores: &[i32]) -> usize {
    let top = scores.iter().copied().max().unwrap_or(i32::MIN);
    scores.iter().position(|&s| s == top).unwrap_or(0)
}

/// An ordering score that marks a capture losing by exchange.
#[inline]
pub fn is_bad_capture(score: i32) -> bool {
    score < BAD_CAPTURE / 2
}

#[inline]
pub fn capture_victim(pos: &Position, m: Move) -> Option<crate::board::PieceKind> {
    if m.is_pass() {
        return None;
    }
    pos.piece_at(m.to()).map(|p| p.kind())
}

/// The piece that makes `m` (the general for a pass).
#[inline]
pub fn moving_piece(pos: &Position, m: Move) -> Piece {
    pos.piece_at(m.from()).unwrap_or(Piece::new(
        pos.side_to_move(),
        crate::board::PieceKind::General,
    ))
}
