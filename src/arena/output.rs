//! What the runner prints and writes: a line per game, the progress line,
//! the final tables, the PGN of each game and the JSON report.

use super::cli::MatchConfig;
use super::conditions::{engine, Condition};
use super::end::EndKind;
use super::json::{self, Obj};
use super::pgn;
use super::record::{Record, Totals};
use super::stats::{self, Summary};
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

fn fmt_elo(s: &Summary) -> String {
    // Adding zero turns -0.0 into 0.0.
    let s = Summary {
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

pub fn table(cfg: &MatchConfig, t: &Totals) -> String {
    let w = cfg
        .engines
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(6)
        .max(6);
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
    for (i, e) in cfg.engines.iter().enumerate() {
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
            e.name,
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
    if cfg.engines.len() == 2 {
        let _ = writeln!(
            s,
            "pentanomial (LL LD WL+DD WD WW) for {}: {:?}",
            cfg.engines[0].name, t.engines[0].penta
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

pub fn record_json(cfg: &MatchConfig, r: &Record) -> String {
    let moves: Vec<String> = r
        .moves
        .iter()
        .map(|m| move_to_string(*m, Notation::Uci))
        .collect();
    let o = Obj::new()
        .int("game", r.slot.index as u64 + 1)
        .int("pairing", r.slot.pairing as u64)
        .int("pair", r.slot.pair as u64)
        .str("cho", &cfg.engines[r.slot.cho].name)
        .str("han", &cfg.engines[r.slot.han].name)
        .str("fen", &r.fen)
        .str("moves", &moves.join(" "))
        .int("plies", r.moves.len() as u64)
        .str("result", r.outcome.result_string())
        .str("end", r.kind.name())
        .str("termination", r.kind.termination())
        .str("detail", &r.detail);
    o.render(4)
        .replace("\n    ", " ")
        .replace("\n  ", " ")
        .replace('\n', " ")
}

pub struct SprtReport {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub state: &'static str,
}

/// The JSON report; `cond` (from `conditions::of`) are top-level fields.
pub fn report_json(
    cfg: &MatchConfig,
    cond: &[Condition],
    t: &Totals,
    records: &[&Record],
    planned: usize,
    sprt: Option<&SprtReport>,
    interrupted: bool,
) -> String {
    let engines: Vec<String> = cfg
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let et = &t.engines[i];
            let args: Vec<String> = e.args.iter().map(|a| json::string(a)).collect();
            let options: Vec<String> = e
                .options
                .iter()
                .map(|(k, v)| Obj::new().str("name", k).str("value", v).render(0))
                .map(|o| o.replace("\n ", "").replace('\n', " "))
                .collect();
            let mut o = Obj::new()
                .str("name", &e.name)
                .str("cmd", &e.cmd)
                .raw("args", json::array(&args, 6))
                .raw("options", json::array(&options, 6))
                .int("games", et.games())
                .int("wins", et.wins)
                .int("draws", et.draws)
                .int("losses", et.losses)
                .num("points", et.points())
                .raw("pentanomial", format!("{:?}", et.penta))
                .int("illegal_moves", et.illegal)
                .int("crashes", et.crashes)
                .int("time_losses", et.time_losses)
                .int("no_move", et.no_move);
            if let Some(s) = stats::summarize(&et.penta) {
                o = o
                    .num("score", s.score)
                    .num("elo", s.elo)
                    .num("elo_error95", s.elo_error)
                    .num("nelo", s.nelo)
                    .num("nelo_error95", s.nelo_error)
                    .num("los", s.los);
            }
            o.render(4)
        })
        .collect();
    let mut reasons = Obj::new();
    for k in EndKind::all() {
        reasons = reasons.int(k.name(), t.reasons.get(&k).copied().unwrap_or(0));
    }
    let games: Vec<String> = records.iter().map(|r| record_json(cfg, r)).collect();
    let mut o = Obj::new();
    for c in cond {
        o = o.str(c.key, &c.value);
    }
    o = o
        .int("games_planned", planned as u64)
        .int("games_played", t.games)
        .raw("interrupted", interrupted.to_string())
        .raw("engines", json::array(&engines, 2))
        .raw("end_reasons", reasons.render(2));
    if let (Some(s), Some(spec)) = (sprt, cfg.sprt) {
        o = o.raw(
            "sprt",
            Obj::new()
                .num("elo0", spec.elo0)
                .num("elo1", spec.elo1)
                .num("alpha", spec.alpha)
                .num("beta", spec.beta)
                .str("model", "normalized")
                .num("llr", s.llr)
                .num("lower_bound", s.lower)
                .num("upper_bound", s.upper)
                .str("state", s.state)
                .render(2),
        );
    }
    o = o.raw("games", json::array(&games, 2));
    o.render(0) + "\n"
}
