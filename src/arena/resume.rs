//! `--resume`: takes the finished games of an interrupted match back from
//! its PGN (or, without one, its JSON), checked against the schedule.

use super::cli::MatchConfig;
use super::end::EndKind;
use super::json;
use super::pgn;
use super::record::{Record, Schedule};
use crate::board::{parse_move, Color, Notation, Outcome, Position};
use std::collections::BTreeMap;

fn outcome_of(result: &str) -> Result<Outcome, String> {
    match result {
        "1-0" => Ok(Outcome::Win(Color::Cho)),
        "0-1" => Ok(Outcome::Win(Color::Han)),
        "1/2-1/2" => Ok(Outcome::Draw),
        other => Err(format!("unfinished game (result '{other}')")),
    }
}

struct Loaded<'a> {
    number: usize,
    cho: &'a str,
    han: &'a str,
    result: &'a str,
    end: &'a str,
}

fn check(
    cfg: &MatchConfig,
    sched: &Schedule,
    g: &Loaded,
) -> Result<(usize, super::record::Slot, Outcome, EndKind), String> {
    if g.number == 0 || g.number > sched.total() {
        return Err(format!("game {} is outside this match", g.number));
    }
    let slot = sched.slot(g.number - 1);
    if cfg.engines[slot.cho].name != g.cho || cfg.engines[slot.han].name != g.han {
        return Err(format!(
            "game {} was {} vs {}, but this match schedules {} vs {}",
            g.number, g.cho, g.han, cfg.engines[slot.cho].name, cfg.engines[slot.han].name
        ));
    }
    let kind = EndKind::from_name(g.end)
        .ok_or_else(|| format!("game {}: unknown end '{}'", g.number, g.end))?;
    Ok((g.number - 1, slot, outcome_of(g.result)?, kind))
}

pub fn load(cfg: &MatchConfig, sched: &Schedule) -> Result<BTreeMap<usize, Record>, String> {
    let mut out = BTreeMap::new();
    if let Some(path) = &cfg.pgn {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(out);
        };
        for g in pgn::read_games(&text) {
            let number = g.tag("Round").and_then(|r| r.parse().ok()).unwrap_or(0);
            let loaded = Loaded {
                number,
                cho: g.tag("White").unwrap_or(""),
                han: g.tag("Black").unwrap_or(""),
                result: g.tag("Result").unwrap_or("*"),
                end: g.tag("EndReason").unwrap_or(""),
            };
            let (index, slot, outcome, kind) =
                check(cfg, sched, &loaded).map_err(|e| format!("{}: {e}", path.display()))?;
            let (root, moves) = g
                .replay(cfg.rules)
                .map_err(|e| format!("{}: game {number}: {e}", path.display()))?;
            out.insert(
                index,
                Record {
                    slot,
                    fen: root.to_fen(),
                    moves,
                    outcome,
                    kind,
                    detail: g.tag("EndDetail").unwrap_or("").to_string(),
                },
            );
        }
        return Ok(out);
    }
    let Some(path) = &cfg.json else {
        return Ok(out);
    };
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(out);
    };
    let v = json::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let games = v.get("games").and_then(|g| g.as_arr()).unwrap_or(&[]);
    for g in games {
        let s = |k: &str| g.get(k).and_then(|x| x.as_str()).unwrap_or("");
        let loaded = Loaded {
            number: g.get("game").and_then(|x| x.as_f64()).unwrap_or(0.0) as usize,
            cho: s("cho"),
            han: s("han"),
            result: s("result"),
            end: s("end"),
        };
        let (index, slot, outcome, kind) =
            check(cfg, sched, &loaded).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut pos = Position::from_fen(s("fen"), cfg.rules)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut moves = Vec::new();
        for t in s("moves").split_whitespace() {
            let m = parse_move(&pos, t, Notation::Uci)
                .map_err(|e| format!("{}: game {}: {e}", path.display(), loaded.number))?;
            pos.make(m);
            moves.push(m);
        }
        out.insert(
            index,
            Record {
                slot,
                fen: s("fen").to_string(),
                moves,
                outcome,
                kind,
                detail: s("detail").to_string(),
            },
        );
    }
    Ok(out)
}
