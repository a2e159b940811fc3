//! Bad input never kills the engine: after each case it says what was wrong,
//! keeps its state, answers `isready` and still plays a legal move.

mod protocol_support;

use janggun::board::Notation;
use janggun::util::rng::Rng;
use protocol_support::*;
use std::time::Duration;

const U: Notation = Notation::Uci;
const KNOWN: &str = "position startpos moves h1g3";

fn known_fen() -> String {
    position(None, &["h1g3"], U).to_fen()
}

/// Sends `bad` after setting a known position; checks the error (or its
/// absence), the position afterwards, readiness and a legal move.
fn survives(bad: &[u8], error: Option<&str>, fen_after: &str) {
    let mut e = Engine::start();
    e.send(KNOWN);
    e.send_bytes(bad);
    e.send_bytes(b"\n");
    // A bad `go` may still start a search; `stop` ends it before the check.
    e.send("stop");
    let out = e.sync();
    let errs = errors(&out);
    match error {
        Some(needle) => assert!(
            errs.iter().any(|l| l.contains(needle)),
            "after {:?}: no error containing '{needle}' in {out:#?}",
            String::from_utf8_lossy(&bad[..bad.len().min(80)])
        ),
        None => assert!(errs.is_empty(), "unexpected errors {errs:#?}"),
    }
    e.send("d");
    let out = e.sync();
    assert!(
        out.iter().any(|l| *l == format!("Fen: {fen_after}")),
        "state after {:?}: {out:#?}",
        String::from_utf8_lossy(&bad[..bad.len().min(80)])
    );
    e.send("position startpos");
    let lines = e.search("go depth 3");
    check_search(&position(None, &[], U), &lines, U);
}

const START_ROWS: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR";

#[test]
fn empty_lines_are_quiet() {
    survives(b"", None, &known_fen());
    survives(b"   \t  ", None, &known_fen());
    survives(b"\r", None, &known_fen());
}

#[test]
fn unknown_command() {
    survives(
        b"fly me to the moon",
        Some("unknown command 'fly'"),
        &known_fen(),
    );
}

#[test]
fn bad_fens_keep_the_position() {
    let k = known_fen();
    let cases: Vec<(String, &str)> = vec![
        ("position fen garbage".into(), "expected 10 ranks"),
        (
            "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
                .into(),
            "expected 10 ranks separated by '/', found 9",
        ),
        (
            format!("position fen {START_ROWS}/9 w - - 0 1"),
            "expected 10 ranks separated by '/', found 11",
        ),
        (
            "position fen rnba1abnr/4k5/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
                .into(),
            "rank 9 has more than 9 files",
        ),
        (
            "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3KK4/RNBA1ABNR w - - 0 1"
                .into(),
            "Cho (white) has 2 generals",
        ),
        (
            "position fen rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
                .into(),
            "Han (black) has 0 generals",
        ),
        (
            "position fen rnba1abnr/9/1c5c1/p1p1p1p1p/4k4/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
                .into(),
            "outside its palace",
        ),
        (format!("position fen {START_ROWS} x - - 0 1"), "bad side to move 'x'"),
    ];
    for (line, needle) in cases {
        survives(line.as_bytes(), Some(needle), &k);
    }
}

#[test]
fn bad_moves_keep_the_good_prefix() {
    let start = position(None, &[], U).to_fen();
    survives(
        b"position startpos moves a1a9 zz99",
        Some("move 1 of 2: illegal move 'a1a9'; position set after move 0"),
        &start,
    );
    let after_two = position(None, &["h1g3", "h10g8"], U).to_fen();
    survives(
        b"position startpos moves h1g3 h10g8 e2e4 a1a2",
        Some("move 3 of 4: illegal move 'e2e4'; position set after move 2"),
        &after_two,
    );
    survives(
        b"position startpos moves h1g3 e9e9 e2e2 e10e10",
        Some("move 4 of 4"),
        &position(None, &["h1g3", "e9e9", "e2e2"], U).to_fen(),
    );
}

#[test]
fn bad_go_fields() {
    let k = known_fen();
    survives(b"go depth -1", Some("go: depth -1 is negative"), &k);
    survives(
        b"go depth 99999999999",
        Some("go: depth 99999999999 is out of range"),
        &k,
    );
    survives(
        b"go wtime -5",
        Some("go: wtime -5 is negative; using 0"),
        &k,
    );
    survives(b"go nodes lots", Some("not a whole number"), &k);
    survives(b"go perft -2", Some("go perft"), &k);
}

#[test]
fn bad_option_values_keep_old() {
    let k = known_fen();
    survives(
        b"setoption name Hash value -5",
        Some("out of range 1..65536; keeping 16"),
        &k,
    );
    survives(
        b"setoption name Hash value 99999999",
        Some("out of range"),
        &k,
    );
    survives(
        b"setoption name Threads value 0",
        Some("out of range 1..256; keeping 1"),
        &k,
    );
    survives(
        b"setoption name Threads value two",
        Some("not an integer"),
        &k,
    );
}

#[test]
fn huge_line() {
    let k = known_fen();
    let garbage = vec![b'x'; 1 << 20];
    survives(&garbage, Some("unknown command 'xxxx"), &k);
    let mut moves = b"position startpos moves h1g3 ".to_vec();
    while moves.len() < 1 << 20 {
        moves.extend_from_slice(b"zz99 ");
    }
    survives(
        &moves,
        Some("move 2 of"),
        &k, // h1g3 then the first bad move
    );
}

#[test]
fn non_utf8_bytes() {
    let k = known_fen();
    survives(b"\xff\xfe\xfd", Some("unknown command '\u{fffd}"), &k);
    survives(
        b"position \xc3\x28 startpos",
        Some("position: expected"),
        &k,
    );
    survives(b"go depth \xff", Some("not a whole number"), &k);
}

#[test]
fn position_without_arguments() {
    survives(
        b"position",
        Some("position: expected 'startpos' or 'fen <FEN>'"),
        &known_fen(),
    );
}

#[test]
fn go_before_position_uses_startpos() {
    let mut e = Engine::start();
    let lines = e.search("go depth 3");
    check_search(&position(None, &[], U), &lines, U);
}

#[test]
fn quit_during_search() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.send("isready");
    e.until(LONG, |l| l == "readyok");
    e.send("quit");
    let st = e
        .wait_exit(Duration::from_secs(5))
        .expect("exit after quit");
    assert!(st.success());
}

// ---- fuzz ----

// The fuzz's inputs come from the crate's seeded generator, so a failure
// replays.
fn pick(rng: &mut Rng, xs: &[&'static str]) -> &'static str {
    xs[rng.below(xs.len())]
}

const CORPUS: &[&str] = &[
    "uci",
    "ucci",
    "isready",
    "ucinewgame",
    "stop",
    "ponderhit",
    "d",
    "eval",
    "flip",
    "probe",
    "debug on",
    "position startpos",
    "position startpos moves h1g3 h10g8 c4c5",
    "position startpos cho outer han left moves c4c5 e7e6",
    "position startpos moves h0g2 h9g7",
    "position startpos moves e2e2 e9e9",
    "position fen 7Cb/5R3/3bkR1C1/3np3p/9/9/2PPPP1P1/9/9/4K1B2 b - - 0 49",
    "position fen 3ak4/7C1/9/6N2/9/9/4PCP2/3A2r2/4K4/6n1c w - - 4 55 moves e2d1",
    "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1 moves 0000 pass",
    "go depth 2",
    "go nodes 2000",
    "go movetime 30",
    "go wtime 100 btime 100 winc 0 binc 0",
    "go wtime 100 btime 100 movestogo 3",
    "go infinite",
    "go ponder wtime 200 btime 200",
    "go time 100 opptime 100 increment 0 oppincrement 0",
    "go depth 2 searchmoves h1g3 a1a2",
    "go mate 1 depth 2",
    "go byoyomi 50 wtime 0 btime 0",
    "go perft 1",
    "go perft 2",
    "setoption name UCI_Variant value janggimodern",
    "setoption name UCI_Variant value janggi",
    "setoption name Threads value 2",
    "setoption name Hash value 8",
    "setoption name Clear Hash",
    "setoption name Ponder value true",
    "setoption name MultiPV value 3",
    "setoption name Move Overhead value 20",
    "setoption name Skill Level value -4",
    "setoption name UCI_LimitStrength value true",
    "setoption name UCI_Elo value 1500",
    "setoption name UCI_AnalyseMode value true",
    "setoption name UCI_ShowWDL value true",
    "setoption name UCI_Chess960 value false",
    "setoption name EvalFile value nn.bin",
    "setoption hashsize 8",
    "setoption usemillisec true",
    "setoption Skill_Level 3",
    "banmoves h0g2 e3e4",
    "setup han movetime 30",
    "setup cho outer movetime 30",
];

const TOKENS: &[&str] = &[
    "-1",
    "0",
    "1",
    "2",
    "-99999999999",
    "99999999999",
    "18446744073709551616",
    "1e9",
    "0x10",
    "+5",
    "startpos",
    "fen",
    "moves",
    "name",
    "value",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "searchmoves",
    "cho",
    "han",
    "e2e2",
    "0000",
    "pass",
    "@@@@",
    "a1a9",
    "zz99",
    "h10g8",
    "h9g7",
    "movetime",
    "perft",
    "go",
    "position",
    "setoption",
    "/",
    "w",
    "b",
    "9/9/9",
];

/// Bytes that are neither letters, digits nor newline: they can break a
/// token without making a new command or a larger number.
const NOISE: &[u8] = &[
    b' ', b'\t', b'\r', 0, 0x1b, 0xff, 0xc3, 0x80, 0xe2, b'-', b'/', b'"',
];

fn mutate(rng: &mut Rng, line: &str) -> Vec<u8> {
    let mut toks: Vec<Vec<u8>> = line.split(' ').map(|t| t.as_bytes().to_vec()).collect();
    for _ in 0..1 + rng.below(3) {
        let i = rng.below(toks.len().max(1));
        match rng.below(7) {
            0 if toks.len() > 1 => {
                toks.remove(i);
            }
            1 => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            2 => {
                let j = rng.below(toks.len());
                toks.swap(i, j);
            }
            3 => {
                let t = pick(rng, TOKENS);
                toks[i] = t.as_bytes().to_vec();
            }
            4 => {
                let t = &mut toks[i];
                let at = rng.below(t.len() + 1);
                t.insert(at, NOISE[rng.below(NOISE.len())]);
            }
            5 => {
                let t = &mut toks[i];
                if !t.is_empty() {
                    let at = rng.below(t.len());
                    t[at] = b'!' + rng.below(94) as u8;
                }
            }
            _ => toks.truncate(1 + rng.below(toks.len())),
        }
    }
    toks.join(&b' ')
}

/// Keeps a mutated line's work small: perft at most 2, searches bounded.
fn tame(mut line: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&line).into_owned();
    let t: Vec<&str> = text.split_whitespace().collect();
    if t.first().map(|w| w.to_ascii_lowercase()) == Some("go".into()) {
        if t.get(1) == Some(&"perft") {
            if t.get(2)
                .and_then(|n| n.parse::<u64>().ok())
                .is_some_and(|n| n > 2)
            {
                return b"go perft 2".to_vec();
            }
        } else {
            line.extend_from_slice(b" depth 2 nodes 2000");
        }
    }
    line
}

fn random_line(rng: &mut Rng) -> Vec<u8> {
    if rng.below(20) == 0 {
        // Pure noise.
        (0..rng.below(40))
            .map(|_| (rng.next_u64() as u8).max(1))
            .filter(|&b| b != b'\n')
            .collect()
    } else {
        let base = pick(rng, CORPUS);
        tame(mutate(rng, base))
    }
}

#[test]
fn ten_thousand_mutated_lines() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut e = Engine::start();
    let mut notation = U;
    let mut sent: Vec<String> = Vec::new();
    for n in 0..10_000 {
        let line = random_line(&mut rng);
        let text = String::from_utf8_lossy(&line).into_owned();
        let t: Vec<&str> = text.split_whitespace().collect();
        if t.first().is_some_and(|w| w.eq_ignore_ascii_case("quit")) {
            continue;
        }
        if t.len() == 1 && t[0].eq_ignore_ascii_case("uci") {
            notation = Notation::Uci;
        }
        if t.len() == 1 && t[0].eq_ignore_ascii_case("ucci") {
            notation = Notation::Ucci;
        }
        // UCI-cyclone (ranks 0..9), as in Fairy-Stockfish: `ucicyclone`, or
        // a `fen`/`startpos` line without `position`, until the next `uci`.
        if (t.len() == 1 && t[0].eq_ignore_ascii_case("ucicyclone"))
            || t.first().is_some_and(|w| {
                w.eq_ignore_ascii_case("fen") || w.eq_ignore_ascii_case("startpos")
            })
        {
            notation = Notation::Ucci;
        }
        e.send_bytes(&line);
        e.send_bytes(b"\n");
        sent.push(text.clone());
        if sent.len() > 20 {
            sent.remove(0);
        }
        e.send("isready");
        // A line that is itself `isready` earns a readyok of its own.
        let answers = 1 + t.first().is_some_and(|w| w.eq_ignore_ascii_case("isready")) as usize;
        for _ in 0..answers {
            e.until(LONG, |l| l == "readyok");
        }
        if n % 250 == 249 {
            e.send("stop");
            e.sync();
            e.send("position startpos");
            e.send("go depth 3");
            let lines = e.until(LONG, is_bestmove);
            let (best, _) = bestmove_of(lines.last().unwrap());
            let legal = best.is_some_and(|b| {
                janggun::board::parse_move(&position(None, &[], notation), &b, notation).is_ok()
            });
            if !legal {
                panic!("sent:\n{}\n---\nread:\n{}", sent.join("\n"), e.tail());
            }
            check_search(&position(None, &[], notation), &lines, notation);
        }
    }
    e.send("stop");
    e.sync();
    e.send("position startpos");
    let lines = e.search("go depth 3");
    check_search(&position(None, &[], notation), &lines, notation);
    assert!(
        !e.log.iter().any(|l| l.contains("panicked")),
        "a panic was reported"
    );
}
