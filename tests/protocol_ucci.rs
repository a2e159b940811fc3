//! A UCCI session: ranks 0..9 both ways, option lines without `name`,
//! banmoves, probe, `bye`.

mod protocol_support;

use janggun::board::{legal_moves, move_to_string, MoveList, Notation};
use protocol_support::*;

const C: Notation = Notation::Ucci;

#[test]
fn ucci_session() {
    let mut e = Engine::start();
    e.send("ucci");
    let hello = e.until(LONG, |l| l == "ucciok");
    assert!(hello[0].starts_with("id name Janggun"));
    for name in [
        "hashsize",
        "threads",
        "usemillisec",
        "UCI_Variant",
        "Skill_Level",
        "MultiPV",
    ] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option {name} type "))),
            "no option {name}: {hello:#?}"
        );
    }
    assert!(!hello.iter().any(|l| l.contains("option name")));
    for s in [
        "setoption usemillisec true",
        "setoption hashsize 32",
        "setoption threads 1",
        "setoption Skill_Level 20",
        "setoption UCI_Variant janggi",
    ] {
        e.send(s);
    }
    let out = e.sync();
    assert!(errors(&out).is_empty(), "{out:#?}");

    // Ranks 0..9: Cho's horse h0-g2, Han's h9-g7.
    let moves = ["h0g2", "h9g7"];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let pos = position(None, &moves, C);
    for go in [
        "go depth 3",
        "go time 2000 increment 0 opptime 2000 oppincrement 0",
        "go draw time 2000 increment 10 opptime 2000 oppincrement 10 movestogo 20",
        "go nodes 3000",
    ] {
        let lines = e.search(go);
        assert!(errors(&lines).is_empty(), "{go}: {lines:#?}");
        // Read back in UCCI notation: a UCI rank 10 would not parse.
        check_search(&pos, &lines, C);
    }

    // Seconds when usemillisec is off.
    e.send("setoption usemillisec false");
    let lines = e.search("go time 2 increment 0 opptime 2 oppincrement 0");
    check_search(&pos, &lines, C);

    // banmoves: all but two legal moves banned, the answer is one of those.
    let mut list = MoveList::new();
    legal_moves(&pos, &mut list);
    let all: Vec<String> = list.iter().map(|&m| move_to_string(m, C)).collect();
    let (banned, kept) = all.split_at(all.len() - 2);
    e.send(&format!("banmoves {}", banned.join(" ")));
    let lines = e.search("go depth 3");
    let mv = move_to_string(check_search(&pos, &lines, C), C);
    assert!(kept.contains(&mv), "played banned {mv}: {lines:#?}");
    // Bans last for one search only.
    let lines = e.search("go depth 1");
    check_search(&pos, &lines, C);
    // Everything banned: no move to give.
    e.send(&format!("banmoves {}", all.join(" ")));
    let lines = e.search("go depth 3");
    assert_eq!(lines.last().unwrap(), "nobestmove");

    // Checkmate root: nobestmove.
    e.send("position fen 7Cb/5R3/3bkR1C1/3np3p/9/9/2PPPP1P1/9/9/4K1B2 b - - 0 49");
    let lines = e.search("go depth 3");
    assert!(lines.contains(&"info string result 1-0 checkmate".to_string()));
    assert_eq!(lines.last().unwrap(), "nobestmove");

    e.send("position startpos");
    e.send("probe");
    let out = e.sync();
    assert!(
        out.len() == 1 && out[0].starts_with("info string eval "),
        "{out:?}"
    );
    e.send("quit");
    e.until(LONG, |l| l == "bye");
    assert!(e.wait_exit(std::time::Duration::from_secs(5)).is_some());
}

#[test]
fn ucci_stop_and_ponderhit() {
    let mut e = Engine::start();
    e.send("ucci");
    e.until(LONG, |l| l == "ucciok");
    e.send("setoption usemillisec true");
    e.send("position startpos moves b0c2");
    let pos = position(None, &["b0c2"], C);
    e.send("go ponder time 1000 increment 0 opptime 1000 oppincrement 0");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let early = e.sync();
    assert!(!early.iter().any(|l| is_bestmove(l)), "{early:?}");
    let lines = e.search("ponderhit");
    check_search(&pos, &lines, C);
    e.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(100));
    let lines = e.search("stop");
    check_search(&pos, &lines, C);
}
