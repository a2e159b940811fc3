//! `janggun selfplay`: games of the engine against itself at a fixed node
//! count, for tuning data. The first plies are random (from all 16 setups)
//! so that games differ; the rules core decides how each game ends.
//! Output lines: `<start fen> | <result, Cho's view: 1, 0.5, 0> | <moves>`.

use crate::board::notation::setup_fen;
use crate::board::rules::game_end;
use crate::board::{legal_moves, MoveList, Outcome, Position, RuleSet, Setup};
use crate::search::{Control, Engine, Limits, Settings};
use std::io::Write;

pub fn run(games: usize, nodes: u64, random_plies: usize, seed: u64) -> Result<(), String> {
    // Tuning data for the classical weights comes from classical games, as
    // it did when the shipped weights were tuned (scripts/lab/tune.sh).
    let mut engine = Engine::new(Settings {
        nnue: None,
        ..Settings::default()
    });
    let mut rng = seed.max(1);
    let mut rand = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let control = Control::new();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let stdout = std::io::stdout();
    for g in 0..games {
        let cho = Setup::ALL[(g / 4) % 4];
        let han = Setup::ALL[g % 4];
        let fen = setup_fen(cho, han);
        let mut pos = Position::from_fen(&fen, RuleSet::Janggi).map_err(|e| e.to_string())?;
        engine.clear();
        let mut moves = Vec::new();
        let result = loop {
            if let Some(end) = game_end(&pos) {
                break match end.outcome {
                    Outcome::Win(crate::board::Color::Cho) => "1",
                    Outcome::Win(_) => "0",
                    Outcome::Draw => "0.5",
                };
            }
            if moves.len() >= 300 {
                break "0.5";
            }
            let m = if moves.len() < random_plies {
                let mut list = MoveList::new();
                legal_moves(&pos, &mut list);
                // No random passes: they end games early.
                list.retain(|m| !m.is_pass());
                if list.is_empty() {
                    legal_moves(&pos, &mut list);
                }
                list.as_slice()[(rand() % list.len() as u64) as usize]
            } else {
                control.reset();
                match engine.search(&pos, &limits, &control, &mut |_| {}).best {
                    Some(m) => m,
                    None => break "0.5",
                }
            };
            pos.make(m);
            moves.push(m.to_string());
        };
        let mut out = stdout.lock();
        writeln!(out, "{fen} | {result} | {}", moves.join(" ")).map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}
