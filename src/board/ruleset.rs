//! The rule sets by name and their fixed parameters. Nothing here needs a
//! position, so every other board module can depend on this file without a
//! cycle; the rules that do need one live in `rules.rs`.

use std::fmt;
use std::str::FromStr;

#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, Default)]
pub enum RuleSet {
    /// FSF's `janggi`: bikjang rule, counting, 3-fold, 100 plies.
    #[default]
    Janggi,
    /// Bikjang rule, no counting (those endings draw).
    Traditional,
    /// No bikjang rule, counting, 4-fold plus back-and-forth, 200 plies.
    Modern,
    /// No bikjang rule, no counting.
    Casual,
    /// KJA point-scored games.
    Kja,
    /// KOJF rules (2020, revised 2022).
    Kojf,
}

impl RuleSet {
    pub const ALL: [RuleSet; 6] = [
        RuleSet::Janggi,
        RuleSet::Traditional,
        RuleSet::Modern,
        RuleSet::Casual,
        RuleSet::Kja,
        RuleSet::Kojf,
    ];

    /// The names, in `ALL`'s order: the one list that the options, the
    /// command line and the match runner all read.
    pub const NAMES: [&'static str; 6] = [
        "janggi",
        "janggitraditional",
        "janggimodern",
        "janggicasual",
        "kja",
        "kojf",
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Endings other than checkmate are decided by the count (else drawn).
    pub fn counting(self) -> bool {
        !matches!(self, RuleSet::Traditional | RuleSet::Casual)
    }

    /// The n-th occurrence of a position ends the game.
    pub fn repetition_count(self) -> usize {
        match self {
            RuleSet::Modern | RuleSet::Kojf => 4,
            _ => 3,
        }
    }

    /// Plies without capture that end the game.
    pub fn move_limit(self) -> u32 {
        match self {
            RuleSet::Modern => 200,
            _ => 100,
        }
    }
}

impl FromStr for RuleSet {
    type Err = String;
    fn from_str(s: &str) -> Result<RuleSet, String> {
        let i = Self::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!(
                    "unknown rule set '{}' ({})",
                    crate::util::text::clip(s),
                    Self::NAMES.join(", ")
                )
            })?;
        Ok(Self::ALL[i])
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_order() {
        for (i, r) in RuleSet::ALL.into_iter().enumerate() {
            assert_eq!(r as usize, i);
            assert_eq!(r.name().parse::<RuleSet>(), Ok(r));
            assert_eq!(r.name().to_uppercase().parse::<RuleSet>(), Ok(r));
        }
        assert!("chess".parse::<RuleSet>().unwrap_err().contains("kojf"));
    }
}
