//! Graded weakening for `Skill Level` and `UCI_LimitStrength`: a depth cap
//! plus a random choice among several candidate lines, with a margin that
//! grows as the level drops. Level 20 is full strength.

use super::search::RootMove;
use super::Settings;
use crate::util::rng::Rng;

#[derive(Copy, Clone, Debug)]
pub struct Skill {
    pub level: i32,
}

impl Skill {
    pub fn from_settings(s: &Settings) -> Skill {
        let level = if s.limit_strength {
            // UCI_Elo 500..2850 spread over the levels -20..20.
            let e = s.elo.clamp(500, 2850) as i32;
            -20 + (e - 500) * 40 / 2350
        } else {
            s.skill_level.clamp(-20, 20)
        };
        Skill { level }
    }

    pub fn enabled(self) -> bool {
        self.level < 20
    }

    /// Candidate lines to choose among.
    pub fn multipv(self) -> usize {
        if self.enabled() {
            4
        } else {
            1
        }
    }

    pub fn max_depth(self) -> Option<i32> {
        self.enabled().then_some(1 + (self.level + 20) / 3)
    }

    /// Picks among the first `n` root moves (sorted, best first): each
    /// candidate's score gets a random push that is larger at low levels.
    pub fn pick(self, moves: &[RootMove], n: usize, seed: u64) -> usize {
        let n = n.min(moves.len());
        if !self.enabled() || n <= 1 {
            return 0;
        }
        let mut rng = Rng::new(seed);
        let mut next = || rng.next_u64();
        let top = moves[0].score;
        let weakness = (120 - 2 * self.level) as i64;
        let delta = (top - moves[n - 1].score).clamp(0, 100) as i64;
        let mut best = 0;
        let mut best_value = i64::MIN;
        for (i, rm) in moves.iter().take(n).enumerate() {
            let gap = (top - rm.score) as i64;
            let push = (weakness * -gap + delta * (next() % weakness as u64) as i64) / 128
                + (next() % (weakness as u64 * 2)) as i64 * (20 - self.level) as i64 / 40;
            let value = rm.score as i64 + push;
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }
}
