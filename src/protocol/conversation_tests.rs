//! The conversation core in memory: UCI, UCCI and CECP sessions over one
//! core, with the job reports pumped as the command loop would.

use crate::board::{parse_move, Notation, Position, RuleSet, START_FEN};
use crate::protocol::command::Go;
use crate::protocol::core::{Event, Purpose};
use crate::protocol::output::Capture;
use crate::protocol::{options, session, Command, Conversation, Dialect, Output};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

struct Harness {
    conv: Conversation,
    rx: Receiver<Event>,
    cap: Capture,
}

impl Harness {
    fn new() -> Harness {
        let cap = Capture::default();
        let (tx, rx) = mpsc::channel();
        Harness {
            conv: Conversation::new(Output::new(cap.clone()), tx),
            rx,
            cap,
        }
    }

    fn pump(&mut self) {
        while let Ok(e) = self.rx.try_recv() {
            self.conv.event(e);
        }
    }

    fn send(&mut self, lines: &[&str]) {
        for l in lines {
            self.conv.line(l);
            self.pump();
        }
    }

    fn text(&self) -> String {
        self.cap.text()
    }

    /// Waits (bounded) for a line starting with `prefix`, handling job
    /// reports meanwhile as the loop does.
    fn wait_for(&mut self, prefix: &str) -> String {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if let Some(l) = self.text().lines().find(|l| l.starts_with(prefix)) {
                return l.to_string();
            }
            if let Ok(e) = self.rx.recv_timeout(Duration::from_millis(2)) {
                self.conv.event(e);
            }
        }
        panic!("no '{prefix}' in:\n{}", self.text());
    }

    fn uci(&self) -> &session::UciSession {
        self.conv.uci().expect("a UCI session")
    }

    fn position(&self) -> Position {
        match self.conv.uci() {
            Some(s) => s.position().clone(),
            None => self.conv.cecp().expect("a session").position().clone(),
        }
    }
}

#[test]
fn first_command_chooses_dialect() {
    let mut h = Harness::new();
    h.send(&["", "ucci"]);
    assert_eq!(h.conv.dialect(), Dialect::Ucci);
    let mut h = Harness::new();
    h.send(&["hello", "ucci"]);
    assert!(h
        .text()
        .contains("info string error: unknown command 'hello'"));
    // A later `ucci` switches anyway: the GUI knows what it speaks.
    assert_eq!(h.conv.dialect(), Dialect::Ucci);
    let mut h = Harness::new();
    h.send(&["isready"]);
    assert_eq!(h.conv.dialect(), Dialect::Uci);
    // `xboard` picks CECP only as the first command.
    let mut h = Harness::new();
    h.send(&["", "xboard"]);
    assert_eq!(h.conv.dialect(), Dialect::Cecp);
    let mut h = Harness::new();
    h.send(&["uci", "xboard"]);
    assert_eq!(h.conv.dialect(), Dialect::Uci);
    assert!(
        h.text().contains("unknown command 'xboard'"),
        "{}",
        h.text()
    );
}

#[test]
fn bad_fen_keeps_position() {
    let mut h = Harness::new();
    h.send(&["position startpos moves h1g3"]);
    let before = h.position().to_fen();
    h.send(&[
        "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR x - - 0 1",
    ]);
    assert_eq!(h.position().to_fen(), before);
    assert!(h.text().contains("bad side to move 'x'"), "{}", h.text());
}

#[test]
fn bad_move_keeps_prefix() {
    let mut h = Harness::new();
    h.send(&["position startpos moves h1g3 h10g8 b1c3 zz99 a1a2"]);
    let mut expect = Position::startpos(Default::default());
    for m in ["h1g3", "h10g8", "b1c3"] {
        let mv = parse_move(&expect, m, Notation::Uci).unwrap();
        expect.make(mv);
    }
    assert_eq!(h.position().to_fen(), expect.to_fen());
    assert_eq!(h.position().history().len(), 4, "history kept");
    assert!(h
        .text()
        .contains("move 4 of 5: unparsable move 'zz99'; position set after move 3"));
}

#[test]
fn ucci_ranks_and_banmoves() {
    let mut h = Harness::new();
    h.send(&["ucci", "position startpos moves h0g2", "banmoves h9g7 zz"]);
    assert_eq!(h.position().history().len(), 2);
    assert_eq!(h.uci().banmoves().len(), 1);
    assert!(h.text().contains("banmoves: unparsable move 'zz'"));
    h.send(&["position startpos"]);
    assert!(
        h.uci().banmoves().is_empty(),
        "a new position clears the bans"
    );
}

#[test]
fn options_change_and_refuse() {
    let mut h = Harness::new();
    h.send(&[
        "setoption name Hash value -5",
        "setoption name Threads value 0",
        "setoption name Nonsense value 1",
        "setoption name UCI_Chess960 value false",
        "setoption name SyzygyPath value ./syzygy",
        "setoption name UCI_Variant value janggimodern",
        "setoption name MultiPV value 3",
    ]);
    let t = h.text();
    assert!(t.contains("info string error: value -5 for option 'Hash' is out of range"));
    assert!(t.contains("keeping 16"), "{t}");
    assert!(t.contains("info string error: unknown option 'Nonsense'"));
    assert!(t.contains("info string option 'UCI_Chess960' is ignored"));
    assert!(
        !t.contains("SyzygyPath"),
        "a declared option is set quietly: {t}"
    );
    let core = h.conv.core();
    assert_eq!(core.config.syzygy_path, "./syzygy");
    assert_eq!(core.config.settings.threads, 1);
    assert_eq!(core.config.settings.multipv, 3);
    assert_eq!(
        h.position().rules(),
        RuleSet::Modern,
        "variant reaches the position"
    );
    assert_eq!(core.engine().settings().multipv, 3, "engine got it");
}

#[test]
fn an_option_set_during_a_search_waits_for_its_end() {
    let mut h = Harness::new();
    h.send(&["go infinite", "setoption name MultiPV value 2"]);
    assert_eq!(h.conv.core().config.settings.multipv, 2);
    h.send(&["isready"]);
    h.wait_for("readyok");
    assert!(!h.text().contains("bestmove"), "the search goes on");
    h.send(&["stop"]);
    assert!(h.text().contains("bestmove"));
    assert_eq!(h.conv.core().engine().settings().multipv, 2);
}

#[test]
fn go_answers_and_stop_orders_output() {
    let mut h = Harness::new();
    h.send(&["go infinite", "isready"]);
    h.wait_for("readyok");
    h.send(&["stop", "isready"]);
    let t = h.text();
    let best = t.find("bestmove").expect("bestmove after stop");
    assert!(best < t.rfind("readyok").unwrap());
    assert_eq!(t.matches("bestmove").count(), 1);
}

#[test]
fn a_go_replacing_a_search_answers_both() {
    let mut h = Harness::new();
    h.send(&["go infinite", "go depth 2"]);
    h.wait_for("info depth 2");
    let start = Instant::now();
    while h.text().matches("bestmove").count() < 2 && start.elapsed() < Duration::from_secs(20) {
        h.wait_for("bestmove");
        h.pump();
    }
    assert_eq!(h.text().matches("bestmove").count(), 2, "{}", h.text());
}

#[test]
fn checkmate_root_reports_result() {
    // Han to move and mated (tests/data pos13).
    let mut h = Harness::new();
    h.send(&[
        "position fen 7Cb/5R3/3bkR1C1/3np3p/9/9/2PPPP1P1/9/9/4K1B2 b - - 0 49",
        "go depth 3",
    ]);
    h.wait_for("bestmove (none)");
    let t = h.text();
    let mate = t.find("info depth 0 score mate 0").expect("mate 0 line");
    let result = t
        .find("info string result 1-0 checkmate")
        .expect("result line");
    assert!(mate < result && result < t.find("bestmove").unwrap());
}

#[test]
fn flip_and_display() {
    let mut h = Harness::new();
    h.send(&["flip", "d"]);
    assert_ne!(h.position().to_fen(), START_FEN);
    assert!(h.text().contains("Fen: "));
    h.send(&["flip"]);
    assert_eq!(h.position().to_fen(), START_FEN);
}

#[test]
fn hello_shows_defaults_not_current_values() {
    let mut h = Harness::new();
    h.send(&["setoption name Skill Level value 3", "uci"]);
    let t = h.text();
    assert!(t.contains("option name Skill Level type spin default 20 min -20 max 20"));
    assert!(t.contains("option name SyzygyPath type string default <empty>"));
    assert!(!t.contains("usemillisec"), "UCCI's own option");
}

fn go_of(line: &str) -> Go {
    match line.parse::<Command>() {
        Ok(Command::Go(g)) => *g,
        other => panic!("{other:?}"),
    }
}

#[test]
fn ucci_clocks_follow_side_and_unit() {
    let mut h = Harness::new();
    h.send(&["ucci", "position startpos moves h0g2"]);
    let g = go_of("go time 2 increment 1 opptime 3 oppincrement 0");
    let l = h.uci().limits(h.conv.core(), &g);
    // Han to move: `time` is the side to move's clock, in seconds by default.
    assert_eq!((l.time, l.inc), (Some(2000), Some(1000)));
    h.send(&["setoption usemillisec true"]);
    let l = h.uci().limits(h.conv.core(), &g);
    assert_eq!((l.time, l.inc), (Some(2), Some(1)));
    let mut h = Harness::new();
    h.send(&["uci"]);
    let l = h.uci().limits(
        h.conv.core(),
        &go_of("go time 500 opptime 700 depth 4 searchmoves h1g3 xx"),
    );
    assert_eq!((l.time, l.depth), (Some(500), Some(4)));
    assert_eq!(l.searchmoves.len(), 1);
}

#[test]
fn uci_clock_is_the_side_to_moves() {
    let mut h = Harness::new();
    h.send(&["uci"]);
    let g = go_of("go wtime 1000 btime 2000 winc 10 binc 20");
    let l = h.uci().limits(h.conv.core(), &g);
    assert_eq!((l.time, l.inc), (Some(1000), Some(10)));
    h.send(&["position startpos moves h1g3"]);
    let l = h.uci().limits(h.conv.core(), &g);
    assert_eq!((l.time, l.inc), (Some(2000), Some(20)));
}

// ---- CECP over the same core ----

fn cecp() -> Harness {
    let mut h = Harness::new();
    h.send(&["xboard", "protover 2", "new", "variant janggi"]);
    h
}

/// The moves the engine sent, in order.
fn moves_sent(h: &Harness) -> Vec<String> {
    h.text()
        .lines()
        .filter_map(|l| l.strip_prefix("move "))
        .map(str::to_string)
        .collect()
}

#[test]
fn cecp_features_come_from_the_option_table() {
    let h = cecp();
    let t = h.text();
    assert!(t.contains("playother=1"), "{t}");
    for d in options::listed(Dialect::Cecp) {
        assert!(
            t.contains(&format!("feature option=\"{} ", d.uci)),
            "{}",
            d.uci
        );
    }
    // CECP has commands of its own for these.
    for hidden in ["Hash", "Threads", "UCI_Variant", "Ponder", "usemillisec"] {
        assert!(!t.contains(&format!("option=\"{hidden} ")), "{hidden}");
    }
}

#[test]
fn cecp_settings_during_a_search_keep_the_move_coming() {
    for setting in [
        "option Skill Level=5",
        "option Clear Hash",
        "memory 32",
        "cores 1",
        "option EvalFile=<empty>",
    ] {
        let mut h = cecp();
        h.send(&["st 1", "go", setting]);
        h.wait_for("move ");
        let t = h.text();
        assert!(!t.contains("Error"), "{setting}: {t}");
        assert_eq!(moves_sent(&h).len(), 1, "{setting}");
    }
    let mut h = cecp();
    h.send(&["st 1", "go", "memory 32"]);
    h.wait_for("move ");
    assert_eq!(
        h.conv.core().engine().settings().hash_mb,
        32,
        "applied after"
    );
}

#[test]
fn cecp_an_option_during_analysis_restarts_it() {
    let mut h = cecp();
    h.send(&["force", "post", "analyze"]);
    h.wait_for("1 ");
    h.send(&["option MultiPV=1", "cores 1"]);
    assert_eq!(h.conv.core().running(), Some(Purpose::Analyze));
    h.send(&["exit"]);
    assert_eq!(h.conv.core().running(), None);
}

#[test]
fn cecp_move_now_comes_before_a_later_pong() {
    let mut h = cecp();
    h.send(&["st 30", "go", "?", "ping 7"]);
    let t = h.text();
    let mv = t.find("\nmove ").expect("a move after ?");
    let pong = t.find("pong 7").expect("pong");
    assert!(mv < pong, "{t}");
}

#[test]
fn cecp_a_move_for_the_engines_side_while_it_thinks_is_refused() {
    let mut h = cecp();
    h.send(&["st 1", "go", "usermove a3a4"]);
    assert!(
        h.text()
            .contains("Illegal move (the engine is to move): a3a4"),
        "{}",
        h.text()
    );
    h.wait_for("move ");
    let sent = moves_sent(&h);
    assert_eq!(sent.len(), 1);
    // The engine played Cho's first move itself, from the start position.
    let pos = h.position();
    assert_eq!(pos.history().len(), 2);
    assert_ne!(sent[0], "a3a4");
}

#[test]
fn cecp_moves_with_junk_after_them_are_illegal() {
    let mut h = cecp();
    h.send(&["force"]);
    for bad in [
        "usermove @@@@@",
        "usermove b0c2xyz",
        "usermove b0c23",
        "usermove b0c2==",
    ] {
        h.send(&[bad]);
        assert_eq!(h.position().history().len(), 1, "{bad} was played");
    }
    assert_eq!(h.text().matches("Illegal move").count(), 4, "{}", h.text());
    // XBoard's promotion marks are read as nothing.
    h.send(&["usermove b0c2="]);
    assert_eq!(h.position().history().len(), 2);
    h.send(&["usermove @@@@"]);
    assert_eq!(h.position().history().len(), 3, "a pass");
}

#[test]
fn one_engine_in_cecp_mode() {
    let mut h = cecp();
    h.send(&["memory 8", "option MultiPV=2"]);
    let core = h.conv.core();
    assert_eq!(core.engine().settings().hash_mb, 8);
    assert_eq!(core.engine().settings().multipv, 2);
}
