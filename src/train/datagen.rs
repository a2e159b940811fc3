//! `janggun datagen`: self-play games (`crate::tools::selfplay`'s loop) at
//! a fixed node count a move, each quiet position kept with its search
//! score and the game's result as a training record
//! (`crate::train::record`); a game the rules did not end is dropped
//! rather than given a guessed result. One game per thread; the games
//! are numbered and each one's openings come from (seed, number) alone, so
//! one thread always writes the same file for the same seed.

use super::record::{RecordWriter, Sample, RECORD_SIZE};
use crate::board::{Color, Outcome, Position, RuleSet};
use crate::search::score::WIN_BOUND;
use crate::search::{Engine, Limits, Score, SearchResult, Settings};
use crate::tools::selfplay::{self, setup_start, Stop};
use crate::util::file::{open_regular, read_line_capped};
use crate::util::rng::Rng;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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
    /// The engine settings the games are played with (evaluation included).
    pub settings: Settings,
    /// Print a progress line this often.
    pub progress: Duration,
}

/// One finished game's records, in the order they were played.
struct Game {
    records: Vec<[u8; RECORD_SIZE]>,
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

/// Plays game number `index`; returns its kept records (empty when the game
/// ended in the random plies or the rules did not end it).
fn play(engine: &mut Engine, opts: &DatagenConfig, openings: &[String], index: u64) -> Game {
    let mut rng = Rng::stream(opts.seed, index);
    let fen = if openings.is_empty() {
        setup_start(index)
    } else {
        openings[rng.below(openings.len())].clone()
    };
    let empty = Game {
        records: Vec::new(),
    };
    let Ok(pos) = Position::from_fen(&fen, RuleSet::Janggi) else {
        return empty;
    };
    let limits = Limits {
        soft_nodes: Some(opts.nodes),
        // A safety net for an iteration that explodes.
        nodes: Some(opts.nodes.saturating_mul(16)),
        ..Limits::default()
    };
    // Quiet positions with a score that is not a decided game, kept with
    // the side to move; the result is filled in once the game is over.
    let mut kept: Vec<(Sample, Color)> = Vec::new();
    let mut keep = |pos: &Position, r: &SearchResult| {
        let Some(m) = r.best else { return };
        let capture = !m.is_pass() && pos.piece_at(m.to()).is_some();
        if let Score::Cp(v) = r.score {
            if v.abs() < WIN_BOUND && !pos.in_check() && !capture {
                kept.push((Sample::from_position(pos, v as i16, 1), pos.side_to_move()));
            }
        }
    };
    let game = selfplay::play(engine, pos, opts.random_plies, &limits, &mut rng, &mut keep);
    let Stop::Over(outcome) = game.stop else {
        return empty;
    };
    if game.moves.len() <= opts.random_plies {
        return empty;
    }
    let records = kept
        .into_iter()
        .filter_map(|(mut s, stm)| {
            s.result = match outcome {
                Outcome::Draw => 1,
                Outcome::Win(c) if c == stm => 2,
                Outcome::Win(_) => 0,
            };
            s.encode()
        })
        .collect();
    Game { records }
}

fn fmt_secs(s: f64) -> String {
    let s = s.max(0.0) as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

pub fn run(opts: &DatagenConfig) -> Result<(), String> {
    crate::search::check_threads(opts.threads).map_err(|e| format!("--{e}"))?;
    if opts.nodes == 0 {
        return Err("--nodes must be at least 1".into());
    }
    let openings = match &opts.openings {
        Some(p) => read_openings(p)?,
        None => Vec::new(),
    };
    let mut writer = RecordWriter::append(&opts.out)?;
    let start_count = writer.count();
    let next_game = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Game>();
    let start = Instant::now();
    let mut games = 0u64;
    let mut positions = 0u64;
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
            games += 1;
            for r in &game.records {
                if opts.positions.is_some_and(|p| positions >= p) {
                    break;
                }
                if let Err(e) = writer.write(r) {
                    outcome = Err(e);
                    break;
                }
                positions += 1;
            }
            let done = opts.positions.is_some_and(|p| positions >= p)
                || opts.games.is_some_and(|g| games >= g);
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
                progress(opts, start, games, positions);
                last_progress = Instant::now();
            }
        }
        outcome
    });
    writer.sync_count()?;
    result?;
    progress(opts, start, games, positions);
    eprintln!(
        "datagen: wrote {positions} positions from {games} games to {} ({} records in the file)",
        opts.out.display(),
        start_count + positions
    );
    Ok(())
}

fn progress(opts: &DatagenConfig, start: Instant, games: u64, positions: u64) {
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let pps = positions as f64 / secs;
    let gps = games as f64 / secs;
    let left = match (opts.positions, opts.games) {
        (Some(p), _) if pps > 0.0 => fmt_secs(p.saturating_sub(positions) as f64 / pps),
        (None, Some(g)) if gps > 0.0 => fmt_secs(g.saturating_sub(games) as f64 / gps),
        (None, None) => "no limit".to_string(),
        _ => "?".to_string(),
    };
    eprintln!(
        "games {games}, positions {positions}, {pps:.1} positions/s, {:.2} games/s, elapsed {}, time left {left}",
        gps,
        fmt_secs(secs)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

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
