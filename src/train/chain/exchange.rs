//! The codec's own static exchange test, for the winning-capture flag it
//! derives (`Flags::WINNING_CAPTURE`: some legal capture does not lose
//! material by exchange). It is the search's `see_ge(.., 0)` as it was
//! when the format was made, frozen with the piece values of that day:
//! the search's values are tuned, and a decoder must derive tomorrow
//! exactly what the encoder derived today. When datagen's flag drifts
//! from this one, the tag stores the difference and the data stays
//! lossless, only larger.

use crate::board::attacks::{
    cannon_attacks, chariot_attacks, palace_steps, Leap, ELEPHANT_LEAPS_TO, HORSE_LEAPS_TO, NONE,
    SOLDIER_ATTACKERS,
};
use crate::board::{legal_captures, Bitboard, Color, Move, MoveList, PieceKind, Position, Square};

/// Piece values in the order of `PieceKind` (general first).
pub(super) const VALUE: [i32; 7] = [10000, 147, 137, 238, 669, 358, 83];

fn value(k: PieceKind) -> i32 {
    VALUE[k.index()]
}

/// Whether a legal capture of the side to move does not lose material.
pub(super) fn winning_capture(pos: &Position) -> bool {
    let mut caps = MoveList::new();
    legal_captures(pos, &mut caps);
    caps.as_slice().iter().any(|&m| exchange_ge_zero(pos, m))
}

fn leapers(paths: &[Leap; 8], pieces: Bitboard, occ: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
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

/// The least valuable piece of `side` (within `occ`) attacking `sq`, the
/// kinds tried in increasing order of `VALUE`.
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
    let elephants = leapers(&ELEPHANT_LEAPS_TO[sq.index()], of(PieceKind::Elephant), occ);
    if elephants.any() {
        return Some((elephants.lsb(), PieceKind::Elephant));
    }
    let guards = palace_steps(sq) & of(PieceKind::Guard);
    if guards.any() {
        return Some((guards.lsb(), PieceKind::Guard));
    }
    let horses = leapers(&HORSE_LEAPS_TO[sq.index()], of(PieceKind::Horse), occ);
    if horses.any() {
        return Some((horses.lsb(), PieceKind::Horse));
    }
    if !target_is_cannon {
        let cannons =
            cannon_attacks(sq, occ, pos.kind(PieceKind::Cannon) & occ) & of(PieceKind::Cannon);
        if cannons.any() {
            return Some((cannons.lsb(), PieceKind::Cannon));
        }
    }
    let chariots = chariot_attacks(sq, occ) & of(PieceKind::Chariot);
    if chariots.any() {
        return Some((chariots.lsb(), PieceKind::Chariot));
    }
    let kings = palace_steps(sq) & of(PieceKind::General);
    if kings.any() {
        return Some((kings.lsb(), PieceKind::General));
    }
    None
}

/// Whether the capture `m` loses no material by exchange, each side
/// recapturing with its least valuable piece (pins ignored).
fn exchange_ge_zero(pos: &Position, m: Move) -> bool {
    if m.is_pass() {
        return true;
    }
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    let mut swap = pos.piece_at(to).map_or(0, |p| value(p.kind()));
    swap = value(mover.kind()) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from);
    let mut side = mover.color();
    let mut on_square = mover.kind();
    // Whether the side that captured first comes out even or ahead.
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
        swap = value(kind) - swap;
        if swap < res as i32 {
            break;
        }
        on_square = kind;
    }
    res
}
