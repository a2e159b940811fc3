//! A CECP (XBoard/WinBoard/QBoard) conversation. Unlike UCI, the engine
//! keeps the game: it knows which side it plays, moves on its own, and
//! claims the result when a move ends the game (with `-xlegal` the GUI
//! judges nothing). Searches run on a worker thread; their answer comes
//! back to the command loop as an `Event`, so that it is played on the
//! loop's position, in order with the GUI's commands.

use super::cecp::{self, Cecp};
use super::command::ParseError;
use super::options::{self, Config, Effect, Kind};
use super::output::Writer;
use super::Event;
use crate::board::{
    game_end, movegen::is_legal, parse_move, Color, Move, Notation, Position, RuleSet,
};
use crate::search::{Control, Engine, Limits, Report};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

/// XBoard's piece slots mapped to Janggi's letters, as Fairy-Stockfish
/// sends them (horse N, chariot R, guard A, elephant B, soldier P, cannon
/// C, general K). Observed with XBoard 4.9.1: with the soldier in the
/// chess pawn's slot (`PH.R.AE..K.C.`, a shorter table) XBoard appends a promotion
/// suffix to a soldier reaching the last rank, and without `piece`
/// definitions its SAN is ambiguous for guards (`Ae8`), so that saved
/// games cannot be replayed.
const PIECE_MAP: &str = "(.N.R.AB.P..C.........K.n.r.ab.p..c.........k)";
/// How each piece moves, in Betza notation, for XBoard's drawing and SAN.
const PIECES: [&str; 7] = [
    "piece R& RB",
    "piece C& pRpB",
    "piece P& fsWfF",
    "piece N& nN",
    "piece B& mafsmafW",
    "piece A& WF",
    "piece K& WF",
];

/// What a running search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Purpose {
    /// Its answer is played.
    Play,
    /// On the position after the move we expect; a matching `usermove`
    /// turns it into a `Play` search.
    Ponder(Move),
    Analyze,
}

struct Job {
    handle: JoinHandle<()>,
    id: u64,
    purpose: Purpose,
}

/// The clock as CECP gives it.
#[derive(Clone, Debug)]
struct Clock {
    /// Moves per session (0: the whole game).
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    /// `st`: a fixed time per move.
    per_move_ms: Option<u64>,
    depth: Option<u32>,
    /// From `time`: what is left on the engine's clock.
    own_ms: Option<u64>,
}

pub struct Xboard {
    out: Writer,
    events: Sender<Event>,
    config: Config,
    pos: Position,
    engine: Arc<Mutex<Engine>>,
    control: Control,
    job: Option<Job>,
    next_id: u64,
    /// The side the engine plays; `None` in force mode.
    plays: Option<Color>,
    analyzing: bool,
    post: bool,
    ponder: bool,
    clock: Clock,
    /// The game has ended (claimed, or `result` received): no more moves.
    over: bool,
}

impl Xboard {
    pub fn new(out: Writer, events: Sender<Event>) -> Xboard {
        let config = Config::default();
        Xboard {
            out,
            events,
            pos: Position::startpos(config.variant),
            engine: Arc::new(Mutex::new(Engine::new(config.settings.clone()))),
            config,
            control: Control::new(),
            job: None,
            next_id: 1,
            plays: None,
            analyzing: false,
            post: false,
            ponder: false,
            clock: Clock {
                mps: 40,
                base_ms: 300_000,
                inc_ms: 0,
                per_move_ms: None,
                depth: None,
                own_ms: None,
            },
            over: false,
        }
    }

    /// Handles one line; false after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.out.log_input(line);
        match line.parse::<Cecp>() {
            Ok(cmd) => self.execute(cmd),
            Err(ParseError::Empty) => true,
            Err(ParseError::Unknown(w)) => {
                self.out.line(&format!("Error (unknown command): {w}"));
                true
            }
            Err(ParseError::Invalid(m)) => {
                self.out.line(&format!(
                    "Error ({}): {}",
                    crate::text::escape(&m),
                    line.trim()
                ));
                true
            }
        }
    }

    fn execute(&mut self, cmd: Cecp) -> bool {
        match cmd {
            Cecp::Xboard | Cecp::Accepted | Cecp::Rejected | Cecp::Ignored => {}
            Cecp::Protover(_) => self.features(),
            Cecp::New => {
                self.halt();
                self.pos = Position::startpos(self.config.variant);
                self.plays = Some(Color::Han);
                self.over = false;
                self.clock.depth = None;
                self.clock.per_move_ms = None;
                self.engine_mut().clear();
            }
            Cecp::Variant(name) => self.variant(&name),
            Cecp::Force => {
                self.halt();
                self.plays = None;
            }
            Cecp::Go => {
                self.halt();
                self.plays = Some(self.pos.side_to_move());
                self.think();
            }
            Cecp::PlayOther => {
                self.halt();
                self.plays = Some(!self.pos.side_to_move());
                self.start_ponder(None);
            }
            Cecp::UserMove(m) => self.user_move(&m),
            Cecp::SetBoard(fen) => self.set_board(&fen),
            Cecp::Undo => self.take_back(1),
            Cecp::Remove => self.take_back(2),
            Cecp::Result => {
                self.halt();
                self.over = true;
            }
            Cecp::Level {
                mps,
                base_ms,
                inc_ms,
            } => {
                self.clock.mps = mps;
                self.clock.base_ms = base_ms;
                self.clock.inc_ms = inc_ms;
                self.clock.per_move_ms = None;
            }
            Cecp::St(ms) => self.clock.per_move_ms = Some(ms.max(1)),
            Cecp::Sd(d) => self.clock.depth = Some(d.max(1)),
            Cecp::Time(ms) => self.clock.own_ms = Some(ms),
            Cecp::Otim(_) => {}
            Cecp::MoveNow => {
                if self
                    .job
                    .as_ref()
                    .is_some_and(|j| j.purpose == Purpose::Play)
                {
                    self.control.stop();
                }
            }
            Cecp::Ping(n) => self.out.line(&format!("pong {n}")),
            Cecp::Post(on) => self.post = on,
            Cecp::Hard(on) => {
                self.ponder = on;
                if !on
                    && matches!(
                        self.job.as_ref().map(|j| j.purpose),
                        Some(Purpose::Ponder(_))
                    )
                {
                    self.halt();
                }
            }
            Cecp::Analyze => {
                self.halt();
                self.analyzing = true;
                self.analyze();
            }
            Cecp::Exit => {
                self.halt();
                self.analyzing = false;
            }
            Cecp::Status => {}
            Cecp::Memory(mb) => self.option("Hash", Some(&mb.to_string())),
            Cecp::Cores(n) => self.option("Threads", Some(&n.to_string())),
            Cecp::Option { name, value } => self.option(&name, value.as_deref()),
            Cecp::Quit => {
                self.halt();
                return false;
            }
        }
        true
    }

    fn engine_mut(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn features(&self) {
        let variants: Vec<&str> = RuleSet::NAMES.to_vec();
        self.out.line("feature done=0");
        self.out.line(&format!(
            "feature setboard=1 usermove=1 time=1 memory=1 smp=1 colors=0 draw=0 \
             highlight=0 name=0 sigint=0 sigterm=0 ping=1 analyze=1 reuse=1 \
             myname=\"{} {}\" variants=\"{}\"",
            super::uci::ENGINE_NAME,
            env!("CARGO_PKG_VERSION"),
            variants.join(",")
        ));
        for d in options::OPTIONS.iter().filter(|d| cecp_option(d.id)) {
            let default = options::current(&self.config, d.id);
            let kind = match d.kind {
                Kind::Check => format!("-check {}", u8::from(default == "true")),
                Kind::Spin { min, max } => format!("-spin {default} {min} {max}"),
                Kind::Combo(vars) => {
                    let marked: Vec<String> = vars
                        .iter()
                        .map(|v| {
                            if *v == default {
                                format!("*{v}")
                            } else {
                                v.to_string()
                            }
                        })
                        .collect();
                    format!("-combo {}", marked.join(" /// "))
                }
                Kind::Button => "-button".to_string(),
                Kind::Text => format!("-string {default}"),
            };
            self.out
                .line(&format!("feature option=\"{} {kind}\"", d.uci));
        }
        self.out.line("feature done=1");
    }

    fn option(&mut self, name: &str, value: Option<&str>) {
        let Some(def) = options::find(name) else {
            self.out.line(&format!(
                "Error (unknown option): {}",
                crate::text::clip(name)
            ));
            return;
        };
        // XBoard writes a check box as 0/1.
        let value = match (def.kind, value) {
            (Kind::Check, Some("1")) => Some("true"),
            (Kind::Check, Some("0")) => Some("false"),
            (_, v) => v,
        };
        match options::set(&mut self.config, def, value) {
            Err(e) => self.out.line(&format!(
                "Error ({}): option {name}",
                crate::text::escape(&e)
            )),
            Ok(Effect::Settings | Effect::ClearHash) => {
                self.halt();
                let engine = self.engine.clone();
                let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(e) = engine.apply(self.config.settings.clone()) {
                    self.config.settings.hash_mb = engine.settings().hash_mb;
                    self.out.line(&format!("Error (Hash): {e}"));
                }
                if def.id == options::Id::ClearHash {
                    engine.clear();
                }
            }
            Ok(Effect::Variant) => {
                let name = self.config.variant.name();
                self.variant(name);
            }
            Ok(Effect::DebugLog) => {
                if let Err(e) = self.out.set_log(&self.config.debug_log) {
                    self.config.debug_log.clear();
                    self.out.line(&format!(
                        "Error (Debug Log File): {}",
                        crate::text::escape(&e)
                    ));
                }
            }
            Ok(Effect::None) => {}
        }
    }

    fn variant(&mut self, name: &str) {
        let Ok(rules) = name.parse::<RuleSet>() else {
            self.out.line(&format!(
                "Error (unsupported variant): {}",
                crate::text::clip(name)
            ));
            return;
        };
        self.halt();
        self.config.variant = rules;
        self.pos = Position::startpos(rules);
        self.over = false;
        self.out.line(&format!(
            "setup {PIECE_MAP} 9x10+0_xiangqi {}",
            crate::board::START_FEN
        ));
        for p in PIECES {
            self.out.line(p);
        }
    }

    /// End of input: stop searching and leave.
    pub fn shutdown(&mut self) {
        self.halt();
    }

    /// Stops whatever runs and waits for it; its answer is not played.
    fn halt(&mut self) {
        if let Some(job) = self.job.take() {
            self.control.stop();
            let _ = job.handle.join();
        }
    }

    fn parse(&self, text: &str) -> Result<Move, String> {
        // XBoard may append a promotion suffix (`g1g0.`, `g1g0=`) to a
        // soldier's move onto the last rank; Janggi has no promotion.
        let core = match text.get(..4) {
            Some(c) if text.len() > 4 && !text[4..].chars().any(|c| c.is_ascii_digit()) => c,
            _ => text,
        };
        parse_move(&self.pos, core, Notation::Ucci)
    }

    fn user_move(&mut self, text: &str) {
        if self.over {
            self.out.line(&format!(
                "Illegal move (the game is over): {}",
                crate::text::clip(text)
            ));
            return;
        }
        let m = match self.parse(text) {
            Ok(m) => m,
            Err(e) => {
                self.out.line(&format!(
                    "Illegal move ({}): {}",
                    crate::text::escape(&e),
                    crate::text::clip(text)
                ));
                return;
            }
        };
        // The move we pondered on: the search goes on, now for real.
        if let Some(job) = self.job.as_mut() {
            if job.purpose == Purpose::Ponder(m) {
                job.purpose = Purpose::Play;
                self.pos.make(m);
                self.control.ponderhit();
                if self.claim_if_over() {
                    self.halt();
                }
                return;
            }
        }
        self.halt();
        self.play(m);
    }

    /// A move by the GUI's side (or a pass read from `setboard`): made,
    /// judged, and answered if it is now the engine's turn.
    fn play(&mut self, m: Move) {
        self.pos.make(m);
        if self.claim_if_over() {
            return;
        }
        if self.analyzing {
            self.analyze();
        } else if self.plays == Some(self.pos.side_to_move()) {
            self.think();
        }
    }

    /// Claims the result if the game is over (checkmate, bikjang, two
    /// passes, repetition, the move limit, under the rule set in force).
    fn claim_if_over(&mut self) -> bool {
        let Some(end) = game_end(&self.pos) else {
            return false;
        };
        self.out.line(&cecp::claim(&end));
        self.over = true;
        true
    }

    /// `setboard`: a new position, unless it is the current one with only
    /// the side to move changed, which is how XBoard sends a pass.
    fn set_board(&mut self, fen: &str) {
        let fen = with_castling_fields(fen);
        let pos = match Position::from_fen(&fen, self.config.variant) {
            Ok(p) => p,
            Err(e) => {
                self.out.line(&format!(
                    "tellusererror Illegal position: {}",
                    crate::text::escape(&e.to_string())
                ));
                return;
            }
        };
        if !self.over && self.is_pass_of(&pos) {
            let pass = Move::pass(self.pos.king(self.pos.side_to_move()));
            if is_legal(&self.pos, pass) {
                self.halt();
                self.play(pass);
                return;
            }
        }
        self.halt();
        self.pos = pos;
        self.over = false;
        if self.analyzing {
            self.analyze();
        }
    }

    fn is_pass_of(&self, next: &Position) -> bool {
        let board = |p: &Position| p.to_fen().split(' ').next().unwrap_or("").to_string();
        next.side_to_move() != self.pos.side_to_move() && board(next) == board(&self.pos)
    }

    fn take_back(&mut self, plies: usize) {
        self.halt();
        for _ in 0..plies {
            if self.pos.game_ply() == 0 {
                break;
            }
            self.pos.unmake();
        }
        self.over = false;
        if self.analyzing {
            self.analyze();
        }
    }

    fn limits(&self) -> Limits {
        let c = &self.clock;
        let mut l = Limits {
            depth: c.depth,
            received: Some(std::time::Instant::now()),
            ..Limits::default()
        };
        if let Some(ms) = c.per_move_ms {
            // XBoard's `st` clock also runs while the move travels: keep a
            // tenth (at most half a second) in hand.
            l.movetime = Some(ms - (ms / 10).min(500));
        } else {
            l.time = Some(c.own_ms.unwrap_or(c.base_ms));
            l.inc = Some(c.inc_ms);
            if c.mps > 0 {
                let done = (self.pos.game_ply() / 2) as u32;
                l.movestogo = Some(c.mps - done % c.mps);
            }
        }
        l
    }

    fn think(&mut self) {
        if self.over {
            return;
        }
        let limits = self.limits();
        self.spawn(self.pos.clone(), limits, Purpose::Play);
    }

    /// Pondering (`hard`): the position after the reply we expect, searched
    /// with our clock, until the GUI's move says whether we guessed right.
    fn start_ponder(&mut self, expected: Option<Move>) {
        if !self.ponder || self.over || self.analyzing {
            return;
        }
        let Some(m) = expected else {
            return;
        };
        let mut pos = self.pos.clone();
        pos.make(m);
        if game_end(&pos).is_some() {
            return;
        }
        let limits = Limits {
            ponder: true,
            ..self.limits()
        };
        self.spawn(pos, limits, Purpose::Ponder(m));
    }

    fn analyze(&mut self) {
        self.halt();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        if game_end(&self.pos).is_none() {
            self.spawn(self.pos.clone(), limits, Purpose::Analyze);
        }
    }

    fn spawn(&mut self, pos: Position, limits: Limits, purpose: Purpose) {
        self.halt();
        self.control.reset();
        let id = self.next_id;
        self.next_id += 1;
        let (engine, control, out, events) = (
            self.engine.clone(),
            self.control.clone(),
            self.out.clone(),
            self.events.clone(),
        );
        let post = self.post || purpose == Purpose::Analyze;
        let handle = thread::spawn(move || {
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            let mut report = |r: Report| {
                if let (true, Report::Info(i)) = (post, r) {
                    out.line(&cecp::thinking(&i));
                }
            };
            let r = engine.search(&pos, &limits, &control, &mut report);
            drop(engine);
            // Infinite and ponder searches end only on `stop`/`ponderhit`.
            while (limits.infinite || (limits.ponder && !control.pondering_hit()))
                && !control.stopped()
            {
                thread::sleep(std::time::Duration::from_millis(1));
            }
            let _ = events.send(Event::SearchDone {
                id,
                best: r.best,
                ponder: r.ponder,
            });
        });
        self.job = Some(Job {
            handle,
            id,
            purpose,
        });
    }

    /// A search finished: a `Play` search's move is made and sent.
    pub fn search_done(&mut self, id: u64, best: Option<Move>, ponder: Option<Move>) {
        let Some(job) = self.job.as_ref().filter(|j| j.id == id) else {
            return;
        };
        if job.purpose != Purpose::Play {
            return;
        }
        if let Some(job) = self.job.take() {
            let _ = job.handle.join();
        }
        if self.over || self.plays != Some(self.pos.side_to_move()) {
            return;
        }
        let Some(m) = best.filter(|&m| is_legal(&self.pos, m)) else {
            // No legal move: the game is over, so say how.
            self.claim_if_over();
            return;
        };
        self.pos.make(m);
        self.out.line(&format!("move {}", cecp::move_text(m)));
        if !self.claim_if_over() {
            self.start_ponder(ponder.filter(|&p| is_legal(&self.pos, p)));
        }
    }
}

/// XBoard writes FENs with or without the castling and en-passant fields
/// (`... w - - 0 1` and `... w 0 1`); the FEN reader wants them.
fn with_castling_fields(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    if f.len() == 4 && f[2].parse::<u32>().is_ok() && f[3].parse::<u32>().is_ok() {
        format!("{} {} - - {} {}", f[0], f[1], f[2], f[3])
    } else {
        f.join(" ")
    }
}

/// Options CECP sets with its own commands (`variant`, `memory`, `cores`,
/// `hard`, `analyze`) or that mean nothing here are not offered again.
fn cecp_option(id: options::Id) -> bool {
    use options::Id;
    !matches!(
        id,
        Id::Variant | Id::Threads | Id::Hash | Id::Ponder | Id::AnalyseMode | Id::UseMillisec
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fens_without_castling_fields_read() {
        assert_eq!(
            with_castling_fields("9/9 w 0 1"),
            "9/9 w - - 0 1".to_string()
        );
        assert_eq!(with_castling_fields("9/9 w - - 3 7"), "9/9 w - - 3 7");
        assert_eq!(with_castling_fields("9/9 b"), "9/9 b");
    }
}
