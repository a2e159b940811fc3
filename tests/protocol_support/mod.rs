//! Talks to the real binary over pipes, for the protocol tests.
#![allow(dead_code)]

use janggun::board::{parse_move, Move, Notation, Position, RuleSet};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

pub const LONG: Duration = Duration::from_secs(30);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub log: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_cmd(Command::new(env!("CARGO_BIN_EXE_janggun")))
    }

    /// Started and past the `uci` handshake.
    pub fn start_uci() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.until(LONG, |l| l == "uciok");
        e
    }

    /// Started and past the `ucci` handshake.
    pub fn start_ucci() -> Engine {
        let mut e = Engine::start();
        e.send("ucci");
        e.until(LONG, |l| l == "ucciok");
        e
    }

    /// Starts the engine through `sh -c` with a virtual memory limit (KB),
    /// to see what it does when allocations fail.
    pub fn start_limited(kb: u64) -> Engine {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!(
            "ulimit -v {kb} && exec '{}'",
            env!("CARGO_BIN_EXE_janggun")
        ));
        Engine::start_cmd(cmd)
    }

    pub fn start_cmd(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start janggun");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            use std::io::BufRead;
            let mut r = std::io::BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let s = String::from_utf8(buf.clone()).expect("engine output is UTF-8");
                        if tx
                            .send(s.trim_end_matches(['\n', '\r']).to_string())
                            .is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or None after `timeout` / end of output.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first for which `done` holds.
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let stop = done(&l);
                    out.push(l);
                    if stop {
                        return out;
                    }
                }
                None => panic!("timed out after {timeout:?}; last lines:\n{}", self.tail()),
            }
        }
    }

    pub fn tail(&self) -> String {
        let n = self.log.len();
        self.log[n.saturating_sub(30)..].join("\n")
    }

    /// `isready` → the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(LONG, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Lines up to the `bestmove` / `nobestmove` line (included).
    pub fn search(&mut self, go: &str) -> Vec<String> {
        self.send(go);
        self.until(LONG, is_bestmove)
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Ok(Some(st)) = self.child.try_wait() {
                return Some(st);
            }
            thread::sleep(Duration::from_millis(5));
        }
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn is_bestmove(l: &str) -> bool {
    l.starts_with("bestmove") || l == "nobestmove"
}

/// The move after `bestmove` (None for `(none)` / `nobestmove`) and the ponder move.
pub fn bestmove_of(line: &str) -> (Option<String>, Option<String>) {
    let t: Vec<&str> = line.split_whitespace().collect();
    match t.as_slice() {
        ["nobestmove"] | ["bestmove", "(none)"] => (None, None),
        ["bestmove", m] => (Some(m.to_string()), None),
        ["bestmove", m, "ponder", p] => (Some(m.to_string()), Some(p.to_string())),
        _ => panic!("malformed bestmove line '{line}'"),
    }
}

/// A position from `startpos`/FEN and moves, with the rules core.
pub fn position(fen: Option<&str>, moves: &[&str], n: Notation) -> Position {
    let mut p = match fen {
        Some(f) => Position::from_fen(f, RuleSet::Janggi).expect("test FEN"),
        None => Position::startpos(RuleSet::Janggi),
    };
    for m in moves {
        let mv = parse_move(&p, m, n).unwrap_or_else(|e| panic!("test move {m}: {e}"));
        p.make(mv);
    }
    p
}

/// Checks the search's answer: a legal bestmove, legal ponder move after
/// it, and every `pv` legal in sequence. Returns the move.
pub fn check_search(pos: &Position, lines: &[String], n: Notation) -> Move {
    for l in lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" pv "))
    {
        let pv = l.split(" pv ").nth(1).unwrap_or("");
        let mut p = pos.clone();
        for m in pv.split_whitespace() {
            match parse_move(&p, m, n) {
                Ok(mv) => p.make(mv),
                Err(e) => panic!("pv move {m} in '{l}': {e}\nposition {}", pos.to_fen()),
            }
        }
    }
    let last = lines.last().expect("a bestmove line");
    let (best, ponder) = bestmove_of(last);
    let best = best.unwrap_or_else(|| panic!("no move in '{last}' at {}", pos.to_fen()));
    let mv = parse_move(pos, &best, n)
        .unwrap_or_else(|e| panic!("bestmove {best}: {e} at {}", pos.to_fen()));
    if let Some(p) = ponder {
        let mut after = pos.clone();
        after.make(mv);
        parse_move(&after, &p, n).unwrap_or_else(|e| panic!("ponder {p}: {e}"));
    }
    mv
}

pub fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}
