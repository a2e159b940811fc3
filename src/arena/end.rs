//! How a game of the match ended: one of the rules core's endings, or one
//! the runner decides itself (adjudication, or an engine that misbehaved).

use crate::board::rules::{count_winner, game_end};
use crate::board::{Color, EndReason, Move, Outcome, Position};

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

/// What a match's conditions allow of the way its games end, for the
/// checks the board cannot make alone; `None` where a file from before
/// the setting was recorded cannot say.
#[derive(Clone, Copy, Debug, Default)]
pub struct Allowed {
    /// `--max-plies`.
    pub max_plies: Option<usize>,
    /// Whether `--adjudicate-draw` was given.
    pub draw_adjudication: Option<bool>,
    /// Whether `--adjudicate-resign` was given.
    pub resign_adjudication: Option<bool>,
}

/// The one check of a recorded game against the rules core, for every
/// reader of the runner's files (`--resume`, `match merge`, `match
/// report`): `moves` (legal, from `root`, the first `book_plies` the
/// opening's) must be a game the runner can have played and ended with
/// `kind` and `outcome`. The runner asks for a move only while the rules
/// have not ended the game and fewer than `--max-plies` plies are on the
/// board; it ends a game by the rules exactly when they end it, at the
/// ply limit by counting or a draw, by adjudication after an engine's
/// move, and by a fault against the side it was waiting for.
pub fn check_game(
    root: &Position,
    moves: &[Move],
    book_plies: usize,
    kind: EndKind,
    outcome: Outcome,
    allowed: &Allowed,
) -> Result<(), String> {
    if book_plies > moves.len() {
        return Err(format!(
            "{book_plies} plies of opening, but {} moves",
            moves.len()
        ));
    }
    let mut pos = root.clone();
    for (k, &m) in moves.iter().enumerate() {
        if k >= book_plies {
            if let Some(e) = game_end(&pos) {
                return Err(format!(
                    "the rules end it {e} after ply {k}, yet it goes on"
                ));
            }
        }
        pos.make(m);
    }
    let plies = moves.len();
    // Whether an engine moved at all (the rest is the opening's).
    let played = plies > book_plies;
    if let Some(max) = allowed.max_plies {
        if played && plies > max {
            return Err(format!("{plies} plies, past the match's --max-plies {max}"));
        }
    }
    let result = outcome.result_string();
    let ended = game_end(&pos);
    let not_ended = || match ended {
        Some(e) => Err(format!(
            "the rules end it {e}, not {result} {}",
            kind.name()
        )),
        None => Ok(()),
    };
    match kind {
        EndKind::Rules(reason) => match ended {
            Some(e) if e.reason == reason && e.outcome == outcome => Ok(()),
            Some(e) => Err(format!(
                "the rules end it {e}, not {result} {}",
                reason.name()
            )),
            None => Err(format!(
                "recorded as {result} {}, but the rules do not end it",
                reason.name()
            )),
        },
        EndKind::MaxPlies => {
            not_ended()?;
            if let Some(max) = allowed.max_plies {
                if plies != max.max(book_plies) {
                    return Err(format!(
                        "max plies after {plies} plies, but --max-plies is {max}"
                    ));
                }
            }
            let due = if pos.rules().counting() {
                Outcome::Win(count_winner(&pos))
            } else {
                Outcome::Draw
            };
            if outcome != due {
                return Err(format!(
                    "max plies recorded as {result}, but the position gives {}",
                    due.result_string()
                ));
            }
            Ok(())
        }
        EndKind::AdjudicatedDraw | EndKind::AdjudicatedResign => {
            let draw = kind == EndKind::AdjudicatedDraw;
            let given = if draw {
                allowed.draw_adjudication
            } else {
                allowed.resign_adjudication
            };
            if given == Some(false) {
                return Err(format!(
                    "an {} in a match without --adjudicate-{}",
                    kind.name(),
                    if draw { "draw" } else { "resign" }
                ));
            }
            if !played {
                return Err(format!("an {} before any engine moved", kind.name()));
            }
            if draw != (outcome == Outcome::Draw) {
                return Err(format!("an {} recorded as {result}", kind.name()));
            }
            Ok(())
        }
        _ => {
            let Outcome::Win(winner) = outcome else {
                return Err(format!("a {} recorded as a draw", kind.name()));
            };
            // An engine that fails to start a game may be either side,
            // before any move of its own; any other fault is the side
            // the runner waited for, in a game the rules had not ended.
            if kind == EndKind::Crash && !played {
                return Ok(());
            }
            not_ended()?;
            let mover = pos.side_to_move();
            if winner == mover {
                return Err(format!(
                    "a {} recorded as {result}, a win for {}, the side whose move it was",
                    kind.name(),
                    side_name(mover)
                ));
            }
            Ok(())
        }
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Cho => "Cho",
        Color::Han => "Han",
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

    /// Chariots shuttling from the start until the rules end the game,
    /// then `extra` more shuttle moves; with the end the rules gave.
    fn shuttle(extra: usize) -> (Position, Vec<Move>, crate::board::rules::GameEnd) {
        use crate::board::{parse_move, Notation, RuleSet};
        let root = Position::startpos(RuleSet::Janggi);
        let cycle = ["a1a2", "a10a9", "a2a1", "a9a10"];
        let mut pos = root.clone();
        let mut moves = Vec::new();
        let end = loop {
            if let Some(e) = game_end(&pos) {
                break e;
            }
            assert!(moves.len() < 200, "the shuttle never ends the game");
            let m = parse_move(&pos, cycle[moves.len() % 4], Notation::Uci).unwrap();
            pos.make(m);
            moves.push(m);
        };
        for _ in 0..extra {
            let m = parse_move(&pos, cycle[moves.len() % 4], Notation::Uci).unwrap();
            pos.make(m);
            moves.push(m);
        }
        (root, moves, end)
    }

    #[test]
    fn a_game_is_what_the_rules_make_of_its_moves() {
        let all = Allowed::default();
        let (root, moves, end) = shuttle(0);
        let kind = EndKind::Rules(end.reason);
        assert_eq!(
            check_game(&root, &moves, 0, kind, end.outcome, &all),
            Ok(())
        );
        // Cut one ply short, the rules have not ended it.
        let short = &moves[..moves.len() - 1];
        let err = check_game(&root, short, 0, kind, end.outcome, &all).unwrap_err();
        assert!(err.contains("do not end it"), "{err}");
        // The opening's plies are not the runner's to end.
        let all_book = check_game(
            &root,
            short,
            short.len(),
            EndKind::Crash,
            Outcome::Draw,
            &all,
        );
        assert!(all_book.unwrap_err().contains("as a draw"));
        // A fault is the mover's; an adjudication needs its flag.
        let mover = {
            let mut p = root.clone();
            for &m in short {
                p.make(m);
            }
            p.side_to_move()
        };
        let fault = |winner| check_game(&root, short, 0, EndKind::TimeForfeit, winner, &all);
        assert_eq!(fault(Outcome::Win(!mover)), Ok(()));
        assert!(fault(Outcome::Win(mover)).is_err());
        let no_draws = Allowed {
            draw_adjudication: Some(false),
            max_plies: Some(short.len()),
            ..all
        };
        let adj =
            |a: &Allowed| check_game(&root, short, 0, EndKind::AdjudicatedDraw, Outcome::Draw, a);
        assert_eq!(adj(&all), Ok(()));
        assert!(adj(&no_draws).unwrap_err().contains("--adjudicate-draw"));
        let tight = Allowed {
            max_plies: Some(short.len() - 1),
            ..all
        };
        assert!(adj(&tight).unwrap_err().contains("--max-plies"));
        // Max plies: only at the limit, with the count's result (Janggi
        // counts).
        let at = Allowed {
            max_plies: Some(short.len()),
            ..all
        };
        let mut p = root.clone();
        for &m in short {
            p.make(m);
        }
        let due = Outcome::Win(count_winner(&p));
        assert_eq!(
            check_game(&root, short, 0, EndKind::MaxPlies, due, &at),
            Ok(())
        );
        assert!(check_game(&root, short, 0, EndKind::MaxPlies, Outcome::Draw, &at).is_err());
        assert!(check_game(&root, short, 0, EndKind::MaxPlies, due, &tight).is_err());
    }

    #[test]
    fn no_move_is_played_after_the_rules_end_the_game() {
        let (root, moves, end) = shuttle(1);
        let mut pos = root.clone();
        for &m in &moves {
            pos.make(m);
        }
        // Whatever the end claimed, the game went on past one.
        for (kind, outcome) in [
            (EndKind::Rules(end.reason), end.outcome),
            (EndKind::AdjudicatedDraw, Outcome::Draw),
            (EndKind::Crash, Outcome::Win(!pos.side_to_move())),
        ] {
            let err = check_game(&root, &moves, 0, kind, outcome, &Allowed::default()).unwrap_err();
            assert!(err.contains("yet it goes on"), "{err}");
        }
        // Unless those moves were the opening's.
        let book = moves.len() - 1;
        let err = check_game(
            &root,
            &moves,
            book + 2,
            EndKind::Crash,
            end.outcome,
            &Allowed::default(),
        );
        assert!(err.unwrap_err().contains("plies of opening"));
    }
}
