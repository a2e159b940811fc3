//! A UCI session with the real binary.

mod protocol_support;

use janggun::board::{legal_moves, MoveList, Notation};
use protocol_support::*;
use std::collections::HashSet;
use std::thread;
use std::time::{Duration, Instant};

const U: Notation = Notation::Uci;

#[test]
fn options_listed_and_settable() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until(LONG, |l| l == "uciok");
    assert!(hello[0].starts_with("id name Janggun"));
    assert!(hello[1].starts_with("id author"));
    let names = [
        ("UCI_Variant", "combo default janggi var janggi var janggitraditional var janggimodern var janggicasual var kja var kojf"),
        ("Threads", "spin"),
        ("Hash", "spin"),
        ("Clear Hash", "button"),
        ("Ponder", "check"),
        ("MultiPV", "spin"),
        ("Move Overhead", "spin"),
        ("Skill Level", "spin default 20 min -20 max 20"),
        ("UCI_LimitStrength", "check"),
        ("UCI_Elo", "spin"),
        ("UCI_AnalyseMode", "check"),
        ("UCI_ShowWDL", "check"),
    ];
    for (name, ty) in names {
        let prefix = format!("option name {name} type {ty}");
        assert!(
            hello.iter().any(|l| l.starts_with(&prefix)),
            "missing '{prefix}' in {hello:#?}"
        );
    }
    let good = [
        "setoption name UCI_Variant value janggimodern",
        "setoption name UCI_Variant value janggi",
        "setoption name Threads value 2",
        "setoption name Threads value 1",
        "setoption name Hash value 32",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name MultiPV value 2",
        "setoption name MultiPV value 1",
        "setoption name Move Overhead value 30",
        "setoption name Skill Level value -20",
        "setoption name Skill Level value 20",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1500",
        "setoption name UCI_LimitStrength value false",
        "setoption name UCI_AnalyseMode value true",
        "setoption name UCI_ShowWDL value true",
        "setoption name Use NNUE value true",
        "setoption name EvalFile value",
        "setoption name Use NNUE value false",
    ];
    for g in good {
        e.send(g);
    }
    let out = e.sync();
    assert!(errors(&out).is_empty(), "{out:#?}");
    for ignored in ["UCI_Chess960 value false", "VariantPath value v.ini"] {
        e.send(&format!("setoption name {ignored}"));
        let out = e.sync();
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].starts_with("info string") && out[0].contains("ignored"),
            "{out:?}"
        );
        assert!(errors(&out).is_empty());
    }
    for (bad, what) in [
        ("setoption name Skill Level value 21", "out of range"),
        ("setoption name UCI_Variant value chess", "not one of"),
        ("setoption name Ponder value yes-please", "true or false"),
        ("setoption name EvalFile value x.nnue", "keeping nn-"),
        ("setoption name EvalFile value Cargo.toml", "bad magic"),
        (
            "setoption name Frobnicate value 1",
            "unknown option 'Frobnicate'",
        ),
    ] {
        e.send(bad);
        let out = e.sync();
        assert!(
            errors(&out).len() == 1 && out[0].contains(what),
            "'{bad}' gave {out:?}"
        );
    }
    // UCI_ShowWDL on: info lines carry wdl.
    e.send("position startpos");
    let lines = e.search("go depth 2");
    assert!(lines.iter().any(|l| l.contains(" wdl ")), "{lines:#?}");
    check_search(&position(None, &[], U), &lines, U);
}

#[test]
fn go_in_every_time_form_answers_legally() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(LONG, |l| l == "uciok");
    let moves = ["h1g3", "h10g8", "c4d4"];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let pos = position(None, &moves, U);
    let forms = [
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 2000 btime 2000 movestogo 10",
        "go btime 1000 wtime 1000",
        "go movetime 100",
        "go depth 3",
        "go nodes 5000",
        "go mate 2 movetime 200",
        "go wtime 0 btime 0 byoyomi 200",
        "go time 2000 opptime 2000 increment 10 oppincrement 10",
        "go movetime 100 searchmoves a7a6 e7e6",
    ];
    for form in forms {
        let lines = e.search(form);
        let mv = check_search(&pos, &lines, U);
        if form.contains("searchmoves") {
            assert!(
                ["a7a6", "e7e6"].contains(&mv.to_string().as_str()),
                "{lines:?}"
            );
        }
        assert!(errors(&lines).is_empty(), "{form}: {lines:#?}");
    }
    // Unlimited forms need `stop`.
    for form in ["go infinite", "go", "go ponder wtime 1000 btime 1000"] {
        e.send(form);
        thread::sleep(Duration::from_millis(100));
        let lines = e.search("stop");
        check_search(&pos, &lines, U);
    }
}

#[test]
fn stop_answers_promptly() {
    let mut e = Engine::start();
    e.send("position startpos moves b1c3 b10c8");
    let mut times = Vec::new();
    for _ in 0..5 {
        e.send("go infinite");
        thread::sleep(Duration::from_millis(200));
        let t = Instant::now();
        let lines = e.search("stop");
        times.push(t.elapsed());
        check_search(&position(None, &["b1c3", "b10c8"], U), &lines, U);
    }
    times.sort();
    eprintln!("stop -> bestmove: {times:?}");
    assert!(
        times[2] < Duration::from_millis(50),
        "median {:?}",
        times[2]
    );
    assert!(
        times[4] < Duration::from_millis(250),
        "worst {:?}",
        times[4]
    );
}

#[test]
fn isready_answers_during_search() {
    let mut e = Engine::start();
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    let before = e.sync();
    assert!(t.elapsed() < Duration::from_secs(1));
    assert!(
        !before.iter().any(|l| is_bestmove(l)),
        "infinite search answered early"
    );
    let lines = e.search("stop");
    check_search(&position(None, &[], U), &lines, U);
}

#[test]
fn multipv_three_distinct_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves h1g3");
    let lines = e.search("go depth 5");
    let pos = position(None, &["h1g3"], U);
    check_search(&pos, &lines, U);
    let field = |l: &str, k: &str| -> Option<u32> {
        let t: Vec<&str> = l.split_whitespace().collect();
        t.iter()
            .position(|&x| x == k)
            .and_then(|i| t.get(i + 1))
            .and_then(|v| v.parse().ok())
    };
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" multipv ")).collect();
    let last_depth = infos
        .iter()
        .filter_map(|l| field(l, "depth"))
        .max()
        .expect("info lines");
    let mut firsts = HashSet::new();
    for k in 1..=3 {
        let line = infos
            .iter()
            .rev()
            .find(|l| field(l, "depth") == Some(last_depth) && field(l, "multipv") == Some(k))
            .unwrap_or_else(|| panic!("no multipv {k} at depth {last_depth}: {lines:#?}"));
        firsts.insert(
            line.split(" pv ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(firsts.len(), 3, "{lines:#?}");
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h1g3 h10g8");
    e.send("go ponder wtime 1000 btime 1000");
    thread::sleep(Duration::from_millis(300));
    let early = e.sync();
    assert!(
        !early.iter().any(|l| is_bestmove(l)),
        "answered before ponderhit: {early:?}"
    );
    let lines = e.search("ponderhit");
    check_search(&position(None, &["h1g3", "h10g8"], U), &lines, U);
}

#[test]
fn threads_two_searches() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("position startpos moves c4c5 c7c6");
    let lines = e.search("go depth 5");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    check_search(&position(None, &["c4c5", "c7c6"], U), &lines, U);
}

#[test]
fn perft_divide_format() {
    let mut e = Engine::start();
    e.send("position startpos moves h1g3");
    let pos = position(None, &["h1g3"], U);
    e.send("go perft 2");
    let lines = e.until(LONG, |l| l.starts_with("Nodes searched"));
    let mut list = MoveList::new();
    legal_moves(&pos, &mut list);
    let n = list.len();
    assert_eq!(lines.len(), n + 2, "{lines:#?}");
    assert_eq!(lines[n], "");
    let mut sum = 0u64;
    for l in &lines[..n] {
        let (m, c) = l.split_once(": ").expect("<move>: <count>");
        let mv = janggun::board::parse_move(&pos, m, U).expect("legal root move");
        let mut p = pos.clone();
        p.make(mv);
        let c: u64 = c.parse().unwrap();
        assert_eq!(c, janggun::board::count_legal(&p));
        sum += c;
    }
    assert_eq!(lines[n + 1], format!("Nodes searched: {sum}"));
}

#[test]
fn debug_commands() {
    let mut e = Engine::start();
    e.send("position startpos moves h1g3");
    e.send("d");
    let out = e.sync();
    let fen = position(None, &["h1g3"], U).to_fen();
    assert!(out.iter().any(|l| *l == format!("Fen: {fen}")), "{out:#?}");
    assert!(out.iter().any(|l| l.starts_with("Key: ")));
    assert!(out.iter().any(|l| l.starts_with("Checkers:")));
    e.send("eval");
    let out = e.sync();
    assert!(!out.is_empty() && errors(&out).is_empty());
    e.send("flip");
    e.send("d");
    let out = e.sync();
    let flipped = position(None, &["h1g3"], U).flipped().to_fen();
    assert!(
        out.iter().any(|l| *l == format!("Fen: {flipped}")),
        "{out:#?}"
    );
}

#[test]
fn game_end_at_root() {
    let mut e = Engine::start();
    // Checkmate: Han to move has nothing.
    e.send("position fen 7Cb/5R3/3bkR1C1/3np3p/9/9/2PPPP1P1/9/9/4K1B2 b - - 0 49");
    let lines = e.search("go depth 3");
    assert_eq!(lines[lines.len() - 3], "info depth 0 score mate 0");
    assert_eq!(lines[lines.len() - 2], "info string result 1-0 checkmate");
    assert_eq!(lines[lines.len() - 1], "bestmove (none)");
    // Two passes: the count decides (Han's 1.5 bonus wins a level board).
    e.send("position startpos moves e2e2 e9e9");
    let lines = e.search("go depth 3");
    assert!(
        lines.contains(&"info string result 0-1 double pass (count)".to_string()),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    // Under janggicasual the same ending is a draw.
    e.send("setoption name UCI_Variant value janggicasual");
    e.send("position startpos moves e2e2 e9e9");
    let lines = e.search("go depth 3");
    assert!(
        lines.contains(&"info string result 1/2-1/2 double pass".to_string()),
        "{lines:?}"
    );
    e.send("setoption name UCI_Variant value janggi");
    // Threefold repetition: reported, and a move is still given.
    let shuffle = ["h1g3", "h10g8", "g3h1", "g8h10"];
    let moves: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let lines = e.search("go depth 3");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string result") && l.contains("repetition")),
        "{lines:#?}"
    );
    check_search(&position(None, &moves, U), &lines, U);
    // Move limit: 100 plies without capture end a janggi game, not a janggimodern one.
    let fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 100 51";
    e.send(&format!("position fen {fen}"));
    let lines = e.search("go depth 2");
    assert!(
        lines.contains(&"info string result 0-1 move limit (count)".to_string()),
        "{lines:#?}"
    );
    check_search(&position(Some(fen), &[], U), &lines, U);
    e.send("setoption name UCI_Variant value janggimodern");
    e.send(&format!("position fen {fen}"));
    let lines = e.search("go depth 2");
    assert!(!lines.iter().any(|l| l.contains("result")), "{lines:#?}");
}

#[test]
fn quit_during_search_exits() {
    let mut e = Engine::start();
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    e.send("quit");
    let st = e
        .wait_exit(Duration::from_secs(5))
        .expect("engine exits after quit");
    assert!(st.success());
    let lines = e.until(LONG, is_bestmove);
    check_search(&position(None, &[], U), &lines, U);
}

#[test]
fn end_of_input_exits() {
    let mut e = Engine::start();
    e.send("go depth 2");
    e.close_stdin();
    let st = e
        .wait_exit(Duration::from_secs(10))
        .expect("engine exits at EOF");
    assert!(st.success());
}

#[test]
fn a_bikjang_lost_on_the_count_is_mate_minus_one() {
    // Han's general faces Cho's and every other square it could reach is
    // covered: its only move is the pass that accepts the bikjang, and the
    // count then goes to Cho. The game is not over yet (the pass is still
    // to be played), so the score is mate -1, not mate 0.
    let mut e = Engine::start();
    e.send("position fen 4k4/9/9/9/9/9/9/9/4K4/3R1R3 b - - 0 1");
    let lines = e.search("go depth 4");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    assert!(last_info.contains(" score mate -1 "), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove e10e10");
}
