//! The SPRT stops the match once the LLR crosses a bound, and score-based
//! draw and resign adjudication end games on both engines' reports.

mod match_common;

use janggun::arena::record::totals;
use janggun::arena::stats::{llr_normalized, sprt_bounds};
use janggun::arena::EndKind;
use match_common::*;

#[test]
fn sprt_stops_when_the_llr_crosses_a_bound() {
    for faulty_first in [true, false] {
        let mut a = Vec::new();
        let faulty = fault_args("faulty", "illegal", &[]);
        let steady = script_engine("steady", &["a1a2"]);
        if faulty_first {
            a.extend(faulty);
            a.extend(steady);
        } else {
            a.extend(steady);
            a.extend(faulty);
        }
        a.extend(args(&["--games", "400", "--movetime", "500", "--quiet"]));
        a.extend(args(&[
            "--sprt",
            "elo0=0",
            "elo1=10",
            "alpha=0.05",
            "beta=0.05",
        ]));
        let out = run_match(&a);
        let n = out.records.len();
        assert!(
            n < 400 && n.is_multiple_of(2),
            "stopped early on a full pair, after {n} games"
        );
        let t = totals(2, &out.records);
        let llr = llr_normalized(0.0, 10.0, &t.engines[0].penta);
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        if faulty_first {
            assert!(llr <= lo, "H0 accepted: {llr}");
        } else {
            assert!(llr >= hi, "H1 accepted: {llr}");
        }
        // One pair fewer would not have crossed.
        let mut fewer = t.engines[0].penta;
        let last = if faulty_first { 0 } else { 4 };
        fewer[last] -= 1;
        let before = llr_normalized(0.0, 10.0, &fewer);
        assert!(
            before > lo && before < hi,
            "the match went on past the bound: {before}"
        );
    }
}

/// The start position only (the default 16 setups move the horses).
fn start_book(name: &str) -> Vec<String> {
    let path = temp_path(name);
    std::fs::write(
        &path,
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\n",
    )
    .unwrap();
    args(&["--openings", path.to_str().unwrap()])
}

fn cycle() -> Vec<&'static str> {
    let c = [
        "b1c3", "b10c8", "c3b1", "c8b10", "h1g3", "h10g8", "g3h1", "g8h10",
    ];
    c.iter().copied().cycle().take(15).collect()
}

#[test]
fn draw_adjudication_on_quiet_scores() {
    let mut a = script_engine("x", &cycle());
    a.extend(script_engine("y", &cycle()));
    a.extend(args(&["--games", "2", "--movetime", "500", "--quiet"]));
    a.extend(args(&[
        "--adjudicate-draw",
        "movenumber=3",
        "movecount=2",
        "score=5",
    ]));
    a.extend(start_book("draw.epd"));
    let out = run_match(&a);
    for r in out.records.values() {
        assert_eq!(r.kind, EndKind::AdjudicatedDraw, "{}", r.detail);
        assert_eq!(r.outcome.result_string(), "1/2-1/2");
        // Move 3 complete (ply 6), both engines have two quiet scores.
        assert_eq!(r.moves.len(), 6);
    }
}

#[test]
fn resign_adjudication_needs_both_engines_to_agree() {
    let mut moves = cycle();
    moves.truncate(12);
    // "down" always thinks it is lost, "up" always thinks it is winning.
    let mut a = fault_args("down", "script", &[&["score=-900"][..], &moves].concat());
    a.extend(fault_args(
        "up",
        "script",
        &[&["score=900"][..], &moves].concat(),
    ));
    a.extend(args(&["--games", "2", "--movetime", "500", "--quiet"]));
    a.extend(args(&["--adjudicate-resign", "movecount=3", "score=600"]));
    a.extend(start_book("resign.epd"));
    let out = run_match(&a);
    for r in out.records.values() {
        assert_eq!(r.kind, EndKind::AdjudicatedResign, "{}", r.detail);
        assert_eq!(r.half_points(0), Some(0), "the pessimist loses");
        assert_eq!(r.moves.len(), 6, "three reports each");
    }
    // Agreement is required: if both are pessimistic nobody resigns.
    let mut a = fault_args("down", "script", &[&["score=-900"][..], &moves].concat());
    a.extend(fault_args(
        "down2",
        "script",
        &[&["score=-900"][..], &moves].concat(),
    ));
    a.extend(args(&["--games", "2", "--movetime", "500", "--quiet"]));
    a.extend(args(&["--adjudicate-resign", "movecount=3", "score=600"]));
    a.extend(start_book("resign2.epd"));
    let out = run_match(&a);
    for r in out.records.values() {
        assert_ne!(r.kind, EndKind::AdjudicatedResign);
    }
}
