//! `janggun match merge OUT.json IN.json...`: the shards of one match,
//! played apart (other seeds or opening offsets, other machines), made one
//! report. Nothing is summed on trust: each shard's totals are recounted
//! from its games and must be what it says, and the merged statistics are
//! computed from all the game pairs by the runner's own code, so they are
//! what one run with those pairs reports.

use super::cli::{self, SprtSpec};
use super::conditions::{self, OPENING_OFFSET, SEED};
use super::end::{self, Allowed, EndKind};
use super::fen;
use super::groups::{GroupIds, Grouped};
use super::out;
use super::output::{self, SprtReport};
use super::record::{self, Record, Slot, Totals};
use super::report::{self, GameEntry, MatchReport, ShardEntry};
use super::resume;
use super::resume_pgn;
use crate::board::{
    from_san, move_to_string, parse_move, Color, Move, Notation, Outcome, Position, RuleSet,
};
use crate::util::file::file_id;
use crate::util::outfile::{check_existing, write_whole, Existing, Files};
use clap::ArgAction;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

// `janggun match merge OUT.json IN.json... [--pgn OUT.pgn]`.
#[derive(clap::Args, Debug)]
#[command(args_override_self = true)]
pub struct MergeArgs {
    /// The merged report written (it may replace a merged report, nothing else).
    #[arg(value_name = "OUT.json")]
    pub out: Option<PathBuf>,
    /// The shards' JSON reports (or reports merged before), each finished.
    #[arg(value_name = "IN.json")]
    pub inputs: Vec<PathBuf>,
    /// Also join the PGN beside each input (IN.pgn) into this file.
    #[arg(long, value_name = "OUT.pgn", action = ArgAction::Append)]
    pub pgn: Vec<PathBuf>,
    #[command(flatten)]
    pub common: CommonArgs,
}

/// What `merge` and `report` both take, `--sprt` by occurrence.
pub type CommonArgs = Grouped<CommonFlags>;

// What `merge` and `report` both take.
#[derive(clap::Args, Debug)]
pub struct CommonFlags {
    /// The SPRT of the merge: elo0=E0 elo1=E1 alpha=A beta=B (the shards' own when they ran one).
    #[arg(long, value_name = "KEY=VALUE", num_args = 0.., action = ArgAction::Append)]
    pub sprt: Vec<String>,
    /// Only the table (and SPRT line), no summary line.
    #[arg(long)]
    pub quiet: bool,
}

impl GroupIds for CommonFlags {
    const GROUPS: &'static [&'static str] = &["sprt"];
}

impl CommonArgs {
    /// `--sprt`, given at most once: two tests, one of them silently
    /// dropped, is no test.
    pub fn sprt(&self) -> Result<Option<SprtSpec>, String> {
        match self.groups("sprt") {
            [] => Ok(None),
            [one] => cli::parse_sprt(&cli::pairs(one)).map(Some),
            _ => Err("--sprt given twice: give it once".into()),
        }
    }
}

/// One input: a shard, or a report merged before.
struct Input {
    path: PathBuf,
    report: MatchReport,
    /// (seed, opening offset) of each shard it holds.
    keys: Vec<(String, String)>,
}

/// The shards made one.
pub struct Merged {
    pub report: MatchReport,
    pub totals: Totals,
    pub names: Vec<String>,
    pub sprt: Option<(SprtSpec, SprtReport)>,
    /// The inputs in the order their games were taken (seed order), with
    /// their reports.
    pub files: Vec<(PathBuf, MatchReport)>,
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

/// Numbers sort as numbers, so that seed 10 comes after seed 9.
fn sort_key(k: &(String, String)) -> (u64, String, u64, String) {
    let n = |s: &str| s.parse::<u64>().unwrap_or(u64::MAX);
    (n(&k.0), k.0.clone(), n(&k.1), k.1.clone())
}

fn keys_of(r: &MatchReport) -> Vec<(String, String)> {
    match &r.shards {
        Some(list) => list
            .iter()
            .map(|s| (s.seed.clone(), s.opening_offset.clone()))
            .collect(),
        None => vec![(
            r.condition(SEED).unwrap_or("").to_string(),
            r.condition(OPENING_OFFSET)
                .or(conditions::implied(OPENING_OFFSET))
                .unwrap_or("")
                .to_string(),
        )],
    }
}

/// Reads one input; `whole`: it must be a finished shard.
fn read_input(path: &Path, whole: bool) -> Result<Input, String> {
    let report = report::read(path)?.ok_or_else(|| format!("{}: no such file", shown(path)))?;
    let at = |e: String| format!("{}: {e}", shown(path));
    let r = &report;
    if r.interrupted && whole {
        return Err(at(format!(
            "interrupted after {} of {} games: finish it with --resume, or leave it out",
            r.games_played, r.games_planned
        )));
    }
    if r.games_played > r.games_planned {
        return Err(at(format!(
            "{} games played of {} planned",
            r.games_played, r.games_planned
        )));
    }
    if r.games.len() as u64 != r.games_played {
        return Err(at(format!(
            "\"games_played\" is {} but {} games are listed",
            r.games_played,
            r.games.len()
        )));
    }
    if let Some(s) = &r.sprt {
        // Where the test stands decides whether a short shard is whole:
        // it is recounted, not believed (the pentanomial is checked
        // against the games later).
        if r.engines.len() != 2 {
            return Err(at(format!(
                "an SPRT between {} engines (it needs two)",
                r.engines.len()
            )));
        }
        let now = output::sprt_report(&s.spec(), &r.engines[0].pentanomial);
        if now.state != s.state {
            return Err(at(format!(
                "the SPRT says '{}', but its pentanomial gives '{}'",
                crate::util::text::clip(&s.state),
                now.state
            )));
        }
    }
    let decided = r.sprt.as_ref().is_some_and(|s| s.state != "continue");
    if r.games_played < r.games_planned && !decided && whole {
        return Err(at(format!(
            "{} of {} games played and no SPRT decision: an unfinished shard",
            r.games_played, r.games_planned
        )));
    }
    if r.condition(SEED).is_none() {
        return Err(at("no \"seed\": written by an older janggun match".into()));
    }
    let keys = keys_of(r);
    Ok(Input {
        path: path.to_path_buf(),
        report,
        keys,
    })
}

/// The inputs must be shards of one match: the same conditions but for
/// the seed and opening offset, and the same engines.
fn check_same_match(first: &Input, other: &Input) -> Result<(), String> {
    let (a, b) = (&first.report, &other.report);
    let at = |e: String| format!("{}: {e}", shown(&other.path));
    let keys: Vec<&String> = {
        let mut k: Vec<&String> = a.conditions.0 .0.iter().map(|(k, _)| k).collect();
        for (key, _) in &b.conditions.0 .0 {
            if !k.contains(&key) {
                k.push(key);
            }
        }
        k
    };
    for key in keys {
        if key == SEED || key == OPENING_OFFSET {
            continue;
        }
        let value = |r: &MatchReport| {
            r.condition(key)
                .or(conditions::implied(key))
                .map(String::from)
        };
        let (va, vb) = (value(a), value(b));
        if va != vb {
            let v = |x: Option<String>| x.unwrap_or_else(|| "missing".into());
            return Err(at(format!(
                "\"{key}\" is {}, but {} in {}: not shards of one match",
                v(vb),
                v(va),
                shown(&first.path)
            )));
        }
    }
    if a.engines.len() != b.engines.len() {
        return Err(at(format!(
            "{} engines, but {} in {}",
            b.engines.len(),
            a.engines.len(),
            shown(&first.path)
        )));
    }
    for (ea, eb) in a.engines.iter().zip(&b.engines) {
        let line = |e: &report::EngineEntry| {
            resume::engine_line(e).unwrap_or_else(|| format!("cmd={}", e.cmd))
        };
        let (la, lb) = (line(ea), line(eb));
        if ea.name != eb.name || la != lb {
            return Err(at(format!(
                "engine {} is {lb}, but {} in {} is {la}",
                eb.name,
                ea.name,
                shown(&first.path)
            )));
        }
    }
    Ok(())
}

/// The SPRT an input records, held to `--sprt`'s rule: a shard's is its
/// `sprt_test` (its `sprt` says where that test stands), a merged
/// report's the `sprt` it was merged under.
fn recorded_sprt(r: &MatchReport) -> Result<Option<SprtSpec>, String> {
    let own = r.sprt.as_ref().map(|s| s.spec());
    if let Some(s) = &own {
        s.check().map_err(|e| format!("its sprt: {e}"))?;
    }
    let test = match r.condition("sprt_test") {
        None | Some("none") => None,
        Some(text) => {
            let words: Vec<String> = text.split_whitespace().map(String::from).collect();
            let pairs = cli::pairs(&words);
            Some(cli::parse_sprt(&pairs).map_err(|e| format!("its sprt_test: {e}"))?)
        }
    };
    match (test, own) {
        (Some(t), Some(o)) if t != o => Err(format!(
            "its sprt ({}) is not its sprt_test ({})",
            fmt_sprt(&o),
            fmt_sprt(&t)
        )),
        (None, Some(o)) if r.shards.is_none() => Err(format!(
            "an sprt ({}) but no sprt_test: a match's report records the test it ran",
            fmt_sprt(&o)
        )),
        (t, o) => Ok(t.or(o)),
    }
}

/// The SPRT of the merge: the inputs' own, which must agree, or the one
/// given, which must then agree with theirs.
fn sprt_of(inputs: &[Input], given: Option<SprtSpec>) -> Result<Option<SprtSpec>, String> {
    let mut recorded: Option<(SprtSpec, &Path)> = None;
    for i in inputs {
        let Some(s) = recorded_sprt(&i.report).map_err(|e| format!("{}: {e}", shown(&i.path)))?
        else {
            continue;
        };
        match recorded {
            Some((r, p)) if r != s => {
                return Err(format!(
                    "{}: SPRT {}, but {} in {}",
                    shown(&i.path),
                    fmt_sprt(&s),
                    fmt_sprt(&r),
                    shown(p)
                ))
            }
            Some(_) => {}
            None => recorded = Some((s, &i.path)),
        }
    }
    match (recorded.map(|(r, _)| r), given) {
        (Some(r), Some(g)) if r != g => Err(format!(
            "--sprt {} differs from the shards' own SPRT ({})",
            fmt_sprt(&g),
            fmt_sprt(&r)
        )),
        (r, g) => Ok(r.or(g)),
    }
}

fn fmt_sprt(s: &SprtSpec) -> String {
    format!(
        "elo0={} elo1={} alpha={} beta={}",
        s.elo0, s.elo1, s.alpha, s.beta
    )
}

fn outcome(result: &str) -> Result<Outcome, String> {
    match result {
        "1-0" => Ok(Outcome::Win(Color::Cho)),
        "0-1" => Ok(Outcome::Win(Color::Han)),
        "1/2-1/2" => Ok(Outcome::Draw),
        other => Err(format!("result '{}'", clip(other))),
    }
}

/// How the games of a report were played, from its conditions: the rule
/// set they are replayed under and what the match allowed of their ends.
struct Play {
    rules: RuleSet,
    allowed: Allowed,
}

fn play_of(r: &MatchReport) -> Result<Play, String> {
    let rules = r
        .condition("rules")
        .ok_or("no \"rules\"")?
        .parse()
        .map_err(|e| format!("\"rules\": {e}"))?;
    let max_plies = match r.condition("max_plies") {
        None => None,
        Some(v) => Some(v.parse::<usize>().map_err(|_| {
            format!(
                "\"max_plies\" '{}' is not a number of plies",
                crate::util::text::clip(v)
            )
        })?),
    };
    let given = |k: &str| r.condition(k).map(|v| v != "none");
    Ok(Play {
        rules,
        allowed: Allowed {
            max_plies,
            draw_adjudication: given("adjudicate_draw"),
            resign_adjudication: given("adjudicate_resign"),
        },
    })
}

/// A game of the report as a record the totals can count, at `index` of
/// the merged match, once replayed through the rules core: every move
/// legal, and the end and result ones the runner can have recorded.
fn record_of(g: &GameEntry, index: usize, names: &[String], play: &Play) -> Result<Record, String> {
    let engine = |n: &str| {
        names
            .iter()
            .position(|x| x == n)
            .ok_or_else(|| format!("engine '{}' is not among the report's engines", clip(n)))
    };
    let (cho, han) = (engine(&g.cho)?, engine(&g.han)?);
    if cho == han {
        return Err(format!("engine '{}' plays both sides", clip(&g.cho)));
    }
    let kind =
        EndKind::from_name(&g.end).ok_or_else(|| format!("unknown end '{}'", clip(&g.end)))?;
    if g.termination != kind.termination() {
        return Err(format!(
            "termination '{}' is not that of a {} ('{}')",
            clip(&g.termination),
            kind.name(),
            kind.termination()
        ));
    }
    let outcome = outcome(&g.result)?;
    let root = fen::read_fen(&g.fen, play.rules)?;
    let mut pos = root.clone();
    let mut moves = Vec::new();
    for (k, t) in g.moves.split_whitespace().enumerate() {
        let m = parse_move(&pos, t, Notation::Uci).map_err(|e| format!("ply {}: {e}", k + 1))?;
        pos.make(m);
        moves.push(m);
    }
    if g.plies != moves.len() as u64 {
        return Err(format!(
            "\"plies\" is {}, but it has {} moves",
            g.plies,
            moves.len()
        ));
    }
    let book_plies = match g.book_plies {
        Some(b) => usize::try_from(b)
            .ok()
            .filter(|&b| b <= moves.len())
            .ok_or_else(|| format!("\"book_plies\" {b} is more than its {} moves", moves.len()))?,
        None => 0,
    };
    let engine_plies = moves.len() - book_plies;
    if g.time_ms.len() != g.depth.len()
        || !(g.time_ms.is_empty() || g.time_ms.len() == engine_plies)
    {
        return Err(format!(
            "{} times and {} depths for {engine_plies} moves of engines",
            g.time_ms.len(),
            g.depth.len()
        ));
    }
    end::check_game(&root, &moves, book_plies, kind, outcome, &play.allowed)?;
    Ok(Record {
        slot: Slot {
            index,
            pairing: g.pairing as usize,
            pair: index / 2,
            cho,
            han,
        },
        fen: g.fen.clone(),
        moves,
        book_plies,
        stats: Vec::new(),
        outcome,
        kind,
        detail: g.detail.clone(),
    })
}

fn clip(s: &str) -> String {
    crate::util::text::clip(s)
}

/// Games `2k` and `2k + 1` are a pair: one opening played by the same two
/// engines with colours reversed (the pentanomial counts them as one).
fn check_pair(a: &Record, b: &Record) -> Result<(), String> {
    if (a.slot.cho, a.slot.han) != (b.slot.han, b.slot.cho) {
        return Err("a pair, but not the same engines with colours reversed".into());
    }
    if a.fen != b.fen
        || a.book_plies != b.book_plies
        || a.moves[..a.book_plies] != b.moves[..b.book_plies]
    {
        return Err("a pair, but not from the same opening".into());
    }
    Ok(())
}

/// Each shard's totals, recounted from its games, must be the ones it
/// states: a file edited or damaged in between is not merged.
fn check_totals(input: &Input, t: &Totals) -> Result<(), String> {
    let r = &input.report;
    let at = |e: String| format!("{}: {e}", shown(&input.path));
    for (e, et) in r.engines.iter().zip(&t.engines) {
        let stated = [
            e.wins,
            e.draws,
            e.losses,
            e.illegal_moves,
            e.crashes,
            e.time_losses,
            e.no_move,
        ];
        let counted = [
            et.wins,
            et.draws,
            et.losses,
            et.illegal,
            et.crashes,
            et.time_losses,
            et.no_move,
        ];
        if stated != counted || e.pentanomial != et.penta {
            return Err(at(format!(
                "engine {}: W/D/L, faults and pentanomial {stated:?} {:?} are not what \
                 its games give, {counted:?} {:?}",
                e.name, e.pentanomial, et.penta
            )));
        }
    }
    for k in EndKind::all() {
        let stated = r.end_reasons.get(k.name()).copied().unwrap_or(0);
        let counted = t.reasons.get(&k).copied().unwrap_or(0);
        if stated != counted {
            return Err(at(format!(
                "\"end_reasons\" says {stated} {}, its games {counted}",
                k.name()
            )));
        }
    }
    Ok(())
}

/// Reads, checks and merges the reports at `paths`.
pub fn combine(paths: &[PathBuf], given: Option<SprtSpec>) -> Result<Merged, String> {
    combine_with(paths, given, true).map(|(m, _)| m)
}

/// [`combine`] for a report, which may show matches still going on; with
/// the games as records for the running statistics.
pub fn combine_for_report(
    paths: &[PathBuf],
    given: Option<SprtSpec>,
) -> Result<(Merged, BTreeMap<usize, Record>), String> {
    combine_with(paths, given, false)
}

fn combine_with(
    paths: &[PathBuf],
    given: Option<SprtSpec>,
    whole: bool,
) -> Result<(Merged, BTreeMap<usize, Record>), String> {
    if paths.is_empty() {
        return Err("no input reports (see janggun match merge --help)".into());
    }
    check_distinct(paths)?;
    let mut inputs = paths
        .iter()
        .map(|p| read_input(p, whole))
        .collect::<Result<Vec<_>, _>>()?;
    inputs.sort_by_key(|i| i.keys.iter().map(sort_key).min());
    check_shard_keys(&inputs)?;
    let first = &inputs[0];
    for other in &inputs[1..] {
        check_same_match(first, other)?;
    }
    let spec = sprt_of(&inputs, given)?;
    let names: Vec<String> = first
        .report
        .engines
        .iter()
        .map(|e| e.name.clone())
        .collect();
    if first.report.deterministic() {
        check_no_replays(&inputs)?;
    }
    let games = gather(&inputs, &names)?;
    let totals = record::totals(names.len(), &games.records);
    let sprt = spec.map(|s| (s, output::sprt_report(&s, &totals.engines[0].penta)));
    let report = merged_report(&inputs, &totals, &sprt, games.shards, games.entries);
    let m = Merged {
        report,
        totals,
        names,
        sprt,
        files: inputs.into_iter().map(|i| (i.path, i.report)).collect(),
    };
    Ok((m, games.records))
}

/// No file is given twice, by identity: `./a.json`, a link or a second
/// hard link to `a.json` is `a.json` again.
fn check_distinct(paths: &[PathBuf]) -> Result<(), String> {
    let mut seen: Vec<(Result<_, PathBuf>, &Path)> = Vec::new();
    for p in paths {
        let id = file_id(p).map_err(|_| p.clone());
        if let Some((_, before)) = seen.iter().find(|(i, _)| *i == id) {
            return Err(format!(
                "{}: listed twice (as {} before)",
                shown(p),
                shown(before)
            ));
        }
        seen.push((id, p));
    }
    Ok(())
}

/// No shard (seed and opening offset) is in two inputs.
fn check_shard_keys(inputs: &[Input]) -> Result<(), String> {
    let mut owner: HashMap<&(String, String), &Path> = HashMap::new();
    for i in inputs {
        for k in &i.keys {
            if let Some(before) = owner.insert(k, &i.path) {
                return Err(format!(
                    "{}: the shard of seed {} and opening offset {} is also in {}: a shard \
                     listed twice?",
                    shown(&i.path),
                    k.0,
                    k.1,
                    shown(before)
                ));
            }
        }
    }
    Ok(())
}

/// Games at fixed nodes or depth from the same opening are the same
/// game: shards that dealt the same openings measure nothing new.
fn check_no_replays(inputs: &[Input]) -> Result<(), String> {
    let mut games: HashMap<(&str, &str), (&Path, u64)> = HashMap::new();
    for i in inputs {
        for g in &i.report.games {
            if let Some(&(p, k)) = games.get(&(g.fen.as_str(), g.moves.as_str())) {
                if p != i.path.as_path() {
                    return Err(format!(
                        "{}: game {} repeats game {k} of {} move for move: at fixed \
                         nodes or depth shards need other openings (--random-plies with \
                         another --seed each, or --opening-offset into a book)",
                        shown(&i.path),
                        g.game,
                        shown(p)
                    ));
                }
            }
            games.insert((&g.fen, &g.moves), (&i.path, g.game));
        }
    }
    Ok(())
}

/// The games of one input, replayed and checked, by their index in it.
fn records_of(i: &Input, names: &[String]) -> Result<BTreeMap<usize, Record>, String> {
    let at = |e: String| format!("{}: {e}", shown(&i.path));
    let play = play_of(&i.report).map_err(at)?;
    let mut own: BTreeMap<usize, Record> = BTreeMap::new();
    let mut list: Vec<&GameEntry> = i.report.games.iter().collect();
    list.sort_by_key(|g| g.game);
    for g in &list {
        let index = usize::try_from(g.game)
            .ok()
            .and_then(|k| k.checked_sub(1))
            .filter(|&k| k < cli::MAX_GAMES)
            // A merge numbers its games with gaps where a shard
            // stopped short; a match's own are those it planned.
            .filter(|&k| i.report.shards.is_some() || (k as u64) < i.report.games_planned)
            .ok_or_else(|| at(format!("game number {} is out of range", g.game)))?;
        if own.contains_key(&index) {
            return Err(at(format!("game {} is listed twice", g.game)));
        }
        let rec =
            record_of(g, index, names, &play).map_err(|e| at(format!("game {}: {e}", g.game)))?;
        own.insert(index, rec);
    }
    for (k, a) in own.range(..).filter(|(k, _)| *k % 2 == 0) {
        if let Some(b) = own.get(&(k + 1)) {
            check_pair(a, b).map_err(|e| at(format!("games {} and {}: {e}", k + 1, k + 2)))?;
        }
    }
    check_totals(i, &record::totals(names.len(), &own))?;
    Ok(own)
}

/// The games of all inputs, numbered on: as records, as report entries,
/// and the shards they came from.
struct Gathered {
    records: BTreeMap<usize, Record>,
    entries: Vec<GameEntry>,
    shards: Vec<ShardEntry>,
}

fn gather(inputs: &[Input], names: &[String]) -> Result<Gathered, String> {
    let mut all = Gathered {
        records: BTreeMap::new(),
        entries: Vec::new(),
        shards: Vec::new(),
    };
    let mut base = 0usize;
    for i in inputs {
        let own = records_of(i, names)?;
        // Pairs are (2k, 2k + 1) of each shard; an even base keeps them so.
        let span = own.keys().next_back().map_or(0, |&k| (k + 2) & !1);
        for (k, mut rec) in own {
            rec.slot.index = base + k;
            rec.slot.pair = rec.slot.index / 2;
            all.records.insert(rec.slot.index, rec);
        }
        let mut list: Vec<&GameEntry> = i.report.games.iter().collect();
        list.sort_by_key(|g| g.game);
        for g in list {
            let mut e = g.clone();
            let index = base + g.game as usize - 1;
            e.game = index as u64 + 1;
            e.pair = (index / 2) as u64;
            all.entries.push(e);
        }
        base += span;
        match &i.report.shards {
            Some(list) => all.shards.extend(list.iter().cloned()),
            None => all.shards.push(ShardEntry {
                file: shown(&i.path),
                seed: i.keys[0].0.clone(),
                opening_offset: i.keys[0].1.clone(),
                games: i.report.games_played,
            }),
        }
    }
    Ok(all)
}

/// The merged report: the first input's conditions (but the seed and
/// opening offset) and engines, the totals recounted from all games.
fn merged_report(
    inputs: &[Input],
    totals: &Totals,
    sprt: &Option<(SprtSpec, SprtReport)>,
    shards: Vec<ShardEntry>,
    entries: Vec<GameEntry>,
) -> MatchReport {
    let first = &inputs[0].report;
    let mut r = first.clone();
    r.version = report::VERSION;
    r.deterministic = Some(first.deterministic());
    for (k, v) in r.conditions.0 .0.iter_mut() {
        if k == SEED || k == OPENING_OFFSET {
            *v = "merged".into();
        }
    }
    r.games_planned = totals.games;
    r.games_played = totals.games;
    r.interrupted = inputs.iter().any(|i| i.report.interrupted);
    for (e, et) in r.engines.iter_mut().zip(&totals.engines) {
        let spec = cli::EngineSpec {
            name: e.name.clone(),
            cmd: e.cmd.clone(),
            ..Default::default()
        };
        let counted = output::engine_entry(&spec, et);
        *e = report::EngineEntry {
            name: e.name.clone(),
            cmd: e.cmd.clone(),
            args: e.args.clone(),
            options: e.options.clone(),
            limits: e.limits.clone(),
            ..counted
        };
    }
    r.end_reasons = output::end_reasons(totals);
    r.sprt = sprt.as_ref().map(|(spec, s)| output::sprt_entry(spec, s));
    r.shards = Some(shards);
    r.games = entries;
    r
}

/// The PGN beside each input (`a.json` and `a.pgn`), whole and with the
/// games of its JSON, concatenated in the merge's order.
fn concat_pgn(files: &[(PathBuf, MatchReport)]) -> Result<Vec<u8>, String> {
    let mut text = Vec::new();
    for (json, report) in files {
        let games = &report.games_played;
        let pgn = json.with_extension("pgn");
        let bytes = crate::util::file::read_capped(&pgn, resume_pgn::MAX_PGN_BYTES)
            .map_err(|e| format!("{e} (--pgn joins the PGN beside each shard's JSON)"))?;
        let scan = resume_pgn::scan(&bytes).map_err(|e| format!("{}: {e}", shown(&pgn)))?;
        if scan.cut_at.is_some() || scan.games.len() as u64 != *games {
            return Err(format!(
                "{}: {} whole games, but {} lists {games}",
                shown(&pgn),
                scan.games.len(),
                shown(json)
            ));
        }
        same_games(&scan.games, report).map_err(|e| format!("{}: {e}", shown(&pgn)))?;
        let whole = &bytes[..scan.whole_len];
        text.extend_from_slice(whole);
        if !whole.is_empty() {
            text.extend_from_slice(b"\n\n");
        }
    }
    Ok(text)
}

/// The PGN's games must be its JSON's, replayed (any order: a PGN lists
/// its games as they finished, a merged one shard after shard).
fn same_games(pgn: &[resume_pgn::WrittenGame], report: &MatchReport) -> Result<(), String> {
    let rules: RuleSet = report.condition("rules").ok_or("no \"rules\"")?.parse()?;
    let key = |fen: &str, moves: &str, result: &str, end: &str| {
        let moves: Vec<&str> = moves.split_whitespace().collect();
        format!("{fen}|{}|{result}|{end}", moves.join(" "))
    };
    let mut left: HashMap<String, usize> = HashMap::new();
    for g in &report.games {
        *left
            .entry(key(&g.fen, &g.moves, &g.result, &g.end))
            .or_insert(0) += 1;
    }
    for g in pgn {
        let at = |e: String| format!("game at line {}: {e}", g.line);
        let tag = |k: &str| g.tag(k).ok_or_else(|| at(format!("no [{k}] tag")));
        let fen = tag("FEN")?;
        let mut pos: Position = fen::read_fen(fen, rules).map_err(at)?;
        let mut moves: Vec<Move> = Vec::with_capacity(g.moves.len());
        for (k, t) in g.moves.iter().enumerate() {
            let m = from_san(&mut pos, t).map_err(|e| at(format!("ply {}: {e}", k + 1)))?;
            pos.make(m);
            moves.push(m);
        }
        let uci: Vec<String> = moves
            .iter()
            .map(|&m| move_to_string(m, Notation::Uci))
            .collect();
        let k = key(fen, &uci.join(" "), &g.result, tag("EndReason")?);
        match left.get_mut(&k) {
            Some(n) if *n > 0 => *n -= 1,
            _ => {
                return Err(at(
                    "not one of its JSON report's games (moves, result or end differ)".into(),
                ))
            }
        }
    }
    Ok(())
}

/// The table and SPRT line of a merge, as a single run prints them.
pub fn summary_text(m: &Merged) -> String {
    let names: Vec<&str> = m.names.iter().map(String::as_str).collect();
    let mut s = output::table(&names, &m.totals);
    if let Some((spec, r)) = &m.sprt {
        s.push_str(&output::sprt_line(spec, r));
        s.push('\n');
    }
    s
}

/// What `--pgn` may replace: a PGN file.
pub const PGN_FILE: Existing<'static> = Existing::Prefix(&[b"[Event "], "a PGN file");

/// `janggun match merge`.
pub fn main(a: MergeArgs) -> Result<(), String> {
    let sprt = a.common.sprt()?;
    let pgn_out = cli::once("--pgn", a.pgn)?;
    let pgn_out = pgn_out.as_deref();
    let Some(out_path) = &a.out else {
        return Err(
            "give OUT.json and the IN.json reports (see janggun match merge --help)".into(),
        );
    };
    let inputs = &a.inputs;
    // Every file the merge reads or writes, checked before anything is
    // read in full or written.
    let mut files = Files::new();
    for p in inputs {
        files.input("input", p);
        if pgn_out.is_some() {
            files.input(
                format!("the PGN beside {}", shown(p)),
                p.with_extension("pgn"),
            );
        }
    }
    files.output("output", out_path);
    if let Some(p) = pgn_out {
        files.output("--pgn", p);
    }
    files.check()?;
    // A shard where the output should be is a command line with the
    // output left out; anything else there is not ours to replace.
    let merged = Existing::Check(&report::merged_report_at);
    check_existing(out_path, &merged)?;
    if let Some(p) = pgn_out {
        check_existing(p, &PGN_FILE)?;
    }
    let m = combine(inputs, sprt)?;
    if let Some(p) = pgn_out {
        let text = concat_pgn(&m.files)?;
        write_whole(p, &PGN_FILE, &text)?;
    }
    report::write(out_path, &m.report, &merged)?;
    if !a.common.flags.quiet {
        let seeds: Vec<&str> = m
            .report
            .shards
            .iter()
            .flatten()
            .map(|s| s.seed.as_str())
            .collect();
        out::line(&format!(
            "merged {} shards (seeds {}): {} games",
            seeds.len(),
            seeds.join(" "),
            m.totals.games
        ));
    }
    out::line(summary_text(&m).trim_end());
    Ok(())
}
