//! How a game of the match ended: one of the rules core's endings, or one
//! the runner decides itself (adjudication, or an engine that misbehaved).

use crate::board::EndReason;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndKind {
    /// Decided by the rules core (pyffish must agree with the result).
    Rules(EndReason),
    AdjudicatedDraw,
    AdjudicatedResign,
    MaxPlies,
    IllegalMove,
    NoMove,
    Crash,
    TimeForfeit,
    /// The engine wrote more than the runner reads: a line, a search or a
    /// backlog over its cap (see `engine::MAX_LINE`).
    OutputOverflow,
}

/// The runner's own kinds, in the order the summary lists them.
const RUNNER_KINDS: [EndKind; 8] = [
    EndKind::AdjudicatedDraw,
    EndKind::AdjudicatedResign,
    EndKind::MaxPlies,
    EndKind::IllegalMove,
    EndKind::NoMove,
    EndKind::Crash,
    EndKind::TimeForfeit,
    EndKind::OutputOverflow,
];

impl EndKind {
    /// Every kind: the rule endings first, as the summary counts them.
    pub fn all() -> impl Iterator<Item = EndKind> {
        EndReason::ALL
            .into_iter()
            .map(EndKind::Rules)
            .chain(RUNNER_KINDS)
    }

    /// The name written to PGN (`EndReason`) and JSON (`end`); files of
    /// earlier versions used the same strings, so they still resume.
    pub fn name(self) -> &'static str {
        match self {
            EndKind::Rules(r) => r.name(),
            EndKind::AdjudicatedDraw => "adjudicated draw",
            EndKind::AdjudicatedResign => "adjudicated resign",
            EndKind::MaxPlies => "max plies",
            EndKind::IllegalMove => "illegal move",
            EndKind::NoMove => "no move",
            EndKind::Crash => "crash",
            EndKind::TimeForfeit => "time forfeit",
            EndKind::OutputOverflow => "output over the limit",
        }
    }

    pub fn from_name(s: &str) -> Option<EndKind> {
        EndKind::all().find(|k| k.name() == s)
    }

    /// The PGN `Termination` value.
    pub fn termination(self) -> &'static str {
        match self {
            EndKind::Rules(_) => "normal",
            EndKind::AdjudicatedDraw | EndKind::AdjudicatedResign | EndKind::MaxPlies => {
                "adjudication"
            }
            // Writing without end breaks the protocol as an illegal move
            // breaks the rules: the runner rules the game lost.
            EndKind::IllegalMove | EndKind::NoMove | EndKind::OutputOverflow => "rules infraction",
            EndKind::Crash => "abandoned",
            EndKind::TimeForfeit => "time forfeit",
        }
    }

    pub fn by_rules(self) -> bool {
        matches!(self, EndKind::Rules(_))
    }

    /// The engine of the losing side misbehaved.
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            EndKind::IllegalMove
                | EndKind::NoMove
                | EndKind::Crash
                | EndKind::TimeForfeit
                | EndKind::OutputOverflow
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_read_back() {
        let all: Vec<EndKind> = EndKind::all().collect();
        assert_eq!(all.len(), 15);
        for k in &all {
            assert_eq!(EndKind::from_name(k.name()), Some(*k), "{k:?}");
        }
        // The strings earlier match files hold.
        assert_eq!(
            EndKind::from_name("back-and-forth"),
            Some(EndKind::Rules(EndReason::BackAndForth))
        );
        assert_eq!(
            EndKind::from_name("time forfeit"),
            Some(EndKind::TimeForfeit)
        );
        assert_eq!(EndKind::from_name("Checkmate"), None);
    }
}
