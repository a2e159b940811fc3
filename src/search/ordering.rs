//! Move ordering: the histories, killers and counter moves the search
//! learns, the ordering scores, and the captures-only picker of quiescence
//! and ProbCut. The main search's staged picker is `picker`.

use super::eval::piece_value;
use super::score::MAX_PLY;
use crate::board::{Move, MoveList, Piece, Position, NUM_PIECES, NUM_SQUARES};

const HIST_MAX: i32 = 16384;

/// The moves made one and two plies before a node, with their pieces
/// (`None` before the root, and one ply back after a null move).
pub type Prevs = [Option<(Piece, Move)>; 2];

/// Per-thread learning tables, kept between searches of one game.
pub struct History {
    /// [side][from][to]
    butterfly: Vec<i16>,
    /// [earlier piece][earlier to][piece][to]: continuation history, how
    /// well a move follows the move one ply back (the opponent's) and the
    /// one two plies back (our own). One table serves both: pieces carry
    /// their colour, so the opponent's moves and our own index disjoint
    /// halves of it, as in Stockfish.
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

    pub fn quiet_score(&self, side: usize, piece: Piece, m: Move, prevs: Prevs) -> i32 {
        let mut s = self.butterfly[bidx(side, m)] as i32;
        for p in prevs.into_iter().flatten() {
            s += self.cont[cidx(p, piece, m)] as i32;
        }
        s
    }

    /// Whether the continuation history advises against `m`, as
    /// Stockfish's counter-move pruning reads it: negative after the move
    /// one ply back, and after the one two plies back where there is one.
    /// Without a move one ply back (the root, after a null move) it knows
    /// nothing.
    pub fn cont_unpromising(&self, piece: Piece, m: Move, prevs: Prevs) -> bool {
        let below = |p: (Piece, Move)| self.cont[cidx(p, piece, m)] < 0;
        prevs[0].is_some_and(below) && prevs[1].is_none_or(below)
    }

    pub fn counter_move(&self, prevs: Prevs) -> Option<Move> {
        prevs[0].and_then(|p| self.counter[p.0.index() * NUM_SQUARES + p.1.to().index()])
    }

    /// A quiet move caused a cutoff: reward it, punish the quiets tried before it.
    pub fn update_quiet(
        &mut self,
        side: usize,
        ply: usize,
        depth: i32,
        best: (Piece, Move),
        tried: &[(Piece, Move)],
        prevs: Prevs,
    ) {
        let bonus = bonus(depth);
        let k = &mut self.killers[ply];
        if k[0] != Some(best.1) {
            k[1] = k[0];
            k[0] = Some(best.1);
        }
        if let Some(p) = prevs[0] {
            self.counter[p.0.index() * NUM_SQUARES + p.1.to().index()] = Some(best.1);
        }
        gravity(&mut self.butterfly[bidx(side, best.1)], bonus);
        for &(_, m) in tried {
            gravity(&mut self.butterfly[bidx(side, m)], -bonus);
        }
        for p in prevs.into_iter().flatten() {
            gravity(&mut self.cont[cidx(p, best.0, best.1)], bonus);
            for &(pc, m) in tried {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, PieceKind, Square};

    fn every_piece() -> impl Iterator<Item = Piece> {
        Color::ALL
            .into_iter()
            .flat_map(|c| PieceKind::ALL.into_iter().map(move |k| Piece::new(c, k)))
    }

    fn mv(from: usize, to: usize) -> Move {
        Move::new(Square::new(from as u8), Square::new(to as u8))
    }

    #[test]
    fn continuation_indices_fill_the_table_once_each() {
        let mut seen = vec![false; NUM_PIECES * NUM_SQUARES * NUM_PIECES * NUM_SQUARES];
        assert_eq!(seen.len(), History::new().cont.len());
        for p in every_piece() {
            for t in 0..NUM_SQUARES {
                for q in every_piece() {
                    for u in 0..NUM_SQUARES {
                        let i = cidx((p, mv(0, t)), q, mv(89, u));
                        assert!(!seen[i], "{p:?} {t} {q:?} {u}");
                        seen[i] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn a_cutoff_teaches_both_plies_back_and_pruning_reads_both() {
        let cho = |k| Piece::new(Color::Cho, k);
        let han = |k| Piece::new(Color::Han, k);
        // Han's move one ply back, Cho's own two plies back.
        let one = (han(PieceKind::Chariot), mv(80, 70));
        let two = (cho(PieceKind::Horse), mv(1, 20));
        let both = [Some(one), Some(two)];
        let best = (cho(PieceKind::Cannon), mv(10, 13));
        let tried = (cho(PieceKind::Soldier), mv(27, 36));
        let side = Color::Cho.index();
        let mut h = History::new();
        h.update_quiet(side, 3, 5, best, &[tried], both);
        // From empty tables each entry moves by the whole bonus.
        let b = bonus(5);
        let score = |h: &History, (p, m): (Piece, Move), prevs| h.quiet_score(side, p, m, prevs);
        assert_eq!(score(&h, best, [None, None]), b);
        assert_eq!(score(&h, best, [Some(one), None]), 2 * b);
        assert_eq!(score(&h, best, [None, Some(two)]), 2 * b);
        assert_eq!(score(&h, best, both), 3 * b);
        assert_eq!(score(&h, tried, both), -3 * b);
        assert_eq!(h.counter_move(both), Some(best.1));
        assert_eq!(h.counter_move([None, Some(two)]), None);

        assert!(h.cont_unpromising(tried.0, tried.1, both));
        assert!(h.cont_unpromising(tried.0, tried.1, [Some(one), None]));
        assert!(!h.cont_unpromising(tried.0, tried.1, [None, Some(two)]));
        assert!(!h.cont_unpromising(best.0, best.1, both));
        // Bad after the opponent's move but good after our own: spared.
        let mut h2 = History::new();
        h2.update_quiet(side, 3, 5, best, &[tried], [Some(one), None]);
        h2.update_quiet(side, 3, 5, tried, &[], [None, Some(two)]);
        assert!(h2.cont_unpromising(tried.0, tried.1, [Some(one), None]));
        assert!(!h2.cont_unpromising(tried.0, tried.1, both));
    }
}
