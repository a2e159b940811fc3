use super::*;
use crate::board::START_FEN;
use crate::protocol::output::Capture;

fn session() -> (Session, Capture) {
    let cap = Capture::default();
    (Session::new(Writer::new(cap.clone())), cap)
}

fn send(s: &mut Session, lines: &[&str]) {
    for l in lines {
        s.handle_line(l);
    }
}

/// Waits (bounded) until the output has a line starting with `prefix`.
fn wait_for(cap: &Capture, prefix: &str) -> String {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if let Some(l) = cap.text().lines().find(|l| l.starts_with(prefix)) {
            return l.to_string();
        }
        thread::sleep(Duration::from_millis(2));
    }
    panic!("no '{prefix}' in:\n{}", cap.text());
}

#[test]
fn first_command_chooses_dialect() {
    let (mut s, _) = session();
    send(&mut s, &["", "ucci"]);
    assert_eq!(s.dialect(), Dialect::Ucci);
    let (mut s, cap) = session();
    send(&mut s, &["hello", "ucci"]);
    assert!(cap
        .text()
        .contains("info string error: unknown command 'hello'"));
    // A later `ucci` switches anyway: the GUI knows what it speaks.
    assert_eq!(s.dialect(), Dialect::Ucci);
    let (mut s, _) = session();
    send(&mut s, &["isready"]);
    assert_eq!(s.dialect(), Dialect::Uci);
}

#[test]
fn bad_fen_keeps_position() {
    let (mut s, cap) = session();
    send(&mut s, &["position startpos moves h1g3"]);
    let before = s.position().to_fen();
    send(
        &mut s,
        &["position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR x - - 0 1"],
    );
    assert_eq!(s.position().to_fen(), before);
    assert!(
        cap.text().contains("bad side to move 'x'"),
        "{}",
        cap.text()
    );
}

#[test]
fn bad_move_keeps_prefix() {
    let (mut s, cap) = session();
    send(
        &mut s,
        &["position startpos moves h1g3 h10g8 b1c3 zz99 a1a2"],
    );
    let mut expect = Position::startpos(Default::default());
    for m in ["h1g3", "h10g8", "b1c3"] {
        let mv = parse_move(&expect, m, crate::board::Notation::Uci).unwrap();
        expect.make(mv);
    }
    assert_eq!(s.position().to_fen(), expect.to_fen());
    assert_eq!(s.position().history().len(), 4, "history kept");
    assert!(cap
        .text()
        .contains("move 4 of 5: unparsable move 'zz99'; position set after move 3"));
}

#[test]
fn ucci_ranks_and_banmoves() {
    let (mut s, cap) = session();
    send(
        &mut s,
        &["ucci", "position startpos moves h0g2", "banmoves h9g7 zz"],
    );
    assert_eq!(s.position().history().len(), 2);
    assert_eq!(s.banmoves.len(), 1);
    assert!(cap.text().contains("banmoves: unparsable move 'zz'"));
    send(&mut s, &["position startpos"]);
    assert!(s.banmoves.is_empty(), "a new position clears the bans");
}

#[test]
fn options_change_and_refuse() {
    let (mut s, cap) = session();
    send(
        &mut s,
        &[
            "setoption name Hash value -5",
            "setoption name Threads value 0",
            "setoption name Nonsense value 1",
            "setoption name UCI_Chess960 value false",
            "setoption name UCI_Variant value janggimodern",
            "setoption name MultiPV value 3",
        ],
    );
    let t = cap.text();
    assert!(t.contains("info string error: value -5 for option 'Hash' is out of range"));
    assert!(t.contains("keeping 16"), "{t}");
    assert!(t.contains("info string error: unknown option 'Nonsense'"));
    assert!(t.contains("info string option 'UCI_Chess960' is ignored"));
    assert_eq!(s.config.settings.threads, 1);
    assert_eq!(s.config.settings.multipv, 3);
    assert_eq!(
        s.position().rules(),
        crate::board::RuleSet::Modern,
        "variant reaches the position"
    );
    assert_eq!(
        s.engine.lock().unwrap().settings().multipv,
        3,
        "engine got it"
    );
}

#[test]
fn go_answers_and_stop_orders_output() {
    let (mut s, cap) = session();
    send(&mut s, &["go infinite", "isready"]);
    wait_for(&cap, "readyok");
    send(&mut s, &["stop", "isready"]);
    let t = cap.text();
    let best = t.find("bestmove").expect("bestmove after stop");
    assert!(best < t.rfind("readyok").unwrap());
}

#[test]
fn checkmate_root_reports_result() {
    // Han to move and mated (tests/data pos13).
    let (mut s, cap) = session();
    send(
        &mut s,
        &[
            "position fen 7Cb/5R3/3bkR1C1/3np3p/9/9/2PPPP1P1/9/9/4K1B2 b - - 0 49",
            "go depth 3",
        ],
    );
    wait_for(&cap, "bestmove (none)");
    let t = cap.text();
    let mate = t.find("info depth 0 score mate 0").expect("mate 0 line");
    let result = t
        .find("info string result 1-0 checkmate")
        .expect("result line");
    assert!(mate < result && result < t.find("bestmove").unwrap());
}

#[test]
fn flip_and_display() {
    let (mut s, cap) = session();
    send(&mut s, &["flip", "d"]);
    assert_ne!(s.position().to_fen(), START_FEN);
    assert!(cap.text().contains("Fen: "));
    send(&mut s, &["flip"]);
    assert_eq!(s.position().to_fen(), START_FEN);
}

#[test]
fn hello_shows_defaults_not_current_values() {
    let (mut s, cap) = session();
    send(&mut s, &["setoption name Skill Level value 3", "uci"]);
    assert!(cap
        .text()
        .contains("option name Skill Level type spin default 20 min -20 max 20"));
}

fn go_of(line: &str) -> Go {
    match line.parse::<Command>() {
        Ok(Command::Go(g)) => *g,
        other => panic!("{other:?}"),
    }
}

#[test]
fn ucci_clocks_follow_side_and_unit() {
    let (mut s, _) = session();
    send(&mut s, &["ucci", "position startpos moves h0g2"]);
    let g = go_of("go time 2 increment 1 opptime 3 oppincrement 0");
    let l = s.limits(&g);
    // Han to move: `time` is the side to move's clock, in seconds by default.
    assert_eq!((l.time, l.inc), (Some(2000), Some(1000)));
    send(&mut s, &["setoption usemillisec true"]);
    let l = s.limits(&g);
    assert_eq!((l.time, l.inc), (Some(2), Some(1)));
    let (mut s, _) = session();
    send(&mut s, &["uci"]);
    let l = s.limits(&go_of(
        "go time 500 opptime 700 depth 4 searchmoves h1g3 xx",
    ));
    assert_eq!((l.time, l.depth), (Some(500), Some(4)));
    assert_eq!(l.searchmoves.len(), 1);
}

#[test]
fn uci_clock_is_the_side_to_moves() {
    let (mut s, _) = session();
    send(&mut s, &["uci"]);
    let g = go_of("go wtime 1000 btime 2000 winc 10 binc 20");
    assert_eq!(
        (s.limits(&g).time, s.limits(&g).inc),
        (Some(1000), Some(10))
    );
    send(&mut s, &["position startpos moves h1g3"]);
    assert_eq!(
        (s.limits(&g).time, s.limits(&g).inc),
        (Some(2000), Some(20))
    );
}
