//! The exact command sequence pychess-variants' engine worker sends
//! (docs/PROTOCOL.md, "What the GUIs and bots send"): play jobs and analysis jobs
//! from a FEN with a non-default setup, never `startpos`.

mod protocol_support;

use janggun::board::notation::setup_fen;
use janggun::board::{game_end, move_to_string, Notation, Setup};
use protocol_support::*;

const U: Notation = Notation::Uci;

fn job_header(e: &mut Engine, skill: i32, analyse: bool) {
    e.send("setoption name UCI_Chess960 value false");
    e.send("setoption name UCI_Variant value janggi");
    e.send(&format!("setoption name Skill Level value {skill}"));
    e.send(&format!("setoption name UCI_AnalyseMode value {analyse}"));
    e.send("ucinewgame");
    let out = e.sync();
    assert!(errors(&out).is_empty(), "{out:#?}");
}

/// Plays `plies` moves with one `go` form, the way the worker does: a fresh
/// header and the whole move list every ply.
fn play(e: &mut Engine, fen: &str, plies: usize, skill: i32, analyse: bool, go: &str) {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        job_header(e, skill, analyse);
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let pos = position(Some(fen), &refs, U);
        if game_end(&pos).is_some() {
            break;
        }
        e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        let lines = e.search(go);
        assert!(errors(&lines).is_empty(), "{lines:#?}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains(" score ") && l.contains(" pv ")),
            "the worker reads score and pv: {lines:#?}"
        );
        let mv = check_search(&pos, &lines, U);
        moves.push(move_to_string(mv, U));
    }
}

#[test]
fn play_jobs_at_bot_levels() {
    let fen = setup_fen(Setup::Outer, Setup::Right);
    let mut e = Engine::start();
    for (skill, plies) in [(-4, 6), (10, 6), (20, 8)] {
        play(&mut e, &fen, plies, skill, false, "go movetime 200 depth 8");
    }
    let fen = setup_fen(Setup::Left, Setup::Outer);
    play(
        &mut e,
        &fen,
        4,
        3,
        false,
        "go movetime 200 depth 8 wtime 60000 btime 60000 winc 0 binc 0",
    );
}

#[test]
fn analysis_job() {
    let fen = setup_fen(Setup::Right, Setup::Left);
    let mut e = Engine::start();
    play(&mut e, &fen, 6, 20, true, "go movetime 300 nodes 200000");
}
