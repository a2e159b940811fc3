//! Choosing a horse/elephant arrangement by searching the start positions it
//! can lead to. Han chooses blind, so each of its arrangements is valued by
//! Cho's best reply (minimax over the 4x4 grid); Cho, having seen Han's,
//! only compares its own four.

use super::output::Output;
use crate::board::notation::setup_position;
use crate::board::{RuleSet, Setup};
use crate::search::{Control, Engine, Limits, Score};
use std::time::{Duration, Instant};

pub const DEFAULT_MS: u64 = 1000;

/// Time kept back for the answer itself and thread hand-over.
const RESERVE_MS: u64 = 20;

pub struct SetupQuery {
    /// `None`: choose for Han; `Some(h)`: choose for Cho against Han's `h`.
    pub han: Option<Setup>,
    pub budget_ms: u64,
    pub rules: RuleSet,
}

/// Orders mates beyond any centipawn score.
fn value(s: Score) -> i64 {
    match s {
        Score::Cp(cp) => cp as i64,
        Score::Mate(n) if n > 0 => 1_000_000 - n as i64,
        Score::Mate(n) => -1_000_000 - n as i64,
    }
}

/// Searches each (Cho, Han) start position still to decide, Cho to move,
/// and returns the chosen arrangement for the asking side.
pub fn choose(engine: &mut Engine, q: &SetupQuery, control: &Control, out: &Output) -> Setup {
    let start = Instant::now();
    let deadline = start + Duration::from_millis(q.budget_ms.saturating_sub(RESERVE_MS));
    let pairs: Vec<(Setup, Setup)> = match q.han {
        Some(h) => Setup::ALL.iter().map(|&c| (c, h)).collect(),
        None => Setup::ALL
            .iter()
            .flat_map(|&h| Setup::ALL.iter().map(move |&c| (c, h)))
            .collect(),
    };
    // Score of each pair from Cho's side; None when time ran out first.
    let mut scores: Vec<Option<i64>> = vec![None; pairs.len()];
    for (k, &(cho, han)) in pairs.iter().enumerate() {
        let now = Instant::now();
        if control.stopped() || now >= deadline {
            break;
        }
        let left = (deadline - now).as_millis() as u64;
        let slice = (left / (pairs.len() - k) as u64).max(1);
        let pos = match setup_position(cho, han, q.rules) {
            Ok(p) => p,
            Err(_) => continue,
        };
        let limits = Limits {
            movetime: Some(slice),
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, control, &mut |_| {});
        let v = value(r.score);
        out.info_string(&format!(
            "setup cho {cho} han {han} score {} depth {}",
            super::uci::score(r.score),
            r.depth
        ));
        scores[k] = Some(v);
    }
    match q.han {
        Some(_) => {
            // Cho: the best of its own; unsearched ones cannot win.
            let best = (0..4).filter(|&i| scores[i].is_some()).max_by_key(|&i| {
                // Earlier candidates win ties, so the result does not depend on search order noise.
                (scores[i], std::cmp::Reverse(i))
            });
            best.map_or(Setup::Inner, |i| pairs[i].0)
        }
        None => {
            // Han: each arrangement is worth what Cho's best reply leaves it.
            let worth = |h: usize| -> Option<i64> {
                scores[h * 4..h * 4 + 4].iter().flatten().max().map(|&v| -v)
            };
            let best = (0..4)
                .filter(|&h| worth(h).is_some())
                .max_by_key(|&h| (worth(h), std::cmp::Reverse(h)));
            best.map_or(Setup::Inner, |h| pairs[h * 4].1)
        }
    }
}
