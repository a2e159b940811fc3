//! A UCI engine as a child process in its own process group: start-up
//! handshake, one search at a time with a deadline, its output read with
//! caps, and the whole group killed on drop so that no engine, nor any
//! process it started, outlives the runner.

use super::config::EngineSpec;
use crate::board::RuleSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// How often a waiting game looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);
/// How long an engine told to `quit` has before its group is killed.
const QUIT_GRACE: Duration = Duration::from_millis(100);

/// The longest line an engine may write. A UCI line is a few hundred
/// bytes; the longest known, Fairy-Stockfish's `UCI_Variant` option with
/// every variant it plays, a few KB. A line without end would otherwise be
/// read into memory until there is none.
pub const MAX_LINE: usize = 64 << 10;
/// The most output an engine may have waiting to be read: what it writes
/// while its opponent thinks is read only at its next turn, and an engine
/// that chatters without end would otherwise fill the runner's memory.
/// A normal engine leaves a few lines at most.
pub const MAX_QUEUED: usize = 16 << 20;
/// The most an engine may write in one exchange (a search, from `go` to
/// `bestmove`, or a handshake). A search writes a few lines an iteration,
/// kilobytes in all; an engine past this is writing in a loop, not
/// searching, and would keep the runner reading until its deadline.
pub const MAX_EXCHANGE: u64 = 64 << 20;
/// What the runner counts for each line held, beyond its text: a string
/// and a message of the channel (so that empty lines are not free).
const LINE_COST: usize = 64;

enum Line {
    Text(String),
    Eof,
    /// The engine went past a cap (why); nothing more is read from it.
    Overflow(String),
}

fn cost(text: &str) -> usize {
    text.len() + LINE_COST
}

/// Process groups of the engines running now (one per engine, its id the
/// engine's pid). An entry leaves before the engine is reaped: only then
/// could its number be taken by another group.
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn kill_group(pgid: u32) {
    let Ok(id) = libc::pid_t::try_from(pgid) else {
        return;
    };
    if id <= 1 {
        return;
    }
    // SAFETY: kill(2) takes two integers and touches no memory of ours. A
    // negative id names the process group `pgid`, which the engine leads
    // (spawned with `process_group(0)`) and has not been reaped: its number
    // is still its own, so no other process can be signalled.
    unsafe {
        libc::kill(-id, libc::SIGKILL);
    }
}

/// Kills every running engine's process group: for a runner about to exit
/// at once (a second Ctrl-C), which would otherwise leave an engine that
/// ignores the end of its input, or one started by a wrapper script,
/// running.
pub fn end_all_groups() {
    let groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
    for &g in groups.iter() {
        kill_group(g);
    }
}

/// Reads the engine's output a line at a time into `tx`, with the caps
/// above; ends at the end of the output or at the first cap passed.
fn read_output(
    stdout: impl Read,
    tx: std::sync::mpsc::Sender<Line>,
    queued: Arc<AtomicUsize>,
    overflowed: Arc<AtomicBool>,
) {
    let mut r = BufReader::new(stdout);
    let mut buf = Vec::new();
    let overflow = |why: String| {
        overflowed.store(true, Ordering::SeqCst);
        let _ = tx.send(Line::Overflow(why));
    };
    loop {
        buf.clear();
        match r
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => {
                let _ = tx.send(Line::Eof);
                return;
            }
            Ok(n) if n > MAX_LINE && buf.last() != Some(&b'\n') => {
                return overflow(format!("wrote a line longer than {MAX_LINE} bytes"));
            }
            Ok(_) => {
                let s = String::from_utf8_lossy(&buf).trim_end().to_string();
                let c = cost(&s);
                if queued.fetch_add(c, Ordering::SeqCst) + c > MAX_QUEUED {
                    return overflow(format!(
                        "left more than {} MiB of output unread",
                        MAX_QUEUED >> 20
                    ));
                }
                if tx.send(Line::Text(s)).is_err() {
                    return;
                }
            }
        }
    }
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
    /// The engine wrote more than the runner reads (why): a line, a
    /// search or a backlog over its cap.
    Overflow(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Timeout => f.write_str("timed out"),
            Fault::Crash(why) => write!(f, "crashed: {why}"),
            Fault::Stopped => f.write_str("stopped"),
            Fault::Overflow(why) => f.write_str(why),
        }
    }
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

pub struct EngineAnswer {
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
    /// Bytes (by `cost`) the reader has sent and the runner not yet taken.
    queued: Arc<AtomicUsize>,
    /// The reader passed a cap and stopped.
    overflowed: Arc<AtomicBool>,
    /// The process group is in `GROUPS` and may be killed: its leader, the
    /// engine, has not been reaped.
    group_live: bool,
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
        // Registered before it runs, so that no exit of the runner's
        // misses it.
        let mut groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("{}: cannot start '{}': {e}", spec.name, spec.cmd))?;
        groups.push(child.id());
        drop(groups);
        let stdout = child.stdout.take();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        let queued = Arc::new(AtomicUsize::new(0));
        let overflowed = Arc::new(AtomicBool::new(false));
        let mut e = EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            rx,
            queued: Arc::clone(&queued),
            overflowed: Arc::clone(&overflowed),
            group_live: true,
        };
        let stdout = stdout.ok_or("no stdout pipe")?;
        thread::spawn(move || read_output(stdout, tx, queued, overflowed));
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
        .map_err(|f| format!("{}: no uciok ({f})", spec.name))?;
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
        .map_err(|f| format!("{}: no readyok after '{line}' ({f})", self.name))?;
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

    /// The engine went past one of the caps on its output (and is to be
    /// restarted before it plays again).
    pub fn overflowed(&self) -> bool {
        self.overflowed.load(Ordering::SeqCst)
    }

    /// A line from the reader, its cost given back to the backlog.
    fn taken(&self, line: Line) -> Line {
        if let Line::Text(s) = &line {
            self.queued.fetch_sub(cost(s), Ordering::SeqCst);
        }
        line
    }

    /// Reads lines until `done` says so, the deadline passes, the stop
    /// flag is raised or the engine writes more than `MAX_EXCHANGE`.
    fn read_until(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(), Fault> {
        let mut written: u64 = 0;
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(Fault::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Fault::Timeout);
            }
            match self.rx.recv_timeout(POLL.min(deadline - now)) {
                Ok(line) => match self.taken(line) {
                    Line::Text(l) => {
                        written += l.len() as u64 + 1;
                        if written > MAX_EXCHANGE {
                            self.overflowed.store(true, Ordering::SeqCst);
                            return Err(Fault::Overflow(format!(
                                "wrote more than {} MiB without answering",
                                MAX_EXCHANGE >> 20
                            )));
                        }
                        if done(&l) {
                            return Ok(());
                        }
                    }
                    Line::Overflow(why) => return Err(Fault::Overflow(why)),
                    Line::Eof => return Err(Fault::Crash(self.exit_status())),
                },
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Fault::Crash(self.exit_status()));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Whether the engine has exited, without reaping it: until it is
    /// reaped, its pid names its process group and no other.
    fn leader_exited(&self) -> bool {
        if !self.group_live {
            return true;
        }
        // SAFETY: an all-zero siginfo_t is a valid value of this plain C
        // struct.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid(2) writes only into `info`, which outlives the
        // call; WNOWAIT leaves the child to be reaped by `Child::wait`, and
        // WNOHANG returns at once, `si_signo` zero when it has not exited.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                self.child.id(),
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        r == 0 && info.si_signo != 0
    }

    /// Kills the engine's process group (whatever the engine started and
    /// left running) while the engine is not yet reaped; after this the
    /// engine may be reaped.
    fn end_group(&mut self) {
        if !self.group_live {
            return;
        }
        let id = self.child.id();
        let mut groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
        kill_group(id);
        groups.retain(|&g| g != id);
        self.group_live = false;
    }

    fn exit_status(&mut self) -> String {
        // The output closed: give the process a moment to finish exiting,
        // then end what it may have left behind before reaping it.
        for _ in 0..20 {
            if self.leader_exited() {
                self.end_group();
                if let Ok(Some(st)) = self.child.try_wait() {
                    return format!("exited: {st}");
                }
            }
            thread::sleep(Duration::from_millis(10));
        }
        "closed its output".into()
    }

    /// `isready` / `readyok`, discarding whatever came before.
    fn sync_fault(&mut self, stop: &AtomicBool) -> Result<(), Fault> {
        self.send("isready").map_err(Fault::Crash)?;
        self.read_until(Instant::now() + HANDSHAKE, stop, |l| l == "readyok")
    }

    /// `isready` / `readyok`, discarding whatever came before.
    pub fn sync(&mut self, stop: &AtomicBool) -> Result<(), String> {
        self.sync_fault(stop)
            .map_err(|f| format!("{}: no readyok ({f})", self.name))
    }

    /// `ucinewgame` and a sync. An engine that writes too much keeps its
    /// `Fault::Overflow` (it loses for it); any other failure is a crash.
    pub fn new_game(&mut self, stop: &AtomicBool) -> Result<(), Fault> {
        self.send("ucinewgame").map_err(Fault::Crash)?;
        self.sync_fault(stop).map_err(|f| match f {
            Fault::Overflow(_) | Fault::Stopped => f,
            other => Fault::Crash(format!("{}: no readyok ({other})", self.name)),
        })
    }

    /// Takes what the engine wrote since its last exchange (never more
    /// than `MAX_QUEUED`, what can have been waiting: an engine still
    /// writing faster than that is read is over its cap too).
    fn drain(&mut self) -> Result<(), Fault> {
        let mut drained = 0;
        loop {
            match self.rx.try_recv() {
                Ok(line) => match self.taken(line) {
                    Line::Text(l) => {
                        drained += cost(&l);
                        if drained > MAX_QUEUED {
                            self.overflowed.store(true, Ordering::SeqCst);
                            return Err(Fault::Overflow(format!(
                                "kept writing more than {} MiB between its searches",
                                MAX_QUEUED >> 20
                            )));
                        }
                    }
                    Line::Overflow(why) => return Err(Fault::Overflow(why)),
                    Line::Eof => return Err(Fault::Crash(self.exit_status())),
                },
                Err(TryRecvError::Empty) => return Ok(()),
                Err(TryRecvError::Disconnected) => return Err(Fault::Crash(self.exit_status())),
            }
        }
    }

    /// Sends the position and the `go` line and waits for `bestmove` until
    /// the deadline (measured from the `go`).
    pub fn search(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
        stop: &AtomicBool,
    ) -> Result<EngineAnswer, Fault> {
        // Stale output from an earlier search would be taken for this one.
        self.drain()?;
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
        Ok(EngineAnswer {
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
        // A polite quit first; then the whole group is killed, the engine
        // if it is still running and whatever it started (an engine run by
        // a wrapper script is the script's child, not ours).
        let polite = Instant::now() + QUIT_GRACE;
        while !self.leader_exited() && Instant::now() < polite {
            thread::sleep(Duration::from_millis(5));
        }
        self.end_group();
        // The engine itself, should it have left its group.
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

    /// What the reader sends for `data`, nothing of it taken meanwhile.
    fn read_all(data: &[u8]) -> (Vec<Line>, bool) {
        let (tx, rx) = channel();
        let overflowed = Arc::new(AtomicBool::new(false));
        let queued = Arc::new(AtomicUsize::new(0));
        read_output(data, tx, queued, Arc::clone(&overflowed));
        (rx.try_iter().collect(), overflowed.load(Ordering::SeqCst))
    }

    fn texts(lines: &[Line]) -> Vec<&str> {
        lines
            .iter()
            .filter_map(|l| match l {
                Line::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    fn overflow(lines: &[Line]) -> Option<&str> {
        lines.iter().find_map(|l| match l {
            Line::Overflow(why) => Some(why.as_str()),
            _ => None,
        })
    }

    #[test]
    fn output_is_read_a_capped_line_at_a_time() {
        let (lines, over) = read_all(b"uciok\r\n\nreadyok");
        assert_eq!(texts(&lines), ["uciok", "", "readyok"]);
        assert!(matches!(lines.last(), Some(Line::Eof)) && !over);
        // A line of the cap is read; one byte more is not, nor what follows.
        let mut at_cap = vec![b'x'; MAX_LINE];
        at_cap.push(b'\n');
        let (lines, over) = read_all(&at_cap);
        assert_eq!(texts(&lines)[0].len(), MAX_LINE);
        assert!(!over);
        let mut past = vec![b'x'; MAX_LINE + 1];
        past.extend_from_slice(b"\nbestmove a1a2\n");
        let (lines, over) = read_all(&past);
        assert!(texts(&lines).is_empty() && over);
        assert!(overflow(&lines).unwrap().contains("longer than"));
    }

    #[test]
    fn output_left_unread_is_capped() {
        // Lines no one takes (an engine writing while its opponent thinks),
        // empty ones included: they stop at the cap.
        // Each two lines cost more than 2 * LINE_COST.
        let line = b"info string chatter\n\n";
        let (lines, over) = read_all(&line.repeat(MAX_QUEUED / LINE_COST));
        assert!(over);
        assert!(overflow(&lines).unwrap().contains("unread"));
        let held: usize = texts(&lines).iter().map(|t| cost(t)).sum();
        assert!(held <= MAX_QUEUED && held > MAX_QUEUED - 100, "{held}");
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
