//! `janggun match`: plays UCI engines against each other (two, or more in
//! a round robin), each game with its own engine processes, adjudicated by
//! the rules core; reports Elo from game pairs, runs an SPRT, writes PGN
//! and JSON, and resumes an interrupted match from them.

pub mod cli;
pub mod conditions;
pub mod config;
pub mod end;
pub mod engine;
pub mod fen;
pub mod game;
pub mod groups;
pub mod html;
pub mod merge;
pub mod openings;
pub mod out;
pub mod output;
pub mod pgn;
pub mod record;
pub mod report;
pub mod resume;
pub mod resume_pgn;
pub mod spsa;
pub mod stats;

use crate::util::file::regular_or_missing;
use crate::util::outfile::{check_existing, Existing, Files};
use conditions::Condition;
pub use config::{EngineSpec, MatchConfig};
pub use end::EndKind;
pub use engine::EngineProcess;
use openings::Opening;
use record::{Record, Schedule};
use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::Once;
use std::time::Duration;

/// Set by the Ctrl-C / SIGTERM handler; a second signal exits at once.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Raised while the runner reads its inputs and opens its outputs, before
/// any game: there is nothing to save yet, so a signal then exits at once,
/// even while a read or an open blocks (a file on a hung network mount)
/// or a long resume file is checked.
static SETTING_UP: AtomicBool = AtomicBool::new(false);
static HANDLER: Once = Once::new();
const INTERRUPTED_EARLY: &str = "interrupted before the first game";

fn install_handler() {
    HANDLER.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if SETTING_UP.load(Ordering::SeqCst) {
                eprintln!("error: {INTERRUPTED_EARLY}");
                std::process::exit(130);
            }
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                // Engines run in their own process groups, which the
                // signal did not reach: end them, and whatever they started.
                engine::end_all_groups();
                std::process::exit(130);
            }
        });
    });
}

/// Runs `f` with `SETTING_UP` raised, unless a signal came already.
fn setting_up<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    struct Lower;
    impl Drop for Lower {
        fn drop(&mut self) {
            SETTING_UP.store(false, Ordering::SeqCst);
        }
    }
    SETTING_UP.store(true, Ordering::SeqCst);
    let _lower = Lower;
    if INTERRUPTED.load(Ordering::SeqCst) {
        return Err(INTERRUPTED_EARLY.into());
    }
    f()
}

/// The `match` subcommand: runs the match, or merges shards (`match
/// merge`), or draws a report (`match report`).
pub fn main(args: cli::MatchArgs) -> Result<(), String> {
    match args.tool {
        Some(cli::MatchTool::Merge(a)) => return merge::main(a),
        Some(cli::MatchTool::Report(a)) => return html::main(a),
        None => {}
    }
    let cfg = args.play.config()?;
    if cfg.check {
        out::line("match arguments are good (--check: nothing played)");
        return Ok(());
    }
    run(&cfg).map(|_| ())
}

enum Msg {
    Done(Box<Record>),
    Fatal(String),
}

/// The games a run finished, and whether it was interrupted.
pub struct MatchSummary {
    pub records: BTreeMap<usize, Record>,
    pub interrupted: bool,
}

fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn worker(
    cfg: &MatchConfig,
    book: &[Opening],
    sched: &Schedule,
    pending: &[usize],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: Sender<Msg>,
) {
    let mut engines: HashMap<usize, EngineProcess> = HashMap::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let k = next.fetch_add(1, Ordering::SeqCst);
        let Some(&index) = pending.get(k) else {
            return;
        };
        let slot = sched.slot(index);
        for e in [slot.cho, slot.han] {
            if let std::collections::hash_map::Entry::Vacant(v) = engines.entry(e) {
                match EngineProcess::start(&cfg.engines[e], cfg.rules, stop) {
                    Ok(eng) => {
                        v.insert(eng);
                    }
                    Err(err) => {
                        if !stop.load(Ordering::Relaxed) {
                            let _ = tx.send(Msg::Fatal(err));
                        }
                        return;
                    }
                }
            }
        }
        let opening = openings::for_match(book, cfg, slot.pair);
        let (Some(mut a), Some(mut b)) = (engines.remove(&slot.cho), engines.remove(&slot.han))
        else {
            return;
        };
        let limits = [cfg.limits_of(slot.cho), cfg.limits_of(slot.han)];
        let played = game::play(cfg, &opening, [&mut a, &mut b], limits, stop);
        engines.insert(slot.cho, a);
        engines.insert(slot.han, b);
        let Some(outcome) = played.outcome else {
            return;
        };
        let rec = Record {
            slot,
            fen: opening.fen,
            moves: played.moves,
            book_plies: opening.moves.len(),
            stats: played.stats,
            outcome,
            kind: played.kind,
            detail: played.detail,
        };
        // An engine that misbehaved starts afresh: it may still be thinking,
        // or be gone. So does one that went past a cap on its output after
        // its last move (nothing more is read from it).
        if let Some(e) = rec.faulty_engine() {
            engines.remove(&e);
        }
        engines.retain(|_, e| !e.overflowed());
        if tx.send(Msg::Done(Box::new(rec))).is_err() {
            return;
        }
    }
}

fn sprt_report(cfg: &MatchConfig, t: &record::Totals) -> Option<output::SprtReport> {
    cfg.sprt
        .map(|s| output::sprt_report(&s, &t.engines[0].penta))
}

fn write_json(
    cfg: &MatchConfig,
    cond: &[Condition],
    records: &BTreeMap<usize, Record>,
    planned: usize,
    interrupted: bool,
) -> Result<(), String> {
    let Some(path) = &cfg.json else {
        return Ok(());
    };
    let t = record::totals(cfg.engines.len(), records);
    let list: Vec<&Record> = records.values().collect();
    let r = output::report(cfg, cond, &t, &list, planned, interrupted);
    // What stood there was checked whole before the match began; since
    // then only this run has written it.
    report::write(path, &r, &Existing::Prefix(&[b"{"], "a JSON report"))
}

/// What a match's `--pgn` may replace: a PGN file (one game or more).
const PGN: Existing = Existing::Prefix(&[b"[Event "], "a PGN file");

/// The match's files, checked before an engine starts or a game is played:
/// no output is an input (the openings, an engine's program or a file it
/// is given) or the other output, whatever the paths' spelling, and what
/// stands where an output goes is of the output's kind. Resuming, the
/// files are the match's own: `resume` reads the PGN and refuses it if it
/// is not whole games of this match.
fn check_files(cfg: &MatchConfig) -> Result<(), String> {
    let mut files = Files::new();
    if let Some(p) = &cfg.openings {
        files.input("--openings", p);
    }
    for e in &cfg.engines {
        let what = |part: &str| format!("engine {}'s {part}", e.name);
        files.input(what("cmd"), &e.cmd);
        for a in &e.args {
            files.input(what("arg"), a);
        }
        for (k, v) in &e.options {
            files.input(what(&format!("option {k}")), v);
        }
    }
    if let Some(p) = &cfg.pgn {
        files.output("--pgn", p);
    }
    if let Some(p) = &cfg.json {
        files.output("--json", p);
    }
    files.check()?;
    if let Some(p) = &cfg.pgn {
        if cfg.resume {
            regular_or_missing(p)?;
        } else {
            check_existing(p, &PGN)?;
        }
    }
    if let Some(p) = &cfg.json {
        check_existing(p, &Existing::Check(&report::match_report_at))?;
    }
    Ok(())
}

/// CPU seconds of the runner itself (its threads included) and of the
/// engine processes it has waited for, from /proc/self/stat (Linux).
fn cpu_report() -> Option<String> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name, which may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // utime, stime, cutime, cstime are fields 14..17, i.e. 11..14 here;
    // the kernel reports them in USER_HZ, which is 100 on Linux.
    let tick = 100.0;
    let own = (f.get(11)? + f.get(12)?) / tick;
    let children = (f.get(13)? + f.get(14)?) / tick;
    Some(format!("cpu: runner {own:.2} s, engines {children:.2} s"))
}

/// Opens the PGN afresh or, resuming, cut back to the end of its whole
/// games (`keep` bytes), so that the next game starts on a clean line.
fn open_pgn(path: &Path, keep: Option<u64>) -> Result<File, String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let Some(keep) = keep else {
        return File::create(path).map_err(err);
    };
    let mut f = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(err)?;
    f.set_len(keep).map_err(err)?;
    f.seek(SeekFrom::End(0)).map_err(err)?;
    if keep > 0 {
        f.write_all(b"\n\n").map_err(err)?;
    }
    Ok(f)
}

/// Starts each engine once and lets it go: an engine that does not start,
/// or refuses an option, stops the match here, before any game is played
/// or any file written, and not only at the first game it plays (in a
/// round robin, perhaps hours in).
fn check_engines(cfg: &MatchConfig) -> Result<(), String> {
    for spec in &cfg.engines {
        if let Err(e) = EngineProcess::start(spec, cfg.rules, &INTERRUPTED) {
            if INTERRUPTED.load(Ordering::SeqCst) {
                return Err(INTERRUPTED_EARLY.into());
            }
            return Err(e);
        }
    }
    Ok(())
}

/// What a match starts from: its openings, conditions, schedule and the
/// games a resumed run takes back.
struct Setup {
    book: Vec<Opening>,
    cond: Vec<Condition>,
    sched: Schedule,
    resumed: resume::Resumed,
}

/// Checks the files and reads the inputs, before any engine starts.
fn set_up(cfg: &MatchConfig) -> Result<Setup, String> {
    check_files(cfg)?;
    setting_up(|| {
        let book = match &cfg.openings {
            Some(p) => openings::load(p, cfg.rules, cfg.opening_plies)?,
            None => openings::default_openings(),
        };
        let cond = conditions::of(cfg, &book);
        let sched = Schedule::new(cfg);
        let resumed = if cfg.resume {
            resume::load(cfg, &cond, &sched, &book)?
        } else {
            resume::Resumed::default()
        };
        Ok(Setup {
            book,
            cond,
            sched,
            resumed,
        })
    })
}

/// The lines said before the first game: what a resumed run dropped and
/// took back, and that a deterministic match will replay games.
fn announce(cfg: &MatchConfig, setup: &Setup, played: usize, to_go: usize) {
    if cfg.quiet {
        return;
    }
    if let (Some(line), Some(p)) = (setup.resumed.dropped_at, &cfg.pgn) {
        out::line(&format!(
            "resume: {}: the game cut short at line {line} is dropped and will be played again",
            p.display()
        ));
    }
    if played > 0 {
        out::line(&format!(
            "resumed: {played} games already played, {to_go} to go"
        ));
    }
    let book = setup.book.len();
    if cfg.deterministic() && cfg.random_plies == 0 && setup.sched.total() / 2 > book {
        out::line(&format!(
            "note: at fixed nodes or depth without --random-plies, pairs past the {book} \
             openings replay earlier games move for move"
        ));
    }
}

/// The games of a run as they come in from the workers: each written to
/// the PGN, shown, counted, and the JSON rewritten when there is no PGN.
struct Progress<'a> {
    cfg: &'a MatchConfig,
    cond: &'a [Condition],
    total: usize,
    records: BTreeMap<usize, Record>,
    pgn_file: Option<File>,
    /// A progress line on a terminal.
    live: bool,
    date: String,
    sprt_done: bool,
}

impl Progress<'_> {
    /// Takes one finished game; tells `stop` when the SPRT decides.
    fn take(&mut self, rec: Record, stop: &AtomicBool) -> Result<(), String> {
        let cfg = self.cfg;
        if let Some(f) = self.pgn_file.as_mut() {
            let text = output::pgn_game(cfg, self.cond, &rec, &self.date);
            f.write_all(text.as_bytes())
                .and_then(|_| f.flush())
                .map_err(|e| format!("writing PGN: {e}"))?;
        }
        let index = rec.slot.index;
        self.records.insert(index, rec);
        let t = record::totals(cfg.engines.len(), &self.records);
        if self.live {
            out::progress("\r\x1b[K");
        }
        if !cfg.quiet {
            out::line(&output::game_line(
                cfg,
                &self.records[&index],
                self.records.len(),
                self.total,
            ));
        }
        let sprt = sprt_report(cfg, &t);
        if sprt.as_ref().is_some_and(|s| s.state != "continue") && !self.sprt_done {
            self.sprt_done = true;
            stop.store(true, Ordering::SeqCst);
        }
        if cfg.pgn.is_none() {
            write_json(cfg, self.cond, &self.records, self.total, false)?;
        }
        if self.live {
            let line =
                output::progress(cfg, &t, self.total, sprt.map(|s| (s.llr, s.lower, s.upper)));
            out::progress(&line);
        }
        Ok(())
    }
}

/// Plays the `pending` games on `cfg.concurrency` workers until they are
/// done or `stop` is raised (by a signal, a closed output, a fatal error
/// or the SPRT); the fatal error, if one came.
fn play_pending(
    cfg: &MatchConfig,
    setup: &Setup,
    pending: &[usize],
    progress: &mut Progress,
    stop: &AtomicBool,
) -> Result<Option<String>, String> {
    let next = AtomicUsize::new(0);
    let mut fatal = None;
    std::thread::scope(|scope| -> Result<(), String> {
        let (tx, rx) = channel();
        for _ in 0..cfg.concurrency.min(pending.len()) {
            let tx = tx.clone();
            let (book, sched, next) = (&setup.book, &setup.sched, &next);
            scope.spawn(move || worker(cfg, book, sched, pending, next, stop, tx));
        }
        drop(tx);
        loop {
            if INTERRUPTED.load(Ordering::SeqCst) || out::closed() {
                stop.store(true, Ordering::SeqCst);
            }
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(Msg::Done(r)) => progress.take(*r, stop)?,
                Ok(Msg::Fatal(e)) => {
                    stop.store(true, Ordering::SeqCst);
                    fatal.get_or_insert(e);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        if progress.live {
            out::progress("\r\x1b[K");
        }
        Ok(())
    })?;
    Ok(fatal)
}

/// The lines after the last game: the table, the SPRT, the CPU time and
/// how to go on when the run stopped short.
fn conclude(cfg: &MatchConfig, t: &record::Totals, played: usize, total: usize, stopped: bool) {
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    out::line(output::table(&names, t).trim_end());
    if let (Some(s), Some(spec)) = (sprt_report(cfg, t), cfg.sprt) {
        out::line(&output::sprt_line(&spec, &s));
    }
    if !cfg.quiet {
        if let Some(cpu) = cpu_report() {
            out::line(&cpu);
        }
    }
    if stopped {
        out::line(&format!(
            "interrupted after {played} of {total} games; continue with --resume"
        ));
    }
}

/// Runs the match described by `cfg`.
pub fn run(cfg: &MatchConfig) -> Result<MatchSummary, String> {
    install_handler();
    INTERRUPTED.store(false, Ordering::SeqCst);
    let mut setup = set_up(cfg)?;
    let total = setup.sched.total();
    let records = std::mem::take(&mut setup.resumed.records);
    let pending: Vec<usize> = (0..total).filter(|i| !records.contains_key(i)).collect();
    let sprt_done = sprt_report(cfg, &record::totals(cfg.engines.len(), &records))
        .is_some_and(|s| s.state != "continue");
    if !pending.is_empty() && !sprt_done {
        check_engines(cfg)?;
    }
    let pgn_file = match &cfg.pgn {
        Some(p) => {
            let keep = cfg.resume.then_some(setup.resumed.pgn_keep);
            Some(setting_up(|| open_pgn(p, keep))?)
        }
        None => None,
    };
    announce(cfg, &setup, records.len(), pending.len());
    let mut progress = Progress {
        cfg,
        cond: &setup.cond,
        total,
        records,
        pgn_file,
        live: !cfg.quiet && std::io::stderr().is_terminal(),
        date: today(),
        sprt_done,
    };
    let stop = AtomicBool::new(sprt_done);
    let fatal = play_pending(cfg, &setup, &pending, &mut progress, &stop)?;
    let records = progress.records;
    // A match that stopped short for any reason but its SPRT's decision
    // is unfinished: `match merge` must not take it for a whole shard.
    let interrupted = INTERRUPTED.load(Ordering::SeqCst) || out::closed() || fatal.is_some();
    let t = record::totals(cfg.engines.len(), &records);
    conclude(
        cfg,
        &t,
        records.len(),
        total,
        interrupted && fatal.is_none(),
    );
    write_json(cfg, &setup.cond, &records, total, interrupted)?;
    if let Some(e) = fatal {
        return Err(e);
    }
    Ok(MatchSummary {
        records,
        interrupted,
    })
}
