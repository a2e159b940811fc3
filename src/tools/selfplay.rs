//! Self-play: the one game loop behind `janggun selfplay` (classical tuning
//! data, text lines) and `janggun datagen` (NNUE records,
//! `crate::train::datagen`). The first plies are random so that games
//! differ; the rules core decides how each game ends.
//!
//! `janggun selfplay` writes lines
//! `<start fen> | <result, Cho's view: 1, 0.5, 0> | <moves>`.

use crate::board::notation::setup_fen;
use crate::board::rules::game_end;
use crate::board::{legal_moves, Color, Move, MoveList, Outcome, Position, RuleSet, Setup};
use crate::search::{Control, Engine, Limits, SearchResult, Settings};
use crate::util::rng::Rng;
use std::io::Write;

/// A game still going after this many plies is stopped (the rules' move
/// limit counts only plies without a capture, so a game can run on).
pub const MAX_GAME_PLIES: usize = 600;

/// How a self-play game stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The rules ended it.
    Over(Outcome),
    /// It reached `MAX_GAME_PLIES`.
    TooLong,
    /// The search found no move where the rules saw no end.
    NoMove,
    /// The referee ended it with this outcome before the rules did.
    Adjudicated(Outcome),
    /// The referee refused the position after the random plies.
    Rejected,
}

/// What a caller decides while its game is played; `janggun selfplay`
/// decides nothing ([`NoReferee`]), `janggun datagen` verifies openings and
/// adjudicates.
pub trait Referee {
    /// Sees the position once the random plies are played (the game not
    /// over), before its first search; `false` drops the game.
    fn opening(&mut self, _engine: &mut Engine, _pos: &Position) -> bool {
        true
    }

    /// Sees every searched position with the search's result before its
    /// move is made; `Some` ends the game there with that outcome.
    fn searched(&mut self, pos: &Position, r: &SearchResult) -> Option<Outcome>;
}

/// Plays every game out to the rules' end (or `MAX_GAME_PLIES`).
pub struct NoReferee;

impl Referee for NoReferee {
    fn searched(&mut self, _: &Position, _: &SearchResult) -> Option<Outcome> {
        None
    }
}

/// A played game: its moves from the start position and how it stopped.
pub struct Game {
    pub moves: Vec<Move>,
    pub stop: Stop,
}

/// The start position of game `n` when no openings are given: the 16
/// setup pairs in turn.
pub fn setup_start(n: u64) -> String {
    let g = n as usize;
    setup_fen(Setup::ALL[(g / 4) % 4], Setup::ALL[g % 4])
}

/// Plays one game from `start`: `random_plies` random moves (passes only
/// where nothing else is legal, since they end games early), then the
/// engine's moves under `limits`, `referee` watching.
pub fn play(
    engine: &mut Engine,
    mut pos: Position,
    random_plies: usize,
    limits: &Limits,
    rng: &mut Rng,
    referee: &mut dyn Referee,
) -> Game {
    engine.clear();
    let control = Control::new();
    let mut moves = Vec::new();
    let stop = loop {
        if let Some(end) = game_end(&pos) {
            break Stop::Over(end.outcome);
        }
        if moves.len() >= MAX_GAME_PLIES {
            break Stop::TooLong;
        }
        let m = if moves.len() < random_plies {
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            list.retain(|m| !m.is_pass());
            if list.is_empty() {
                legal_moves(&pos, &mut list);
            }
            if list.is_empty() {
                break Stop::NoMove;
            }
            list.as_slice()[rng.below(list.len())]
        } else {
            if moves.len() == random_plies && !referee.opening(engine, &pos) {
                break Stop::Rejected;
            }
            control.reset();
            let r = engine.search(&pos, limits, &control, &mut |_| {});
            let Some(m) = r.best else {
                break Stop::NoMove;
            };
            if let Some(outcome) = referee.searched(&pos, &r) {
                break Stop::Adjudicated(outcome);
            }
            m
        };
        pos.make(m);
        moves.push(m);
    };
    Game { moves, stop }
}

/// `janggun selfplay`: `games` games at `nodes` nodes a move; game `n`
/// starts from setup pair `n` and draws its random plies from (seed, n).
pub fn run(games: usize, nodes: u64, random_plies: usize, seed: u64) -> Result<(), String> {
    // Tuning data for the classical weights comes from classical games, as
    // it did when the shipped weights were tuned (scripts/lab/tune.sh).
    let mut engine = Engine::new(Settings {
        eval: crate::nnue::Evaluator::classical(),
        ..Settings::default()
    });
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let stdout = std::io::stdout();
    for g in 0..games as u64 {
        let fen = setup_start(g);
        let pos = Position::from_fen(&fen, RuleSet::Janggi).map_err(|e| e.to_string())?;
        let mut rng = Rng::stream(seed, g);
        let game = play(
            &mut engine,
            pos,
            random_plies,
            &limits,
            &mut rng,
            &mut NoReferee,
        );
        // A game the rules did not end counts as a draw.
        let result = match game.stop {
            Stop::Over(Outcome::Win(Color::Cho)) => "1",
            Stop::Over(Outcome::Win(_)) => "0",
            _ => "0.5",
        };
        let moves: Vec<String> = game.moves.iter().map(|m| m.to_string()).collect();
        let mut out = stdout.lock();
        writeln!(out, "{fen} | {result} | {}", moves.join(" ")).map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}
