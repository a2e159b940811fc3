//! The Janggi setup extensions: `setup han|cho ...` and `position startpos
//! cho X han Y`.

mod protocol_support;

use janggun::board::notation::setup_fen;
use janggun::board::{Notation, Setup};
use protocol_support::*;
use std::time::{Duration, Instant};

fn answer(e: &mut Engine, cmd: &str, budget_ms: u64) -> Setup {
    let t = Instant::now();
    e.send(cmd);
    let lines = e.until(LONG, |l| l.starts_with("setup "));
    let took = t.elapsed();
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    // Generous: the machine is shared, but an answer far past the budget
    // means the time is not being kept.
    assert!(
        took < Duration::from_millis(budget_ms + 400),
        "'{cmd}' took {took:?}"
    );
    let name = lines.last().unwrap().strip_prefix("setup ").unwrap();
    assert!(
        ["inner", "outer", "left", "right"].contains(&name),
        "not an arrangement name: {name}"
    );
    name.parse().unwrap()
}

#[test]
fn setup_answers_for_each_side_within_time() {
    let mut e = Engine::start();
    let han = answer(&mut e, "setup han movetime 600", 600);
    let cho = answer(&mut e, &format!("setup cho {han} movetime 400"), 400);
    for name in ["HEEH", "ehhe", "마상마상", "left"] {
        answer(&mut e, &format!("setup cho {name} movetime 200"), 200);
    }
    // Default budget: 1000 ms.
    answer(&mut e, "setup han", 1000);
    // The chosen arrangements give a playable start position.
    e.send(&format!("position startpos cho {cho} han {han}"));
    e.send("d");
    let out = e.sync();
    let fen = setup_fen(cho, han);
    assert!(out.iter().any(|l| *l == format!("Fen: {fen}")), "{out:#?}");
    let lines = e.search("go depth 3");
    check_search(
        &position(Some(&fen), &[], Notation::Uci),
        &lines,
        Notation::Uci,
    );
}

#[test]
fn startpos_with_named_setups() {
    let mut e = Engine::start();
    for (cho, han) in [("outer", "left"), ("HEHE", "EHHE"), ("inner", "right")] {
        e.send(&format!("position startpos han {han} cho {cho} moves c4c5"));
        e.send("d");
        let out = e.sync();
        let fen = setup_fen(cho.parse().unwrap(), han.parse().unwrap());
        let expect = position(Some(&fen), &["c4c5"], Notation::Uci).to_fen();
        assert!(
            out.iter().any(|l| *l == format!("Fen: {expect}")),
            "{out:#?}"
        );
    }
    e.send("setup cho sideways");
    let out = e.sync();
    assert!(
        errors(&out)[0].contains("unknown setup 'sideways'"),
        "{out:?}"
    );
}

#[test]
fn stop_ends_setup_search() {
    let mut e = Engine::start();
    e.send("setup han movetime 20000");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("stop");
    e.until(LONG, |l| l.starts_with("setup "));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}
