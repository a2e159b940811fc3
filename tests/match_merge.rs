//! `janggun match merge`: a real match at fixed nodes, played as four
//! shards with seeds 1..4, merges into the statistics one run with all
//! those game pairs reports (the runner's own totals, Elo and LLR over
//! the same pairs), prints the table a single run prints, and refuses
//! what is not whole shards of one match.

mod match_common;

use janggun::arena::record::{totals, Record};
use janggun::arena::report::{self, MatchReport};
use janggun::arena::stats::{llr_normalized, summarize};
use janggun::arena::{output, EndKind};
use match_common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_janggun");

fn shard_args(seed: u64, json: &Path, nodes: &str) -> Vec<String> {
    args(&[
        "--engine",
        "name=nnue",
        &format!("cmd={BIN}"),
        "option.Hash=8",
        "--engine",
        "name=classical",
        &format!("cmd={BIN}"),
        "option.Hash=8",
        "option.Use NNUE=false",
        "--nodes",
        nodes,
        "--games",
        "4",
        "--random-plies",
        "4",
        "--seed",
        &seed.to_string(),
        "--concurrency",
        "2",
        "--quiet",
        "--json",
        json.to_str().unwrap(),
        "--pgn",
        json.with_extension("pgn").to_str().unwrap(),
    ])
}

fn janggun(a: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(a).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn merge(out: &Path, inputs: &[&Path], extra: &[&str]) -> (bool, String, String) {
    let mut a = vec!["match", "merge", out.to_str().unwrap()];
    a.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    a.extend(extra);
    janggun(&a)
}

/// The shards' JSON files and the games each run returned.
type Shards = (Vec<PathBuf>, Vec<BTreeMap<usize, Record>>);

/// Plays the four shards once for all the tests of this file.
fn shards() -> &'static Shards {
    static SHARDS: std::sync::OnceLock<Shards> = std::sync::OnceLock::new();
    SHARDS.get_or_init(|| {
        let mut paths = Vec::new();
        let mut records = Vec::new();
        for seed in 1..=4 {
            let path = temp_path(&format!("shard-{seed}.json"));
            let out = run_match(&shard_args(seed, &path, "300"));
            assert_eq!(out.records.len(), 4);
            paths.push(path);
            records.push(out.records);
        }
        (paths, records)
    })
}

#[test]
fn merged_statistics_are_one_run_s_over_the_same_pairs() {
    let (paths, records) = shards();
    // One run with all these pairs: the shards' games, one after another.
    let mut all = BTreeMap::new();
    for (k, recs) in records.iter().enumerate() {
        for (i, r) in recs {
            let mut r = r.clone();
            r.slot.index = 4 * k + i;
            all.insert(r.slot.index, r);
        }
    }
    let t = totals(2, &all);
    let penta = t.engines[0].penta;
    assert_eq!(penta.iter().sum::<u64>(), 8);
    // Sum of the parts.
    let mut sum = [0u64; 5];
    for recs in records {
        for (s, x) in sum.iter_mut().zip(totals(2, recs).engines[0].penta) {
            *s += x;
        }
    }
    assert_eq!(penta, sum);

    let out = temp_path("merged.json");
    let pgn = temp_path("merged.pgn");
    // Given in another order: the merge takes them in seed order.
    let inputs: Vec<&Path> = paths.iter().rev().map(PathBuf::as_path).collect();
    let sprt = "--sprt elo0=-50 elo1=50 alpha=0.1 beta=0.1";
    let mut extra: Vec<&str> = sprt.split(' ').collect();
    extra.extend(["--pgn", pgn.to_str().unwrap()]);
    let (ok, stdout, stderr) = merge(&out, &inputs, &extra);
    assert!(ok, "{stderr}");

    let m: MatchReport = report::read(&out).unwrap().unwrap();
    let e = &m.engines[0];
    let s = summarize(&penta).unwrap();
    assert_eq!(e.pentanomial, penta);
    assert_eq!(
        e.summary.as_ref().unwrap().elo,
        Some(s.elo).filter(|x| x.is_finite())
    );
    assert_eq!(
        e.summary.as_ref().unwrap().nelo,
        Some(s.nelo).filter(|x| x.is_finite())
    );
    let llr = llr_normalized(-50.0, 50.0, &penta);
    assert_eq!(m.sprt.as_ref().unwrap().llr, llr);
    assert_eq!(
        (e.wins, e.draws, e.losses),
        (t.engines[0].wins, t.engines[0].draws, t.engines[0].losses)
    );
    assert_eq!(m.games.len(), 16);
    let seeds: Vec<&str> = m.shards.iter().flatten().map(|s| s.seed.as_str()).collect();
    assert_eq!(seeds, ["1", "2", "3", "4"]);
    // The merged games are the shards' games in seed order, renumbered.
    for (k, g) in m.games.iter().enumerate() {
        assert_eq!(g.game, k as u64 + 1);
        let r = &all[&k];
        assert_eq!(g.fen, r.fen);
        assert_eq!(g.plies, r.moves.len() as u64);
        assert_eq!(g.time_ms.len() as u64, g.plies - g.book_plies.unwrap());
    }
    for k in EndKind::all() {
        let n = m.end_reasons.get(k.name()).copied().unwrap_or(0);
        assert_eq!(n, t.reasons.get(&k).copied().unwrap_or(0), "{}", k.name());
    }

    // The table a single run prints, and the LLR with its words.
    let table = output::table(&["nnue", "classical"], &t);
    assert!(stdout.contains(table.trim_end()), "{stdout}\n---\n{table}");
    let (lo, hi) = janggun::arena::stats::sprt_bounds(0.1, 0.1);
    let state = if llr >= hi {
        "H1 accepted"
    } else if llr <= lo {
        "H0 accepted"
    } else {
        "continue"
    };
    let line = format!(
        "SPRT (normalized Elo) elo0=-50 elo1=50 alpha=0.1 beta=0.1: LLR {llr:.2} ({lo:.2}, {hi:.2}) {state}"
    );
    assert!(stdout.contains(&line), "{stdout}\n---\n{line}");
    assert!(
        stdout.contains("merged 4 shards (seeds 1 2 3 4): 16 games"),
        "{stdout}"
    );

    // The shards' PGN, joined: every game, replayable.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = janggun::arena::pgn::read_games(&text);
    assert_eq!(games.len(), 16);
    for g in &games {
        g.replay(janggun::board::RuleSet::Janggi).unwrap();
    }

    // A merge of merges is the same merge.
    let out2 = temp_path("merged-2.json");
    let half_a = temp_path("half-a.json");
    let half_b = temp_path("half-b.json");
    assert!(merge(&half_a, &[&paths[0], &paths[1]], &[]).0);
    assert!(merge(&half_b, &[&paths[2], &paths[3]], &[]).0);
    let (ok, _, stderr) = merge(&out2, &[&half_b, &half_a], &extra[..5]);
    assert!(ok, "{stderr}");
    let m2 = report::read(&out2).unwrap().unwrap();
    assert_eq!(m2.engines, m.engines);
    assert_eq!(m2.games, m.games);
    assert_eq!(m2.sprt, m.sprt);
    for p in [&out, &pgn, &out2, &half_a, &half_b] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn shards_with_other_seeds_draw_other_openings() {
    let (_, records) = shards();
    let mut seen = BTreeMap::new();
    for (k, recs) in records.iter().enumerate() {
        for r in recs.values() {
            let book: Vec<String> = r.moves[..r.book_plies]
                .iter()
                .map(|m| m.to_string())
                .collect();
            let opening = (r.fen.clone(), book);
            assert_eq!(r.book_plies, 4);
            if let Some(other) = seen.insert(opening, k) {
                assert_eq!(
                    other,
                    k,
                    "seeds {} and {} dealt one opening",
                    other + 1,
                    k + 1
                );
            }
        }
    }
    // Each pair plays its opening with colours reversed: 2 openings a shard.
    assert_eq!(seen.len(), 8);
}

/// `path`'s text with `from` replaced by `to`, written to a new file.
fn edited(path: &Path, name: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from}");
    let p = temp_path(name);
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    p
}

#[test]
fn what_is_not_whole_shards_of_one_match_is_refused() {
    let (paths, _) = shards();
    let out = temp_path("refused.json");
    let [a, b, ..] = &paths[..] else { panic!() };
    let text = std::fs::read_to_string(a).unwrap();
    let copy = temp_path("copy.json");
    std::fs::write(&copy, &text).unwrap();
    let cut = temp_path("cut.json");
    std::fs::write(&cut, &text[..text.len() * 2 / 3]).unwrap();
    let nodes = edited(b, "nodes.json", "\"nodes\": \"300\"", "\"nodes\": \"500\"");
    let wins = edited(b, "wins.json", "\"wins\": ", "\"wins\": 9");
    let stopped = edited(
        b,
        "stopped.json",
        "\"interrupted\": false",
        "\"interrupted\": true",
    );
    let reseeded = edited(a, "reseeded.json", "\"seed\": \"1\"", "\"seed\": \"9\"");
    let engine = edited(
        b,
        "engine.json",
        "\"value\": \"false\"",
        "\"value\": \"true\"",
    );
    let cases: Vec<(Vec<&Path>, &[&str])> = vec![
        (vec![a, b, a], &["listed twice"]),
        (vec![a, &copy], &["seed 1", "listed twice?"]),
        (vec![a, &cut], &["cut.json", "cut short"]),
        (
            vec![a, &nodes],
            &["nodes.json", "\"nodes\" is 500, but 300"],
        ),
        (vec![a, &wins], &["wins.json", "not what its games give"]),
        (
            vec![a, &stopped],
            &["stopped.json", "interrupted", "--resume"],
        ),
        (vec![a, &reseeded], &["repeats game", "move for move"]),
        (
            vec![a, &engine],
            &["engine.json", "engine classical", "Use NNUE=true"],
        ),
        (vec![a, Path::new("/nonexistent/x.json")], &["x.json"]),
    ];
    for (inputs, words) in cases {
        let (ok, stdout, stderr) = merge(&out, &inputs, &[]);
        assert!(!ok, "{inputs:?} merged: {stdout}");
        for w in words {
            assert!(stderr.contains(w), "{inputs:?}: '{stderr}' lacks '{w}'");
        }
        assert!(!out.exists(), "{inputs:?}: wrote the output");
    }
    // The output first: a shard where it should be is not overwritten.
    let (ok, _, stderr) = merge(a, &[b], &[]);
    assert!(!ok && stderr.contains("give the output first"), "{stderr}");
    assert_eq!(std::fs::read_to_string(a).unwrap(), text);
    // An SPRT other than the shards' own.
    let sprt_a = temp_path("sprt-a.json");
    std::fs::write(
        &sprt_a,
        text.replacen(
            "\"sprt_test\": \"none\"",
            "\"sprt_test\": \"elo0=0 elo1=5 alpha=0.05 beta=0.05\"",
            1,
        ),
    )
    .unwrap();
    let (ok, _, stderr) = merge(&out, &[&sprt_a], &["--sprt", "elo0=0", "elo1=10"]);
    assert!(
        !ok && stderr.contains("differs from the shards' own SPRT"),
        "{stderr}"
    );
    for p in [copy, cut, nodes, wins, stopped, reseeded, engine, sprt_a] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn a_closed_stdout_stops_the_match_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let json = temp_path("closed.json");
    let mut a = vec!["match".to_string()];
    a.extend(shard_args(1, &json, "300"));
    a.retain(|x| x != "--quiet");
    for (flag, v) in [("--games", "400"), ("--concurrency", "1")] {
        let k = a.iter().position(|x| x == flag).unwrap();
        a[k + 1] = v.into();
    }
    let mut child = Command::new(BIN)
        .args(&a)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // `| head -1`: one line read, then the pipe closed.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("game "), "{first}");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Stopped as on Ctrl-C: a report to resume from, marked unfinished.
    let r = report::read(&json).unwrap().unwrap();
    assert!(r.interrupted);
    assert!(r.games_played < 400);
    let _ = std::fs::remove_file(&json);
    let _ = std::fs::remove_file(json.with_extension("pgn"));
}

#[test]
fn the_report_is_one_page_with_its_plots_and_escaped_text() {
    let (paths, _) = shards();
    // A name with markup in it, everywhere the report has it.
    let text = std::fs::read_to_string(&paths[0]).unwrap();
    let odd = temp_path("odd.json");
    std::fs::write(&odd, text.replace("\"nnue\"", "\"<b>&nnue\"")).unwrap();
    let html = temp_path("report.html");
    let sprt = ["--sprt", "elo0=0", "elo1=50"];
    let mut a = vec![
        "match",
        "report",
        odd.to_str().unwrap(),
        "--out",
        html.to_str().unwrap(),
    ];
    a.extend(sprt);
    let (ok, stdout, stderr) = janggun(&a);
    assert!(ok, "{stderr}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("name=\"viewport\""));
    // The Elo plot needs a finite Elo somewhere (two pairs may be all wins).
    let plots = 5 + usize::from(page.contains("Elo of"));
    assert!(
        stdout.contains(&format!("4 games, {plots} plots")),
        "{stdout}"
    );
    assert_eq!(page.matches("<svg").count(), plots);
    assert!(!page.contains("<b>&nnue"), "unescaped name");
    assert!(page.contains("&lt;b&gt;&amp;nnue"));
    // Nothing to fetch, nothing to run.
    assert!(!page.contains("<script"));
    assert!(!page.contains(" src=") && !page.contains("href=\"http"));
    assert!(!page.contains("url("));
    for title in [
        "Score over",
        "SPRT [0, 50]",
        "How the games ended",
        "Time per move",
        "Depth per move",
    ] {
        assert!(page.contains(title), "{title}");
    }
    // The shards of the test, several at once: merged first.
    let all: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
    let mut a = vec!["match", "report"];
    a.extend(&all);
    a.extend(["--out", html.to_str().unwrap()]);
    let (ok, stdout, stderr) = janggun(&a);
    assert!(
        ok && stdout.contains("16 games, 5 plots"),
        "{stdout}{stderr}"
    );
    // No output named: refused, not a page somewhere.
    let (ok, _, stderr) = janggun(&["match", "report", all[0]]);
    assert!(!ok && stderr.contains("--out"), "{stderr}");
    let _ = std::fs::remove_file(&odd);
    let _ = std::fs::remove_file(&html);
}
