//! CECP (the XBoard/WinBoard protocol) text to a typed command, and the
//! few things CECP writes its own way: moves with ranks 0..9 and `@@@@` for
//! a pass, thinking lines, result claims. Executed by `xboard.rs`.

use super::command::{clip, ParseError, MAX_DEPTH, MAX_TIME_MS};
use crate::board::{move_to_string, EndReason, GameEnd, Move, Notation, Outcome};
use crate::search::{Info, Score};
use std::str::FromStr;

#[derive(Clone, Debug, PartialEq)]
pub enum Cecp {
    Xboard,
    Protover(u32),
    Accepted,
    Rejected,
    New,
    Variant(String),
    Force,
    Go,
    PlayOther,
    /// `usermove M`, or a bare move.
    UserMove(String),
    SetBoard(String),
    Undo,
    Remove,
    Result,
    /// `level MPS BASE INC`: moves per session, base and increment in ms.
    Level {
        mps: u32,
        base_ms: u64,
        inc_ms: u64,
    },
    /// `st N`: seconds per move, as ms.
    St(u64),
    Sd(u32),
    /// `time N` / `otim N`, converted from centiseconds to ms.
    Time(u64),
    Otim(u64),
    MoveNow,
    Ping(String),
    Post(bool),
    Hard(bool),
    Analyze,
    Exit,
    Status,
    Memory(u64),
    Cores(u64),
    Option {
        name: String,
        value: Option<String>,
    },
    /// Valid CECP that needs nothing from this engine (`random`,
    /// `computer`, `name`, `rating`, `ics`, `draw`, `lift`, `put`, ...).
    Ignored,
    Quit,
}

fn invalid<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError::Invalid(msg.into()))
}

/// A count in range, or an error naming the command.
fn count(cmd: &str, arg: Option<&&str>, max: u64) -> Result<u64, ParseError> {
    match arg.map(|a| a.parse::<u64>()) {
        Some(Ok(n)) if n <= max => Ok(n),
        Some(_) => invalid(format!(
            "{cmd}: expected a whole number 0..{max}, got '{}'",
            clip(arg.unwrap_or(&""))
        )),
        None => invalid(format!("{cmd}: the number is missing")),
    }
}

/// Seconds, possibly with a fraction (`0.2`) or as `M:SS`, to ms.
fn seconds(cmd: &str, s: &str, minutes: bool) -> Result<u64, ParseError> {
    let bad = || invalid(format!("{cmd}: bad time '{}'", clip(s)));
    let ms = if let Some((m, sec)) = s.split_once(':') {
        let (Ok(m), Ok(sec)) = (m.parse::<u64>(), sec.parse::<u64>()) else {
            return bad();
        };
        m.checked_mul(60_000)
            .and_then(|v| v.checked_add(sec.checked_mul(1000)?))
    } else {
        let unit = if minutes { 60_000.0 } else { 1000.0 };
        match s.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Some((v * unit).round() as u64),
            _ => None,
        }
    };
    match ms {
        Some(ms) if ms <= MAX_TIME_MS => Ok(ms),
        _ => bad(),
    }
}

fn looks_like_move(w: &str) -> bool {
    let b = w.as_bytes();
    matches!(w, "@@@@" | "pass" | "0000")
        || (b.len() >= 4
            && b.len() <= 5
            && b[0].is_ascii_lowercase()
            && b[1].is_ascii_digit()
            && b.iter().all(|c| c.is_ascii_alphanumeric()))
}

impl FromStr for Cecp {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Cecp, ParseError> {
        let mut toks = line.split_whitespace();
        let word = toks.next().ok_or(ParseError::Empty)?;
        let rest: Vec<&str> = toks.collect();
        let tail = || rest.join(" ");
        Ok(match word {
            "xboard" => Cecp::Xboard,
            "protover" => Cecp::Protover(count(word, rest.first(), 1000)? as u32),
            "accepted" => Cecp::Accepted,
            "rejected" => Cecp::Rejected,
            "new" => Cecp::New,
            "variant" => match rest.first() {
                Some(v) => Cecp::Variant(v.to_string()),
                None => return invalid("variant: the name is missing"),
            },
            "force" => Cecp::Force,
            "go" => Cecp::Go,
            "playother" => Cecp::PlayOther,
            "usermove" => match rest.first() {
                Some(m) => Cecp::UserMove(m.to_string()),
                None => return invalid("usermove: the move is missing"),
            },
            "setboard" => {
                if rest.is_empty() {
                    return invalid("setboard: the FEN is missing");
                }
                Cecp::SetBoard(tail())
            }
            "undo" => Cecp::Undo,
            "remove" => Cecp::Remove,
            "result" => Cecp::Result,
            "level" => {
                let [mps, base, inc] = rest.as_slice() else {
                    return invalid(format!(
                        "level: expected 'level MPS BASE INC', got '{}'",
                        clip(&tail())
                    ));
                };
                Cecp::Level {
                    mps: count(word, Some(mps), 10_000)? as u32,
                    base_ms: seconds(word, base, true)?,
                    inc_ms: seconds(word, inc, false)?,
                }
            }
            "st" => match rest.first() {
                Some(s) => Cecp::St(seconds(word, s, false)?),
                None => return invalid("st: the time is missing"),
            },
            "sd" => Cecp::Sd(count(word, rest.first(), MAX_DEPTH)? as u32),
            // Centiseconds; a negative clock (flag fell) counts as empty.
            "time" | "otim" => {
                let cs = match rest.first().map(|a| a.parse::<i64>()) {
                    Some(Ok(v)) => (v.max(0) as u64).min(MAX_TIME_MS / 10),
                    _ => {
                        return invalid(format!(
                            "{word}: expected centiseconds, got '{}'",
                            clip(&tail())
                        ))
                    }
                };
                if word == "time" {
                    Cecp::Time(cs * 10)
                } else {
                    Cecp::Otim(cs * 10)
                }
            }
            "?" => Cecp::MoveNow,
            "ping" => Cecp::Ping(rest.first().map_or(String::new(), |s| clip(s))),
            "post" => Cecp::Post(true),
            "nopost" => Cecp::Post(false),
            "hard" => Cecp::Hard(true),
            "easy" => Cecp::Hard(false),
            "analyze" => Cecp::Analyze,
            "exit" => Cecp::Exit,
            "." => Cecp::Status,
            "memory" => Cecp::Memory(count(word, rest.first(), u64::MAX)?),
            "cores" => Cecp::Cores(count(word, rest.first(), u64::MAX)?),
            "option" => {
                let t = tail();
                match t.split_once('=') {
                    Some((n, v)) => Cecp::Option {
                        name: n.trim().to_string(),
                        value: Some(v.trim().to_string()),
                    },
                    None if !t.is_empty() => Cecp::Option {
                        name: t.trim().to_string(),
                        value: None,
                    },
                    None => return invalid("option: expected 'option NAME=VALUE'"),
                }
            }
            "random" | "computer" | "name" | "rating" | "ics" | "draw" | "hint" | "bk" | "lift"
            | "put" | "hover" | "nps" | "white" | "black" | "easy_" | "pause" | "resume"
            | "book" | "egtpath" => Cecp::Ignored,
            "quit" => Cecp::Quit,
            w if looks_like_move(w) && rest.is_empty() => Cecp::UserMove(w.to_string()),
            _ => return Err(ParseError::Unknown(clip(word))),
        })
    }
}

/// A move as CECP writes it: ranks 0..9, `@@@@` for a pass.
pub fn move_text(m: Move) -> String {
    if m.is_pass() {
        "@@@@".to_string()
    } else {
        move_to_string(m, Notation::Ucci)
    }
}

/// CECP shows mates as 100000 + moves (negative when being mated).
pub fn score(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    }
}

/// `depth score time nodes pv`, time in centiseconds.
pub fn thinking(i: &Info) -> String {
    let pv: Vec<String> = i.pv.iter().map(|&m| move_text(m)).collect();
    format!(
        "{} {} {} {} {}",
        i.depth,
        score(i.score),
        i.time_ms / 10,
        i.nodes,
        pv.join(" ")
    )
}

/// The claim an engine makes when a game ends: `1-0 {checkmate}`,
/// `0-1 {bikjang: Han wins on count}`, `1/2-1/2 {repetition}`.
pub fn claim(end: &GameEnd) -> String {
    let reason = end.reason.name();
    let text = match end.outcome {
        Outcome::Win(c) if end.counted => format!("{reason}: {} wins on count", c.name()),
        Outcome::Win(_) if end.reason == EndReason::Checkmate => reason.to_string(),
        Outcome::Win(c) => format!("{reason}: {} wins", c.name()),
        Outcome::Draw => reason.to_string(),
    };
    format!("{} {{{text}}}", end.outcome.result_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Cecp {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn commands_parse() {
        assert_eq!(p("protover 2"), Cecp::Protover(2));
        assert_eq!(p("usermove b0c2"), Cecp::UserMove("b0c2".into()));
        assert_eq!(p("b0c2"), Cecp::UserMove("b0c2".into()));
        assert_eq!(p("@@@@"), Cecp::UserMove("@@@@".into()));
        assert_eq!(
            p("level 40 5 0"),
            Cecp::Level {
                mps: 40,
                base_ms: 300_000,
                inc_ms: 0
            }
        );
        assert_eq!(
            p("level 0 0:20 0.2"),
            Cecp::Level {
                mps: 0,
                base_ms: 20_000,
                inc_ms: 200
            }
        );
        assert_eq!(p("st 2"), Cecp::St(2000));
        assert_eq!(p("time 200"), Cecp::Time(2000));
        assert_eq!(p("otim -5"), Cecp::Otim(0));
        assert_eq!(
            p("option Skill Level=5"),
            Cecp::Option {
                name: "Skill Level".into(),
                value: Some("5".into())
            }
        );
        assert_eq!(
            p("setboard rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w 0 1"),
            Cecp::SetBoard(
                "rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w 0 1".into()
            )
        );
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for bad in [
            "level 40",
            "level x 5 0",
            "level 40 5:xx 0",
            "level 40 99999999999999999999 0",
            "st -1",
            "st nan",
            "sd 99999",
            "time abc",
            "protover",
            "usermove",
            "setboard",
            "option",
            "frobnicate",
        ] {
            assert!(bad.parse::<Cecp>().is_err(), "{bad}");
        }
        assert_eq!("".parse::<Cecp>(), Err(ParseError::Empty));
    }

    #[test]
    fn mates_are_100000_plus_moves() {
        assert_eq!(score(Score::Mate(3)), 100_003);
        assert_eq!(score(Score::Mate(-2)), -100_002);
        assert_eq!(score(Score::Cp(-35)), -35);
    }
}
