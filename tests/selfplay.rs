//! Replays Fairy-Stockfish self-play games: every move must parse as legal,
//! the final FEN must match, and the recorded ending must be detected with
//! the right winner.

use janggun::board::rules::{count_winner, immediate_end};
use janggun::board::{parse_move, EndReason, Notation, Outcome, Position, RuleSet};

struct Game {
    header: String,
    end: String,
    final_fen: String,
    start: String,
    moves: Vec<String>,
}

fn games() -> Vec<Game> {
    let path = format!(
        "{}/tests/data/selfplay_games.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if !line.starts_with("[game") {
            continue;
        }
        let end = line
            .split("end=")
            .nth(1)
            .unwrap()
            .split(" plies=")
            .next()
            .unwrap()
            .to_string();
        let final_fen = line.split("final=").nth(1).unwrap().trim().to_string();
        let start = lines
            .next()
            .unwrap()
            .strip_prefix("start ")
            .unwrap()
            .to_string();
        let moves = lines
            .next()
            .unwrap()
            .strip_prefix("moves ")
            .unwrap()
            .split_whitespace()
            .map(String::from)
            .collect();
        out.push(Game {
            header: line.to_string(),
            end,
            final_fen,
            start,
            moves,
        });
    }
    out
}

#[test]
fn replay_selfplay_games() {
    let games = games();
    assert!(games.len() >= 10);
    for g in games {
        let mut pos = Position::from_fen(&g.start, RuleSet::Janggi).unwrap();
        for (ply, s) in g.moves.iter().enumerate() {
            assert!(
                immediate_end(&pos).is_none(),
                "{}: game over before ply {ply}",
                g.header
            );
            let m = parse_move(&pos, s, Notation::Uci)
                .unwrap_or_else(|e| panic!("{}: ply {ply}: {e}", g.header));
            pos.make(m);
        }
        assert_eq!(pos.to_fen(), g.final_fen, "{}", g.header);
        let end = immediate_end(&pos);
        if g.end == "maxply" {
            continue;
        }
        let end = end.unwrap_or_else(|| panic!("{}: ending not detected", g.header));
        let (reason, winner) = if g.end.starts_with("checkmate") {
            (EndReason::Checkmate, !pos.side_to_move())
        } else if g.end.starts_with("bikjang") {
            (EndReason::Bikjang, count_winner(&pos))
        } else if g.end.starts_with("double-pass") {
            (EndReason::DoublePass, count_winner(&pos))
        } else {
            panic!("unknown ending {}", g.end)
        };
        assert_eq!(end.reason, reason, "{}", g.header);
        assert_eq!(end.outcome, Outcome::Win(winner), "{}", g.header);

        // Without counting, the same bikjang and double-pass endings draw.
        if reason != EndReason::Checkmate {
            let mut trad = pos.clone();
            trad.set_rules(RuleSet::Traditional);
            assert_eq!(
                immediate_end(&trad).map(|e| e.outcome),
                Some(Outcome::Draw),
                "{}",
                g.header
            );
        }
    }
}
