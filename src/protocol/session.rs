//! The UCI and UCCI dialects: the position the GUI last described, UCCI's
//! bans, and how `go` and every other command becomes work for the core.
//! The GUI keeps the game; the engine answers each `go` with `bestmove`.

use super::command::{clip, Base, Command, Go, PositionSpec};
use super::core::{Core, Finished, OptionOutcome, Purpose};
use super::dialect::Dialect;
use super::options::Effect;
use super::setup::{self, SetupQuery};
use super::worker::{self, Render};
use super::{ucci, uci, Flow};
use crate::board::notation::setup_position;
use crate::board::{parse_move, Color, Move, Notation, Position, Setup};
use crate::search::{Engine, Limits};

/// Which of UCI and UCCI is spoken is the core's (`Core::dialect`).
pub struct UciSession {
    /// UCI with ranks 0..9 (`ucicyclone`, or a `fen`/`startpos` line
    /// without `position`), as Fairy-Stockfish offers for uci2wb.
    cyclone: bool,
    pos: Position,
    /// UCCI `banmoves`: apply to the next search of this position only.
    banmoves: Vec<Move>,
}

impl UciSession {
    pub fn new(core: &Core) -> UciSession {
        UciSession {
            cyclone: false,
            pos: Position::startpos(core.config.variant),
            banmoves: Vec::new(),
        }
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn banmoves(&self) -> &[Move] {
        &self.banmoves
    }

    /// How moves are read and written now.
    pub fn notation(&self, core: &Core) -> Notation {
        if self.cyclone {
            Notation::Ucci
        } else {
            core.dialect().notation()
        }
    }

    /// A line as read: `fen`/`startpos` without `position` switches to
    /// ranks 0..9 whether or not the rest of it reads, as in Fairy-Stockfish.
    pub fn note_line(&mut self, line: &str) {
        let first = line.split_whitespace().next().unwrap_or("");
        if first.eq_ignore_ascii_case("fen") || first.eq_ignore_ascii_case("startpos") {
            self.cyclone = true;
        }
    }

    pub fn execute(&mut self, core: &mut Core, cmd: Command) -> Flow {
        match cmd {
            Command::Uci | Command::Ucci => {
                core.set_dialect(if cmd == Command::Uci {
                    Dialect::Uci
                } else {
                    Dialect::Ucci
                });
                self.cyclone = false;
                let defaults = super::options::Config::default();
                let lines = match core.dialect() {
                    Dialect::Ucci => ucci::hello(&defaults),
                    _ => uci::hello(&defaults),
                };
                lines.iter().for_each(|l| core.out.line(l));
            }
            Command::IsReady => core.out.line("readyok"),
            Command::Ignored => {}
            Command::UciNewGame => {
                core.clear_hash();
                self.pos = Position::startpos(core.config.variant);
                self.banmoves.clear();
            }
            Command::SetOption { name, value } => self.set_option(core, &name, value.as_deref()),
            Command::Position(spec) => self.set_position(core, &spec),
            Command::UciCyclone => self.cyclone = true,
            Command::CyclonePosition(spec) => {
                self.cyclone = true;
                self.set_position(core, &spec);
            }
            Command::Go(go) => self.go(core, &go),
            Command::Perft(depth) => {
                self.replace_job(core);
                let (pos, threads, n) = (
                    self.pos.clone(),
                    core.config.settings.threads,
                    self.notation(core),
                );
                core.start(Purpose::Other, move |ctx| {
                    worker::perft(ctx, &pos, depth, threads, n);
                    None
                });
            }
            Command::Stop => {
                // Waiting here orders the answer: the search's `bestmove`
                // comes before whatever the next command prints.
                if let Some(f) = core.finish() {
                    self.finished(core, f);
                }
            }
            Command::PonderHit => core.ponderhit(),
            Command::Quit => {
                self.shutdown(core);
                if core.dialect() == Dialect::Ucci {
                    core.out.line("bye");
                }
                return Flow::Quit;
            }
            Command::BanMoves(list) => self.ban(core, &list),
            Command::Probe(spec) => {
                let pos = match spec {
                    None => Some(self.pos.clone()),
                    Some(s) => self.build_position(core, &s, "probe"),
                };
                if let Some(p) = pos {
                    core.out
                        .info_string(&format!("eval {}", Engine::evaluate(&p)));
                }
            }
            Command::Display => self.pos.to_string().lines().for_each(|l| core.out.line(l)),
            Command::Eval => Engine::eval_report(&self.pos)
                .lines()
                .for_each(|l| core.out.line(l)),
            Command::Flip => {
                self.pos = self.pos.flipped();
                self.banmoves.clear();
            }
            Command::SetupHan { movetime } => self.setup(core, None, movetime),
            Command::SetupCho { han, movetime } => self.setup(core, Some(han), movetime),
        }
        Flow::Continue
    }

    /// A job was collected: a search's answer becomes `bestmove`.
    pub fn finished(&mut self, core: &Core, f: Finished) {
        if let (Purpose::Go, Some(a)) = (f.purpose, f.answer) {
            let line = match core.dialect() {
                Dialect::Ucci => ucci::bestmove(a.best, a.ponder),
                _ => uci::bestmove(a.best, a.ponder, self.notation(core)),
            };
            core.out.line(&line);
        }
    }

    /// `quit` or end of input: the search's answer is still written if it
    /// stops in time.
    pub fn shutdown(&mut self, core: &mut Core) {
        if let Some(f) = core.shutdown(super::QUIT_GRACE) {
            self.finished(core, f);
        }
    }

    /// A `go`, `go perft` or `setup` that arrives while a job runs stops it
    /// first, so a GUI that forgot `stop` gets an answer to each `go`.
    fn replace_job(&mut self, core: &mut Core) {
        if let Some(f) = core.finish() {
            self.finished(core, f);
        }
    }

    fn set_option(&mut self, core: &mut Core, name: &str, value: Option<&str>) {
        match core.set_option(name, value) {
            OptionOutcome::Ignored => core
                .out
                .info_string(&format!("option '{name}' is ignored by this engine")),
            OptionOutcome::Unknown => core.out.error(&format!("unknown option '{}'", clip(name))),
            OptionOutcome::Refused { error, current } => {
                let keeping = if current.is_empty() {
                    "the old value".to_string()
                } else {
                    current
                };
                core.out.error(&format!("{error}; keeping {keeping}"));
            }
            OptionOutcome::Set(_, Effect::Variant) => {
                self.pos.set_rules(core.config.variant);
                // Fairy-Stockfish's line, from which uci2wb builds XBoard's board.
                core.out.info_string(&format!(
                    "variant {} files 9 ranks 10 pocket 0 template janggi startpos {}",
                    core.config.variant.name(),
                    crate::board::START_FEN
                ));
            }
            OptionOutcome::Set(..) => {}
        }
    }

    fn set_position(&mut self, core: &Core, spec: &PositionSpec) {
        if let Some(p) = self.build_position(core, spec, "position") {
            self.pos = p;
            self.banmoves.clear();
        }
    }

    /// The position a `position`/`probe` command describes. A bad base keeps
    /// the old position (`None`); a bad move keeps the position after the
    /// last good one, as FSF does, but says so.
    fn build_position(&self, core: &Core, spec: &PositionSpec, cmd: &str) -> Option<Position> {
        let rules = core.config.variant;
        let base = match &spec.base {
            Base::StartPos { cho, han } => setup_position(*cho, *han, rules),
            Base::Fen(f) => Position::from_fen(f, rules),
        };
        let mut pos = match base {
            Ok(p) => p,
            Err(e) => {
                core.out
                    .error(&format!("{cmd}: bad FEN: {e}; position unchanged"));
                return None;
            }
        };
        let notation = self.notation(core);
        for (i, text) in spec.moves.iter().enumerate() {
            match parse_move(&pos, text, notation) {
                Ok(m) => pos.make(m),
                Err(e) => {
                    core.out.error(&format!(
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

    fn ban(&mut self, core: &Core, list: &[String]) {
        self.banmoves.clear();
        for text in list {
            match parse_move(&self.pos, text, self.notation(core)) {
                Ok(m) => self.banmoves.push(m),
                Err(e) => core.out.error(&format!("banmoves: {e}; not banned")),
            }
        }
    }

    pub fn limits(&self, core: &Core, go: &Go) -> Limits {
        // UCCI clocks are in seconds unless `usemillisec` is on.
        let unit = if core.dialect() == Dialect::Ucci && !core.config.use_millisec {
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
            match parse_move(&self.pos, text, self.notation(core)) {
                Ok(m) => searchmoves.push(m),
                Err(e) => core.out.error(&format!("go searchmoves: {e}; skipped")),
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

    fn go(&mut self, core: &mut Core, go: &Go) {
        for p in &go.problems {
            core.out.error(p);
        }
        let limits = self.limits(core, go);
        self.banmoves.clear();
        self.replace_job(core);
        let render = match core.dialect() {
            Dialect::Ucci => Render::Ucci {
                multipv: core.config.settings.multipv > 1,
            },
            _ => Render::Uci {
                n: self.notation(core),
                wdl: core.config.settings.show_wdl,
            },
        };
        let pos = self.pos.clone();
        core.start(Purpose::Go, move |ctx| {
            Some(worker::search(ctx, &pos, &limits, render))
        });
    }

    fn setup(&mut self, core: &mut Core, han: Option<Setup>, movetime: Option<u64>) {
        self.replace_job(core);
        let q = SetupQuery {
            han,
            budget_ms: movetime.unwrap_or(setup::DEFAULT_MS),
            rules: core.config.variant,
        };
        core.start(Purpose::Other, move |ctx| {
            let choice = setup::choose(&mut ctx.engine(), &q, &ctx.control, &ctx.out);
            ctx.out.line(&format!("setup {choice}"));
            None
        });
    }
}
