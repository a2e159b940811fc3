//! CECP (XBoard) mode, conversed with the real binary: the handshake and
//! observed XBoard sequence (docs/PROTOCOL.md), moves and passes both ways, a pass
//! sent as `setboard`, result claims, analysis, undo, bad input. Every
//! engine move is checked by the rules core.

mod protocol_support;

use janggun::board::{game_end, parse_move, Notation, Position, RuleSet};
use janggun::protocol::cecp::claim;
use protocol_support::{Engine, LONG};

fn start() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.until(LONG, |l| l == "feature done=1");
    assert_eq!(lines[0], "feature done=0");
    let f = lines.join("\n");
    for want in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "time=1",
        "memory=1",
        "smp=1",
        "highlight=0",
        "variants=\"janggi,janggitraditional,janggimodern,janggicasual,kja,kojf\"",
        "myname=\"Janggun",
        "feature option=\"Skill Level -spin 20 -20 20\"",
        "feature option=\"Clear Hash -button\"",
    ] {
        assert!(f.contains(want), "{want} missing in\n{f}");
    }
    e
}

fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let mut lines = e.until(LONG, |l| l == format!("pong {n}"));
    lines.pop();
    lines
}

/// Waits for the engine's `move`, checks it against the rules core, makes it.
fn engine_move(e: &mut Engine, pos: &mut Position) -> String {
    let lines = e.until(LONG, |l| l.starts_with("move ") || l.contains(" {"));
    let last = lines.last().unwrap().clone();
    let m = last
        .strip_prefix("move ")
        .unwrap_or_else(|| panic!("expected a move, got '{last}'"));
    let mv = parse_move(pos, m, Notation::Ucci)
        .unwrap_or_else(|err| panic!("illegal engine move {m} at {}: {err}", pos.to_fen()));
    pos.make(mv);
    m.to_string()
}

fn user_move(e: &mut Engine, pos: &mut Position, m: &str) {
    let mv = parse_move(pos, m, Notation::Ucci).expect("test move");
    pos.make(mv);
    e.send(&format!("usermove {m}"));
}

#[test]
fn the_observed_xboard_sequence_plays_a_game() {
    let mut e = start();
    for l in [
        "new",
        "random",
        "variant janggi",
        "st 1",
        "sd 4",
        "post",
        "hard",
    ] {
        e.send(l);
    }
    e.send("ping 1");
    e.send("force");
    let lines = e.until(LONG, |l| l == "pong 1");
    assert!(lines.contains(
        &"setup (.N.R.AB.P..C.........K.n.r.ab.p..c.........k) 9x10+0_xiangqi rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
            .to_string()
    ), "{lines:?}");
    assert!(lines.contains(&"piece A& WF".to_string()));
    let mut pos = Position::startpos(RuleSet::Janggi);
    e.send("time 200");
    e.send("otim 200");
    e.send("go");
    // The engine plays Cho; then the GUI's side answers, a few times.
    for reply in 0..4 {
        engine_move(&mut e, &mut pos);
        let mut list = janggun::board::MoveList::new();
        janggun::board::legal_moves(&pos, &mut list);
        let m = list.as_slice()[reply % list.len()];
        let text = janggun::board::move_to_string(m, Notation::Ucci);
        e.send("time 200");
        e.send("otim 200");
        user_move(&mut e, &mut pos, &text);
    }
    engine_move(&mut e, &mut pos);
    // Thinking lines were posted: depth score time nodes pv.
    let thinking = e.log.iter().filter(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        t.len() >= 5 && t[..4].iter().all(|x| x.parse::<i64>().is_ok())
    });
    assert!(thinking.count() > 0, "{}", e.tail());
    e.send("quit");
    assert!(e.wait_exit(LONG).is_some());
}

#[test]
fn bad_input_is_answered_and_the_position_kept() {
    let mut e = start();
    e.send("new");
    e.send("force");
    e.send("usermove z9z9");
    e.send("usermove b0b5");
    e.send("usermove b0c2x9");
    e.send("frobnicate");
    e.send("level 40 x 0");
    e.send("setboard 9/9/9 w - - 0 1");
    let lines = ping(&mut e, 7);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Illegal move") && l.ends_with("z9z9")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Illegal move") && l.ends_with("b0b5")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Illegal move") && l.ends_with("b0c2x9")));
    assert!(lines.contains(&"Error (unknown command): frobnicate".to_string()));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Error (level: bad time")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("tellusererror Illegal position")));
    // Still at the start: the first move is legal and the engine answers it.
    let mut pos = Position::startpos(RuleSet::Janggi);
    e.send("sd 3");
    e.send("playother");
    user_move(&mut e, &mut pos, "b0c2");
    engine_move(&mut e, &mut pos);
}

/// Cho's palace is full of guards around the general: only a pass is legal.
const CHO_MUST_PASS: &str = "9/4k4/9/9/9/9/9/3AAA3/3AKA3/3AAA3 w - - 0 1";

#[test]
fn passes_both_ways_and_a_pass_sent_as_setboard() {
    let mut e = start();
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {CHO_MUST_PASS}"));
    e.send("sd 3");
    e.send("go");
    let mut pos = Position::from_fen(CHO_MUST_PASS, RuleSet::Janggi).unwrap();
    assert_eq!(engine_move(&mut e, &mut pos), "@@@@");
    // Han's general moves; Cho passes again.
    user_move(&mut e, &mut pos, "e8e9");
    assert_eq!(engine_move(&mut e, &mut pos), "@@@@");
    // Han passes as XBoard sends it: the same board, Cho to move. That is
    // the second pass in a row, which ends the game; the count decides.
    let board = pos.to_fen();
    let flipped = board.replacen(" b ", " w ", 1);
    e.send(&format!("setboard {flipped}"));
    let pass = parse_move(&pos, "@@@@", Notation::Ucci).unwrap();
    pos.make(pass);
    let end = game_end(&pos).expect("two passes end the game");
    let lines = ping(&mut e, 3);
    assert!(lines.contains(&claim(&end)), "{lines:?}");
    assert_eq!(claim(&end), "1-0 {double pass: Cho wins on count}");
    // After the claim no move is played.
    assert!(!lines.iter().any(|l| l.starts_with("move ")));
    // `usermove @@@@` is a pass too.
    // A promotion suffix XBoard adds is read as the plain move.
    e.send("new");
    e.send("force");
    e.send("usermove b0c2.");
    let lines = ping(&mut e, 4);
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
    e.send("new");
    e.send("force");
    e.send("usermove @@@@");
    e.send("sd 2");
    e.send("go");
    let mut pos = Position::startpos(RuleSet::Janggi);
    pos.make(parse_move(&pos, "@@@@", Notation::Ucci).unwrap());
    engine_move(&mut e, &mut pos);
}

/// Plays `moves` in force mode and expects the rules core's claim.
fn expect_claim(variant: &str, fen: &str, moves: &[&str]) -> String {
    let rules: RuleSet = variant.parse().unwrap();
    let mut e = start();
    e.send("new");
    e.send(&format!("variant {variant}"));
    e.send("force");
    e.send(&format!("setboard {fen}"));
    let mut pos = Position::from_fen(fen, rules).unwrap();
    for m in moves {
        assert!(game_end(&pos).is_none(), "over before {m}");
        user_move(&mut e, &mut pos, m);
    }
    let end = game_end(&pos).expect("the moves end the game");
    let lines = ping(&mut e, 9);
    let c = claim(&end);
    assert!(lines.contains(&c), "{c} not in {lines:?}");
    // A claimed game takes no more moves.
    e.send("go");
    let lines = ping(&mut e, 10);
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    c
}

#[test]
fn results_are_claimed_for_every_ending() {
    // Checkmate: the chariot lands on rank 10, the other covers rank 9.
    let c = expect_claim("janggi", "3k5/R8/9/9/9/9/9/9/9/4K2R1 w - - 0 1", &["h0h9"]);
    assert_eq!(c, "1-0 {checkmate}");
    // Bikjang: the guard steps aside, the generals face, Han passes.
    let bik = "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
    let c = expect_claim("janggi", bik, &["e1d1", "@@@@"]);
    assert!(c.contains("{bikjang"), "{c}");
    let c = expect_claim("janggicasual", bik, &["e1d1", "e9d9", "@@@@", "@@@@"]);
    assert!(c.starts_with("1/2-1/2 {double pass"), "{c}");
    // Repetition: the chariot and the general shuttle (off the e-file,
    // where the generals would face).
    let rep = "3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1";
    let shuttle = ["a7a6", "d9d8", "a6a7", "d8d9"];
    let moves: Vec<&str> = shuttle.iter().cycle().take(8).copied().collect();
    let c = expect_claim("janggi", rep, &moves);
    assert!(c.contains("{repetition"), "{c}");
    // The move limit: 99 plies without capture, then one more.
    let c = expect_claim("janggi", "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 99 80", &["a8a7"]);
    assert!(c.contains("{move limit"), "{c}");
    let c = expect_claim(
        "janggicasual",
        "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 99 80",
        &["a8a7"],
    );
    assert_eq!(c, "1/2-1/2 {move limit}");
}

#[test]
fn analysis_undo_and_remove() {
    let mut e = start();
    e.send("new");
    e.send("force");
    e.send("usermove b0c2");
    e.send("usermove h9g7");
    e.send("analyze");
    let lines = e.until(LONG, |l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        t.len() >= 5 && t[0] == "3"
    });
    let pv_line = lines.last().unwrap();
    // The analysed position is the one after the two moves.
    let mut pos = Position::startpos(RuleSet::Janggi);
    for m in ["b0c2", "h9g7"] {
        pos.make(parse_move(&pos, m, Notation::Ucci).unwrap());
    }
    let first = pv_line.split_whitespace().nth(4).unwrap();
    parse_move(&pos, first, Notation::Ucci).unwrap_or_else(|e| panic!("{pv_line}: {e}"));
    // A move during analysis moves the analysis on.
    e.send("usermove a3a4");
    e.send(".");
    e.send("exit");
    ping(&mut e, 4);
    // undo takes one ply back, remove two: b0c2 is legal again after both.
    e.send("undo");
    e.send("remove");
    e.send("usermove b0c2");
    let lines = ping(&mut e, 5);
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
    // More undo than there are moves does no harm.
    for _ in 0..5 {
        e.send("undo");
    }
    e.send("usermove b0c2");
    let lines = ping(&mut e, 6);
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
}

#[test]
fn options_memory_and_cores() {
    let mut e = start();
    e.send("memory 32");
    e.send("cores 2");
    e.send("option Skill Level=10");
    e.send("option UCI_ShowWDL=1");
    e.send("option Nonsense=3");
    e.send("option Skill Level=99");
    let lines = ping(&mut e, 2);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Error (unknown option)")));
    assert!(
        lines.iter().any(|l| l.contains("out of range")),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    // Setup FENs in either letter set, with or without the castling fields.
    e.send("new");
    e.send("force");
    e.send("setboard rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w 0 1");
    e.send("sd 2");
    e.send("go");
    let mut pos = Position::startpos(RuleSet::Janggi);
    engine_move(&mut e, &mut pos);
}
