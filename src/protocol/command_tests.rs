use super::*;

fn parse(s: &str) -> Result<Command, ParseError> {
    s.parse()
}

fn go(s: &str) -> Go {
    match parse(s) {
        Ok(Command::Go(g)) => *g,
        other => panic!("'{s}' gave {other:?}"),
    }
}

fn invalid_msg(s: &str) -> String {
    match parse(s) {
        Err(ParseError::Invalid(m)) => m,
        other => panic!("'{s}' should be invalid, gave {other:?}"),
    }
}

#[test]
fn simple_commands() {
    assert_eq!(parse("uci"), Ok(Command::Uci));
    assert_eq!(parse("  ucci  "), Ok(Command::Ucci));
    assert_eq!(parse("isready"), Ok(Command::IsReady));
    assert_eq!(parse("ucinewgame"), Ok(Command::UciNewGame));
    assert_eq!(parse("stop"), Ok(Command::Stop));
    assert_eq!(parse("ponderhit"), Ok(Command::PonderHit));
    assert_eq!(parse("quit"), Ok(Command::Quit));
    assert_eq!(parse("d"), Ok(Command::Display));
    assert_eq!(parse("eval"), Ok(Command::Eval));
    assert_eq!(parse("flip"), Ok(Command::Flip));
    assert_eq!(parse("debug on"), Ok(Command::Ignored));
    assert_eq!(parse("QUIT"), Ok(Command::Quit));
    assert_eq!(parse("\tisready\r"), Ok(Command::IsReady));
}

#[test]
fn empty_and_unknown() {
    assert_eq!(parse(""), Err(ParseError::Empty));
    assert_eq!(parse("   \t "), Err(ParseError::Empty));
    assert_eq!(parse("xyzzy 1 2"), Err(ParseError::Unknown("xyzzy".into())));
    let long = "x".repeat(1 << 20);
    match parse(&long) {
        Err(ParseError::Unknown(w)) => assert!(w.len() < 50, "message not clipped"),
        other => panic!("{other:?}"),
    }
    assert!(invalid_msg("uci now").contains("takes no arguments"));
    assert!(invalid_msg("d 3").contains("takes no arguments"));
}

#[test]
fn setoption_both_dialects() {
    assert_eq!(
        parse("setoption name Skill Level value -4"),
        Ok(Command::SetOption {
            name: "Skill Level".into(),
            value: Some("-4".into())
        })
    );
    assert_eq!(
        parse("setoption name Clear Hash"),
        Ok(Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        })
    );
    assert_eq!(
        parse("setoption name EvalFile value"),
        Ok(Command::SetOption {
            name: "EvalFile".into(),
            value: Some(String::new())
        })
    );
    assert_eq!(
        parse("setoption hashsize 64"),
        Ok(Command::SetOption {
            name: "hashsize".into(),
            value: Some("64".into())
        })
    );
    assert_eq!(
        parse("setoption Clear_Hash"),
        Ok(Command::SetOption {
            name: "Clear_Hash".into(),
            value: None
        })
    );
    assert!(invalid_msg("setoption").contains("missing option name"));
    assert!(invalid_msg("setoption name").contains("missing option name"));
    assert!(invalid_msg("setoption name value 3").contains("missing option name"));
}

#[test]
fn position_forms() {
    let start = Base::StartPos {
        cho: Setup::Inner,
        han: Setup::Inner,
    };
    assert_eq!(
        parse("position startpos"),
        Ok(Command::Position(PositionSpec {
            base: start.clone(),
            moves: vec![]
        }))
    );
    assert_eq!(
        parse("position startpos moves h1g3 e7e6"),
        Ok(Command::Position(PositionSpec {
            base: start,
            moves: vec!["h1g3".into(), "e7e6".into()]
        }))
    );
    assert_eq!(
        parse("position startpos han HEHE cho outer moves 0000"),
        Ok(Command::Position(PositionSpec {
            base: Base::StartPos {
                cho: Setup::Outer,
                han: Setup::Right
            },
            moves: vec!["0000".into()]
        }))
    );
    let fen = "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1";
    assert_eq!(
        parse(&format!("position fen {fen} moves e2e2")),
        Ok(Command::Position(PositionSpec {
            base: Base::Fen(fen.into()),
            moves: vec!["e2e2".into()]
        }))
    );
    assert!(invalid_msg("position").contains("expected 'startpos' or 'fen"));
    assert!(invalid_msg("position fen").contains("FEN is missing"));
    assert!(invalid_msg("position fen moves e2e2").contains("FEN is missing"));
    assert!(invalid_msg("position moves e2e2").contains("'moves' before"));
    assert!(invalid_msg("position startfoo").contains("got 'startfoo'"));
    assert!(invalid_msg("position startpos junk").contains("unexpected 'junk'"));
    assert!(invalid_msg("position startpos cho").contains("needs an arrangement"));
    assert!(invalid_msg("position startpos han middle").contains("unknown setup"));
}

#[test]
fn go_fields() {
    let g = go("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 byoyomi 300");
    assert_eq!(
        (g.wtime, g.btime, g.winc, g.binc, g.movestogo, g.byoyomi),
        (
            Some(1000),
            Some(2000),
            Some(10),
            Some(20),
            Some(5),
            Some(300)
        )
    );
    assert!(g.problems.is_empty());
    let g = go("go depth 8 nodes 200000 movetime 300 mate 3");
    assert_eq!(
        (g.depth, g.nodes, g.movetime, g.mate),
        (Some(8), Some(200000), Some(300), Some(3))
    );
    let g = go("go ponder draw time 60 increment 2 opptime 50 oppincrement 3 movestogo 10");
    assert!(g.ponder && g.draw && !g.infinite);
    assert_eq!(
        (g.time, g.increment, g.opptime, g.oppincrement),
        (Some(60), Some(2), Some(50), Some(3))
    );
    let g = go("go infinite searchmoves h1g3 e2e2 depth 4");
    assert!(g.infinite);
    assert_eq!(g.searchmoves, vec!["h1g3", "e2e2"]);
    assert_eq!(g.depth, Some(4));
    assert_eq!(go("go"), Go::default());
}

#[test]
fn go_bad_fields_reported_not_fatal() {
    let g = go("go depth -1");
    assert_eq!(g.depth, None);
    assert!(g.problems[0].contains("depth -1 is negative"));
    let g = go("go depth 99999999999");
    assert_eq!(g.depth, Some(MAX_DEPTH as u32));
    assert!(g.problems[0].contains("out of range"));
    let g = go("go wtime -5 btime 100");
    assert_eq!((g.wtime, g.btime), (Some(0), Some(100)));
    assert!(g.problems[0].contains("wtime -5 is negative; using 0"));
    let g = go("go depth wtime 100");
    assert_eq!((g.depth, g.wtime), (None, Some(100)));
    assert!(g.problems[0].contains("'depth' needs a value"));
    let g = go("go nodes abc");
    assert_eq!(g.nodes, None);
    assert!(g.problems[0].contains("not a whole number"));
    let g = go("go nodes 99999999999999999999999");
    assert_eq!(g.nodes, Some(u64::MAX));
    let g = go("go movetime");
    assert!(g.problems[0].contains("needs a value"));
    let g = go("go sideways 3");
    assert_eq!(g.problems.len(), 2, "{:?}", g.problems);
    assert!(g.problems[0].contains("unknown field 'sideways'"));
    let g = go("go wtime 1e3");
    assert!(g.problems[0].contains("not a whole number"));
    let g = go("go wtime -0");
    assert_eq!(g.wtime, Some(0));
    assert!(g.problems.is_empty());
    let g = go("go wtime 99999999999999999");
    assert_eq!(g.wtime, Some(MAX_TIME_MS));
}

#[test]
fn perft() {
    assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
    assert_eq!(parse("go perft 0"), Ok(Command::Perft(0)));
    assert!(invalid_msg("go perft").contains("missing"));
    assert!(invalid_msg("go perft -1").contains("expected one depth"));
    assert!(invalid_msg("go perft x").contains("expected one depth"));
    assert!(invalid_msg("go perft 3 4").contains("expected one depth"));
    assert!(invalid_msg("go perft 99").contains("above the limit"));
}

#[test]
fn banmoves_probe_setup() {
    assert_eq!(
        parse("banmoves h0g2 e6e5"),
        Ok(Command::BanMoves(vec!["h0g2".into(), "e6e5".into()]))
    );
    assert_eq!(parse("banmoves"), Ok(Command::BanMoves(vec![])));
    assert_eq!(parse("probe"), Ok(Command::Probe(None)));
    assert!(matches!(
        parse("probe startpos moves h0g2"),
        Ok(Command::Probe(Some(_)))
    ));
    assert!(invalid_msg("probe junk").contains("probe: expected"));
    assert_eq!(parse("setup han"), Ok(Command::SetupHan { movetime: None }));
    assert_eq!(
        parse("setup han movetime 500"),
        Ok(Command::SetupHan {
            movetime: Some(500)
        })
    );
    assert_eq!(
        parse("setup cho HEEH movetime 200"),
        Ok(Command::SetupCho {
            han: Setup::Inner,
            movetime: Some(200)
        })
    );
    assert_eq!(
        parse("setup cho 상마마상"),
        Ok(Command::SetupCho {
            han: Setup::Outer,
            movetime: None
        })
    );
    assert!(invalid_msg("setup").contains("expected 'han'"));
    assert!(invalid_msg("setup both").contains("got 'both'"));
    assert!(invalid_msg("setup cho").contains("missing"));
    assert!(invalid_msg("setup cho sideways").contains("unknown setup"));
    assert!(invalid_msg("setup han movetime -3").contains("bad movetime"));
    assert!(invalid_msg("setup han depth 3").contains("unexpected"));
}

#[test]
fn every_go_field_is_read_from_the_one_table() {
    for (name, kind) in GO_FIELDS {
        let line = match kind {
            GoValue::Flag(_) => format!("go {name}"),
            GoValue::Moves => format!("go {name} h1g3"),
            _ => format!("go {name} 7"),
        };
        let Ok(Command::Go(g)) = line.parse::<Command>() else {
            panic!("{line}");
        };
        assert!(g.problems.is_empty(), "{line}: {:?}", g.problems);
        assert_ne!(*g, Go::default(), "{name} set nothing");
    }
    // fairyground's spellings of UCCI's opponent clock.
    let Ok(Command::Go(g)) = "go time 5 oppotime 6 oppoincrement 7".parse::<Command>() else {
        panic!()
    };
    assert_eq!((g.opptime, g.oppincrement), (Some(6), Some(7)));
}
