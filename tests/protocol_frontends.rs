//! What the UCI and UCCI frontends of docs/PROTOCOL.md ("What the GUIs and
//! bots send") need beyond the protocol itself: uci2wb's variant line and 0..9 ranks, the options and
//! commands python-chess, Liground, fairyground and QBoard send, and
//! decided games reported as mates.

mod protocol_support;

use janggun::board::Notation;
use protocol_support::*;

#[test]
fn variant_line_for_uci2wb() {
    let mut e = Engine::start_uci();
    e.send("setoption name UCI_Variant value janggimodern");
    let lines = e.sync();
    assert_eq!(
        lines,
        vec![format!(
            "info string variant janggimodern files 9 ranks 10 pocket 0 template janggi startpos {}",
            janggun::board::START_FEN
        )]
    );
}

#[test]
fn uci_cyclone_writes_and_reads_ranks_from_zero() {
    let mut e = Engine::start_uci();
    e.send("ucicyclone");
    e.send("position startpos moves b0c2");
    let lines = e.search("go depth 3");
    let after = position(None, &["b1c3"], Notation::Uci);
    check_search(&after, &lines, Notation::Ucci);
    // A `fen`/`startpos` line without `position` switches too.
    let mut e = Engine::start_uci();
    e.send("startpos moves h0g2");
    let lines = e.search("go depth 3");
    check_search(
        &position(None, &["h1g3"], Notation::Uci),
        &lines,
        Notation::Ucci,
    );
    e.send(&format!("fen {}", janggun::board::START_FEN));
    let lines = e.search("go depth 2");
    check_search(&position(None, &[], Notation::Uci), &lines, Notation::Ucci);
}

#[test]
fn options_and_commands_frontends_send_are_accepted() {
    let mut e = Engine::start_uci();
    e.send("setoption name SyzygyPath value /tmp");
    e.send("setoption name Analysis Contempt value Off");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    // Declared (python-chess sets only declared options), so set quietly.
    assert!(!lines.iter().any(|l| l.contains("SyzygyPath")), "{lines:?}");
    e.send("uci");
    let hello = e.until(LONG, |l| l == "uciok");
    assert!(hello
        .iter()
        .any(|l| l == "option name SyzygyPath type string default <empty>"));
    assert!(lines
        .iter()
        .any(|l| l.contains("'Analysis Contempt' is ignored")));
    let mut e = Engine::start_ucci();
    e.send("setoption UCCI_Variant janggicasual");
    e.send("uccinewgame");
    e.send("position startpos");
    let lines = e.search("go time 1 oppotime 1 increment 0 oppoincrement 0");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines[0].contains("variant janggicasual"), "{lines:?}");
    check_search(&position(None, &[], Notation::Uci), &lines, Notation::Ucci);
}

#[test]
fn a_win_on_the_count_is_a_mate_score() {
    let mut e = Engine::start_uci();
    // Cho passed; Han passes back and wins on the count (73.5 to 72).
    e.send("position startpos moves e2e2");
    let lines = e.search("go depth 4");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.contains("score mate 1 "), "{last_info}");
    assert_eq!(lines.last().unwrap(), "bestmove e9e9");
    // And the side that will lose on the count sees a negative mate.
    e.send("position startpos moves e2e2 b10c8");
    let lines = e.search("go depth 4");
    assert!(
        !lines.iter().any(|l| l.contains("score cp 199")),
        "a decided game shown as centipawns: {lines:?}"
    );
}
