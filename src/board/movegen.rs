//! Legal move generation.
//!
//! Pseudo-legal moves are generated per piece, then filtered. Most moves
//! cannot change any attack on the own general: only a piece leaving or
//! entering a line from the general that holds an enemy chariot or cannon
//! (pins, cannon screens made or removed), or leaving the leg of an enemy
//! horse or elephant aimed at the general, can. So a cheap mask of those
//! "sensitive" points sends only the few moves that touch it, the general's
//! own moves, and every move while in check or in bikjang, to the exact test.

use super::attacks::{
    cannon_attacks, chariot_attacks, elephant_attacks, horse_attacks, palace_steps, soldier_steps,
    ELEPHANT_LEAPS_TO, HORSE_LEAPS_TO, NONE, PALACE_DIAG_POINTS, RAYS,
};
use super::bitboard::Bitboard;
use super::moves::{Move, MoveList};
use super::position::Position;
use super::square::{PieceKind, Square};

/// Calls `f(from, targets)` for every own piece with pseudo-legal targets
/// (no pass), targets restricted to `targets`.
#[inline(always)]
fn for_each_pseudo(pos: &Position, targets: Bitboard, mut f: impl FnMut(Square, Bitboard)) {
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let occ = pos.occupied();
    let cannons = pos.kind(PieceKind::Cannon);
    let allowed = !own & targets;

    for from in pos.pieces_of(us, PieceKind::Chariot) {
        f(from, chariot_attacks(from, occ) & allowed);
    }
    for from in pos.pieces_of(us, PieceKind::Cannon) {
        // A cannon never lands on a cannon.
        f(
            from,
            cannon_attacks(from, occ, cannons) & allowed & !cannons,
        );
    }
    for from in pos.pieces_of(us, PieceKind::Horse) {
        f(from, horse_attacks(from, occ) & allowed);
    }
    for from in pos.pieces_of(us, PieceKind::Elephant) {
        f(from, elephant_attacks(from, occ) & allowed);
    }
    for from in pos.pieces_of(us, PieceKind::Soldier) {
        f(from, soldier_steps(us, from) & allowed);
    }
    for from in pos.pieces_of(us, PieceKind::Guard) {
        f(from, palace_steps(from) & allowed);
    }
    let k = pos.king(us);
    f(k, palace_steps(k) & allowed);
}

/// What the legality filter needs, computed once per position.
struct Filter {
    /// Every move needs the exact test (in check, or bikjang to break).
    all_exact: bool,
    /// Moves from or to these points need the exact test.
    sensitive: Bitboard,
    king: Square,
}

impl Filter {
    #[inline]
    fn new(pos: &Position) -> Filter {
        let us = pos.side_to_move();
        let them = !us;
        let king = pos.king(us);
        let all_exact = pos.in_check() || pos.bikjang();
        let mut sensitive = Bitboard::EMPTY;
        if !all_exact {
            let sliders =
                pos.pieces(them) & (pos.kind(PieceKind::Chariot) | pos.kind(PieceKind::Cannon));
            let dirs = if PALACE_DIAG_POINTS >> king.index() & 1 != 0 {
                8
            } else {
                4
            };
            const ORDER: [usize; 8] = [0, 1, 4, 5, 2, 3, 6, 7];
            for &d in &ORDER[..dirs] {
                let ray = Bitboard(RAYS[d][king.index()]);
                if (ray & sliders).any() {
                    sensitive |= ray;
                }
            }
            let horses = pos.pieces_of(them, PieceKind::Horse);
            if horses.any() {
                for l in &HORSE_LEAPS_TO[king.index()] {
                    if l.to == NONE {
                        break;
                    }
                    if horses.0 >> l.from & 1 != 0 {
                        sensitive |= Bitboard(1u128 << l.leg1);
                    }
                }
            }
            let elephants = pos.pieces_of(them, PieceKind::Elephant);
            if elephants.any() {
                for l in &ELEPHANT_LEAPS_TO[king.index()] {
                    if l.to == NONE {
                        break;
                    }
                    if elephants.0 >> l.from & 1 != 0 {
                        sensitive |= Bitboard(1u128 << l.leg1 | 1u128 << l.leg2);
                    }
                }
            }
        }
        Filter {
            all_exact,
            sensitive,
            king,
        }
    }

    /// Splits a piece's targets into those legal without a test and those
    /// that need `exact_legal`.
    #[inline(always)]
    fn split(&self, from: Square, targets: Bitboard) -> (Bitboard, Bitboard) {
        if self.all_exact || from == self.king || self.sensitive.has(from) {
            (Bitboard::EMPTY, targets)
        } else {
            (targets & !self.sensitive, targets & self.sensitive)
        }
    }

    /// Calls `f` with every legal (from, to) among the targets.
    #[inline(always)]
    fn each_legal(&self, pos: &Position, from: Square, targets: Bitboard, mut f: impl FnMut(Move)) {
        let (safe, risky) = self.split(from, targets);
        for to in safe {
            f(Move::new(from, to));
        }
        for to in risky {
            if exact_legal(pos, from, to) {
                f(Move::new(from, to));
            }
        }
    }
}

/// The exact test: after the move, is the own general attacked, or (while
/// bikjang stands) do the generals still face each other?
pub(crate) fn exact_legal(pos: &Position, from: Square, to: Square) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let from_bb = Bitboard::from_square(from);
    let to_bb = Bitboard::from_square(to);
    let occ = (pos.occupied() & !from_bb) | to_bb;
    let moving_cannon = pos.kind(PieceKind::Cannon).has(from);
    let mut cannons = pos.kind(PieceKind::Cannon) & !from_bb & !to_bb;
    if moving_cannon {
        cannons |= to_bb;
    }
    let enemy = pos.pieces(them) & !to_bb;
    let ksq = if from == pos.king(us) {
        to
    } else {
        pos.king(us)
    };
    if pos.attacked_by(ksq, them, occ, enemy, cannons) {
        return false;
    }
    if pos.bikjang() {
        let other = pos.king(them);
        if ksq.file() == other.file() {
            let (lo, hi) = if ksq < other {
                (ksq, other)
            } else {
                (other, ksq)
            };
            let between = Bitboard(RAYS[0][lo.index()] & !RAYS[0][hi.index()]).without(hi);
            if (between & occ).is_empty() {
                return false;
            }
        }
    }
    true
}

/// The game has ended in a way that leaves no move to play: two passes in a
/// row, or a pass that accepted bikjang. Checkmate needs no flag: it simply
/// has no legal move.
#[inline]
pub fn no_moves_by_rule(pos: &Position) -> bool {
    if !pos.last_was_pass() {
        return false;
    }
    let h = pos.history();
    let n = h.len();
    let double_pass = n >= 2 && h[n - 2].mv.is_some_and(|m| m.is_pass());
    double_pass || pos.bikjang()
}

/// A pass is legal unless in check; in bikjang it is always legal.
#[inline]
pub fn pass_legal(pos: &Position) -> bool {
    !pos.in_check() || pos.bikjang()
}

/// All legal moves, the pass included, in generation order. Rule-set move
/// bans that depend on the game's history (KJA's repetition ban) are applied
/// too.
pub fn legal_moves(pos: &Position, list: &mut MoveList) {
    perft_moves(pos, list);
    pos.rules().apply_history_bans(pos, list);
}

/// Legal captures only (no pass), for quiescence search.
pub fn legal_captures(pos: &Position, list: &mut MoveList) {
    list.clear();
    if no_moves_by_rule(pos) {
        return;
    }
    let filter = Filter::new(pos);
    let targets = pos.pieces(!pos.side_to_move());
    for_each_pseudo(pos, targets, |from, t| {
        filter.each_legal(pos, from, t, |m| list.push(m))
    });
}

/// Number of legal moves (perft's bulk count at the last ply); ignores
/// history bans, as perft does.
#[inline]
pub fn count_legal(pos: &Position) -> u64 {
    if no_moves_by_rule(pos) {
        return 0;
    }
    let filter = Filter::new(pos);
    let mut n = 0u64;
    for_each_pseudo(pos, Bitboard::ALL, |from, targets| {
        let (safe, risky) = filter.split(from, targets);
        n += safe.count() as u64;
        for to in risky {
            n += exact_legal(pos, from, to) as u64;
        }
    });
    n + pass_legal(pos) as u64
}

/// Legal moves for perft: the board rules only, no history bans.
pub fn perft_moves(pos: &Position, list: &mut MoveList) {
    list.clear();
    if no_moves_by_rule(pos) {
        return;
    }
    let filter = Filter::new(pos);
    for_each_pseudo(pos, Bitboard::ALL, |from, targets| {
        filter.each_legal(pos, from, targets, |m| list.push(m))
    });
    if pass_legal(pos) {
        list.push(Move::pass(pos.king(pos.side_to_move())));
    }
}

/// Is `m` legal here (board rules and history bans)? Safe for any move value.
pub fn is_legal(pos: &Position, m: Move) -> bool {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.contains(m)
}
