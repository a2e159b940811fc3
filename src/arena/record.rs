//! The schedule (which engines play which game from which opening) and
//! the record of a finished game, with the running totals built from them.

use super::config::MatchConfig;
use super::end::EndKind;
use super::stats::Penta;
use crate::board::{Color, Move, Outcome};
use std::collections::BTreeMap;

/// Game `index` of the match: pairing, pair within it, and who plays Cho.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub index: usize,
    pub pairing: usize,
    pub pair: usize,
    pub cho: usize,
    pub han: usize,
}

/// Round robin: every pairing plays `games` games, in pairs with colours
/// reversed; pairings are interleaved so that an early stop leaves them even.
pub struct Schedule {
    pub pairings: Vec<(usize, usize)>,
    pub games_per_pairing: usize,
}

impl Schedule {
    pub fn new(cfg: &MatchConfig) -> Schedule {
        let n = cfg.engines.len();
        let mut pairings = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                pairings.push((a, b));
            }
        }
        Schedule {
            pairings,
            games_per_pairing: cfg.games,
        }
    }

    pub fn total(&self) -> usize {
        self.pairings.len() * self.games_per_pairing
    }

    pub fn slot(&self, index: usize) -> Slot {
        let global_pair = index / 2;
        let pairing = global_pair % self.pairings.len();
        let pair = global_pair / self.pairings.len();
        let (a, b) = self.pairings[pairing];
        let (cho, han) = if index.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        Slot {
            index,
            pairing,
            pair,
            cho,
            han,
        }
    }
}

/// What an engine spent on one move, for the report.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveStat {
    /// Milliseconds from `go` to `bestmove`, as the runner's clock saw them.
    pub ms: u64,
    /// The depth of the engine's last exact score (0 when it gave none).
    pub depth: u32,
}

#[derive(Clone, Debug)]
pub struct Record {
    pub slot: Slot,
    pub fen: String,
    /// Every move from `fen`, the opening's first.
    pub moves: Vec<Move>,
    /// How many of `moves` the opening dealt.
    pub book_plies: usize,
    /// One per move after the opening, when the runner saw them played
    /// (a game taken back from a PGN has none).
    pub stats: Vec<MoveStat>,
    pub outcome: Outcome,
    pub kind: EndKind,
    pub detail: String,
}

impl Record {
    /// 1, 1/2 or 0 (in half points) for engine `e`, if it played.
    pub fn half_points(&self, e: usize) -> Option<u32> {
        let color = if self.slot.cho == e {
            Color::Cho
        } else if self.slot.han == e {
            Color::Han
        } else {
            return None;
        };
        Some(match self.outcome {
            Outcome::Draw => 1,
            Outcome::Win(c) if c == color => 2,
            Outcome::Win(_) => 0,
        })
    }

    /// The engine that lost through its own fault, if any.
    pub fn faulty_engine(&self) -> Option<usize> {
        match (self.kind.is_fault(), self.outcome) {
            (true, Outcome::Win(Color::Cho)) => Some(self.slot.han),
            (true, Outcome::Win(Color::Han)) => Some(self.slot.cho),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct EngineTotals {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub penta: Penta,
    pub illegal: u64,
    pub crashes: u64,
    pub time_losses: u64,
    pub no_move: u64,
}

impl EngineTotals {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
}

/// Totals per engine and per end reason, recomputed from the records.
pub struct Totals {
    pub engines: Vec<EngineTotals>,
    pub reasons: BTreeMap<EndKind, u64>,
    pub games: u64,
}

pub fn totals(n_engines: usize, records: &BTreeMap<usize, Record>) -> Totals {
    let mut t = Totals {
        engines: vec![EngineTotals::default(); n_engines],
        reasons: BTreeMap::new(),
        games: records.len() as u64,
    };
    for r in records.values() {
        *t.reasons.entry(r.kind).or_insert(0) += 1;
        for e in [r.slot.cho, r.slot.han] {
            let et = &mut t.engines[e];
            match r.half_points(e) {
                Some(2) => et.wins += 1,
                Some(1) => et.draws += 1,
                _ => et.losses += 1,
            }
        }
        if let Some(e) = r.faulty_engine() {
            let et = &mut t.engines[e];
            match r.kind {
                EndKind::IllegalMove => et.illegal += 1,
                // Killed and restarted as a crashed engine is; the end
                // reasons tell the two apart.
                EndKind::Crash | EndKind::OutputOverflow => et.crashes += 1,
                EndKind::TimeForfeit => et.time_losses += 1,
                EndKind::NoMove => et.no_move += 1,
                _ => {}
            }
        }
        // A pair counts once both of its games are in: at the even game.
        if r.slot.index.is_multiple_of(2) {
            if let Some(other) = records.get(&(r.slot.index + 1)) {
                for e in [r.slot.cho, r.slot.han] {
                    if let (Some(a), Some(b)) = (r.half_points(e), other.half_points(e)) {
                        t.engines[e].penta[(a + b) as usize] += 1;
                    }
                }
            }
        }
    }
    t
}
