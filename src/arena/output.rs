//! What the runner prints and writes: a line per game, the progress line,
//! the final tables, the PGN of each game and the JSON report.

use super::conditions::{engine, Condition};
use super::config::{EngineSpec, MatchConfig, SprtSpec};
use super::end::EndKind;
use super::pgn;
use super::record::{EngineTotals, Record, Totals};
use super::report::{
    self, finite, Conditions, EngineEntry, Fields, GameEntry, MatchReport, OptionEntry, SprtEntry,
    SummaryEntry,
};
use super::stats::{self, Penta, ScoreSummary};
use crate::board::{move_to_string, Notation, Position};
use std::fmt::Write as _;

pub fn game_line(cfg: &MatchConfig, r: &Record, done: usize, total: usize) -> String {
    format!(
        "game {:>4}/{total} ({done} done): {} (Cho) vs {} (Han): {} {}{}",
        r.slot.index + 1,
        cfg.engines[r.slot.cho].name,
        cfg.engines[r.slot.han].name,
        r.outcome.result_string(),
        r.kind.name(),
        if r.detail.is_empty() || r.detail == r.kind.name() {
            String::new()
        } else {
            format!(" [{}]", r.detail)
        }
    )
}

fn fmt_elo(s: &ScoreSummary) -> String {
    // Adding zero turns -0.0 into 0.0.
    let s = ScoreSummary {
        elo: s.elo + 0.0,
        ..*s
    };
    if s.elo_error.is_finite() {
        format!("{:+.1} +/- {:.1}", s.elo, s.elo_error)
    } else if s.elo.is_finite() {
        format!("{:+.1} +/- inf", s.elo)
    } else {
        "n/a".into()
    }
}

pub fn progress(
    cfg: &MatchConfig,
    t: &Totals,
    total: usize,
    sprt: Option<(f64, f64, f64)>,
) -> String {
    let e0 = &t.engines[0];
    let mut s = format!("[{}/{total}] ", t.games);
    if cfg.engines.len() == 2 {
        let _ = write!(
            s,
            "{} {:.1} - {:.1} {}  (+{} ={} -{})",
            cfg.engines[0].name,
            e0.points(),
            t.engines[1].points(),
            cfg.engines[1].name,
            e0.wins,
            e0.draws,
            e0.losses
        );
        if let Some(sum) = stats::summarize(&e0.penta) {
            let _ = write!(s, "  Elo {}", fmt_elo(&sum));
        }
    } else {
        for (i, e) in cfg.engines.iter().enumerate() {
            let _ = write!(
                s,
                "{} {:.1}/{}  ",
                e.name,
                t.engines[i].points(),
                t.engines[i].games()
            );
        }
    }
    if let Some((llr, lo, hi)) = sprt {
        let _ = write!(s, "  LLR {llr:.2} ({lo:.2}, {hi:.2})");
    }
    s
}

/// The final table: a line per engine (`names`, in the totals' order),
/// the pentanomial of a two-engine match and the end reasons.
pub fn table(names: &[&str], t: &Totals) -> String {
    let w = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let mut s = format!(
        "{:<w$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>18} {:>7} {:>7} {:>7} {:>5} {:>5} {:>7}\n",
        "engine",
        "games",
        "W",
        "D",
        "L",
        "score",
        "Elo (95%)",
        "LOS",
        "pairs",
        "illegal",
        "crash",
        "time",
        "nomove"
    );
    for (i, name) in names.iter().enumerate() {
        let et = &t.engines[i];
        let sum = stats::summarize(&et.penta);
        let score = if et.games() > 0 {
            format!("{:.1}%", 100.0 * et.points() / et.games() as f64)
        } else {
            "-".into()
        };
        let _ = writeln!(
            s,
            "{:<w$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>18} {:>7} {:>7} {:>7} {:>5} {:>5} {:>7}",
            name,
            et.games(),
            et.wins,
            et.draws,
            et.losses,
            score,
            sum.map_or("-".into(), |x| fmt_elo(&x)),
            sum.map_or("-".into(), |x| format!("{:.1}%", 100.0 * x.los)),
            et.penta.iter().sum::<u64>(),
            et.illegal,
            et.crashes,
            et.time_losses,
            et.no_move
        );
    }
    if names.len() == 2 {
        let _ = writeln!(
            s,
            "pentanomial (LL LD WL+DD WD WW) for {}: {:?}",
            names[0], t.engines[0].penta
        );
    }
    s.push_str("end reasons:");
    for (k, n) in &t.reasons {
        let _ = write!(s, " {} {n},", k.name());
    }
    if t.reasons.is_empty() {
        s.push_str(" none");
    } else {
        s.pop();
    }
    s.push('\n');
    s
}

/// The PGN of one game, tagged so that `--resume` can read it back and
/// check the conditions it was played under (`cond`, from
/// `conditions::of`).
pub fn pgn_game(cfg: &MatchConfig, cond: &[Condition], r: &Record, date: &str) -> String {
    let Ok(root) = Position::from_fen(&r.fen, cfg.rules) else {
        return String::new();
    };
    let result = r.outcome.result_string();
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", "janggun match".into()),
        ("Site", "local".into()),
        ("Date", date.to_string()),
        ("Round", (r.slot.index + 1).to_string()),
        ("White", cfg.engines[r.slot.cho].name.clone()),
        ("Black", cfg.engines[r.slot.han].name.clone()),
        ("Result", result.into()),
        ("Variant", "Janggi".into()),
        ("FEN", r.fen.clone()),
        ("SetUp", "1".into()),
        ("Termination", r.kind.termination().into()),
        ("PlyCount", r.moves.len().to_string()),
        ("EndReason", r.kind.name().into()),
    ];
    if !r.detail.is_empty() {
        tags.push(("EndDetail", r.detail.clone()));
    }
    // cutechess's tags for a side with a clock of its own.
    for (tag, e) in [
        ("WhiteTimeControl", r.slot.cho),
        ("BlackTimeControl", r.slot.han),
    ] {
        if let Some(c) = cfg.engines[e].limits.and_then(|l| l.clock) {
            tags.push((tag, c.text()));
        }
    }
    let players = [
        engine("WhiteEngine", &cfg.engines[r.slot.cho]),
        engine("BlackEngine", &cfg.engines[r.slot.han]),
    ];
    tags.extend(
        cond.iter()
            .chain(&players)
            .map(|c| (c.tag, c.value.clone())),
    );
    pgn::write_game(&tags, &root, &r.moves, result, &r.detail)
}

/// One game as the JSON report lists it.
pub fn game_entry(cfg: &MatchConfig, r: &Record) -> GameEntry {
    let moves: Vec<String> = r
        .moves
        .iter()
        .map(|m| move_to_string(*m, Notation::Uci))
        .collect();
    GameEntry {
        game: r.slot.index as u64 + 1,
        pairing: r.slot.pairing as u64,
        pair: r.slot.pair as u64,
        cho: cfg.engines[r.slot.cho].name.clone(),
        han: cfg.engines[r.slot.han].name.clone(),
        fen: r.fen.clone(),
        moves: moves.join(" "),
        plies: r.moves.len() as u64,
        result: r.outcome.result_string().into(),
        end: r.kind.name().into(),
        termination: r.kind.termination().into(),
        detail: r.detail.clone(),
        book_plies: Some(r.book_plies as u64),
        time_ms: r.stats.iter().map(|s| s.ms).collect(),
        depth: r.stats.iter().map(|s| s.depth).collect(),
    }
}

pub struct SprtReport {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub state: &'static str,
}

/// The SPRT of the first engine's pentanomial, with the runner's words
/// for where it stands.
pub fn sprt_report(s: &SprtSpec, penta: &Penta) -> SprtReport {
    let llr = stats::llr_normalized(s.elo0, s.elo1, penta);
    let (lower, upper) = stats::sprt_bounds(s.alpha, s.beta);
    let state = if llr >= upper {
        "H1 accepted"
    } else if llr <= lower {
        "H0 accepted"
    } else {
        "continue"
    };
    SprtReport {
        llr,
        lower,
        upper,
        state,
    }
}

/// The line printed under the table.
pub fn sprt_line(spec: &SprtSpec, s: &SprtReport) -> String {
    format!(
        "SPRT (normalized Elo) elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}) {}",
        spec.elo0, spec.elo1, spec.alpha, spec.beta, s.llr, s.lower, s.upper, s.state
    )
}

pub fn sprt_entry(spec: &SprtSpec, s: &SprtReport) -> SprtEntry {
    SprtEntry {
        elo0: spec.elo0,
        elo1: spec.elo1,
        alpha: spec.alpha,
        beta: spec.beta,
        model: "normalized".into(),
        llr: s.llr,
        lower_bound: s.lower,
        upper_bound: s.upper,
        state: s.state.into(),
    }
}

/// An engine's line of the report: who it is and its totals.
pub fn engine_entry(e: &EngineSpec, et: &EngineTotals) -> EngineEntry {
    EngineEntry {
        name: e.name.clone(),
        cmd: e.cmd.clone(),
        args: Some(e.args.clone()),
        options: Some(
            e.options
                .iter()
                .map(|(k, v)| OptionEntry {
                    name: k.clone(),
                    value: v.clone(),
                })
                .collect(),
        ),
        limits: e.limits.map(|l| l.fields().join(" ")),
        games: et.games(),
        wins: et.wins,
        draws: et.draws,
        losses: et.losses,
        points: et.points(),
        pentanomial: et.penta,
        illegal_moves: et.illegal,
        crashes: et.crashes,
        time_losses: et.time_losses,
        no_move: et.no_move,
        summary: stats::summarize(&et.penta).map(|s| SummaryEntry {
            score: finite(s.score),
            elo: finite(s.elo),
            elo_error95: finite(s.elo_error),
            nelo: finite(s.nelo),
            nelo_error95: finite(s.nelo_error),
            los: finite(s.los),
        }),
    }
}

/// A count for every end reason, in the summary's order.
pub fn end_reasons(t: &Totals) -> Fields<u64> {
    Fields(
        EndKind::all()
            .map(|k| {
                (
                    k.name().to_string(),
                    t.reasons.get(&k).copied().unwrap_or(0),
                )
            })
            .collect(),
    )
}

/// The JSON report; `cond` (from `conditions::of`) are top-level fields.
pub fn report(
    cfg: &MatchConfig,
    cond: &[Condition],
    t: &Totals,
    records: &[&Record],
    planned: usize,
    interrupted: bool,
) -> MatchReport {
    let sprt = cfg.sprt.map(|spec| {
        let s = sprt_report(&spec, &t.engines[0].penta);
        sprt_entry(&spec, &s)
    });
    MatchReport {
        version: report::VERSION,
        conditions: Conditions(Fields(
            cond.iter()
                .map(|c| (c.key.to_string(), c.value.clone()))
                .collect(),
        )),
        games_planned: planned as u64,
        games_played: t.games,
        interrupted,
        deterministic: Some(cfg.deterministic()),
        engines: cfg
            .engines
            .iter()
            .zip(&t.engines)
            .map(|(e, et)| engine_entry(e, et))
            .collect(),
        end_reasons: end_reasons(t),
        sprt,
        shards: None,
        games: records.iter().map(|r| game_entry(cfg, r)).collect(),
    }
}
