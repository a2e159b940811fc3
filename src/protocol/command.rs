//! Protocol text to a typed command. Parsing knows nothing of the position:
//! move strings stay strings until the session reads them against the board,
//! because only then can it say which one is illegal.

use crate::board::Setup;
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Ucci,
    IsReady,
    UciNewGame,
    /// `debug on|off`, `register ...`: valid UCI, nothing to do.
    Ignored,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position(PositionSpec),
    /// `ucicyclone`: UCI with ranks 0..9 from now on.
    UciCyclone,
    /// `fen ...` / `startpos ...` without `position`: sets the position and
    /// switches to ranks 0..9, as Fairy-Stockfish does.
    CyclonePosition(PositionSpec),
    Go(Box<Go>),
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    BanMoves(Vec<String>),
    /// UCCI static evaluation, of the current position or of the one given.
    Probe(Option<PositionSpec>),
    Display,
    Eval,
    Flip,
    SetupHan {
        movetime: Option<u64>,
    },
    SetupCho {
        han: Setup,
        movetime: Option<u64>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    StartPos { cho: Setup, han: Setup },
    Fen(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    pub base: Base,
    pub moves: Vec<String>,
}

/// `go` as written. Bad fields do not refuse the command (a GUI that sent
/// `go` waits for `bestmove`): each is reported in `problems` and the field
/// is dropped or clamped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    /// UCCI names: the side to move's clock and the opponent's.
    pub time: Option<u64>,
    pub opptime: Option<u64>,
    pub increment: Option<u64>,
    pub oppincrement: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub mate: Option<u32>,
    pub byoyomi: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// UCCI: the opponent offers a draw. Noted, never accepted.
    pub draw: bool,
    pub searchmoves: Vec<String>,
    pub problems: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A blank line: nothing to say about it.
    Empty,
    Unknown(String),
    Invalid(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty line"),
            ParseError::Unknown(w) => write!(f, "unknown command '{w}'"),
            ParseError::Invalid(m) => f.write_str(m),
        }
    }
}

pub use crate::util::text::clip;

pub const MAX_DEPTH: u64 = 255;
/// About 31 years: no clock is longer, and sums of such values cannot overflow.
pub const MAX_TIME_MS: u64 = 1_000_000_000_000;

fn invalid<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError::Invalid(msg.into()))
}

impl FromStr for Command {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Command, ParseError> {
        let mut toks = line.split_whitespace();
        let word = toks.next().ok_or(ParseError::Empty)?;
        let rest: Vec<&str> = toks.collect();
        let no_args = |c: Command| {
            if rest.is_empty() {
                Ok(c)
            } else {
                invalid(format!(
                    "'{}' takes no arguments, got '{}'",
                    word,
                    clip(&rest.join(" "))
                ))
            }
        };
        match word.to_ascii_lowercase().as_str() {
            "uci" => no_args(Command::Uci),
            "ucci" => no_args(Command::Ucci),
            "isready" => Ok(Command::IsReady),
            "ucinewgame" | "uccinewgame" => Ok(Command::UciNewGame),
            "ucicyclone" => no_args(Command::UciCyclone),
            "fen" | "startpos" => {
                let mut all = vec![word];
                all.extend(&rest);
                parse_position(&all, word).map(Command::CyclonePosition)
            }
            "debug" | "register" => Ok(Command::Ignored),
            "setoption" => parse_setoption(&rest),
            "position" => parse_position(&rest, "position").map(Command::Position),
            "go" => parse_go(&rest),
            "stop" => Ok(Command::Stop),
            "ponderhit" => Ok(Command::PonderHit),
            "quit" => Ok(Command::Quit),
            "banmoves" => Ok(Command::BanMoves(
                rest.iter().map(|s| s.to_string()).collect(),
            )),
            "probe" => {
                if rest.is_empty() {
                    Ok(Command::Probe(None))
                } else {
                    parse_position(&rest, "probe").map(|p| Command::Probe(Some(p)))
                }
            }
            "d" => no_args(Command::Display),
            "eval" => no_args(Command::Eval),
            "flip" => no_args(Command::Flip),
            "setup" => parse_setup(&rest),
            _ => Err(ParseError::Unknown(clip(word))),
        }
    }
}

/// UCI `setoption name <name> value <value>`, or UCCI `setoption <name> <value>`.
fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    match rest.first() {
        None => invalid("setoption: missing option name"),
        Some(&"name") => {
            let value_at = rest.iter().position(|&t| t == "value");
            let name_end = value_at.unwrap_or(rest.len());
            let name = rest[1..name_end].join(" ");
            if name.is_empty() {
                return invalid("setoption: missing option name after 'name'");
            }
            let value = value_at.map(|i| rest[i + 1..].join(" "));
            Ok(Command::SetOption { name, value })
        }
        Some(name) => {
            let value = (rest.len() > 1).then(|| rest[1..].join(" "));
            Ok(Command::SetOption {
                name: name.to_string(),
                value,
            })
        }
    }
}

fn parse_position(rest: &[&str], cmd: &str) -> Result<PositionSpec, ParseError> {
    let moves_at = rest.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (
            &rest[..i],
            rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        ),
        None => (rest, Vec::new()),
    };
    let base = match head.first() {
        None if moves_at.is_some() => {
            return invalid(format!("{cmd}: 'moves' before 'startpos' or 'fen <FEN>'"))
        }
        None => return invalid(format!("{cmd}: expected 'startpos' or 'fen <FEN>'")),
        Some(&"startpos") => parse_startpos(&head[1..], cmd)?,
        Some(&"fen") => {
            if head.len() == 1 {
                return invalid(format!("{cmd} fen: the FEN is missing"));
            }
            Base::Fen(head[1..].join(" "))
        }
        Some(other) => {
            return invalid(format!(
                "{cmd}: expected 'startpos' or 'fen <FEN>', got '{}'",
                clip(other)
            ))
        }
    };
    Ok(PositionSpec { base, moves })
}

/// `startpos [cho <arrangement>] [han <arrangement>]`.
fn parse_startpos(args: &[&str], cmd: &str) -> Result<Base, ParseError> {
    let (mut cho, mut han) = (Setup::Inner, Setup::Inner);
    let mut it = args.iter();
    while let Some(&side) = it.next() {
        let slot = match side {
            "cho" => &mut cho,
            "han" => &mut han,
            _ => {
                return invalid(format!(
                "{cmd} startpos: unexpected '{}' (cho <arrangement>, han <arrangement>, moves ...)",
                clip(side)
            ))
            }
        };
        let name = it.next().ok_or_else(|| {
            ParseError::Invalid(format!("{cmd} startpos: '{side}' needs an arrangement"))
        })?;
        *slot = name
            .parse()
            .map_err(|e| ParseError::Invalid(format!("{cmd} startpos {side}: {e}")))?;
    }
    Ok(Base::StartPos { cho, han })
}

/// `setup han [movetime MS]` or `setup cho <han's arrangement> [movetime MS]`.
fn parse_setup(rest: &[&str]) -> Result<Command, ParseError> {
    let (side, args) = match rest.split_first() {
        Some((s, a)) => (*s, a),
        None => return invalid("setup: expected 'han' or 'cho <han's arrangement>'"),
    };
    let (han, args) = match side {
        "han" => (None, args),
        "cho" => match args.split_first() {
            Some((h, a)) => (
                Some(
                    h.parse::<Setup>()
                        .map_err(|e| ParseError::Invalid(format!("setup cho: {e}")))?,
                ),
                a,
            ),
            None => return invalid("setup cho: Han's arrangement is missing"),
        },
        other => {
            return invalid(format!(
                "setup: expected 'han' or 'cho', got '{}'",
                clip(other)
            ))
        }
    };
    let movetime = match args {
        [] => None,
        ["movetime", ms] => match ms.parse::<u64>() {
            Ok(n) if n <= MAX_TIME_MS => Some(n),
            _ => return invalid(format!("setup: bad movetime '{}'", clip(ms))),
        },
        _ => {
            return invalid(format!(
                "setup {side}: unexpected '{}' (only 'movetime MS' may follow)",
                clip(&args.join(" "))
            ))
        }
    };
    Ok(match han {
        None => Command::SetupHan { movetime },
        Some(han) => Command::SetupCho { han, movetime },
    })
}

/// What a `go` field takes after its name.
#[derive(Copy, Clone)]
enum GoValue {
    /// Nothing: the name alone sets it.
    Flag(fn(&mut Go)),
    /// A time in milliseconds (UCCI's in seconds unless `usemillisec`);
    /// negative means the clock ran out, so it becomes 0.
    Time(fn(&mut Go, u64)),
    /// A count up to the maximum; a negative one is dropped.
    Count(u64, fn(&mut Go, u32)),
    /// `nodes`: a count as wide as the node counter.
    Nodes,
    /// The moves up to the next field name.
    Moves,
}

/// Every `go` field, declared once: its name and what it takes. UCCI's
/// names and fairyground's spellings of them (`oppotime`) stand beside
/// UCI's.
const GO_FIELDS: &[(&str, GoValue)] = &[
    ("wtime", GoValue::Time(|g, v| g.wtime = Some(v))),
    ("btime", GoValue::Time(|g, v| g.btime = Some(v))),
    ("winc", GoValue::Time(|g, v| g.winc = Some(v))),
    ("binc", GoValue::Time(|g, v| g.binc = Some(v))),
    ("time", GoValue::Time(|g, v| g.time = Some(v))),
    ("opptime", GoValue::Time(|g, v| g.opptime = Some(v))),
    ("oppotime", GoValue::Time(|g, v| g.opptime = Some(v))),
    ("increment", GoValue::Time(|g, v| g.increment = Some(v))),
    (
        "oppincrement",
        GoValue::Time(|g, v| g.oppincrement = Some(v)),
    ),
    (
        "oppoincrement",
        GoValue::Time(|g, v| g.oppincrement = Some(v)),
    ),
    ("movetime", GoValue::Time(|g, v| g.movetime = Some(v))),
    ("byoyomi", GoValue::Time(|g, v| g.byoyomi = Some(v))),
    ("depth", GoValue::Count(MAX_DEPTH, |g, v| g.depth = Some(v))),
    ("mate", GoValue::Count(MAX_DEPTH, |g, v| g.mate = Some(v))),
    (
        "movestogo",
        GoValue::Count(u32::MAX as u64, |g, v| g.movestogo = Some(v)),
    ),
    ("nodes", GoValue::Nodes),
    ("infinite", GoValue::Flag(|g| g.infinite = true)),
    ("ponder", GoValue::Flag(|g| g.ponder = true)),
    ("draw", GoValue::Flag(|g| g.draw = true)),
    ("searchmoves", GoValue::Moves),
];

fn go_field(name: &str) -> Option<GoValue> {
    GO_FIELDS.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

fn parse_go(rest: &[&str]) -> Result<Command, ParseError> {
    if rest.first() == Some(&"perft") {
        let max = crate::board::perft::MAX_DEPTH;
        return match rest.get(1).map(|n| n.parse::<u64>()) {
            Some(Ok(n)) if rest.len() == 2 => match crate::board::perft::check_depth(n) {
                Ok(d) => Ok(Command::Perft(d)),
                Err(e) => invalid(format!("go perft: {e}")),
            },
            None => invalid("go perft: the depth is missing"),
            _ => invalid(format!(
                "go perft: expected one depth 0..{max}, got '{}'",
                clip(&rest[1..].join(" "))
            )),
        };
    }
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        i += 1;
        let Some(kind) = go_field(key) else {
            go.problems
                .push(format!("go: unknown field '{}'", clip(key)));
            continue;
        };
        if let GoValue::Flag(set) = kind {
            set(&mut go);
            continue;
        }
        if let GoValue::Moves = kind {
            while i < rest.len() && go_field(rest[i]).is_none() {
                go.searchmoves.push(rest[i].to_string());
                i += 1;
            }
            continue;
        }
        let raw = match rest.get(i) {
            Some(v) if go_field(v).is_none() => {
                i += 1;
                *v
            }
            _ => {
                go.problems.push(format!("go: '{key}' needs a value"));
                continue;
            }
        };
        match kind {
            GoValue::Time(set) => {
                if let Some(v) = read_number(key, raw, true, MAX_TIME_MS, &mut go.problems) {
                    set(&mut go, v);
                }
            }
            GoValue::Count(max, set) => {
                if let Some(v) = read_number(key, raw, false, max, &mut go.problems) {
                    // Clamped to `max`, which fits in u32.
                    set(&mut go, v.min(u32::MAX as u64) as u32);
                }
            }
            GoValue::Nodes => {
                if let Some(v) = read_number(key, raw, false, u64::MAX, &mut go.problems) {
                    go.nodes = Some(v);
                }
            }
            GoValue::Flag(_) | GoValue::Moves => {}
        }
    }
    Ok(Command::Go(Box::new(go)))
}

/// Reads a non-negative number. Negative times mean the clock ran out, so
/// they become 0; a negative count has no sensible meaning and is dropped.
fn read_number(
    key: &str,
    raw: &str,
    is_time: bool,
    max: u64,
    problems: &mut Vec<String>,
) -> Option<u64> {
    let (neg, digits) = match raw.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, raw.strip_prefix('+').unwrap_or(raw)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        problems.push(format!(
            "go: {key} '{}' is not a whole number; ignored",
            clip(raw)
        ));
        return None;
    }
    if neg && digits.bytes().any(|b| b != b'0') {
        return if is_time {
            problems.push(format!("go: {key} {} is negative; using 0", clip(raw)));
            Some(0)
        } else {
            problems.push(format!("go: {key} {} is negative; ignored", clip(raw)));
            None
        };
    }
    match digits.parse::<u64>() {
        Ok(v) if v <= max => Some(v),
        _ => {
            problems.push(format!(
                "go: {key} {} is out of range; using {max}",
                clip(raw)
            ));
            Some(max)
        }
    }
}

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
