//! One conversation with a GUI: the position, the options, the engine and
//! the worker thread that searches. Commands are executed here; nothing in
//! this file waits on a search except `go`-like commands replacing one and
//! `stop`/`quit`, which first tell it to stop.

use super::command::{Base, Command, Go, ParseError, PositionSpec};
use super::dialect::Dialect;
use super::options::{self, Config, Effect};
use super::output::Writer;
use super::setup::{self, SetupQuery};
use super::worker::{self, SearchJob};
use super::{ucci, uci};
use crate::board::notation::setup_position;
use crate::board::{parse_move, Color, Move, Position, Setup};
use crate::search::{Control, Engine, Limits};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The one job (search, perft, setup) on the worker thread. Every job
/// stops on `control.stop()`, so nothing queued behind one waits long.
struct Job {
    handle: JoinHandle<()>,
}

pub struct Session {
    out: Writer,
    dialect: Option<Dialect>,
    /// UCI with ranks 0..9 (`ucicyclone`, or a `fen`/`startpos` line
    /// without `position`), as Fairy-Stockfish offers for uci2wb.
    cyclone: bool,
    config: Config,
    pos: Position,
    /// UCCI `banmoves`: apply to the next search of this position only.
    banmoves: Vec<Move>,
    engine: Arc<Mutex<Engine>>,
    control: Control,
    job: Option<Job>,
    /// Option changes that arrived while the engine was busy.
    settings_pending: bool,
    clear_pending: bool,
}

/// How long `quit` waits for a search to stop before leaving anyway.
const QUIT_GRACE: Duration = Duration::from_secs(2);

impl Session {
    pub fn new(out: Writer) -> Session {
        let config = Config::default();
        Session {
            out,
            dialect: None,
            cyclone: false,
            pos: Position::startpos(config.variant),
            engine: Arc::new(Mutex::new(Engine::new(config.settings.clone()))),
            config,
            banmoves: Vec::new(),
            control: Control::new(),
            job: None,
            settings_pending: false,
            clear_pending: false,
        }
    }

    /// Nothing has been said yet (so a first `xboard` may still pick CECP).
    pub fn is_fresh(&self) -> bool {
        self.dialect.is_none()
    }

    /// How moves are read and written now.
    pub fn notation(&self) -> crate::board::Notation {
        if self.cyclone {
            crate::board::Notation::Ucci
        } else {
            self.dialect().notation()
        }
    }

    /// UCI unless the first command was `ucci`.
    pub fn dialect(&self) -> Dialect {
        self.dialect.unwrap_or(Dialect::Uci)
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn report_error(&self, msg: &str) {
        self.out.error(msg);
    }

    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.out.log_input(line);
        // As in Fairy-Stockfish, a `fen`/`startpos` line without `position`
        // switches to ranks 0..9 whether or not the rest of it reads.
        let first = line.split_whitespace().next().unwrap_or("");
        if first.eq_ignore_ascii_case("fen") || first.eq_ignore_ascii_case("startpos") {
            self.cyclone = true;
        }
        match line.parse::<Command>() {
            Ok(cmd) => {
                if self.dialect.is_none() {
                    self.dialect = Some(match cmd {
                        Command::Ucci => Dialect::Ucci,
                        _ => Dialect::Uci,
                    });
                }
                self.execute(cmd)
            }
            Err(ParseError::Empty) => Flow::Continue,
            Err(e) => {
                self.dialect.get_or_insert(Dialect::Uci);
                self.out.error(&e.to_string());
                Flow::Continue
            }
        }
    }

    pub fn execute(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Uci => {
                self.dialect = Some(Dialect::Uci);
                self.cyclone = false;
                uci::hello(&Config::default())
                    .iter()
                    .for_each(|l| self.out.line(l));
            }
            Command::Ucci => {
                self.dialect = Some(Dialect::Ucci);
                self.cyclone = false;
                ucci::hello(&Config::default())
                    .iter()
                    .for_each(|l| self.out.line(l));
            }
            Command::IsReady => self.out.line("readyok"),
            Command::Ignored => {}
            Command::UciNewGame => {
                self.clear_pending = true;
                self.sync_engine();
                self.pos = Position::startpos(self.config.variant);
                self.banmoves.clear();
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(spec) => {
                if let Some(p) = self.build_position(&spec, "position") {
                    self.pos = p;
                    self.banmoves.clear();
                }
            }
            Command::UciCyclone => self.cyclone = true,
            Command::CyclonePosition(spec) => {
                self.cyclone = true;
                if let Some(p) = self.build_position(&spec, "position") {
                    self.pos = p;
                    self.banmoves.clear();
                }
            }
            Command::Go(go) => self.go(*go),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => self.stop(),
            Command::PonderHit => self.control.ponderhit(),
            Command::Quit => {
                self.shutdown();
                if self.dialect() == Dialect::Ucci {
                    self.out.line("bye");
                }
                return Flow::Quit;
            }
            Command::BanMoves(list) => self.ban(&list),
            Command::Probe(spec) => {
                let pos = match spec {
                    None => Some(self.pos.clone()),
                    Some(s) => self.build_position(&s, "probe"),
                };
                if let Some(p) = pos {
                    self.out
                        .info_string(&format!("eval {}", Engine::evaluate(&p)));
                }
            }
            Command::Display => self.pos.to_string().lines().for_each(|l| self.out.line(l)),
            Command::Eval => Engine::eval_report(&self.pos)
                .lines()
                .for_each(|l| self.out.line(l)),
            Command::Flip => {
                self.pos = self.pos.flipped();
                self.banmoves.clear();
            }
            Command::SetupHan { movetime } => self.setup(None, movetime),
            Command::SetupCho { han, movetime } => self.setup(Some(han), movetime),
        }
        Flow::Continue
    }

    /// Stops whatever runs and waits a while for it (end of input, `quit`).
    pub fn shutdown(&mut self) {
        self.control.stop();
        if let Some(job) = self.job.take() {
            let start = Instant::now();
            while !job.handle.is_finished() && start.elapsed() < QUIT_GRACE {
                thread::sleep(Duration::from_millis(1));
            }
            if job.handle.is_finished() {
                let _ = job.handle.join();
            }
        }
    }

    fn busy(&mut self) -> bool {
        match &self.job {
            Some(j) if !j.handle.is_finished() => true,
            Some(_) => {
                self.reap();
                false
            }
            None => false,
        }
    }

    fn reap(&mut self) {
        if let Some(job) = self.job.take() {
            let _ = job.handle.join();
        }
    }

    /// Ends the running job (if any), so a new one can take the engine.
    fn finish_job(&mut self) {
        if self.job.is_some() {
            self.control.stop();
            self.reap();
        }
        self.sync_engine();
    }

    fn stop(&mut self) {
        self.control.stop();
        // Waiting here orders the answer: the search's `bestmove` comes
        // before whatever the next command prints.
        if self.job.is_some() {
            self.reap();
            self.sync_engine();
        }
    }

    /// Hands option changes to the engine once it is free.
    fn sync_engine(&mut self) {
        if self.busy() || !(self.settings_pending || self.clear_pending) {
            return;
        }
        let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
        if self.settings_pending {
            if let Err(e) = engine.apply(self.config.settings.clone()) {
                // The engine kept a smaller table; the option says which.
                self.config.settings.hash_mb = engine.settings().hash_mb;
                self.out.error(&format!("Hash: {e}"));
            }
        }
        if self.clear_pending {
            engine.clear();
        }
        self.settings_pending = false;
        self.clear_pending = false;
    }

    fn spawn(&mut self, f: impl FnOnce() + Send + 'static) {
        self.finish_job();
        self.control.reset();
        self.job = Some(Job {
            handle: thread::spawn(f),
        });
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if options::is_ignored(name) {
            self.out
                .info_string(&format!("option '{name}' is ignored by this engine"));
            return;
        }
        let Some(def) = options::find(name) else {
            self.out
                .error(&format!("unknown option '{}'", super::command::clip(name)));
            return;
        };
        match options::set(&mut self.config, def, value) {
            Err(e) => self
                .out
                .error(&format!("{e}; keeping {}", self.current(def))),
            Ok(Effect::None) => {}
            Ok(Effect::Settings) => {
                self.settings_pending = true;
                self.sync_engine();
            }
            Ok(Effect::ClearHash) => {
                self.clear_pending = true;
                self.sync_engine();
            }
            Ok(Effect::Variant) => {
                self.pos.set_rules(self.config.variant);
                // Fairy-Stockfish's line, from which uci2wb builds XBoard's board.
                self.out.info_string(&format!(
                    "variant {} files 9 ranks 10 pocket 0 template janggi startpos {}",
                    self.config.variant.name(),
                    crate::board::START_FEN
                ));
            }
            Ok(Effect::DebugLog) => {
                if let Err(e) = self.out.set_log(&self.config.debug_log) {
                    self.config.debug_log.clear();
                    self.out.error(&format!("Debug Log File: {e}"));
                }
            }
        }
    }

    fn current(&self, def: &options::OptionDef) -> String {
        let v = options::current(&self.config, def.id);
        if v.is_empty() {
            "the old value".to_string()
        } else {
            v
        }
    }

    /// The position a `position`/`probe` command describes. A bad base keeps
    /// the old position (`None`); a bad move keeps the position after the
    /// last good one, as FSF does, but says so.
    fn build_position(&self, spec: &PositionSpec, cmd: &str) -> Option<Position> {
        let rules = self.config.variant;
        let base = match &spec.base {
            Base::StartPos { cho, han } => setup_position(*cho, *han, rules),
            Base::Fen(f) => Position::from_fen(f, rules),
        };
        let mut pos = match base {
            Ok(p) => p,
            Err(e) => {
                self.out
                    .error(&format!("{cmd}: bad FEN: {e}; position unchanged"));
                return None;
            }
        };
        let notation = self.notation();
        for (i, text) in spec.moves.iter().enumerate() {
            match parse_move(&pos, text, notation) {
                Ok(m) => pos.make(m),
                Err(e) => {
                    self.out.error(&format!(
                        "{cmd}: move {} of {}: {e}; position set after move {i}",
                        i + 1,
                        spec.moves.len()
                    ));
                    break;
                }
            }
        }
        Some(pos)
    }

    fn ban(&mut self, list: &[String]) {
        self.banmoves.clear();
        for text in list {
            match parse_move(&self.pos, text, self.notation()) {
                Ok(m) => self.banmoves.push(m),
                Err(e) => self.out.error(&format!("banmoves: {e}; not banned")),
            }
        }
    }

    fn limits(&self, go: &Go) -> Limits {
        // UCCI clocks are in seconds unless `usemillisec` is on.
        let unit = if self.dialect() == Dialect::Ucci && !self.config.use_millisec {
            1000
        } else {
            1
        };
        let scaled = |v: Option<u64>| v.map(|t| t.saturating_mul(unit));
        // Which clock is ours is decided here and nowhere else: UCCI's
        // `time` is the side to move's; UCI's is `wtime` for Cho (white).
        let ours = |cho: Option<u64>, han: Option<u64>| match self.pos.side_to_move() {
            Color::Cho => cho,
            Color::Han => han,
        };
        let time = scaled(go.time).or(ours(go.wtime, go.btime));
        let inc = scaled(go.increment).or(ours(go.winc, go.binc));
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match parse_move(&self.pos, text, self.notation()) {
                Ok(m) => searchmoves.push(m),
                Err(e) => self.out.error(&format!("go searchmoves: {e}; skipped")),
            }
        }
        Limits {
            time,
            inc,
            movestogo: go.movestogo,
            byoyomi: go.byoyomi,
            movetime: go.movetime,
            depth: go.depth,
            nodes: go.nodes,
            soft_nodes: None,
            mate: go.mate,
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
            banmoves: self.banmoves.clone(),
            received: Some(std::time::Instant::now()),
        }
    }

    fn go(&mut self, go: Go) {
        for p in &go.problems {
            self.out.error(p);
        }
        let limits = self.limits(&go);
        self.banmoves.clear();
        let job = SearchJob {
            engine: self.engine.clone(),
            control: self.control.clone(),
            out: self.out.clone(),
            pos: self.pos.clone(),
            limits,
            dialect: self.dialect(),
            notation: self.notation(),
            show_wdl: self.config.settings.show_wdl,
            multipv: self.config.settings.multipv > 1,
        };
        self.spawn(move || job.run());
    }

    fn perft(&mut self, depth: u32) {
        let (pos, threads, notation, out, control) = (
            self.pos.clone(),
            self.config.settings.threads,
            self.notation(),
            self.out.clone(),
            self.control.clone(),
        );
        self.spawn(move || worker::perft(&pos, depth, threads, notation, &out, &control));
    }

    fn setup(&mut self, han: Option<Setup>, movetime: Option<u64>) {
        let q = SetupQuery {
            han,
            budget_ms: movetime.unwrap_or(setup::DEFAULT_MS),
            rules: self.config.variant,
        };
        let (engine, control, out) = (self.engine.clone(), self.control.clone(), self.out.clone());
        self.spawn(move || {
            let mut e = engine.lock().unwrap_or_else(|e| e.into_inner());
            let choice = setup::choose(&mut e, &q, &control, &out);
            out.line(&format!("setup {choice}"));
        });
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
