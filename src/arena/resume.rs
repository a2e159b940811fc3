//! `--resume`: takes the finished games of an interrupted match back from
//! its PGN (or, without one, its JSON). Nothing is taken on trust: each
//! game must be one this match schedules, from the opening it deals that
//! pair, with moves the rules core accepts and an end they can have had.
//! Nor is a game played under other conditions (limits, openings,
//! adjudication, engines: see `conditions`) than this match's. A PGN cut
//! inside its last game (all an interruption can do to it) loses that
//! game; anything else unreadable refuses the resume.

use super::cli::{EngineSpec, MatchConfig};
use super::conditions::{self, Condition};
use super::end::EndKind;
use super::json::{self, Value};
use super::openings::{self, Opening};
use super::record::{Record, Schedule};
use super::resume_pgn::{self, WrittenGame};
use crate::board::rules::game_end;
use crate::board::{from_san, parse_move, Color, Move, Notation, Outcome, Position};
use std::collections::BTreeMap;
use std::path::Path;

/// What `--resume` took back.
#[derive(Default)]
pub struct Resumed {
    pub records: BTreeMap<usize, Record>,
    /// Bytes of the PGN that hold whole games: the rest is cut off before
    /// new games are appended.
    pub pgn_keep: u64,
    /// The line of a cut last game that was dropped (to be played again).
    pub dropped_at: Option<usize>,
}

/// What a file says about one game, its moves already replayed legally.
struct Claim<'a> {
    number: usize,
    cho: &'a str,
    han: &'a str,
    result: &'a str,
    end: &'a str,
    detail: &'a str,
    root: Position,
    moves: Vec<Move>,
}

fn outcome_of(result: &str) -> Result<Outcome, String> {
    match result {
        "1-0" => Ok(Outcome::Win(Color::Cho)),
        "0-1" => Ok(Outcome::Win(Color::Han)),
        "1/2-1/2" => Ok(Outcome::Draw),
        other => Err(format!("unfinished game (result '{other}')")),
    }
}

/// The end a file names must be one the game can have had.
fn check_end(kind: EndKind, outcome: Outcome, pos: &Position) -> Result<(), String> {
    let result = outcome.result_string();
    match kind {
        EndKind::Rules(reason) => match game_end(pos) {
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
        EndKind::AdjudicatedDraw if outcome != Outcome::Draw => {
            Err(format!("an adjudicated draw recorded as {result}"))
        }
        k if (k.is_fault() || k == EndKind::AdjudicatedResign) && outcome == Outcome::Draw => {
            Err(format!("a {} recorded as a draw", k.name()))
        }
        _ => Ok(()),
    }
}

/// Reads a file that may not exist yet (a match interrupted before its
/// first game was written).
fn read(path: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

struct Resume<'a> {
    cfg: &'a MatchConfig,
    cond: &'a [Condition],
    sched: &'a Schedule,
    book: &'a [Opening],
    records: BTreeMap<usize, Record>,
}

impl Resume<'_> {
    fn believe(&self, c: Claim) -> Result<Record, String> {
        let (cfg, n) = (self.cfg, c.number);
        if n == 0 || n > self.sched.total() {
            return Err(format!("game {n} is outside this match"));
        }
        if self.records.contains_key(&(n - 1)) {
            return Err(format!("game {n} is in the file twice"));
        }
        let slot = self.sched.slot(n - 1);
        let (cho, han) = (&cfg.engines[slot.cho].name, &cfg.engines[slot.han].name);
        if cho != c.cho || han != c.han {
            return Err(format!(
                "game {n} was {} vs {}, but this match schedules {cho} vs {han}",
                c.cho, c.han
            ));
        }
        let kind = EndKind::from_name(c.end)
            .ok_or_else(|| format!("game {n}: unknown end '{}'", c.end))?;
        let outcome = outcome_of(c.result)?;
        let opening =
            openings::for_pair(self.book, slot.pair, cfg.seed, cfg.random_plies, cfg.rules);
        let same_root = openings::read_fen(&opening.fen, cfg.rules)
            .is_ok_and(|p| p.to_fen() == c.root.to_fen());
        if !same_root || !c.moves.starts_with(&opening.moves) {
            return Err(format!(
                "game {n} does not start from the opening this match deals it \
                 (other --openings, --seed or --random-plies?)"
            ));
        }
        let mut pos = c.root;
        for &m in &c.moves {
            pos.make(m);
        }
        check_end(kind, outcome, &pos).map_err(|e| format!("game {n}: {e}"))?;
        Ok(Record {
            slot,
            fen: opening.fen,
            moves: c.moves,
            outcome,
            kind,
            detail: c.detail.to_string(),
        })
    }

    fn pgn_game(&self, g: &WrittenGame) -> Result<Record, String> {
        let tag = |k: &str| g.tag(k).ok_or_else(|| format!("no [{k}] tag"));
        let no_tag = |c: &Condition| format!("no [{}] tag", c.tag);
        conditions::check(self.cond, |c| g.tag(c.tag), no_tag)?;
        let result = tag("Result")?;
        if result != g.result {
            return Err(format!(
                "[Result \"{result}\"] is not the result its moves end with ({})",
                g.result
            ));
        }
        let round = tag("Round")?;
        let number = round
            .parse()
            .map_err(|_| format!("[Round \"{round}\"] is not a game number"))?;
        let root = openings::read_fen(tag("FEN")?, self.cfg.rules)?;
        let mut pos = root.clone();
        let mut moves = Vec::with_capacity(g.moves.len());
        for (k, t) in g.moves.iter().enumerate() {
            let m = from_san(&mut pos, t).map_err(|e| format!("ply {}: {e}", k + 1))?;
            pos.make(m);
            moves.push(m);
        }
        let plies = tag("PlyCount")?;
        if plies != moves.len().to_string() {
            return Err(format!("[PlyCount \"{plies}\"] but {} moves", moves.len()));
        }
        let rec = self.believe(Claim {
            number,
            cho: tag("White")?,
            han: tag("Black")?,
            result,
            end: tag("EndReason")?,
            detail: g.tag("EndDetail").unwrap_or(""),
            root,
            moves,
        })?;
        let engines = &self.cfg.engines;
        let players = [
            conditions::engine("WhiteEngine", &engines[rec.slot.cho]),
            conditions::engine("BlackEngine", &engines[rec.slot.han]),
        ];
        conditions::check(&players, |c| g.tag(c.tag), no_tag)?;
        Ok(rec)
    }

    fn read_pgn(mut self, path: &Path) -> Result<Resumed, String> {
        let bytes = read(path)?.unwrap_or_default();
        let scan = resume_pgn::scan(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        for g in &scan.games {
            let rec = self
                .pgn_game(g)
                .map_err(|e| format!("{}: game at line {}: {e}", path.display(), g.line))?;
            self.records.insert(rec.slot.index, rec);
        }
        Ok(Resumed {
            records: self.records,
            pgn_keep: scan.whole_len as u64,
            dropped_at: scan.cut_at,
        })
    }

    fn json_game(&self, g: &Value) -> Result<Record, String> {
        let text = |k: &str| {
            g.get(k)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("no \"{k}\" text"))
        };
        // Exactly representable in f64, far beyond any game or ply count.
        let whole = |k: &str| {
            g.get(k)
                .and_then(Value::as_f64)
                .filter(|x| x.fract() == 0.0 && (0.0..=1e15).contains(x))
                .map(|x| x as usize)
                .ok_or_else(|| format!("\"{k}\" is not a whole number"))
        };
        let number = whole("game")?;
        let root = openings::read_fen(text("fen")?, self.cfg.rules)?;
        let mut pos = root.clone();
        let mut moves = Vec::new();
        for (k, t) in text("moves")?.split_whitespace().enumerate() {
            let m =
                parse_move(&pos, t, Notation::Uci).map_err(|e| format!("ply {}: {e}", k + 1))?;
            pos.make(m);
            moves.push(m);
        }
        if whole("plies")? != moves.len() {
            return Err(format!("\"plies\" is not its {} moves", moves.len()));
        }
        self.believe(Claim {
            number,
            cho: text("cho")?,
            han: text("han")?,
            result: text("result")?,
            end: text("end")?,
            detail: g.get("detail").and_then(Value::as_str).unwrap_or(""),
            root,
            moves,
        })
    }

    fn read_json(mut self, path: &Path) -> Result<Resumed, String> {
        let at = |e: &str| format!("{}: {e}", path.display());
        // The report is written whole (aside, then renamed), so unlike the
        // PGN it is never cut: it is there and whole, or not there yet.
        let Some(bytes) = read(path)? else {
            return Ok(Resumed::default());
        };
        let text =
            String::from_utf8(bytes).map_err(|_| at("JSON report expected, not UTF-8 text"))?;
        let v = json::parse(&text).map_err(|e| at(&e))?;
        let not_ours = |k: &str| at(&format!("no \"{k}\": not a JSON report of janggun match"));
        v.get("rules")
            .and_then(Value::as_str)
            .ok_or_else(|| not_ours("rules"))?;
        let games = v
            .get("games")
            .and_then(Value::as_arr)
            .ok_or_else(|| not_ours("games"))?;
        let no_field = |c: &Condition| format!("no \"{}\"", c.key);
        conditions::check(self.cond, |c| field(&v, c.key), no_field).map_err(|e| at(&e))?;
        // The report lists its engines once, for all games: each one this
        // match has must be the same engine (its games are checked against
        // the schedule by name).
        let listed = v.get("engines").and_then(Value::as_arr).unwrap_or(&[]);
        for e in &self.cfg.engines {
            let Some(entry) = listed.iter().find(|x| field(x, "name") == Some(&e.name)) else {
                continue;
            };
            let was = engine_entry(entry).map(|spec| conditions::engine_line(&spec));
            let expected = [conditions::engine("", e)];
            let missing = |_: &Condition| format!("engine {}: no \"args\" or \"options\"", e.name);
            conditions::check(&expected, |_| was.as_deref(), missing).map_err(|e| at(&e))?;
        }
        for (k, g) in games.iter().enumerate() {
            let rec = self
                .json_game(g)
                .map_err(|e| at(&format!("games[{k}]: {e}")))?;
            self.records.insert(rec.slot.index, rec);
        }
        Ok(Resumed {
            records: self.records,
            ..Resumed::default()
        })
    }
}

/// A text field of a JSON object.
fn field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// An engine as the JSON report lists it; `None` without its arguments
/// and options (a report from before they were written) or with anything
/// not text among them.
fn engine_entry(v: &Value) -> Option<EngineSpec> {
    let text = |v: &Value, k: &str| field(v, k).map(String::from);
    let args = v.get("args")?.as_arr()?;
    let options = v.get("options")?.as_arr()?;
    Some(EngineSpec {
        name: text(v, "name")?,
        cmd: text(v, "cmd")?,
        args: args
            .iter()
            .map(|a| a.as_str().map(String::from))
            .collect::<Option<_>>()?,
        options: options
            .iter()
            .map(|o| Some((text(o, "name")?, text(o, "value")?)))
            .collect::<Option<_>>()?,
    })
}

/// Takes the games back from the match's PGN, or without one its JSON,
/// played under the conditions `cond` (from `conditions::of`).
pub fn load(
    cfg: &MatchConfig,
    cond: &[Condition],
    sched: &Schedule,
    book: &[Opening],
) -> Result<Resumed, String> {
    let r = Resume {
        cfg,
        cond,
        sched,
        book,
        records: BTreeMap::new(),
    };
    match (&cfg.pgn, &cfg.json) {
        (Some(path), _) => r.read_pgn(path),
        (None, Some(path)) => r.read_json(path),
        (None, None) => Ok(Resumed::default()),
    }
}
