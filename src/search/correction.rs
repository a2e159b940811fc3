//! Correction history: what the search learned about the static
//! evaluation's errors, by soldier structure, by material and by the
//! previous move. Each table holds, per side to move, a running average of
//! (search score - static evaluation); the sum is added to the evaluation
//! before the pruning decisions read it.

use crate::board::{Color, Move, Piece, PieceKind, Position, NUM_PIECES, NUM_SQUARES};

const SIZE: usize = 16384;
/// Entries are kept in 1/GRAIN centipawns, so that small corrections add up.
const GRAIN: i32 = 256;
const LIMIT: i32 = 64 * GRAIN;
/// Largest correction a single update may ask for, in centipawns.
const MAX_DIFF: i32 = 256;

pub struct Correction {
    soldiers: Vec<i32>,
    material: Vec<i32>,
    /// [side][previous piece][previous move's destination]
    prev: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

fn soldier_index(pos: &Position) -> usize {
    let s = pos.kind(PieceKind::Soldier);
    let cho = (pos.pieces(Color::Cho) & s).0;
    let han = (pos.pieces(Color::Han) & s).0;
    let h = mix(cho as u64 ^ (cho >> 64) as u64 ^ mix(han as u64 ^ (han >> 64) as u64 ^ 0x9e37));
    h as usize % SIZE
}

fn material_index(pos: &Position) -> usize {
    let mut k = 0u64;
    for c in Color::ALL {
        for kind in PieceKind::ALL {
            k = k * 17 + u64::from(pos.pieces_of(c, kind).count().min(16));
        }
    }
    mix(k) as usize % SIZE
}

fn prev_index(side: usize, prev: Option<(Piece, Move)>) -> Option<usize> {
    prev.map(|(p, m)| (side * NUM_PIECES + p.index()) * NUM_SQUARES + m.to().index())
}

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

    /// The correction for `pos`, in centipawns, side to move's view.
    pub fn get(&self, pos: &Position, prev: Option<(Piece, Move)>) -> i32 {
        let side = pos.side_to_move().index();
        let mut sum = self.soldiers[side * SIZE + soldier_index(pos)]
            + self.material[side * SIZE + material_index(pos)];
        let mut tables = 2;
        if let Some(i) = prev_index(side, prev) {
            sum += self.prev[i];
            tables += 1;
        }
        sum / (GRAIN * tables)
    }

    /// Learns from a search result `score` of a node whose uncorrected
    /// static evaluation was `raw`.
    pub fn learn(
        &mut self,
        pos: &Position,
        prev: Option<(Piece, Move)>,
        depth: i32,
        raw: i32,
        score: i32,
    ) {
        let side = pos.side_to_move().index();
        let diff = (score - raw).clamp(-MAX_DIFF, MAX_DIFF);
        let weight = (depth * depth + 2 * depth + 1).min(128);
        update(
            &mut self.soldiers[side * SIZE + soldier_index(pos)],
            diff,
            weight,
        );
        update(
            &mut self.material[side * SIZE + material_index(pos)],
            diff,
            weight,
        );
        if let Some(i) = prev_index(side, prev) {
            update(&mut self.prev[i], diff, weight);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::RuleSet;

    #[test]
    fn learns_towards_the_search_score_and_stays_bounded() {
        let pos = Position::startpos(RuleSet::Janggi);
        let mut c = Correction::new();
        assert_eq!(c.get(&pos, None), 0);
        for _ in 0..200 {
            c.learn(&pos, None, 10, 0, 80);
        }
        let v = c.get(&pos, None);
        assert!((60..=80).contains(&v), "{v}");
        for _ in 0..200 {
            c.learn(&pos, None, 10, 0, 10_000);
        }
        assert!(c.get(&pos, None) <= 64, "clamped");
        c.clear();
        assert_eq!(c.get(&pos, None), 0);
    }
}
