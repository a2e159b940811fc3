//! One game between two engine processes: the runner keeps the clocks,
//! checks every move with the rules core, and ends the game by the rules,
//! by adjudication, or against an engine that misbehaves.

use super::config::{MatchConfig, MatchLimits};
use super::end::EndKind;
use super::engine::{EngineProcess, Fault};
use super::openings::Opening;
use super::record::MoveStat;
use crate::board::rules::{count_winner, game_end};
use crate::board::{move_to_string, parse_move, Color, Move, Notation, Outcome, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub struct Played {
    /// `None` when the runner was stopped mid-game (the game is not scored).
    pub outcome: Option<Outcome>,
    pub kind: EndKind,
    /// Human-readable detail (the illegal move, the exit status, ...).
    pub detail: String,
    pub moves: Vec<Move>,
    /// Time and depth of each move the engines played (after the opening).
    pub stats: Vec<MoveStat>,
}

/// Scores seen from each engine's side, for adjudication.
#[derive(Default)]
struct ScoreLog {
    scores: [Vec<Option<i32>>; 2],
}

impl ScoreLog {
    fn last(&self, c: Color, n: usize) -> Option<&[Option<i32>]> {
        let v = &self.scores[c.index()];
        (v.len() >= n).then(|| &v[v.len() - n..])
    }

    fn all_within(&self, c: Color, n: usize, f: impl Fn(i32) -> bool) -> bool {
        self.last(c, n)
            .is_some_and(|s| s.iter().all(|x| x.is_some_and(&f)))
    }
}

fn go_line(limits: [&MatchLimits; 2], side: Color, time: &[u64; 2]) -> String {
    let own = limits[side.index()];
    let mut go = String::from("go");
    if let Some(c) = own.clock {
        // A side without a clock (an opponent at fixed nodes) is shown the
        // mover's own time: UCI has no way to say "none".
        let shown = |k: usize| match limits[k].clock {
            Some(o) => (time[k], o.inc_ms),
            None => (time[side.index()], c.inc_ms),
        };
        let ((w, wi), (b, bi)) = (shown(0), shown(1));
        go += &format!(" wtime {w} btime {b} winc {wi} binc {bi}");
        if c.byoyomi_ms > 0 {
            go += &format!(" byoyomi {}", c.byoyomi_ms);
        }
    }
    if let Some(mt) = own.movetime_ms {
        go += &format!(" movetime {mt}");
    }
    if let Some(n) = own.nodes {
        go += &format!(" nodes {n}");
    }
    if let Some(d) = own.depth {
        go += &format!(" depth {d}");
    }
    go
}

/// The longest the side to move may think, margin included. The command
/// line bounds every term, so saturation never bites in practice; it only
/// keeps a wrapped sum from turning a long limit into a short one.
fn time_limit(cfg: &MatchConfig, own: &MatchLimits, left: u64) -> Duration {
    let ms = match (own.clock, own.movetime_ms) {
        (Some(c), _) => left.saturating_add(c.byoyomi_ms),
        (None, Some(mt)) => mt,
        (None, None) => cfg.timeout_ms,
    };
    Duration::from_millis(ms.saturating_add(cfg.timemargin_ms))
}

fn fault(side: Color, kind: EndKind, detail: String, moves: Vec<Move>) -> Played {
    Played {
        outcome: Some(Outcome::Win(!side)),
        kind,
        detail,
        moves,
        stats: Vec::new(),
    }
}

/// Plays one game; `engines[0]` plays Cho, `engines[1]` Han, under
/// `limits` (Cho's, Han's).
pub fn play(
    cfg: &MatchConfig,
    opening: &Opening,
    engines: [&mut EngineProcess; 2],
    limits: [&MatchLimits; 2],
    stop: &AtomicBool,
) -> Played {
    let mut stats = Vec::new();
    let mut p = play_moves(cfg, opening, engines, limits, &mut stats, stop);
    p.stats = stats;
    p
}

fn play_moves(
    cfg: &MatchConfig,
    opening: &Opening,
    engines: [&mut EngineProcess; 2],
    limits: [&MatchLimits; 2],
    stats: &mut Vec<MoveStat>,
    stop: &AtomicBool,
) -> Played {
    let [cho, han] = engines;
    let mut eng: [&mut EngineProcess; 2] = [cho, han];
    let mut pos = match Position::from_fen(&opening.fen, cfg.rules) {
        Ok(p) => p,
        Err(e) => {
            return Played {
                outcome: None,
                kind: EndKind::MaxPlies,
                detail: format!("bad opening FEN: {e}"),
                moves: Vec::new(),
                stats: Vec::new(),
            }
        }
    };
    let mut moves: Vec<Move> = Vec::new();
    for &m in &opening.moves {
        pos.make(m);
        moves.push(m);
    }
    for side in [Color::Cho, Color::Han] {
        if let Err(f) = eng[side.index()].new_game(stop) {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let name = &eng[side.index()].name;
            let (kind, detail) = match f {
                Fault::Overflow(why) => (EndKind::OutputOverflow, format!("{name} {why}")),
                Fault::Crash(why) => (EndKind::Crash, why),
                other => (EndKind::Crash, format!("{name}: {other}")),
            };
            return fault(side, kind, detail, moves);
        }
    }
    let base = |c: Color| limits[c.index()].clock.map_or(0, |c| c.base_ms);
    let mut time = [base(Color::Cho), base(Color::Han)];
    let mut log = ScoreLog::default();
    let mut moves_text = String::new();
    for m in &moves {
        moves_text.push(' ');
        moves_text.push_str(&move_to_string(*m, Notation::Uci));
    }
    loop {
        if let Some(end) = game_end(&pos) {
            return Played {
                outcome: Some(end.outcome),
                kind: EndKind::Rules(end.reason),
                detail: format!(
                    "{}{}",
                    end.reason.name(),
                    if end.counted { " (count)" } else { "" }
                ),
                moves,
                stats: Vec::new(),
            };
        }
        if moves.len() >= cfg.max_plies {
            let outcome = if cfg.rules.counting() {
                Outcome::Win(count_winner(&pos))
            } else {
                Outcome::Draw
            };
            return Played {
                outcome: Some(outcome),
                kind: EndKind::MaxPlies,
                detail: format!("{} plies", moves.len()),
                moves,
                stats: Vec::new(),
            };
        }
        let side = pos.side_to_move();
        let e = &mut eng[side.index()];
        let position = if moves_text.is_empty() {
            format!("position fen {}", opening.fen)
        } else {
            format!("position fen {} moves{}", opening.fen, moves_text)
        };
        let own = limits[side.index()];
        let limit = time_limit(cfg, own, time[side.index()]);
        let go = go_line(limits, side, &time);
        let answer = match e.search(&position, &go, limit, stop) {
            Ok(a) => a,
            Err(Fault::Stopped) => {
                return Played {
                    outcome: None,
                    kind: EndKind::Crash,
                    detail: "stopped".into(),
                    moves,
                    stats: Vec::new(),
                }
            }
            Err(Fault::Timeout) => {
                let detail = format!("{} gave no move in {} ms", e.name, limit.as_millis());
                return fault(side, EndKind::TimeForfeit, detail, moves);
            }
            Err(Fault::Crash(why)) => {
                return fault(side, EndKind::Crash, format!("{} {why}", e.name), moves);
            }
            Err(Fault::Overflow(why)) => {
                let detail = format!("{} {why}", e.name);
                return fault(side, EndKind::OutputOverflow, detail, moves);
            }
        };
        let used = answer.elapsed.as_millis() as u64;
        if let Some(c) = own.clock {
            let left = &mut time[side.index()];
            // Within the margin an overrun only empties the clock.
            *left = left.saturating_sub(used).saturating_add(c.inc_ms);
        }
        let text = answer.bestmove.as_str();
        if text.is_empty() || text == "(none)" {
            let detail = format!(
                "{} answered 'bestmove {}' with legal moves left",
                e.name, text
            );
            return fault(side, EndKind::NoMove, detail, moves);
        }
        let m = match parse_move(&pos, text, Notation::Uci) {
            Ok(m) => m,
            Err(why) => {
                let detail = format!("{}: {why}", e.name);
                return fault(side, EndKind::IllegalMove, detail, moves);
            }
        };
        pos.make(m);
        moves.push(m);
        stats.push(MoveStat {
            ms: used,
            depth: answer.eval.depth,
        });
        moves_text.push(' ');
        moves_text.push_str(&move_to_string(m, Notation::Uci));
        log.scores[side.index()].push(answer.eval.score());
        if let Some(p) = adjudicate(cfg, &log, &pos) {
            return Played { moves, ..p };
        }
    }
}

/// Draw and resign adjudication on both engines' own scores.
fn adjudicate(cfg: &MatchConfig, log: &ScoreLog, pos: &Position) -> Option<Played> {
    if let Some(r) = cfg.adjudicate_resign {
        let n = r.count as usize;
        for loser in [Color::Cho, Color::Han] {
            if log.all_within(loser, n, |s| s <= -r.score)
                && log.all_within(!loser, n, |s| s >= r.score)
            {
                return Some(Played {
                    outcome: Some(Outcome::Win(!loser)),
                    kind: EndKind::AdjudicatedResign,
                    detail: format!("both engines scored {loser:?} at -{} cp or worse", r.score),
                    moves: Vec::new(),
                    stats: Vec::new(),
                });
            }
        }
    }
    if let Some(d) = cfg.adjudicate_draw {
        let n = d.count as usize;
        let within = |s: i32| s.abs() <= d.score;
        if pos.fullmove() > d.from_move
            && log.all_within(Color::Cho, n, within)
            && log.all_within(Color::Han, n, within)
        {
            return Some(Played {
                outcome: Some(Outcome::Draw),
                kind: EndKind::AdjudicatedDraw,
                detail: format!("both scores within {} cp for {n} moves", d.score),
                moves: Vec::new(),
                stats: Vec::new(),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::cli;

    fn cfg(a: &str) -> MatchConfig {
        let a: Vec<String> = a.split_whitespace().map(String::from).collect();
        cli::parse(&a).unwrap()
    }

    #[test]
    fn each_side_is_sent_its_own_limits() {
        // Janggun at 5+0.05 against Fairy-Stockfish at 20+0.2 (issue 21).
        let c = cfg("--engine cmd=a tc=5+0.05 --engine cmd=b --tc 20+0.2 --timemargin 50");
        let limits = [c.limits_of(0), c.limits_of(1)];
        let time = [4000, 19000];
        let both = "go wtime 4000 btime 19000 winc 50 binc 200";
        assert_eq!(go_line(limits, Color::Cho, &time), both);
        assert_eq!(go_line(limits, Color::Han, &time), both);
        assert_eq!(time_limit(&c, limits[0], 4000), Duration::from_millis(4050));
        // A side at fixed nodes is sent only its nodes; the side with a
        // clock sees its own time in place of the clockless side's.
        let c = cfg("--engine cmd=a nodes=300 --engine cmd=b --tc 2+0.1 --timeout 700");
        let limits = [c.limits_of(0), c.limits_of(1)];
        let time = [0, 1500];
        assert_eq!(go_line(limits, Color::Cho, &time), "go nodes 300");
        assert_eq!(
            go_line(limits, Color::Han, &time),
            "go wtime 1500 btime 1500 winc 100 binc 100"
        );
        assert_eq!(time_limit(&c, limits[0], 0), Duration::from_millis(800));
        // The match's own limits, for both, as before.
        let c = cfg("--engine cmd=a --engine cmd=b --tc 1+0.01 --depth 9");
        let limits = [c.limits_of(0), c.limits_of(1)];
        assert_eq!(
            go_line(limits, Color::Han, &[900, 800]),
            "go wtime 900 btime 800 winc 10 binc 10 depth 9"
        );
    }
}
