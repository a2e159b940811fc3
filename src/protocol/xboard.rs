//! A CECP (XBoard/WinBoard/QBoard) conversation. Unlike UCI, the engine
//! keeps the game: it knows which side it plays, moves on its own, and
//! claims the result when a move ends the game (with `-xlegal` the GUI
//! judges nothing). Searches are the core's jobs; their answer is collected
//! on the command loop and played on its position, in order with the GUI's
//! commands.

use super::cecp::{self, Cecp};
use super::command::ParseError;
use super::core::{Core, Finished, OptionOutcome, Purpose};
use super::dialect::Dialect;
use super::options::{self, Effect};
use super::worker::{self, Render};
use super::Flow;
use crate::board::{
    game_end, movegen::is_legal, parse_move, Color, Move, Notation, Position, RuleSet,
};
use crate::search::Limits;
use crate::util::text;

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

pub struct CecpSession {
    pos: Position,
    /// The side the engine plays; `None` in force mode.
    plays: Option<Color>,
    analyzing: bool,
    post: bool,
    ponder: bool,
    clock: Clock,
    /// The game has ended (claimed, or `result` received): no more moves.
    over: bool,
}

impl CecpSession {
    pub fn new(core: &Core) -> CecpSession {
        CecpSession {
            pos: Position::startpos(core.config.variant),
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

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Handles one line.
    pub fn handle_line(&mut self, core: &mut Core, line: &str) -> Flow {
        match line.parse::<Cecp>() {
            Ok(cmd) => self.execute(core, cmd),
            Err(ParseError::Empty) => Flow::Continue,
            Err(ParseError::Unknown(w)) => {
                core.out.line(&format!("Error (unknown command): {w}"));
                Flow::Continue
            }
            Err(ParseError::Invalid(m)) => {
                core.error(line.trim(), &m);
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, core: &mut Core, cmd: Cecp) -> Flow {
        match cmd {
            Cecp::Xboard | Cecp::Accepted | Cecp::Rejected | Cecp::Ignored => {}
            Cecp::Protover(_) => features(core),
            Cecp::New => {
                core.finish();
                self.pos = Position::startpos(core.config.variant);
                self.plays = Some(Color::Han);
                self.over = false;
                self.clock.depth = None;
                self.clock.per_move_ms = None;
                core.clear_hash();
            }
            Cecp::Variant(name) => self.variant(core, &name),
            Cecp::Force => {
                core.finish();
                self.plays = None;
            }
            Cecp::Go => {
                core.finish();
                self.plays = Some(self.pos.side_to_move());
                self.think(core);
            }
            Cecp::PlayOther => {
                core.finish();
                self.plays = Some(!self.pos.side_to_move());
                self.start_ponder(core, None);
            }
            Cecp::UserMove(m) => self.user_move(core, &m),
            Cecp::SetBoard(fen) => self.set_board(core, &fen),
            Cecp::Undo => self.take_back(core, 1),
            Cecp::Remove => self.take_back(core, 2),
            Cecp::Result => {
                core.finish();
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
                // Collected here, not when the worker's event comes round:
                // the move must come before the answer to a later `ping`.
                if core.running() == Some(Purpose::Play) {
                    if let Some(f) = core.finish() {
                        self.finished(core, f);
                    }
                }
            }
            Cecp::Ping(n) => core.out.line(&format!("pong {n}")),
            Cecp::Post(on) => self.post = on,
            Cecp::Hard(on) => {
                self.ponder = on;
                if !on && matches!(core.running(), Some(Purpose::Ponder(_))) {
                    core.finish();
                }
            }
            Cecp::Analyze => {
                self.analyzing = true;
                self.analyze(core);
            }
            Cecp::Exit => {
                core.finish();
                self.analyzing = false;
            }
            Cecp::Status => {}
            Cecp::Memory(mb) => self.option(core, "Hash", Some(&mb.to_string())),
            Cecp::Cores(n) => self.option(core, "Threads", Some(&n.to_string())),
            Cecp::Option { name, value } => self.option(core, &name, value.as_deref()),
            Cecp::Quit => {
                core.shutdown(super::QUIT_GRACE);
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// A setting never costs the engine its move: a search goes on and the
    /// engine takes the setting when it ends. An analysis restarts with it,
    /// since it has no clock to lose.
    fn option(&mut self, core: &mut Core, name: &str, value: Option<&str>) {
        match core.set_option(name, value) {
            OptionOutcome::Unknown | OptionOutcome::Ignored => core
                .out
                .line(&format!("Error (unknown option): {}", text::clip(name))),
            OptionOutcome::Refused { error, .. } => core.error(&format!("option {name}"), &error),
            OptionOutcome::Set(_, Effect::Variant) => {
                let name = core.config.variant.name();
                self.variant(core, name);
            }
            OptionOutcome::Set(_, Effect::Settings | Effect::ClearHash) => {
                if core.running() == Some(Purpose::Analyze) {
                    self.analyze(core);
                }
            }
            OptionOutcome::Set(..) => {}
        }
    }

    fn variant(&mut self, core: &mut Core, name: &str) {
        let Ok(rules) = name.parse::<RuleSet>() else {
            core.out.line(&format!(
                "Error (unsupported variant): {}",
                text::clip(name)
            ));
            return;
        };
        core.finish();
        core.config.variant = rules;
        self.pos = Position::startpos(rules);
        self.over = false;
        core.out.line(&format!(
            "setup {PIECE_MAP} 9x10+0_xiangqi {}",
            crate::board::START_FEN
        ));
        for p in PIECES {
            core.out.line(p);
        }
    }

    fn user_move(&mut self, core: &mut Core, text: &str) {
        let refuse = |core: &Core, why: &str| {
            core.out.line(&format!(
                "Illegal move ({}): {}",
                text::escape(why),
                text::clip(text)
            ));
        };
        if self.over {
            return refuse(core, "the game is over");
        }
        // While the engine thinks it is the engine's turn: a move for its
        // side from the GUI is refused and the search goes on.
        if core.running() == Some(Purpose::Play) {
            return refuse(core, "the engine is to move");
        }
        let m = match parse_cecp_move(&self.pos, text) {
            Ok(m) => m,
            Err(e) => return refuse(core, &e),
        };
        // The move we pondered on: the search goes on, now for real.
        if core.running() == Some(Purpose::Ponder(m)) {
            core.repurpose(Purpose::Play);
            self.pos.make(m);
            core.ponderhit();
            if self.claim_if_over(core) {
                core.finish();
            }
            return;
        }
        core.finish();
        self.play(core, m);
    }

    /// A move by the GUI's side (or a pass read from `setboard`): made,
    /// judged, and answered if it is now the engine's turn.
    fn play(&mut self, core: &mut Core, m: Move) {
        self.pos.make(m);
        if self.claim_if_over(core) {
            return;
        }
        if self.analyzing {
            self.analyze(core);
        } else if self.plays == Some(self.pos.side_to_move()) {
            self.think(core);
        }
    }

    /// Claims the result if the game is over (checkmate, bikjang, two
    /// passes, repetition, the move limit, under the rule set in force).
    fn claim_if_over(&mut self, core: &Core) -> bool {
        let Some(end) = game_end(&self.pos) else {
            return false;
        };
        core.out.line(&cecp::claim(&end));
        self.over = true;
        true
    }

    /// `setboard`: a new position, unless it is the current one with only
    /// the side to move changed, which is how XBoard sends a pass.
    fn set_board(&mut self, core: &mut Core, fen: &str) {
        let fen = with_castling_fields(fen);
        let pos = match Position::from_fen(&fen, core.config.variant) {
            Ok(p) => p,
            Err(e) => {
                core.out.line(&format!(
                    "tellusererror Illegal position: {}",
                    text::escape(&e.to_string())
                ));
                return;
            }
        };
        if core.running() == Some(Purpose::Play) {
            core.out.line(&format!(
                "Error (the engine is to move): setboard {}",
                text::clip(&fen)
            ));
            return;
        }
        if !self.over && self.is_pass_of(&pos) {
            let pass = Move::pass(self.pos.king(self.pos.side_to_move()));
            if is_legal(&self.pos, pass) {
                core.finish();
                self.play(core, pass);
                return;
            }
        }
        core.finish();
        self.pos = pos;
        self.over = false;
        if self.analyzing {
            self.analyze(core);
        }
    }

    fn is_pass_of(&self, next: &Position) -> bool {
        let board = |p: &Position| p.to_fen().split(' ').next().unwrap_or("").to_string();
        next.side_to_move() != self.pos.side_to_move() && board(next) == board(&self.pos)
    }

    fn take_back(&mut self, core: &mut Core, plies: usize) {
        core.finish();
        for _ in 0..plies {
            if self.pos.game_ply() == 0 {
                break;
            }
            self.pos.unmake();
        }
        self.over = false;
        if self.analyzing {
            self.analyze(core);
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

    fn think(&mut self, core: &mut Core) {
        if self.over {
            return;
        }
        let limits = self.limits();
        self.search(core, self.pos.clone(), limits, Purpose::Play);
    }

    /// Pondering (`hard`): the position after the reply we expect, searched
    /// with our clock, until the GUI's move says whether we guessed right.
    fn start_ponder(&mut self, core: &mut Core, expected: Option<Move>) {
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
        self.search(core, pos, limits, Purpose::Ponder(m));
    }

    fn analyze(&mut self, core: &mut Core) {
        core.finish();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        if game_end(&self.pos).is_none() {
            self.search(core, self.pos.clone(), limits, Purpose::Analyze);
        }
    }

    fn search(&mut self, core: &mut Core, pos: Position, limits: Limits, purpose: Purpose) {
        let render = Render::Cecp {
            post: self.post || purpose == Purpose::Analyze,
        };
        core.start(purpose, move |ctx| {
            Some(worker::search(ctx, &pos, &limits, render))
        });
    }

    /// A job was collected: a `Play` search's move is made and sent.
    pub fn finished(&mut self, core: &mut Core, f: Finished) {
        let (Purpose::Play, Some(answer)) = (f.purpose, f.answer) else {
            return;
        };
        if self.over || self.plays != Some(self.pos.side_to_move()) {
            return;
        }
        let Some(m) = answer.best.filter(|&m| is_legal(&self.pos, m)) else {
            // No legal move: the game is over, so say how.
            self.claim_if_over(core);
            return;
        };
        self.pos.make(m);
        core.out.line(&format!("move {}", cecp::move_text(m)));
        if !self.claim_if_over(core) {
            let ponder = answer.ponder.filter(|&p| is_legal(&self.pos, p));
            self.start_ponder(core, ponder);
        }
    }
}

/// `protover 2`: the features, with the options as `feature option=` lines
/// rendered from the one table.
fn features(core: &Core) {
    let out = &core.out;
    out.line("feature done=0");
    out.line(&format!(
        "feature setboard=1 usermove=1 time=1 memory=1 smp=1 colors=0 draw=0 \
         highlight=0 name=0 sigint=0 sigterm=0 ping=1 analyze=1 reuse=1 playother=1 \
         myname=\"{} {}\" variants=\"{}\"",
        super::uci::ENGINE_NAME,
        env!("CARGO_PKG_VERSION"),
        RuleSet::NAMES.join(",")
    ));
    let defaults = options::Config::default();
    for d in options::listed(Dialect::Cecp) {
        out.line(&options::render(Dialect::Cecp, &defaults, d));
    }
    out.line("feature done=1");
}

/// Marks XBoard may append to a move (a promotion choice on a soldier
/// reaching the last rank); Janggi has no promotion, so they are read as
/// nothing. Anything else after a move makes it illegal.
const PROMOTION_MARKS: &str = "=.+pnbrqkfeacwmohijgdvlsu";

/// A move as CECP writes it: ranks 0..9, `@@@@` for a pass.
fn parse_cecp_move(pos: &Position, text: &str) -> Result<Move, String> {
    let core = match text.char_indices().nth(4) {
        // Four characters of a square pair, then at most one mark.
        Some((i, c))
            if text.len() == i + c.len_utf8()
                && PROMOTION_MARKS.contains(c)
                && text[..i].bytes().all(|b| b.is_ascii_alphanumeric()) =>
        {
            &text[..i]
        }
        _ => text,
    };
    parse_move(pos, core, Notation::Ucci)
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
