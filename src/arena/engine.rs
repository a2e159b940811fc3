//! A UCI engine as a child process: start-up handshake, one search at a
//! time with a deadline, and a kill on drop so that no engine outlives the
//! runner.

use super::cli::EngineSpec;
use crate::board::RuleSet;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// How often a waiting game looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

enum Line {
    Text(String),
    Eof,
}

/// Why a search gave no usable answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// No `bestmove` before the deadline.
    Timeout,
    /// The process closed its output (crashed or quit).
    Crash(String),
    /// The runner is stopping (Ctrl-C, SPRT decided).
    Stopped,
}

/// The engine's own last evaluation, from its point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Eval {
    pub cp: Option<i32>,
    pub mate: Option<i32>,
    pub depth: u32,
}

impl Eval {
    /// Centipawns with mates folded in far beyond any material score.
    pub fn score(&self) -> Option<i32> {
        match (self.mate, self.cp) {
            (Some(m), _) if m > 0 => Some(100_000 - m),
            (Some(m), _) => Some(-100_000 - m),
            (None, cp) => cp,
        }
    }
}

pub struct Answer {
    /// The text after `bestmove` (first token), as the engine wrote it.
    pub bestmove: String,
    pub eval: Eval,
    pub elapsed: Duration,
}

pub struct EngineProcess {
    pub name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
}

fn parse_info(line: &str, eval: &mut Eval) {
    let mut it = line.split_whitespace();
    let mut bound = false;
    let mut e = *eval;
    let mut has_score = false;
    while let Some(t) = it.next() {
        match t {
            "depth" => e.depth = it.next().and_then(|v| v.parse().ok()).unwrap_or(e.depth),
            "cp" => {
                e.cp = it.next().and_then(|v| v.parse().ok());
                e.mate = None;
                has_score = e.cp.is_some();
            }
            "mate" => {
                e.mate = it.next().and_then(|v| v.parse().ok());
                e.cp = None;
                has_score = e.mate.is_some();
            }
            "lowerbound" | "upperbound" => bound = true,
            // Everything after these is free text or moves.
            "pv" | "string" => break,
            _ => {}
        }
    }
    if has_score && !bound {
        *eval = e;
    }
}

/// Whether an engine's line refuses the setting just sent: Janggun answers
/// `info string error: ...`, Stockfish and its forks `No such option: ...`,
/// other engines `info string ERROR ...` or `Unknown option ...`.
fn is_refusal(line: &str) -> bool {
    let lower = line.trim().to_ascii_lowercase();
    let text = lower
        .strip_prefix("info string ")
        .unwrap_or(&lower)
        .trim_start();
    ["error", "no such option", "unknown option"]
        .iter()
        .any(|w| text.starts_with(w))
}

impl EngineProcess {
    /// Starts the engine, does the UCI handshake, sets its options and the
    /// rule set, and waits until it is ready.
    pub fn start(
        spec: &EngineSpec,
        rules: RuleSet,
        stop: &AtomicBool,
    ) -> Result<EngineProcess, String> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group: a Ctrl-C at the terminal reaches only the
        // runner, which then ends the engines itself instead of seeing them
        // die mid-game and scoring that as a crash.
        cmd.process_group(0);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("{}: cannot start '{}': {e}", spec.name, spec.cmd))?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Line::Eof);
                        return;
                    }
                    Ok(_) => {
                        let s = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(Line::Text(s)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut e = EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            rx,
        };
        e.send("uci")?;
        let mut variants: Option<Vec<String>> = None;
        let deadline = Instant::now() + HANDSHAKE;
        e.read_until(deadline, stop, |line| {
            if line.starts_with("option name UCI_Variant ") {
                let vars: Vec<String> = line
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect();
                variants = Some(vars);
            }
            line == "uciok"
        })
        .map_err(|f| format!("{}: no uciok ({f:?})", spec.name))?;
        let mut settings = Vec::new();
        if let Some(vars) = variants {
            // A combo without `var` entries (a string option) takes any name.
            let name = if vars.is_empty() || vars.iter().any(|v| v == rules.name()) {
                rules.name()
            } else {
                // kja/kojf are unknown to other engines: the nearest they know.
                "janggi"
            };
            settings.push(("UCI_Variant", name));
        }
        settings.extend(spec.options.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        for (k, v) in settings {
            e.set_option(k, v, stop)?;
        }
        e.sync(stop)?;
        Ok(e)
    }

    /// Sends one `setoption` and waits for `readyok`: an engine that
    /// refuses a setting says so before it, and a match must not go on to
    /// measure another engine than the one asked for.
    fn set_option(&mut self, name: &str, value: &str, stop: &AtomicBool) -> Result<(), String> {
        let line = format!("setoption name {name} value {value}");
        self.send(&line)?;
        self.send("isready")?;
        let mut refusals = Vec::new();
        self.read_until(Instant::now() + HANDSHAKE, stop, |l| {
            if is_refusal(l) {
                refusals.push(l.to_string());
            }
            l == "readyok"
        })
        .map_err(|f| format!("{}: no readyok after '{line}' ({f:?})", self.name))?;
        if refusals.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "engine {} refused '{line}': {}",
                self.name,
                refusals.join(" / ")
            ))
        }
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("engine input closed")?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("{}: write failed: {e}", self.name))
    }

    /// Reads lines until `done` says so, the deadline passes or the stop
    /// flag is raised.
    fn read_until(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(), Fault> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(Fault::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Fault::Timeout);
            }
            match self.rx.recv_timeout(POLL.min(deadline - now)) {
                Ok(Line::Text(l)) => {
                    if done(&l) {
                        return Ok(());
                    }
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Fault::Crash(self.exit_status()));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    fn exit_status(&mut self) -> String {
        // The output closed: give the process a moment to finish exiting.
        for _ in 0..20 {
            if let Ok(Some(st)) = self.child.try_wait() {
                return format!("exited: {st}");
            }
            thread::sleep(Duration::from_millis(10));
        }
        "closed its output".into()
    }

    /// `isready` / `readyok`, discarding whatever came before.
    pub fn sync(&mut self, stop: &AtomicBool) -> Result<(), String> {
        self.send("isready")?;
        self.read_until(Instant::now() + HANDSHAKE, stop, |l| l == "readyok")
            .map_err(|f| format!("{}: no readyok ({f:?})", self.name))
    }

    pub fn new_game(&mut self, stop: &AtomicBool) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.sync(stop)
    }

    /// Sends the position and the `go` line and waits for `bestmove` until
    /// the deadline (measured from the `go`).
    pub fn search(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
        stop: &AtomicBool,
    ) -> Result<Answer, Fault> {
        // Stale output from an earlier search would be taken for this one.
        while let Ok(Line::Text(_)) = self.rx.try_recv() {}
        self.send(position)
            .and_then(|_| self.send(go))
            .map_err(Fault::Crash)?;
        let start = Instant::now();
        // Adding to an Instant panics on overflow; a year is "no deadline".
        let year = Duration::from_secs(365 * 86_400);
        let deadline = start + limit.min(year);
        let mut eval = Eval::default();
        let mut best = None;
        self.read_until(deadline, stop, |l| {
            if let Some(rest) = l.strip_prefix("info ") {
                parse_info(rest, &mut eval);
                false
            } else if let Some(rest) = l.strip_prefix("bestmove") {
                best = Some(rest.split_whitespace().next().unwrap_or("").to_string());
                true
            } else {
                false
            }
        })?;
        Ok(Answer {
            bestmove: best.unwrap_or_default(),
            eval,
            elapsed: start.elapsed(),
        })
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit");
            let _ = stdin.flush();
        }
        // A polite quit first; anything still running after that is killed.
        for _ in 0..10 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_told_from_other_lines() {
        for refusal in [
            "info string error: unknown option 'Banana'",
            "info string ERROR: Network evaluation parameters not found",
            "No such option: Banana",
            "Unknown option: Hash",
        ] {
            assert!(is_refusal(refusal), "{refusal}");
        }
        for other in [
            "info string option 'UCI_Chess960' is ignored",
            "info string NNUE evaluation using nn.jnn enabled",
            "info depth 1 score cp 0",
            "readyok",
        ] {
            assert!(!is_refusal(other), "{other}");
        }
    }

    #[test]
    fn info_parsing_keeps_exact_scores_only() {
        let mut e = Eval::default();
        parse_info("depth 5 seldepth 7 score cp 34 nodes 100 pv e4e5", &mut e);
        assert_eq!((e.cp, e.depth), (Some(34), 5));
        parse_info("depth 6 score cp 90 lowerbound nodes 10", &mut e);
        assert_eq!(e.cp, Some(34));
        parse_info("depth 7 score mate -3 pv a1a2", &mut e);
        assert_eq!(e.mate, Some(-3));
        assert!(e.score().unwrap() < -99_000);
        parse_info("string score cp 5000", &mut e);
        assert_eq!(e.mate, Some(-3));
    }
}
