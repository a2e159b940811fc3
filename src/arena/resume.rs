//! `--resume`: takes the finished games of an interrupted match back from
//! its PGN (or, without one, its JSON). Nothing is taken on trust: each
//! game must be one this match schedules, from the opening it deals that
//! pair, with moves the rules core accepts and an end they can have had.
//! Nor is a game played under other conditions (limits, openings,
//! adjudication, engines: see `conditions`) than this match's. A PGN cut
//! inside its last game (all an interruption can do to it) loses that
//! game; anything else unreadable refuses the resume.

use super::conditions::{self, Condition};
use super::config::MatchConfig;
use super::end::{self, Allowed, EndKind};
use super::fen;
use super::openings::{self, Opening};
use super::record::{MoveStat, Record, Schedule};
use super::report::{self, EngineEntry, GameEntry};
use super::resume_pgn::{self, WrittenGame};
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
    stats: Vec<MoveStat>,
}

fn outcome_of(result: &str) -> Result<Outcome, String> {
    match result {
        "1-0" => Ok(Outcome::Win(Color::Cho)),
        "0-1" => Ok(Outcome::Win(Color::Han)),
        "1/2-1/2" => Ok(Outcome::Draw),
        other => Err(format!("unfinished game (result '{other}')")),
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
        let opening = openings::for_match(self.book, cfg, slot.pair);
        let same_root =
            fen::read_fen(&opening.fen, cfg.rules).is_ok_and(|p| p.to_fen() == c.root.to_fen());
        if !same_root || !c.moves.starts_with(&opening.moves) {
            return Err(format!(
                "game {n} does not start from the opening this match deals it \
                 (other --openings, --seed or --random-plies?)"
            ));
        }
        let allowed = Allowed {
            max_plies: Some(cfg.max_plies),
            draw_adjudication: Some(cfg.adjudicate_draw.is_some()),
            resign_adjudication: Some(cfg.adjudicate_resign.is_some()),
        };
        end::check_game(
            &c.root,
            &c.moves,
            opening.moves.len(),
            kind,
            outcome,
            &allowed,
        )
        .map_err(|e| format!("game {n}: {e}"))?;
        // Times and depths belong to the moves after the opening; a list of
        // another length is not this game's.
        let engine_plies = c.moves.len() - opening.moves.len();
        let stats = if c.stats.len() == engine_plies {
            c.stats
        } else {
            Vec::new()
        };
        Ok(Record {
            slot,
            fen: opening.fen,
            book_plies: opening.moves.len(),
            stats,
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
        let root = fen::read_fen(tag("FEN")?, self.cfg.rules)?;
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
            stats: Vec::new(),
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
        // None: the match was interrupted before its first game was written.
        let bytes = resume_pgn::read(path)?.unwrap_or_default();
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

    fn json_game(&self, g: &GameEntry) -> Result<Record, String> {
        let root = fen::read_fen(&g.fen, self.cfg.rules)?;
        let mut pos = root.clone();
        let mut moves = Vec::new();
        for (k, t) in g.moves.split_whitespace().enumerate() {
            let m =
                parse_move(&pos, t, Notation::Uci).map_err(|e| format!("ply {}: {e}", k + 1))?;
            pos.make(m);
            moves.push(m);
        }
        if g.plies != moves.len() as u64 {
            return Err(format!("\"plies\" is not its {} moves", moves.len()));
        }
        if g.time_ms.len() != g.depth.len() {
            return Err("\"time_ms\" and \"depth\" differ in length".into());
        }
        let stats = g
            .time_ms
            .iter()
            .zip(&g.depth)
            .map(|(&ms, &depth)| MoveStat { ms, depth })
            .collect();
        self.believe(Claim {
            number: usize::try_from(g.game).map_err(|_| "\"game\" is out of range")?,
            cho: &g.cho,
            han: &g.han,
            result: &g.result,
            end: &g.end,
            detail: &g.detail,
            root,
            moves,
            stats,
        })
    }

    fn read_json(mut self, path: &Path) -> Result<Resumed, String> {
        let at = |e: &str| format!("{}: {e}", path.display());
        // The report is written whole (aside, then renamed), so unlike the
        // PGN it is never cut: it is there and whole, or not there yet.
        let Some(v) = report::read(path)? else {
            return Ok(Resumed::default());
        };
        let no_field = |c: &Condition| format!("no \"{}\"", c.key);
        conditions::check(self.cond, |c| v.condition(c.key), no_field).map_err(|e| at(&e))?;
        // The report lists its engines once, for all games: each one this
        // match has must be the same engine (its games are checked against
        // the schedule by name).
        for e in &self.cfg.engines {
            let Some(entry) = v.engines.iter().find(|x| x.name == e.name) else {
                continue;
            };
            let was = engine_line(entry);
            let expected = [conditions::engine("", e)];
            let missing = |_: &Condition| format!("engine {}: no \"args\" or \"options\"", e.name);
            conditions::check(&expected, |_| was.as_deref(), missing).map_err(|e| at(&e))?;
        }
        for (k, g) in v.games.iter().enumerate() {
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

/// The `--engine` line of an engine as the JSON report lists it (see
/// `conditions::engine_line`); `None` without its arguments and options
/// (a report from before they were written).
pub fn engine_line(v: &EngineEntry) -> Option<String> {
    let options: Vec<(String, String)> = v
        .options
        .as_ref()?
        .iter()
        .map(|o| (o.name.clone(), o.value.clone()))
        .collect();
    let limits: Vec<String> = v
        .limits
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect();
    Some(conditions::line_of(
        &v.cmd,
        &limits,
        v.args.as_ref()?,
        &options,
    ))
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
