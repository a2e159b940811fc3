//! TESTING AID ONLY: `janggun uci-lite`, a minimal UCI loop on top of the
//! search `Engine`, for the search helper's matches against Fairy-Stockfish
//! while the real protocol layer is written elsewhere. It understands just
//! uci, isready, ucinewgame, setoption (Hash, Threads, UCI_Variant, MultiPV,
//! Skill Level, Move Overhead), position startpos|fen ... moves ...,
//! go (wtime btime winc binc movestogo movetime depth nodes infinite),
//! stop and quit. Errors are reported as `info string error: ...`.

use crate::board::{parse_move, Notation, Position, RuleSet, START_FEN};
use crate::search::{Control, Engine, Limits, Report, Score, Settings};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

fn set_position(tokens: &[&str], rules: RuleSet) -> Result<Position, String> {
    let split = tokens
        .iter()
        .position(|t| *t == "moves")
        .unwrap_or(tokens.len());
    let fen = match tokens.first() {
        Some(&"startpos") => START_FEN.to_string(),
        Some(&"fen") => tokens[1..split].join(" "),
        _ => return Err("position needs startpos or fen".into()),
    };
    let mut pos = Position::from_fen(&fen, rules).map_err(|e| format!("bad FEN: {e}"))?;
    for s in tokens.iter().skip(split + 1) {
        let m = parse_move(&pos, s, Notation::Uci).map_err(|e| format!("move {s}: {e}"))?;
        pos.make(m);
    }
    Ok(pos)
}

fn parse_go(tokens: &[&str]) -> Limits {
    let mut l = Limits::default();
    let mut it = tokens.iter();
    while let Some(&t) = it.next() {
        // Negative clock values (a GUI's overstepped clock) count as zero.
        let mut num = || {
            it.next()
                .and_then(|v| v.parse::<i64>().ok())
                .map(|v| v.max(0) as u64)
        };
        match t {
            "wtime" => l.wtime = num(),
            "btime" => l.btime = num(),
            "winc" => l.winc = num(),
            "binc" => l.binc = num(),
            "movestogo" => l.movestogo = num().map(|v| v as u32),
            "movetime" => l.movetime = num(),
            "byoyomi" => l.byoyomi = num(),
            "depth" => l.depth = num().map(|v| v as u32),
            "nodes" => l.nodes = num(),
            "mate" => l.mate = num().map(|v| v as u32),
            "infinite" => l.infinite = true,
            _ => {}
        }
    }
    l
}

fn print_report(r: Report) {
    let mut out = std::io::stdout().lock();
    match r {
        Report::Info(i) => {
            let score = match i.score {
                Score::Cp(c) => format!("cp {c}"),
                Score::Mate(m) => format!("mate {m}"),
            };
            let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
            let _ = writeln!(
                out,
                "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {} pv {}",
                i.depth, i.seldepth, i.multipv, i.nodes, i.nps, i.hashfull, i.time_ms, pv.join(" ")
            );
        }
        Report::CurrMove { depth, mv, number } => {
            let _ = writeln!(
                out,
                "info depth {depth} currmove {mv} currmovenumber {number}"
            );
        }
        Report::Text(t) => {
            let _ = writeln!(out, "info string {t}");
        }
    }
    let _ = out.flush();
}

pub fn run() -> Result<(), String> {
    let engine = Arc::new(Mutex::new(Engine::new(Settings::default())));
    let control = Control::new();
    let mut rules = RuleSet::Janggi;
    let mut pos = Position::startpos(rules);
    let mut worker: Option<JoinHandle<()>> = None;
    let say = |s: &str| {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{s}");
        let _ = o.flush();
    };
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else { continue };
        match cmd {
            "uci" => {
                say("id name Janggun uci-lite");
                say("uciok");
            }
            "isready" => say("readyok"),
            "quit" => break,
            "stop" => control.stop(),
            _ => {
                // Everything else waits for a running search to finish.
                if let Some(h) = worker.take() {
                    let _ = h.join();
                }
                match cmd {
                    "ucinewgame" => engine.lock().map_err(|e| e.to_string())?.clear(),
                    "setoption" => {
                        let name_end = tokens
                            .iter()
                            .position(|t| *t == "value")
                            .unwrap_or(tokens.len());
                        let name = tokens
                            .get(2..name_end)
                            .map(|t| t.join(" "))
                            .unwrap_or_default();
                        let value = tokens
                            .get(name_end + 1..)
                            .map(|t| t.join(" "))
                            .unwrap_or_default();
                        let mut e = engine.lock().map_err(|e| e.to_string())?;
                        let mut s = e.settings().clone();
                        let num = value.parse::<u64>();
                        match (name.to_ascii_lowercase().as_str(), num) {
                            ("hash", Ok(v)) => s.hash_mb = v.clamp(1, 65536) as usize,
                            ("threads", Ok(v)) => s.threads = v.clamp(1, 256) as usize,
                            ("multipv", Ok(v)) => s.multipv = v.clamp(1, 256) as u32,
                            ("move overhead", Ok(v)) => s.move_overhead_ms = v.min(5000),
                            ("skill level", _) => {
                                s.skill_level = value.parse::<i32>().unwrap_or(20).clamp(-20, 20)
                            }
                            ("uci_variant", _) => match value.parse::<RuleSet>() {
                                Ok(r) => {
                                    rules = r;
                                    pos.set_rules(r);
                                }
                                Err(err) => say(&format!("info string error: {err}")),
                            },
                            _ => say(&format!("info string error: unsupported option {name}")),
                        }
                        e.apply(s);
                    }
                    "position" => match set_position(&tokens[1..], rules) {
                        Ok(p) => pos = p,
                        Err(err) => say(&format!("info string error: {err}")),
                    },
                    "go" => {
                        let limits = parse_go(&tokens[1..]);
                        control.reset();
                        let engine = Arc::clone(&engine);
                        let control = control.clone();
                        let pos = pos.clone();
                        worker = Some(std::thread::spawn(move || {
                            let Ok(mut e) = engine.lock() else { return };
                            let r = e.search(&pos, &limits, &control, &mut print_report);
                            let mut o = std::io::stdout().lock();
                            match (r.best, r.ponder) {
                                (Some(b), Some(p)) => {
                                    let _ = writeln!(o, "bestmove {b} ponder {p}");
                                }
                                (Some(b), None) => {
                                    let _ = writeln!(o, "bestmove {b}");
                                }
                                _ => {
                                    let _ = writeln!(o, "bestmove (none)");
                                }
                            }
                            let _ = o.flush();
                        }));
                    }
                    _ => say(&format!("info string error: unknown command {cmd}")),
                }
            }
        }
    }
    control.stop();
    if let Some(h) = worker.take() {
        let _ = h.join();
    }
    Ok(())
}
