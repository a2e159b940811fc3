//! Static exchange evaluation: the material balance of the capture sequence
//! on one point, each side recapturing with its least valuable piece.
//! Attackers are recomputed after every capture, because in Janggi removing
//! a piece can open a line, unblock a horse's or elephant's leg, or create
//! or remove a cannon's screen. Pins are ignored.

use super::eval::piece_value;
use crate::board::attacks::{
    cannon_hits, chariot_hits, palace_steps, Leap, ELEPHANT_LEAPS_TO, ELEPHANT_SOURCES,
    HORSE_LEAPS_TO, HORSE_SOURCES, NONE, SOLDIER_ATTACKERS,
};
use crate::board::{Bitboard, Color, Move, PieceKind, Position, Square};

/// The pieces of `pieces` (within `sources`, the points a leap reaches the
/// target from) whose leap along `paths` is open.
fn leapers(paths: &[Leap; 8], sources: u128, pieces: Bitboard, occ: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    if sources & pieces.0 == 0 {
        return out;
    }
    for l in paths {
        if l.to == NONE {
            break;
        }
        if pieces.0 >> l.from & 1 != 0
            && occ.0 >> l.leg1 & 1 == 0
            && (l.leg2 == NONE || occ.0 >> l.leg2 & 1 == 0)
        {
            out.0 |= 1u128 << l.from;
        }
    }
    out
}

/// The least valuable piece of `side` (within `occ`) that attacks `sq`,
/// the kinds tried in the order of `piece_value` (a test holds them to it).
fn least_attacker(
    pos: &Position,
    sq: Square,
    side: Color,
    occ: Bitboard,
    target_is_cannon: bool,
) -> Option<(Square, PieceKind)> {
    let mine = pos.pieces(side) & occ;
    let of = |k: PieceKind| pos.kind(k) & mine;
    let soldiers = Bitboard(SOLDIER_ATTACKERS[side.index()][sq.index()]) & of(PieceKind::Soldier);
    if soldiers.any() {
        return Some((soldiers.lsb(), PieceKind::Soldier));
    }
    let elephants = leapers(
        &ELEPHANT_LEAPS_TO[sq.index()],
        ELEPHANT_SOURCES[sq.index()],
        of(PieceKind::Elephant),
        occ,
    );
    if elephants.any() {
        return Some((elephants.lsb(), PieceKind::Elephant));
    }
    let guards = palace_steps(sq) & of(PieceKind::Guard);
    if guards.any() {
        return Some((guards.lsb(), PieceKind::Guard));
    }
    let horses = leapers(
        &HORSE_LEAPS_TO[sq.index()],
        HORSE_SOURCES[sq.index()],
        of(PieceKind::Horse),
        occ,
    );
    if horses.any() {
        return Some((horses.lsb(), PieceKind::Horse));
    }
    if !target_is_cannon {
        let cannons = cannon_hits(
            sq,
            occ,
            pos.kind(PieceKind::Cannon) & occ,
            of(PieceKind::Cannon),
        );
        if cannons.any() {
            return Some((cannons.lsb(), PieceKind::Cannon));
        }
    }
    let chariots = chariot_hits(sq, occ, of(PieceKind::Chariot));
    if chariots.any() {
        return Some((chariots.lsb(), PieceKind::Chariot));
    }
    let kings = palace_steps(sq) & of(PieceKind::General);
    if kings.any() {
        return Some((kings.lsb(), PieceKind::General));
    }
    None
}

/// Does the capture (or quiet move) `m` win at least `threshold` by exchange?
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_pass() {
        return 0 >= threshold;
    }
    let from = m.from();
    let to = m.to();
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    let captured = pos.piece_at(to).map_or(0, |p| piece_value(p.kind()));
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    swap = piece_value(mover.kind()) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from);
    let mut side = mover.color();
    let mut on_square = mover.kind();
    // `res`: the side that made the first capture comes out ahead.
    let mut res = true;
    loop {
        side = !side;
        let Some((sq, kind)) = least_attacker(pos, to, side, occ, on_square == PieceKind::Cannon)
        else {
            break;
        };
        res = !res;
        occ = occ.without(sq);
        if kind == PieceKind::General {
            // The general may only take if nothing recaptures.
            let recapture = least_attacker(pos, to, !side, occ, false).is_some();
            return if recapture { !res } else { res };
        }
        swap = piece_value(kind) - swap;
        if swap < res as i32 {
            break;
        }
        on_square = kind;
    }
    res
}

#[cfg(test)]
#[path = "see_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "see_oracle_tests.rs"]
mod oracle_tests;
