//! Elo, error bars, LOS and SPRT LLR against figures published by other
//! tools (not against our own output). The pentanomial counts and the
//! printed results are copied from fastchess reports published in engine
//! repositories (e.g. the README of WGCodings/Pea, the Zeno development
//! log) and from a fishtest run record; fastchess and fishtest both use the
//! normalized-Elo GSPRT. Published figures have two decimals, so we compare
//! to within half a unit in the last place (plus a hair for LOS rounding).

use janggun::arena::stats::{llr_normalized, sprt_bounds, summarize};

struct Published {
    penta: [u64; 5],
    elo: f64,
    elo_err: f64,
    nelo: f64,
    nelo_err: f64,
    los_percent: f64,
    /// (elo0, elo1, LLR) in normalized Elo.
    llr: Option<(f64, f64, f64)>,
}

const CASES: &[Published] = &[
    // Pea README: "Elo: -4.84 +/- 6.08, nElo: -5.86 +/- 7.36, LOS: 5.95 %,
    // Ptnml(0-2): [585, 735, 1655, 814, 486], LLR: -2.96 ... [0.00, 5.00]"
    Published {
        penta: [585, 735, 1655, 814, 486],
        elo: -4.84,
        elo_err: 6.08,
        nelo: -5.86,
        nelo_err: 7.36,
        los_percent: 5.95,
        llr: Some((0.0, 5.0, -2.96)),
    },
    // Zeno log, "Change the conditions for returning an evaluation from the TT".
    Published {
        penta: [200, 557, 1005, 643, 249],
        elo: 12.05,
        elo_err: 7.02,
        nelo: 16.07,
        nelo_err: 9.35,
        los_percent: 99.96,
        llr: Some((0.0, 5.0, 2.97)),
    },
    // Zeno log, "History Heuristic": a run stopped mid-way (LLR 0.53).
    Published {
        penta: [224, 309, 874, 347, 246],
        elo: 7.12,
        elo_err: 8.57,
        nelo: 8.95,
        nelo_err: 10.77,
        los_percent: 94.84,
        llr: Some((0.0, 2.0, 0.53)),
    },
    // Zeno log, against Zeno 1.0 with bounds [15, 18]: LLR 2.08.
    Published {
        penta: [183, 319, 779, 398, 321],
        elo: 30.92,
        elo_err: 8.87,
        nelo: 37.74,
        nelo_err: 10.77,
        los_percent: 100.0,
        llr: Some((15.0, 18.0, 2.08)),
    },
    // A fastchess SPRT that accepted H0 with bounds [-10, 10].
    Published {
        penta: [16, 25, 42, 12, 3],
        elo: -70.07,
        elo_err: 35.86,
        nelo: -98.03,
        nelo_err: 48.64,
        los_percent: 0.0,
        llr: Some((-10.0, 10.0, -2.95)),
    },
    // A near-zero result: "Elo: -0.30 +/- 1.78, nElo: -0.78 +/- 4.60,
    // LOS: 37.02 %", LLR -2.98 with [0, 5].
    Published {
        penta: [71, 1382, 8067, 1385, 60],
        elo: -0.30,
        elo_err: 1.78,
        nelo: -0.78,
        nelo_err: 4.60,
        los_percent: 37.02,
        llr: Some((0.0, 5.0, -2.98)),
    },
];

fn close(got: f64, want: f64, tol: f64, what: &str, penta: &[u64; 5]) {
    assert!(
        (got - want).abs() <= tol,
        "{what} for {penta:?}: got {got:.4}, published {want}"
    );
}

#[test]
fn elo_error_bar_and_los_match_published_fastchess_reports() {
    for c in CASES {
        let s = summarize(&c.penta).unwrap();
        close(s.elo, c.elo, 0.0051, "Elo", &c.penta);
        close(s.elo_error, c.elo_err, 0.0051, "Elo error", &c.penta);
        close(s.nelo, c.nelo, 0.0051, "nElo", &c.penta);
        close(s.nelo_error, c.nelo_err, 0.0051, "nElo error", &c.penta);
        close(100.0 * s.los, c.los_percent, 0.0051, "LOS", &c.penta);
    }
}

#[test]
fn sprt_llr_matches_published_values() {
    for c in CASES {
        if let Some((e0, e1, llr)) = c.llr {
            close(
                llr_normalized(e0, e1, &c.penta),
                llr,
                0.0051,
                "LLR",
                &c.penta,
            );
        }
    }
    // fishtest run record: "LLR: -2.94 (-2.94,2.94) <0.00,2.00>",
    // "Ptnml(0-2): 369, 12695, 27124, 12664, 332".
    let fishtest = [369, 12695, 27124, 12664, 332];
    close(
        llr_normalized(0.0, 2.0, &fishtest),
        -2.94,
        0.0051,
        "LLR",
        &fishtest,
    );
}

#[test]
fn sprt_bounds_match_published_values() {
    // fastchess prints (-2.94, 2.94) for alpha = beta = 0.05 and
    // (-2.25, 2.89) for alpha = 0.05, beta = 0.10.
    let (lo, hi) = sprt_bounds(0.05, 0.05);
    close(lo, -2.94, 0.005, "lower bound", &[0; 5]);
    close(hi, 2.94, 0.005, "upper bound", &[0; 5]);
    let (lo, hi) = sprt_bounds(0.05, 0.10);
    close(lo, -2.25, 0.005, "lower bound", &[0; 5]);
    close(hi, 2.89, 0.005, "upper bound", &[0; 5]);
}

#[test]
fn degenerate_counts_do_not_panic() {
    assert!(summarize(&[0; 5]).is_none());
    let all_wins = summarize(&[0, 0, 0, 0, 10]).unwrap();
    assert!(all_wins.elo_error.is_nan() || all_wins.elo_error.is_infinite());
    assert!(llr_normalized(0.0, 5.0, &[0, 0, 0, 0, 10]) > 0.0);
    assert_eq!(llr_normalized(0.0, 5.0, &[0; 5]), 0.0);
}
