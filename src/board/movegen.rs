//! Legal move generation.
//!
//! Pseudo-legal moves are generated per piece, then filtered. Most moves
//! cannot change any attack on the own general: only a piece leaving or
//! entering a line from the general that holds an enemy chariot or cannon
//! (pins, cannon screens made or removed), or leaving the leg of an enemy
//! horse or elephant aimed at the general, can. So a cheap mask of those
//! "sensitive" points sends only the few moves that touch it, the general's
//! own moves, and every move while bikjang stands, to the exact test. In
//! check the same mask, with the checkers' points added, holds every answer
//! but the general's own moves: the other moves that miss it leave the
//! check standing and are dropped untested.

use super::attacks::{
    cannon_attacks, chariot_attacks, elephant_attacks, horse_attacks, palace_steps, soldier_steps,
    ELEPHANT_LEAPS_TO, ELEPHANT_SOURCES, HORSE_LEAPS_TO, HORSE_SOURCES, NONE, PALACE_DIAG_POINTS,
    RAYS, SOLDIER_ATTACKERS,
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
    /// Every move needs the exact test (bikjang to break).
    all_exact: bool,
    /// In check: a move by another piece that neither leaves nor enters
    /// `sensitive` leaves every attack on the general standing, so it is
    /// illegal without a test.
    check: bool,
    /// Moves from or to these points need the exact test. In check they
    /// also hold every checker's point.
    sensitive: Bitboard,
    king: Square,
}

impl Filter {
    #[inline]
    fn new(pos: &Position) -> Filter {
        let us = pos.side_to_move();
        let them = !us;
        let king = pos.king(us);
        let all_exact = pos.bikjang();
        let check = !all_exact && pos.in_check();
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
            if check {
                // The lines above already hold the sliders; a leaper or a
                // soldier that checks is answered only by taking it (or by
                // a leg filled, above).
                sensitive |= (Bitboard(HORSE_SOURCES[king.index()]) & horses)
                    | (Bitboard(ELEPHANT_SOURCES[king.index()]) & elephants)
                    | (Bitboard(SOLDIER_ATTACKERS[them.index()][king.index()])
                        & pos.pieces_of(them, PieceKind::Soldier));
            }
        }
        Filter {
            all_exact,
            check,
            sensitive,
            king,
        }
    }

    /// Whether the move `from`-`to` (a pseudo-legal one) is legal without
    /// a test (`Some`), or needs `exact_legal` (`None`).
    #[inline(always)]
    fn verdict(&self, from: Square, to: Square) -> Option<bool> {
        if self.all_exact || from == self.king || self.sensitive.has(from) || self.sensitive.has(to)
        {
            None
        } else {
            Some(!self.check)
        }
    }

    /// Splits a piece's targets into those legal without a test and those
    /// that need `exact_legal`.
    #[inline(always)]
    fn split(&self, from: Square, targets: Bitboard) -> (Bitboard, Bitboard) {
        if self.all_exact || from == self.king || self.sensitive.has(from) {
            (Bitboard::EMPTY, targets)
        } else if self.check {
            (Bitboard::EMPTY, targets & self.sensitive)
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

/// The legal moves of one position by kind, for a search that generates
/// captures and quiet moves apart and tries some moves before generating
/// any: the legality filter is computed once for all of them, and each
/// piece's reach once for both kinds.
pub struct Legal {
    filter: Filter,
    /// The game ended without a move to play (two passes, bikjang accepted).
    ended: bool,
    /// Quiet moves and the pass may be banned by the game's history.
    bans: bool,
    /// Each own piece's pseudo-legal targets, kept by `captures` for
    /// `quiets` and single-move tests (`reach_known` of them; none when
    /// the side has more pieces than the array holds).
    reach_from: [Square; REACH_SLOTS],
    reach: [Bitboard; REACH_SLOTS],
    reach_known: usize,
}

/// A side has 16 pieces in a game; a composed position with more is
/// generated without the kept reach.
const REACH_SLOTS: usize = 16;

impl Legal {
    #[inline]
    pub fn new(pos: &Position) -> Legal {
        Legal {
            filter: Filter::new(pos),
            ended: no_moves_by_rule(pos),
            bans: pos.rules().history_bans_apply(pos),
            reach_from: [Square::new(0); REACH_SLOTS],
            reach: [Bitboard::EMPTY; REACH_SLOTS],
            reach_known: 0,
        }
    }

    /// Appends the legal captures, in `legal_moves`' order, and keeps each
    /// piece's reach for `quiets`.
    #[inline]
    pub fn captures(&mut self, pos: &Position, list: &mut MoveList) {
        if self.ended {
            return;
        }
        let enemy = pos.pieces(!pos.side_to_move());
        let keep = pos.pieces(pos.side_to_move()).count() as usize <= REACH_SLOTS;
        let mut n = 0;
        for_each_pseudo(pos, Bitboard::ALL, |from, t| {
            if keep {
                self.reach_from[n] = from;
                self.reach[n] = t;
                n += 1;
            }
            self.filter
                .each_legal(pos, from, t & enemy, |m| list.push(m))
        });
        self.reach_known = n;
    }

    /// Appends the legal moves that capture nothing, the pass last, in
    /// `legal_moves`' order (history bans applied).
    #[inline]
    pub fn quiets(&self, pos: &Position, list: &mut MoveList) {
        if self.ended {
            return;
        }
        let start = list.len();
        let empty = !pos.occupied();
        if self.reach_known > 0 {
            for i in 0..self.reach_known {
                let from = self.reach_from[i];
                self.filter
                    .each_legal(pos, from, self.reach[i] & empty, |m| list.push(m));
            }
        } else {
            for_each_pseudo(pos, empty, |from, t| {
                self.filter.each_legal(pos, from, t, |m| list.push(m))
            });
        }
        if pass_legal(pos) {
            list.push(Move::pass(pos.king(pos.side_to_move())));
        }
        if self.bans {
            let rules = pos.rules();
            list.retain_from(start, |m| !rules.banned_by_history(pos, m));
        }
    }

    /// Is `m` legal here (board rules and history bans)? Any move value is
    /// safe: a move from another position (a table's, a killer's) is
    /// checked against this board from scratch.
    #[inline]
    pub fn is_legal(&self, pos: &Position, m: Move) -> bool {
        if self.ended {
            return false;
        }
        let (from, to) = (m.from(), m.to());
        let us = pos.side_to_move();
        let board_legal = if m.is_pass() {
            from == pos.king(us) && pass_legal(pos)
        } else {
            self.reaches(pos, from, to)
                && self
                    .filter
                    .verdict(from, to)
                    .unwrap_or_else(|| exact_legal(pos, from, to))
        };
        board_legal && !(self.bans && pos.rules().banned_by_history(pos, m))
    }

    /// Can the piece on `from` (if ours) move to `to` by its own movement?
    #[inline]
    fn reaches(&self, pos: &Position, from: Square, to: Square) -> bool {
        if self.reach_known > 0 {
            // The kept reach covers every own piece.
            return self.reach_from[..self.reach_known]
                .iter()
                .position(|&f| f == from)
                .is_some_and(|i| self.reach[i].has(to));
        }
        pseudo_legal(pos, from, to)
    }
}

/// Can the piece on `from` move to `to` by its own movement, ignoring
/// whether the move leaves its general attacked? Mirrors `for_each_pseudo`.
#[inline]
fn pseudo_legal(pos: &Position, from: Square, to: Square) -> bool {
    let us = pos.side_to_move();
    let Some(p) = pos.piece_at(from) else {
        return false;
    };
    if p.color() != us || pos.pieces(us).has(to) {
        return false;
    }
    let occ = pos.occupied();
    let targets = match p.kind() {
        PieceKind::Chariot => chariot_attacks(from, occ),
        PieceKind::Cannon => {
            let cannons = pos.kind(PieceKind::Cannon);
            cannon_attacks(from, occ, cannons) & !cannons
        }
        PieceKind::Horse => horse_attacks(from, occ),
        PieceKind::Elephant => elephant_attacks(from, occ),
        PieceKind::Soldier => soldier_steps(us, from),
        PieceKind::Guard | PieceKind::General => palace_steps(from),
    };
    targets.has(to)
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
    Legal::new(pos).is_legal(pos, m)
}

#[cfg(test)]
#[path = "legal_tests.rs"]
mod legal_tests;
