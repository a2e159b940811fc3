//! Correction history: what the search has learned about the static
//! evaluation's errors, by soldier structure, by material and by the
//! previous move. Each table holds, per side to move, a running average of
//! (search score - static evaluation); their mean, scaled by the
//! `CorrWeight` margin (0 = off), is added to the evaluation before the
//! pruning decisions read it. The table keeps the uncorrected evaluation,
//! so that a correction is never applied twice.

use crate::board::{Color, Move, Piece, PieceKind, Position, NUM_PIECES, NUM_SQUARES};

/// Entries of the soldier and material tables, per side.
const SIZE: usize = 16384;
/// Entries are kept in 1/GRAIN centipawns, so that small corrections add up.
const GRAIN: i32 = 256;
/// No entry claims the evaluation is off by more than this (centipawns).
const LIMIT: i32 = 64 * GRAIN;
/// The largest error one update may report, in centipawns: a search score
/// far from the evaluation is a tactic, not a bias of the evaluation.
const MAX_DIFF: i32 = 256;

pub struct Correction {
    soldiers: Vec<i32>,
    material: Vec<i32>,
    /// [side][previous piece][previous move's destination]
    prev: Vec<i32>,
}

/// Where one node's entries are: computed once a node, read for the
/// correction and again for the update at the node's end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slots {
    soldiers: usize,
    material: usize,
    prev: Option<usize>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

#[inline]
fn fold(b: u128) -> u64 {
    b as u64 ^ mix((b >> 64) as u64)
}

impl Slots {
    #[inline]
    pub fn of(pos: &Position, prev: Option<(Piece, Move)>) -> Slots {
        let side = pos.side_to_move().index();
        let soldiers = pos.kind(PieceKind::Soldier);
        let cho = (pos.pieces(Color::Cho) & soldiers).0;
        let han = (pos.pieces(Color::Han) & soldiers).0;
        let s = mix(fold(cho) ^ mix(fold(han) ^ 0x9e37_79b9_7f4a_7c15));
        // Each side has at most 5 soldiers and 2 of every other piece
        // besides the general: counts in base 8 fit 36 bits exactly.
        let mut k = 0u64;
        for c in Color::ALL {
            for kind in &PieceKind::ALL[1..] {
                k = k << 3 | u64::from(pos.pieces_of(c, *kind).count().min(7));
            }
        }
        Slots {
            soldiers: side * SIZE + s as usize % SIZE,
            material: side * SIZE + mix(k) as usize % SIZE,
            prev: prev.map(|(p, m)| (side * NUM_PIECES + p.index()) * NUM_SQUARES + m.to().index()),
        }
    }
}

#[inline]
fn update(entry: &mut i32, diff: i32, weight: i32) {
    // A weighted running average: deeper searches move it further.
    let v = (*entry * (1024 - weight) + diff * GRAIN * weight) / 1024;
    *entry = v.clamp(-LIMIT, LIMIT);
}

impl Correction {
    pub fn new() -> Correction {
        Correction {
            soldiers: vec![0; 2 * SIZE],
            material: vec![0; 2 * SIZE],
            prev: vec![0; 2 * NUM_PIECES * NUM_SQUARES],
        }
    }

    pub fn clear(&mut self) {
        self.soldiers.fill(0);
        self.material.fill(0);
        self.prev.fill(0);
    }

    /// The correction at `slots`, in centipawns, side to move's view, at
    /// `weight_pct` percent of what the tables say.
    #[inline]
    pub fn get(&self, slots: Slots, weight_pct: i32) -> i32 {
        let mut sum = self.soldiers[slots.soldiers] + self.material[slots.material];
        let mut tables = 2;
        if let Some(i) = slots.prev {
            sum += self.prev[i];
            tables += 1;
        }
        (sum as i64 * weight_pct as i64 / (100 * GRAIN as i64 * tables)) as i32
    }

    /// Learns from the search result `score` at `depth` of a node whose
    /// uncorrected static evaluation was `raw`.
    pub fn learn(&mut self, slots: Slots, depth: i32, raw: i32, score: i32) {
        let diff = (score - raw).clamp(-MAX_DIFF, MAX_DIFF);
        let weight = (depth * depth + 2 * depth + 1).min(128);
        update(&mut self.soldiers[slots.soldiers], diff, weight);
        update(&mut self.material[slots.material], diff, weight);
        if let Some(i) = slots.prev {
            update(&mut self.prev[i], diff, weight);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_move, Notation, RuleSet};

    #[test]
    fn learns_towards_the_search_score_and_stays_bounded() {
        let pos = Position::startpos(RuleSet::Janggi);
        let slots = Slots::of(&pos, None);
        let mut c = Correction::new();
        assert_eq!(c.get(slots, 100), 0);
        for _ in 0..200 {
            c.learn(slots, 10, 0, 80);
        }
        let v = c.get(slots, 100);
        assert!((60..=80).contains(&v), "{v}");
        assert_eq!(c.get(slots, 0), 0, "weight 0 switches it off");
        assert!((v - 5..=v + 5).contains(&(2 * c.get(slots, 50))), "scaled");
        for _ in 0..200 {
            c.learn(slots, 10, 0, 10_000);
        }
        assert!(c.get(slots, 100) <= 64, "clamped");
        c.clear();
        assert_eq!(c.get(slots, 100), 0);
    }

    #[test]
    fn sides_and_structures_have_their_own_entries() {
        let start = Position::startpos(RuleSet::Janggi);
        let mut moved = start.clone();
        // A soldier step changes the structure; a chariot step does not.
        let soldier = parse_move(&moved, "a4b4", Notation::Uci).unwrap();
        moved.make(soldier);
        let a = Slots::of(&start, None);
        let b = Slots::of(&moved, None);
        assert_ne!(a.soldiers % SIZE, b.soldiers % SIZE);
        assert_eq!(a.material % SIZE, b.material % SIZE, "same material");
        assert_ne!(
            a.soldiers / SIZE,
            b.soldiers / SIZE,
            "the other side to move"
        );
        let mut c = Correction::new();
        for _ in 0..100 {
            c.learn(a, 8, 0, 100);
        }
        assert!(c.get(a, 100) > 50);
        assert_eq!(c.get(b, 100), 0, "Han learned nothing from Cho's nodes");
    }
}
