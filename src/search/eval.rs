//! Static evaluation: material on the counting scale refined by phase,
//! piece-square tables, mobility, palace safety, soldier structure and tempo,
//! tapered between middlegame and endgame weights. Under counting rule sets
//! the evaluation also leans towards what the count would say as the move
//! limit nears (Han's 1.5-point bonus included).
//!
//! The evaluation is linear in the weights of `params.rs`: every term is a
//! count times an `[mg, eg]` pair. A [`Trace`] sees each count, which is how
//! the tuner extracts features without a second copy of this code.

use super::params::*;
use crate::board::attacks::{
    cannon_attacks, chariot_attacks, elephant_attacks, horse_attacks, palace, palace_steps,
    soldier_steps, FILE_MASKS,
};
use crate::board::{Bitboard, Color, PieceKind, Position, Square};

/// Receives every (parameter, signed count) pair; Cho's counts are positive.
pub trait Trace {
    fn add(&mut self, idx: usize, n: i32);
}

/// The trace the search uses: nothing.
pub struct NoTrace;
impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: i32) {}
}

/// Dense feature counts for the tuner and for `eval_report`.
pub struct Features(pub Vec<i32>);
impl Trace for Features {
    fn add(&mut self, idx: usize, n: i32) {
        self.0[idx] += n;
    }
}

struct Acc<'a, T: Trace> {
    mg: i32,
    eg: i32,
    params: &'a Params,
    trace: T,
}

impl<T: Trace> Acc<'_, T> {
    #[inline(always)]
    fn add(&mut self, idx: usize, n: i32) {
        let w = self.params[idx];
        self.mg += w[0] as i32 * n;
        self.eg += w[1] as i32 * n;
        self.trace.add(idx, n);
    }
}

/// Game phase: `PHASE_MAX` with every officer on the board, 0 with none.
pub fn phase(pos: &Position) -> i32 {
    let mut ph = 0;
    for k in PieceKind::ALL {
        ph += PHASE_WEIGHT[k.index()] * pos.kind(k).count() as i32;
    }
    ph.min(PHASE_MAX)
}

#[inline]
fn rel_index(c: Color, sq: Square) -> usize {
    let s = if c == Color::Cho { sq } else { sq.flip() };
    let f = s.file() as usize;
    s.rank() as usize * 5 + f.min(8 - f)
}

/// Weight of one enemy palace point hit, for the king-danger term: chariot,
/// cannon, horse, elephant, soldier.
const DANGER_UNITS: [i32; 5] = [4, 3, 3, 2, 2];

/// Points one side attacks, grouped by how cheap the attacker is.
#[derive(Default, Clone, Copy)]
struct Attacks {
    all: Bitboard,
    soldier: Bitboard,
    /// Guards and elephants.
    minor: Bitboard,
    horse: Bitboard,
    cannon: Bitboard,
}

/// Pieces en prise: to a cheaper attacker, or to any attacker when nothing
/// defends them. Quiescence finds the captures, but only along one line;
/// two threats at once are worth knowing before the search reaches them.
fn threat_terms<T: Trace>(
    pos: &Position,
    c: Color,
    own: &Attacks,
    their: &Attacks,
    acc: &mut Acc<'_, T>,
) {
    let sign = if c == Color::Cho { 1 } else { -1 };
    let mine = |k| pos.pieces_of(c, k);
    let below_horse = their.soldier | their.minor;
    let below_cannon = below_horse | their.horse;
    let below_chariot = below_cannon | their.cannon;
    let lesser = (mine(PieceKind::Chariot) & below_chariot).count()
        + (mine(PieceKind::Cannon) & below_cannon).count()
        + (mine(PieceKind::Horse) & below_horse).count()
        + ((mine(PieceKind::Elephant) | mine(PieceKind::Guard)) & their.soldier).count();
    if lesser > 0 {
        acc.add(THREAT_LESSER, sign * lesser as i32);
    }
    let hanging = (pos.pieces(c) & !mine(PieceKind::General) & their.all & !own.all).count() as i32;
    if hanging > 0 {
        acc.add(HANGING, sign * hanging);
    }
}

fn side_terms<T: Trace>(pos: &Position, c: Color, acc: &mut Acc<'_, T>) -> Attacks {
    let sign = if c == Color::Cho { 1 } else { -1 };
    let them = !c;
    let own = pos.pieces(c);
    let occ = pos.occupied();
    let cannons = pos.kind(PieceKind::Cannon);
    let enemy_palace = palace(them);
    // Pieces hitting the enemy palace, and their weighted hits.
    let mut attackers = 0;
    let mut units = 0;
    let mut att = Attacks::default();

    for k in PieceKind::ALL {
        let bb = pos.pieces_of(c, k);
        if bb.is_empty() {
            continue;
        }
        acc.add(MAT + k.index(), sign * bb.count() as i32);
        for sq in bb {
            acc.add(PST + k.index() * 50 + rel_index(c, sq), sign);
            let reach = match k {
                PieceKind::Chariot => chariot_attacks(sq, occ),
                PieceKind::Cannon => cannon_attacks(sq, occ, cannons) & !cannons,
                PieceKind::Horse => horse_attacks(sq, occ),
                PieceKind::Elephant => elephant_attacks(sq, occ),
                PieceKind::Soldier => {
                    let steps = soldier_steps(c, sq);
                    att.soldier |= steps;
                    let n = (steps & enemy_palace).count() as i32;
                    if n > 0 {
                        acc.add(ATT + 4, sign * n);
                        attackers += 1;
                        units += DANGER_UNITS[4] * n;
                    }
                    continue;
                }
                PieceKind::Guard => {
                    att.minor |= palace_steps(sq);
                    continue;
                }
                PieceKind::General => {
                    att.all |= palace_steps(sq);
                    continue;
                }
            };
            match k {
                PieceKind::Chariot => att.all |= reach,
                PieceKind::Cannon => att.cannon |= reach,
                PieceKind::Horse => att.horse |= reach,
                _ => att.minor |= reach,
            }
            let slot = match k {
                PieceKind::Chariot => 0,
                PieceKind::Cannon => 1,
                PieceKind::Horse => 2,
                _ => 3,
            };
            acc.add(MOB + slot, sign * (reach & !own).count() as i32);
            let hits = (reach & enemy_palace).count() as i32;
            if hits > 0 {
                acc.add(ATT + slot, sign * hits);
                attackers += 1;
                units += DANGER_UNITS[slot] * hits;
            }
        }
    }
    if attackers >= 2 {
        acc.add(KING_DANGER, sign * (units * units).min(1600) / 16);
    }

    // Safety of c's own general.
    let ksq = pos.king(c);
    let file = Bitboard(FILE_MASKS[ksq.file() as usize]);
    let chariots = (pos.pieces_of(them, PieceKind::Chariot) & file).count() as i32;
    if chariots > 0 {
        acc.add(KS_CHARIOT_FILE, sign * chariots);
    }
    let their_cannons = (pos.pieces_of(them, PieceKind::Cannon) & file).count() as i32;
    if their_cannons > 0 {
        acc.add(KS_CANNON_FILE, sign * their_cannons);
    }
    let centre = if c == Color::Cho { 13 } else { 76 };
    if !own.has(Square::new(centre)) && pos.pieces_of(them, PieceKind::Chariot).any() {
        acc.add(KS_OPEN_CENTER, sign);
    }
    let shield = (palace_steps(ksq) & pos.pieces_of(c, PieceKind::Guard)).count() as i32;
    if shield > 0 {
        acc.add(KING_SHIELD, sign * shield);
    }

    let soldiers = pos.pieces_of(c, PieceKind::Soldier).0;
    let pairs = (soldiers & soldiers >> 1 & !FILE_MASKS[8]).count_ones() as i32;
    if pairs > 0 {
        acc.add(SOLDIER_PAIR, sign * pairs);
    }
    let own_cannons = pos.pieces_of(c, PieceKind::Cannon).count() as i32;
    if own_cannons > 0 {
        let others = (occ & !cannons).count() as i32;
        acc.add(CANNON_SCREENS, sign * own_cannons * (others - 20) / 2);
    }
    att.all |= att.soldier | att.minor | att.horse | att.cannon;
    att
}

/// The most the count term adds to an evaluation, either way: what a
/// reader of scores (datagen's adjudication) may assume of it.
pub const COUNT_STAKE: i32 = 300;

/// What the count would say, from Cho's view, weighted by how near the move
/// limit is (0 far from it), at most [`COUNT_STAKE`]. Only under counting
/// rule sets.
pub fn count_term(pos: &Position) -> i32 {
    let rules = pos.rules();
    if !rules.counting() {
        return 0;
    }
    let limit = rules.move_limit() as i32;
    let start = limit / 2;
    let hm = pos.halfmove() as i32;
    if hm <= start {
        return 0;
    }
    // Half points, Han's 1.5 bonus included: positive means Cho wins the count.
    let diff = 2 * pos.material_points(Color::Cho) - 2 * pos.material_points(Color::Han) - 3;
    let urgency = (hm - start).min(limit - start);
    let stake = COUNT_STAKE * urgency / (limit - start);
    if diff > 0 {
        stake
    } else {
        -stake
    }
}

/// Evaluation from Cho's view with a trace, plus the phase it was tapered by.
pub fn evaluate_traced<T: Trace>(pos: &Position, params: &Params, trace: T) -> (i32, i32, T) {
    let mut acc = Acc {
        mg: 0,
        eg: 0,
        params,
        trace,
    };
    let cho = side_terms(pos, Color::Cho, &mut acc);
    let han = side_terms(pos, Color::Han, &mut acc);
    threat_terms(pos, Color::Cho, &cho, &han, &mut acc);
    threat_terms(pos, Color::Han, &han, &cho, &mut acc);
    acc.add(
        TEMPO,
        if pos.side_to_move() == Color::Cho {
            1
        } else {
            -1
        },
    );
    let ph = phase(pos);
    let tapered = (acc.mg * ph + acc.eg * (PHASE_MAX - ph)) / PHASE_MAX;
    (tapered + count_term(pos), ph, acc.trace)
}

/// Static evaluation from the side to move's view, in centipawns.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let (v, _, _) = evaluate_traced(pos, &PARAMS, NoTrace);
    if pos.side_to_move() == Color::Cho {
        v
    } else {
        -v
    }
}

/// Material values for move ordering and SEE (middlegame weights).
#[inline]
pub fn piece_value(k: PieceKind) -> i32 {
    match k {
        PieceKind::General => 10000,
        _ => PARAMS[MAT + k.index()][0] as i32,
    }
}

/// The evaluation's terms, grouped, from Cho's view, tapered.
pub fn report(pos: &Position) -> String {
    let (total, ph, f) = evaluate_traced(pos, &PARAMS, Features(vec![0; NUM_PARAMS]));
    let taper = |idx: usize, n: i32| {
        let w = PARAMS[idx];
        (w[0] as i32 * n * ph + w[1] as i32 * n * (PHASE_MAX - ph)) / PHASE_MAX
    };
    let groups: [(&str, std::ops::Range<usize>); 11] = [
        ("material", MAT..PST),
        ("piece-square", PST..MOB),
        ("mobility", MOB..ATT),
        ("palace attack", ATT..KS_CHARIOT_FILE),
        ("general safety", KS_CHARIOT_FILE..SOLDIER_PAIR),
        ("soldier structure", SOLDIER_PAIR..CANNON_SCREENS),
        ("cannon screens", CANNON_SCREENS..TEMPO),
        ("tempo", TEMPO..KING_SHIELD),
        ("guard shield", KING_SHIELD..KING_DANGER),
        ("general danger", KING_DANGER..THREAT_LESSER),
        ("threats", THREAT_LESSER..NUM_PARAMS),
    ];
    let mut out = format!("phase {ph}/{PHASE_MAX} (Cho's view, cp)\n");
    for (name, range) in groups {
        let v: i32 = range.map(|i| taper(i, f.0[i])).sum();
        out.push_str(&format!("{name:>18} {v:>6}\n"));
    }
    out.push_str(&format!(
        "{:>18} {:>6}\n",
        "count (near limit)",
        count_term(pos)
    ));
    let stm = if pos.side_to_move() == Color::Cho {
        total
    } else {
        -total
    };
    out.push_str(&format!("total {total} (Cho's view), {stm} (side to move)"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::RuleSet;

    #[test]
    fn mirror_symmetry() {
        // The flipped position (colours swapped, board turned) has the same
        // value for its side to move, except for the count term.
        let fens = [
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "1n1a1k1br/4a4/1cc2n3/1pp1b3p/2r2p3/P2P1p3/3BPBPP1/3N3C1/4AA3/R2KC3R w - - 18 16",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, RuleSet::Casual).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&pos.flipped()), "{fen}");
        }
    }

    #[test]
    fn threats_are_counted() {
        // Han's soldier on e5 attacks Cho's undefended chariot on e4: a
        // threat by a cheaper piece. The chariot hits back at the soldier,
        // also undefended, so the hanging counts cancel out.
        let fen = "4k4/9/9/9/9/4p4/4R4/9/4K4/9 w - - 0 1";
        let pos = Position::from_fen(fen, RuleSet::Casual).unwrap();
        let (_, _, f) = evaluate_traced(&pos, &PARAMS, Features(vec![0; NUM_PARAMS]));
        assert_eq!(f.0[THREAT_LESSER], 1);
        assert_eq!(f.0[HANGING], 0);
        // With a Han chariot on a5 guarding it, the soldier no longer hangs.
        let fen = "4k4/9/9/9/9/r3p4/4R4/9/4K4/9 w - - 0 1";
        let pos = Position::from_fen(fen, RuleSet::Casual).unwrap();
        let (_, _, f) = evaluate_traced(&pos, &PARAMS, Features(vec![0; NUM_PARAMS]));
        assert_eq!(f.0[THREAT_LESSER], 1);
        assert_eq!(f.0[HANGING], 1);
    }

    #[test]
    fn extra_chariot_is_good() {
        let base = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
        let more = "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let a = Position::from_fen(base, RuleSet::Casual).unwrap();
        let b = Position::from_fen(more, RuleSet::Casual).unwrap();
        assert!(evaluate(&b) > evaluate(&a) + 400);
    }
}
