//! `janggun datagen`: self-play games (`crate::tools::selfplay`'s loop) at
//! a fixed node count a move, every searched position kept with its
//! search score, what the search saw there (`record::Flags`) and the
//! game's result as a training record (`crate::train::record`); which
//! positions a net learns from is the trainer's choice at load time
//! (`crate::train::load`), so a change of filter needs no new data.
//!
//! Two judgements shape the games. After the random plies, a verification
//! search drops openings that are already lost (random Janggi moves hang
//! chariots), so that the games are about play, not about a blunder before
//! the first searched move. And a game whose winner is plain (one side's
//! search score past a threshold for several plies running, seen by both
//! sides) is adjudicated as a win for that side rather than played out;
//! a game the rules did not end and nobody adjudicated is dropped rather
//! than given a guessed result. There is no draw adjudication.
//!
//! One game per thread; the games are numbered and each one's openings
//! come from (seed, number) alone, so one thread always writes the same
//! file for the same seed.

use super::chain::CHAIN_VERSION;
use super::datafile::{records_version, DataReader, DataWriter, DEFAULT_FORMAT};
use super::record::{
    record_size, Flags, Meta, Raw, Sample, DECIDED_SCORE, HEADER_SIZE, RECORD_SIZE, VERSION,
    VERSION_V1,
};
use super::resume::{self, ResumePoint};
use crate::board::{legal_captures, Color, MoveList, Outcome, Position, RuleSet};
use crate::nnue::NetChoice;
use crate::search::eval::COUNT_STAKE;
use crate::search::score::WIN_BOUND;
use crate::search::see::see_ge;
use crate::search::{Control, Engine, Limits, Score, SearchResult, Settings};
use crate::tools::selfplay::{self, setup_start, Referee, Stop};
use crate::util::file::{open_regular, read_line_capped};
use crate::util::outfile::Files;
use crate::util::rng::Rng;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Defaults of the command line's options, one place for both.
pub const DEFAULT_VERIFY_NODES: u64 = 5000;
pub const DEFAULT_VERIFY_LIMIT: i32 = 500;
pub const DEFAULT_ADJUDICATE_CP: i32 = 1000;
pub const DEFAULT_ADJUDICATE_PLIES: u32 = 4;

/// The lowest adjudication threshold: twice the count term's largest
/// contribution, so that at least half of any score past it comes from
/// material and the evaluation.
pub const MIN_ADJUDICATE_CP: i32 = 2 * COUNT_STAKE;

#[derive(Clone, Debug)]
pub struct DatagenConfig {
    pub threads: usize,
    pub nodes: u64,
    pub random_plies: usize,
    pub seed: u64,
    pub games: Option<u64>,
    pub positions: Option<u64>,
    pub out: PathBuf,
    /// FENs to start from instead of the 16 setups.
    pub openings: Option<PathBuf>,
    /// The engine settings the games are played with, the evaluation
    /// included (a net file it names is an input no output may be).
    pub settings: Settings,
    /// Print a progress line this often.
    pub progress: Duration,
    /// Nodes of the search that verifies a game's opening (0: none).
    pub verify_nodes: u64,
    /// Openings whose verification score is beyond this many centipawns
    /// either way (or decided) are dropped.
    pub verify_limit: i32,
    /// Adjudicate a game once one side's score is past this many
    /// centipawns (0: never).
    pub adjudicate_cp: i32,
    /// ... on this many searches of each side in a row.
    pub adjudicate_plies: u32,
    /// The data format version written: 3 (chained, a block a game), 2
    /// (the same records, fixed size) or 1 (the filters of version 1
    /// applied as it is written, no flags kept).
    pub version: u32,
    /// Keep a resume point beside the output and go on from it
    /// (`crate::train::resume`); one thread only.
    pub resume: bool,
}

impl DatagenConfig {
    /// The defaults of the command line, writing to `out`.
    pub fn new(out: PathBuf) -> DatagenConfig {
        DatagenConfig {
            threads: 1,
            nodes: 5000,
            random_plies: 8,
            seed: 1,
            games: None,
            positions: None,
            out,
            openings: None,
            settings: Settings::default(),
            progress: Duration::from_secs(10),
            verify_nodes: DEFAULT_VERIFY_NODES,
            verify_limit: DEFAULT_VERIFY_LIMIT,
            adjudicate_cp: DEFAULT_ADJUDICATE_CP,
            adjudicate_plies: DEFAULT_ADJUDICATE_PLIES,
            version: DEFAULT_FORMAT,
            resume: false,
        }
    }

    /// Every setting checked before any work, each error naming its option.
    pub fn validate(&self) -> Result<(), String> {
        crate::search::check_threads(self.threads).map_err(|e| format!("--{e}"))?;
        if self.nodes == 0 {
            return Err("--nodes must be at least 1".into());
        }
        if !(0..WIN_BOUND).contains(&self.verify_limit) {
            return Err(format!(
                "--verify-limit {} (must be 0 to {})",
                self.verify_limit,
                WIN_BOUND - 1
            ));
        }
        if self.adjudicate_cp != 0 && !(MIN_ADJUDICATE_CP..WIN_BOUND).contains(&self.adjudicate_cp)
        {
            return Err(format!(
                "--adjudicate-cp {} (must be 0 for never, or {MIN_ADJUDICATE_CP} to {}: \
                 below {MIN_ADJUDICATE_CP} the count term could be most of the score)",
                self.adjudicate_cp,
                WIN_BOUND - 1
            ));
        }
        if self.adjudicate_plies == 0 || self.adjudicate_plies > 1000 {
            return Err(format!(
                "--adjudicate-plies {} (must be 1 to 1000)",
                self.adjudicate_plies
            ));
        }
        if self.resume && self.threads != 1 {
            return Err(format!(
                "--resume needs --threads 1, not {}: with more threads games finish \
                 out of order and no prefix of the file is a run of whole games",
                self.threads
            ));
        }
        if records_version(self.version).is_none() {
            return Err(format!(
                "--format {} (must be {VERSION_V1}, {VERSION} or {CHAIN_VERSION})",
                self.version
            ));
        }
        Ok(())
    }

    /// Every setting that decides the games, for a resume point to be
    /// checked against (not the caps: they only say where a file ends).
    fn game_settings(&self, openings: usize) -> String {
        let eval = self.settings.eval.name();
        let openings = match &self.openings {
            Some(p) => format!("{} ({openings} FENs)", p.display()),
            None => "setups".to_string(),
        };
        format!(
            "janggun={} format={} seed={} nodes={} random_plies={} verify={}/{} \
             adjudicate={}/{} eval={eval} openings={openings}",
            env!("CARGO_PKG_VERSION"),
            self.version,
            self.seed,
            self.nodes,
            self.random_plies,
            self.verify_nodes,
            self.verify_limit,
            self.adjudicate_cp,
            self.adjudicate_plies,
        )
    }
}

/// Whether a game goes on from an opening whose verification search
/// scored `score` (side to move's view): only when it is an evaluation
/// within `limit` centipawns either way. A decided score is a game already
/// won or lost.
pub fn opening_playable(score: Score, limit: i32) -> bool {
    matches!(score, Score::Cp(v) if v.abs() <= limit)
}

/// Win adjudication: one side's search score past `threshold` on
/// `2 * plies` consecutive searched positions, that is `plies` searches of
/// each side, the side behind agreeing that it is behind.
///
/// What never adjudicates:
/// - A decided score (mate, or a win by the rules: the count at a bikjang,
///   a repetition or the move limit, perpetual check): the search sees the
///   game's end, so the rules end it within a few moves, and a rule ending
///   on the count may still be avoided by the side it would beat. Such a
///   score breaks the run.
/// - A score that comes mostly from the count term (what the count would
///   say as the move limit nears, which a side far ahead on the count but
///   not on the board can lose before the limit). That term adds at most
///   `COUNT_STAKE` (300) to any evaluation, and the threshold is at least
///   twice that (`MIN_ADJUDICATE_CP`, checked by `DatagenConfig::validate`),
///   so more than half of every score that counts here is material and the
///   evaluation.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    threshold: i32,
    plies: u32,
    /// The side ahead on the current run, and the run's length.
    leader: Option<Color>,
    run: u32,
}

impl Adjudicator {
    /// `threshold` 0: never adjudicates.
    pub fn new(threshold: i32, plies_per_side: u32) -> Adjudicator {
        Adjudicator {
            threshold,
            plies: plies_per_side,
            leader: None,
            run: 0,
        }
    }

    /// One searched position: the side to move and its search score. The
    /// winner once the run is long enough.
    pub fn update(&mut self, stm: Color, score: Score) -> Option<Color> {
        if self.threshold <= 0 {
            return None;
        }
        let ahead = match score {
            Score::Cp(v) if v >= self.threshold => Some(stm),
            Score::Cp(v) if v <= -self.threshold => Some(!stm),
            _ => None,
        };
        if ahead.is_some() && ahead == self.leader {
            self.run += 1;
        } else {
            self.leader = ahead;
            self.run = ahead.is_some() as u32;
        }
        if self.run >= 2 * self.plies {
            self.leader
        } else {
            None
        }
    }
}

/// The score a record stores, and whether it is decided: centipawns, or
/// `+/-(DECIDED_SCORE - plies to the end)` for a mate or a rule win.
pub fn stored_score(score: Score) -> (i16, bool) {
    match score {
        Score::Cp(v) => (v.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16, false),
        Score::Mate(n) => {
            let plies = if n > 0 { 2 * n - 1 } else { -2 * n }.clamp(0, 1000);
            let v = DECIDED_SCORE as i32 - plies;
            (if n > 0 { v } else { -v } as i16, true)
        }
    }
}

/// The flags and fields of a searched position.
pub fn meta_of(pos: &Position, r: &SearchResult) -> Meta {
    let mut flags = Flags::default();
    flags.set(Flags::IN_CHECK, pos.in_check());
    let capture = r
        .best
        .is_some_and(|m| !m.is_pass() && pos.piece_at(m.to()).is_some());
    flags.set(Flags::CAPTURE, capture);
    let mut caps = MoveList::new();
    legal_captures(pos, &mut caps);
    flags.set(
        Flags::WINNING_CAPTURE,
        caps.as_slice().iter().any(|&m| see_ge(pos, m, 0)),
    );
    flags.set(Flags::DECIDED, matches!(r.score, Score::Mate(_)));
    let ply = 2 * (pos.fullmove().max(1) - 1) + (pos.side_to_move() == Color::Han) as u32;
    Meta {
        flags,
        ply: ply.min(u16::MAX as u32) as u16,
        halfmove: pos.halfmove().min(u16::MAX as u32) as u16,
        best: r.best,
    }
}

/// How a game ended, for the counts of the progress line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ending {
    /// By the rules.
    Played,
    Adjudicated,
    /// The opening failed its verification.
    DroppedOpening,
    /// Too long, no move, or over within the random plies.
    Unfinished,
}

/// One finished game's records, in the order they were played.
struct Game {
    index: u64,
    records: Vec<Raw>,
    ending: Ending,
    effort: Effort,
}

/// What a game's searches cost and reached: the rate's price and the
/// labels' quality (a faster datagen must not buy its speed with depth).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Searches made for the game's moves (the opening check not counted).
    pub searches: u64,
    pub nodes: u64,
    /// The sum of the depths they completed.
    pub depths: u64,
}

impl Effort {
    fn add(&mut self, o: Effort) {
        self.searches += o.searches;
        self.nodes += o.nodes;
        self.depths += o.depths;
    }
}

/// Datagen's referee: verifies the opening, keeps every searched position
/// and adjudicates.
struct Keeper<'a> {
    opts: &'a DatagenConfig,
    kept: Vec<(Sample, Meta)>,
    adjudicator: Adjudicator,
    effort: Effort,
}

impl Referee for Keeper<'_> {
    fn opening(&mut self, engine: &mut Engine, pos: &Position) -> bool {
        if self.opts.verify_nodes == 0 {
            return true;
        }
        let limits = Limits {
            soft_nodes: Some(self.opts.verify_nodes),
            nodes: Some(self.opts.verify_nodes.saturating_mul(16)),
            ..Limits::default()
        };
        let r = engine.search(pos, &limits, &Control::new(), &mut |_| {});
        opening_playable(r.score, self.opts.verify_limit)
    }

    fn searched(&mut self, pos: &Position, r: &SearchResult) -> Option<Outcome> {
        self.effort.add(Effort {
            searches: 1,
            nodes: r.nodes,
            depths: r.depth as u64,
        });
        let (score, _) = stored_score(r.score);
        self.kept
            .push((Sample::from_position(pos, score, 1), meta_of(pos, r)));
        self.adjudicator
            .update(pos.side_to_move(), r.score)
            .map(Outcome::Win)
    }
}

/// Longest line of an openings file, in bytes (a FEN is about 80).
const MAX_OPENING_LINE: usize = 512;
/// Most FENs an openings file may hold.
const MAX_OPENINGS: usize = 1_000_000;

fn read_openings(path: &Path) -> Result<Vec<String>, String> {
    read_openings_capped(path, MAX_OPENING_LINE, MAX_OPENINGS)
}

/// The FENs of an openings file, read a line at a time: a regular file
/// only, no line longer than `max_line` bytes, at most `max_count` FENs.
fn read_openings_capped(
    path: &Path,
    max_line: usize,
    max_count: usize,
) -> Result<Vec<String>, String> {
    let name = path.display();
    let (file, _) = open_regular(path)?;
    let mut reader = BufReader::new(file);
    let mut fens = Vec::new();
    let mut n = 0;
    while let Some(line) =
        read_line_capped(&mut reader, max_line, n + 1).map_err(|e| format!("{name}: {e}"))?
    {
        n += 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if fens.len() == max_count {
            return Err(format!("{name}: more than {max_count} FENs"));
        }
        Position::from_fen(line, RuleSet::Janggi)
            .map_err(|e| format!("{name}:{n}: bad FEN: {e}"))?;
        fens.push(line.to_string());
    }
    if fens.is_empty() {
        return Err(format!("{}: no FEN in the file", path.display()));
    }
    Ok(fens)
}

/// Plays game number `index`; returns its records (none when the game was
/// dropped).
fn play(engine: &mut Engine, opts: &DatagenConfig, openings: &[String], index: u64) -> Game {
    let mut rng = Rng::stream(opts.seed, index);
    let fen = if openings.is_empty() {
        setup_start(index)
    } else {
        openings[rng.below(openings.len())].clone()
    };
    let dropped = |ending, effort| Game {
        index,
        records: Vec::new(),
        ending,
        effort,
    };
    let Ok(pos) = Position::from_fen(&fen, RuleSet::Janggi) else {
        return dropped(Ending::Unfinished, Effort::default());
    };
    let limits = Limits {
        soft_nodes: Some(opts.nodes),
        // A safety net for an iteration that explodes.
        nodes: Some(opts.nodes.saturating_mul(16)),
        ..Limits::default()
    };
    let mut keeper = Keeper {
        opts,
        kept: Vec::new(),
        adjudicator: Adjudicator::new(opts.adjudicate_cp, opts.adjudicate_plies),
        effort: Effort::default(),
    };
    let game = selfplay::play(
        engine,
        pos,
        opts.random_plies,
        &limits,
        &mut rng,
        &mut keeper,
    );
    let (outcome, ending) = match game.stop {
        Stop::Over(o) => (o, Ending::Played),
        Stop::Adjudicated(o) => (o, Ending::Adjudicated),
        Stop::Rejected => return dropped(Ending::DroppedOpening, keeper.effort),
        Stop::TooLong | Stop::NoMove => return dropped(Ending::Unfinished, keeper.effort),
    };
    if game.moves.len() <= opts.random_plies && ending == Ending::Played {
        return dropped(Ending::Unfinished, keeper.effort);
    }
    let effort = keeper.effort;
    let records = keeper
        .kept
        .into_iter()
        .filter_map(|(mut s, mut meta)| {
            s.result = match outcome {
                Outcome::Draw => 1,
                Outcome::Win(c) if c == s.stm => 2,
                Outcome::Win(_) => 0,
            };
            meta.flags
                .set(Flags::ADJUDICATED, ending == Ending::Adjudicated);
            if opts.version == VERSION_V1 {
                // Version 1 has no flags: what its trainer was never to
                // see is left out here, as it always was.
                let f = meta.flags;
                if f.has(Flags::IN_CHECK) || f.has(Flags::CAPTURE) || f.has(Flags::DECIDED) {
                    return None;
                }
            }
            s.encode_with(&meta)
        })
        .collect();
    Game {
        index,
        records,
        ending,
        effort,
    }
}

fn fmt_secs(s: f64) -> String {
    let s = s.max(0.0) as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

/// What a run did, for its last lines and for tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    /// Games played or dropped.
    pub games: u64,
    /// Records written.
    pub positions: u64,
    /// Games dropped by the opening's verification search.
    pub dropped_openings: u64,
    /// Games ended by adjudication.
    pub adjudicated: u64,
    /// Games dropped unfinished (too long, no move, over in the random
    /// plies).
    pub unfinished: u64,
    /// The searches of every game played, kept or dropped.
    pub effort: Effort,
}

/// Where a resumed run starts, checked against the file as it stands:
/// `None` for a new (or empty) file. The file must end where the point
/// says (after its `records`, or within the `writing` that may follow
/// them) and begin with the records the point was written after; anything
/// else is refused, never cut, since the records past a point that does
/// not describe the file are not a game cut off but someone's data.
fn check_point(
    opts: &DatagenConfig,
    point_path: &Path,
    settings: &str,
) -> Result<Option<ResumePoint>, String> {
    let out = &opts.out;
    let point = resume::read(point_path, settings)?;
    let len = std::fs::metadata(out).map_or(0, |m| m.len());
    let Some(point) = point else {
        if len > HEADER_SIZE as u64 {
            return Err(format!(
                "{} holds records but has no resume point ({}), so it cannot be \
                 continued exactly: write another file",
                out.display(),
                point_path.display()
            ));
        }
        return Ok(None);
    };
    let not_this = |held: u64| {
        format!(
            "{}: its resume point ({}) is after record {}, but the file holds \
             {held}: the point is not this file's (delete it to start again)",
            out.display(),
            point_path.display(),
            point.records
        )
    };
    if len == 0 {
        return if point.records == 0 {
            Ok(Some(point))
        } else {
            Err(not_this(0))
        };
    }
    let mut reader = DataReader::open(out)?;
    if reader.format() != opts.version {
        return Err(format!(
            "{} holds data format version {}, not {}: resume it with --format {}",
            out.display(),
            reader.format(),
            opts.version,
            reader.format()
        ));
    }
    // A version-1 point says nothing of a game being written: only a file
    // that ends at it is taken.
    let may_follow = if point.data.is_some() {
        point.writing
    } else {
        0
    };
    if reader.is_chained() {
        let held = check_chained_point(out, point_path, &point, may_follow, &mut reader)?;
        return match held {
            Some(held) => Err(not_this(held)),
            None => Ok(Some(point)),
        };
    }
    let size = record_size(reader.version()).unwrap_or(RECORD_SIZE) as u64;
    let body = len - HEADER_SIZE as u64;
    let held = reader.known_records().unwrap_or(0);
    if point.records > held {
        return Err(not_this(held));
    }
    let end = point
        .records
        .saturating_add(may_follow)
        .saturating_mul(size);
    if body > end && point.data.is_none() {
        return Err(format!(
            "{}: {} records follow its resume point ({}, after record {}), which an \
             earlier janggun wrote: that kind of point does not say whether they are a \
             game it was writing or records added since (a merge), so nothing was cut. \
             Resume with the build that began the file, or delete the point and write \
             another file",
            out.display(),
            held - point.records,
            point_path.display(),
            point.records
        ));
    }
    if body > end {
        let past = held - point.records;
        let says = if may_follow == 0 {
            "which says the file ends there".to_string()
        } else {
            format!("which allows {may_follow} of the game it was writing")
        };
        return Err(format!(
            "{}: {past} records follow its resume point ({}, after record {}), {says}: \
             they were added since (a merge, a copy taken while datagen ran) and resuming \
             would cut them off. Nothing was changed; to keep the file as it is, delete the \
             point (the file can then only be appended to without --resume), or write \
             another file",
            out.display(),
            point_path.display(),
            point.records
        ));
    }
    if let Some(want) = point.data {
        let mut h = resume::DATA_START;
        for _ in 0..point.records {
            let r = reader
                .next_record()?
                .ok_or_else(|| format!("{}: shrank while read", out.display()))?;
            h = resume::hash_more(h, &r[..size as usize]);
        }
        if h != want {
            return Err(not_after(out, point_path, point.records));
        }
    }
    Ok(Some(point))
}

fn not_after(out: &Path, point_path: &Path, records: u64) -> String {
    format!(
        "{}: its first {records} records are not those its resume point ({}) was written \
         after: the point is not this file's (delete it to start again)",
        out.display(),
        point_path.display()
    )
}

/// [`check_point`] for a chained file, read through: its first
/// `point.records` records must be those the point was written after and
/// end a block (a writer ends one after each game), and no more than
/// `may_follow` records follow them in whole blocks; a last block cut
/// short (a writer stopped inside it) may follow only where records may.
/// `Ok(Some(held))`: the file holds fewer records than the point says.
fn check_chained_point(
    out: &Path,
    point_path: &Path,
    point: &ResumePoint,
    may_follow: u64,
    reader: &mut DataReader,
) -> Result<Option<u64>, String> {
    let size = record_size(reader.version()).unwrap_or(RECORD_SIZE);
    let mut h = resume::DATA_START;
    while reader.records_read() < point.records {
        match reader.next_record()? {
            Some(r) => h = resume::hash_more(h, &r[..size]),
            None => return Ok(Some(reader.records_read())),
        }
    }
    if point.data.is_some_and(|want| want != h) {
        return Err(not_after(out, point_path, point.records));
    }
    if !reader.at_block_end() {
        return Err(format!(
            "{}: its resume point ({}) is after record {}, inside a block of the file \
             (a writer ends a block after each game): the point is not this file's \
             (delete it to start again)",
            out.display(),
            point_path.display(),
            point.records
        ));
    }
    let mut past = 0u64;
    while reader.next_record()?.is_some() {
        past += 1;
    }
    if past > may_follow || (may_follow == 0 && reader.tail() > 0) {
        let says = if may_follow == 0 {
            "which says the file ends there".to_string()
        } else {
            format!("which allows {may_follow} of the game it was writing")
        };
        let what = if past > 0 {
            format!("{past} records")
        } else {
            format!("{} bytes of a block", reader.tail())
        };
        return Err(format!(
            "{}: {what} follow its resume point ({}, after record {}), {says}: they were \
             added since (a merge, a copy taken while datagen ran) and resuming would cut \
             them off. Nothing was changed; to keep the file as it is, delete the point (the \
             file can then only be appended to without --resume), or write another file",
            out.display(),
            point_path.display(),
            point.records
        ));
    }
    Ok(None)
}

pub fn run(opts: &DatagenConfig) -> Result<DatagenSummary, String> {
    opts.validate()?;
    let point_path = resume::path_for(&opts.out);
    // No output may be an input, named another way or not: the openings
    // or the net replaced by data, or the point written over either.
    let mut files = Files::new();
    if let Some(p) = &opts.openings {
        files.input("--openings", p);
    }
    if let NetChoice::File(p) = opts.settings.eval.choice() {
        files.input("--nnue", p);
    }
    files
        .output("--out", &opts.out)
        .output("its resume point", &point_path);
    files.check()?;
    let openings = match &opts.openings {
        Some(p) => read_openings(p)?,
        None => Vec::new(),
    };
    let settings = opts.game_settings(openings.len());
    // Everything about a resume point is checked before the file is
    // touched, so that a refusal leaves it as it was.
    let point = if opts.resume {
        check_point(opts, &point_path, &settings)?
    } else {
        None
    };
    if !opts.resume {
        // Refused now, before the file is touched, rather than after.
        resume::check_removable(&point_path)?;
    }
    let mut writer = DataWriter::append(&opts.out, opts.version)?;
    if !opts.resume {
        // A plain run appends, which makes any point beside the file
        // untrue: it goes before the first record does.
        resume::remove(&point_path)?;
    }
    let start_count = writer.count();
    // Where this run starts: game `first_game`, after `base` records that
    // count towards the caps (a plain run appends, and its caps are its own).
    let mut cur = point.unwrap_or_else(ResumePoint::start);
    let (first_game, base) = (cur.next_game, cur.records);
    if opts.resume {
        if opts.positions.is_some_and(|p| start_count >= p)
            || opts.games.is_some_and(|g| first_game >= g)
        {
            eprintln!(
                "datagen: {} is complete ({start_count} records)",
                opts.out.display()
            );
            return Ok(DatagenSummary::default());
        }
        // Records after the point are the game the last run was writing
        // when it stopped (the point allows no more).
        writer.truncate(base)?;
        if start_count > base {
            eprintln!(
                "datagen: resuming {} at game {first_game}, after {base} records \
                 ({} more, of the game it was writing, cut off)",
                opts.out.display(),
                start_count - base
            );
        } else if start_count > 0 {
            eprintln!(
                "datagen: resuming {} at game {first_game}, after {base} records",
                opts.out.display()
            );
        }
        cur.writing = 0;
        if cur.data.is_none() {
            // A version-1 point: the file was checked to end at it.
            let mut r = DataReader::open(&opts.out)?;
            let size = record_size(r.version()).unwrap_or(RECORD_SIZE);
            let mut h = resume::DATA_START;
            while let Some(rec) = r.next_record()? {
                h = resume::hash_more(h, &rec[..size]);
            }
            cur.data = Some(h);
        }
        resume::write(&point_path, &settings, cur)?;
    }
    let next_game = AtomicU64::new(first_game);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Game>();
    let start = Instant::now();
    let mut sum = DatagenSummary::default();
    let result = std::thread::scope(|s| {
        for _ in 0..opts.threads {
            let tx = tx.clone();
            let (next_game, stop, openings) = (&next_game, &stop, &openings);
            s.spawn(move || {
                let settings = Settings {
                    threads: 1,
                    ..opts.settings.clone()
                };
                let mut engine = Engine::new(settings);
                while !stop.load(Ordering::Relaxed) {
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if opts.games.is_some_and(|g| index >= g) {
                        break;
                    }
                    let game = play(&mut engine, opts, openings, index);
                    if tx.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut last_progress = Instant::now();
        let mut last_sync = Instant::now();
        let mut outcome = Ok(());
        for game in rx.iter() {
            if outcome.is_err() || stop.load(Ordering::Relaxed) {
                continue;
            }
            sum.games += 1;
            sum.effort.add(game.effort);
            match game.ending {
                Ending::Played => {}
                Ending::Adjudicated => sum.adjudicated += 1,
                Ending::DroppedOpening => sum.dropped_openings += 1,
                Ending::Unfinished => sum.unfinished += 1,
            }
            let room = opts
                .positions
                .map_or(u64::MAX, |p| p.saturating_sub(base + sum.positions));
            let take = game
                .records
                .len()
                .min(room.try_into().unwrap_or(usize::MAX));
            if opts.resume && take > 0 {
                // Said before the records go down: a run stopped halfway
                // through them leaves no more than this past the point.
                cur.writing = take as u64;
                outcome = resume::write(&point_path, &settings, cur);
            }
            let size = records_version(opts.version)
                .and_then(record_size)
                .unwrap_or(RECORD_SIZE);
            let mut data = cur.data.unwrap_or(resume::DATA_START);
            if outcome.is_ok() && take > 0 {
                for r in &game.records[..take] {
                    if let Err(e) = writer.write(r) {
                        outcome = Err(e);
                        break;
                    }
                    data = resume::hash_more(data, &r[..size]);
                    sum.positions += 1;
                }
                // A chained file's game is one block: a run stopped before
                // it is whole leaves none of it.
                if let Err(e) = outcome.as_ref().map_or(Ok(()), |_| writer.end_game()) {
                    sum.positions -= take as u64;
                    outcome = Err(e);
                }
            }
            // A game the cap cut short is left to a later, longer run: the
            // point stays before it, its records allowed to follow.
            if opts.resume && outcome.is_ok() && take == game.records.len() {
                cur = ResumePoint {
                    next_game: game.index + 1,
                    records: writer.count(),
                    writing: 0,
                    data: Some(data),
                };
                outcome = resume::write(&point_path, &settings, cur);
            }
            let done = opts.positions.is_some_and(|p| base + sum.positions >= p)
                || opts.games.is_some_and(|g| first_game + sum.games >= g);
            if done || outcome.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
            if last_sync.elapsed() >= Duration::from_secs(10) {
                if let Err(e) = writer.sync_count() {
                    outcome = Err(e);
                    stop.store(true, Ordering::Relaxed);
                }
                last_sync = Instant::now();
            }
            if last_progress.elapsed() >= opts.progress {
                progress(opts, start, &sum, (first_game, base));
                last_progress = Instant::now();
            }
        }
        outcome
    });
    writer.sync_count()?;
    result?;
    progress(opts, start, &sum, (first_game, base));
    eprintln!(
        "datagen: wrote {} positions (format version {}) from {} games to {} ({} records in the file)",
        sum.positions,
        opts.version,
        sum.games,
        opts.out.display(),
        writer.count()
    );
    Ok(sum)
}

/// A progress line; `(first_game, base)`: where a resumed run began, the
/// caps counting from the file's start.
fn progress(
    opts: &DatagenConfig,
    start: Instant,
    sum: &DatagenSummary,
    (first_game, base): (u64, u64),
) {
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let pps = sum.positions as f64 / secs;
    let gps = sum.games as f64 / secs;
    let left = match (opts.positions, opts.games) {
        (Some(p), _) if pps > 0.0 => fmt_secs(p.saturating_sub(base + sum.positions) as f64 / pps),
        (None, Some(g)) if gps > 0.0 => {
            fmt_secs(g.saturating_sub(first_game + sum.games) as f64 / gps)
        }
        (None, None) => "no limit".to_string(),
        _ => "?".to_string(),
    };
    let pct = |n: u64| 100.0 * n as f64 / sum.games.max(1) as f64;
    let e = &sum.effort;
    let per_search = |n: u64| n as f64 / e.searches.max(1) as f64;
    eprintln!(
        "games {} (openings dropped {} = {:.1}%, adjudicated {} = {:.1}%, unfinished {}), \
         positions {}, {pps:.1} positions/s, {gps:.2} games/s, elapsed {}, time left {left}, \
         searches {} ({:.0} nodes, depth {:.2} each)",
        sum.games,
        sum.dropped_openings,
        pct(sum.dropped_openings),
        sum.adjudicated,
        pct(sum.adjudicated),
        sum.unfinished,
        sum.positions,
        fmt_secs(secs),
        e.searches,
        per_search(e.nodes),
        per_search(e.depths)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_move, Notation};

    #[test]
    fn adjudication_needs_a_run_of_both_sides_past_the_threshold() {
        let (cho, han) = (Color::Cho, Color::Han);
        let mut a = Adjudicator::new(1000, 2);
        // Cho ahead, seen by both sides, on four plies in a row.
        assert_eq!(a.update(cho, Score::Cp(1200)), None);
        assert_eq!(a.update(han, Score::Cp(-1100)), None);
        assert_eq!(a.update(cho, Score::Cp(1000)), None);
        assert_eq!(a.update(han, Score::Cp(-1500)), Some(cho));
        // One ply short of the threshold starts the run again.
        let mut a = Adjudicator::new(1000, 2);
        for (stm, v) in [(han, 1300), (cho, -1300), (han, 999), (cho, -1300)] {
            assert_eq!(a.update(stm, Score::Cp(v)), None);
        }
        for (stm, v) in [(han, 1300), (cho, -1300)] {
            assert_eq!(a.update(stm, Score::Cp(v)), None);
        }
        assert_eq!(a.update(han, Score::Cp(2000)), Some(han));
        // The side said to be behind thinking itself ahead breaks the run.
        let mut a = Adjudicator::new(1000, 2);
        for (stm, v) in [(cho, 1500), (han, 1500), (cho, 1500), (han, -1500)] {
            assert_eq!(a.update(stm, Score::Cp(v)), None);
        }
        // Decided scores (mates and rule wins alike) never adjudicate and
        // break a run.
        let mut a = Adjudicator::new(1000, 2);
        for _ in 0..10 {
            assert_eq!(a.update(cho, Score::Mate(3)), None);
            assert_eq!(a.update(han, Score::Mate(-3)), None);
        }
        for (stm, v) in [(cho, 1500), (han, -1500), (cho, 1500)] {
            assert_eq!(a.update(stm, Score::Cp(v)), None);
        }
        assert_eq!(a.update(han, Score::Mate(-2)), None);
        assert_eq!(a.update(cho, Score::Cp(1500)), None);
        // Threshold 0: never.
        let mut a = Adjudicator::new(0, 1);
        for _ in 0..10 {
            assert_eq!(a.update(cho, Score::Cp(5000)), None);
        }
    }

    #[test]
    fn adjudication_threshold_leaves_the_count_term_a_minority() {
        let mut c = DatagenConfig::new(PathBuf::from("x.bin"));
        assert!(c.validate().is_ok());
        for bad in [1, 2 * COUNT_STAKE - 1, WIN_BOUND] {
            c.adjudicate_cp = bad;
            let e = c.validate().unwrap_err();
            assert!(e.contains("--adjudicate-cp") && e.contains("count"), "{e}");
        }
        for good in [0, 2 * COUNT_STAKE, 1000] {
            c.adjudicate_cp = good;
            assert!(c.validate().is_ok());
        }
        c.adjudicate_plies = 0;
        assert!(c.validate().unwrap_err().contains("--adjudicate-plies"));
        c.adjudicate_plies = 4;
        c.verify_limit = -1;
        assert!(c.validate().unwrap_err().contains("--verify-limit"));
        c.verify_limit = 500;
        c.version = 4;
        assert!(c.validate().unwrap_err().contains("--format"));
    }

    #[test]
    fn openings_past_the_limit_or_decided_are_dropped() {
        assert!(opening_playable(Score::Cp(0), 500));
        assert!(opening_playable(Score::Cp(500), 500));
        assert!(opening_playable(Score::Cp(-500), 500));
        assert!(!opening_playable(Score::Cp(501), 500));
        assert!(!opening_playable(Score::Cp(-501), 500));
        assert!(!opening_playable(Score::Mate(4), 500));
        assert!(!opening_playable(Score::Mate(-1), 500));
    }

    #[test]
    fn decided_scores_are_stored_beyond_any_evaluation() {
        assert_eq!(stored_score(Score::Cp(-123)), (-123, false));
        assert_eq!(stored_score(Score::Mate(1)), (19999, true));
        assert_eq!(stored_score(Score::Mate(3)), (19995, true));
        assert_eq!(stored_score(Score::Mate(-2)), (-19996, true));
        assert_eq!(stored_score(Score::Mate(0)), (-20000, true));
        assert!(stored_score(Score::Mate(200)).0 as i32 > WIN_BOUND / 2);
    }

    fn result(pos: &Position, best: &str, score: Score) -> SearchResult {
        SearchResult {
            best: Some(parse_move(pos, best, Notation::Uci).unwrap()),
            ponder: None,
            score,
            nodes: 1,
            depth: 1,
        }
    }

    #[test]
    fn flags_say_what_the_search_saw() {
        // An undefended soldier the chariot can take.
        let fen = "3k5/9/9/9/p8/9/9/9/9/R3K4 w - - 3 10";
        let pos = Position::from_fen(fen, RuleSet::Janggi).unwrap();
        let m = meta_of(&pos, &result(&pos, "a1a6", Score::Cp(150)));
        assert_eq!(m.flags, Flags(Flags::CAPTURE | Flags::WINNING_CAPTURE));
        assert_eq!((m.ply, m.halfmove), (18, 3));
        assert_eq!(m.best.unwrap().to_string(), "a1a6");
        let m = meta_of(&pos, &result(&pos, "e1f1", Score::Mate(2)));
        assert_eq!(m.flags, Flags(Flags::WINNING_CAPTURE | Flags::DECIDED));
        // Defended by a chariot: taking loses material.
        let fen = "r2k5/9/9/9/p8/9/9/9/9/R3K4 w - - 0 1";
        let pos = Position::from_fen(fen, RuleSet::Janggi).unwrap();
        let m = meta_of(&pos, &result(&pos, "e1f1", Score::Cp(0)));
        assert_eq!(m.flags, Flags(0));
        assert_eq!(m.ply, 0);
        // Han to move, in check from the chariot on its file.
        let fen = "3k5/9/9/9/9/9/9/9/9/3R1K3 b - - 0 12";
        let pos = Position::from_fen(fen, RuleSet::Janggi).unwrap();
        let m = meta_of(&pos, &result(&pos, "d10e10", Score::Cp(-300)));
        assert_eq!(m.flags, Flags(Flags::IN_CHECK));
        assert_eq!(m.ply, 23);
    }

    #[test]
    fn openings_are_capped_in_count_and_line_length() {
        let dir = std::env::temp_dir().join(format!("janggun-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.txt");
        let fen = crate::board::START_FEN;
        std::fs::write(&path, format!("# a book\n{fen}\n\n{fen}\r\n{fen}")).unwrap();
        assert_eq!(read_openings_capped(&path, 512, 3).unwrap().len(), 3);
        let err = read_openings_capped(&path, 512, 2).unwrap_err();
        assert!(err.contains("more than 2 FENs"), "{err}");
        let err = read_openings_capped(&path, 40, 3).unwrap_err();
        assert!(err.contains("line 2 is longer than 40 bytes"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
