//! UCI output lines.

use super::dialect::Dialect;
use super::options::{self, Config};
use crate::board::{move_to_string, Move, Notation};
use crate::search::{Bound, Info, Score};

pub const ENGINE_NAME: &str = "Janggun";
pub const AUTHOR: &str = "the Janggun authors";

pub fn hello(config: &Config) -> Vec<String> {
    let mut lines = vec![
        format!("id name {ENGINE_NAME} {}", env!("CARGO_PKG_VERSION")),
        format!("id author {AUTHOR}"),
    ];
    for d in options::listed(Dialect::Uci) {
        lines.push(options::render(Dialect::Uci, config, d));
    }
    lines.push("uciok".to_string());
    lines
}

pub fn score(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

fn pv(moves: &[Move], n: Notation) -> String {
    let strs: Vec<String> = moves.iter().map(|&m| move_to_string(m, n)).collect();
    strs.join(" ")
}

/// `n` is UCI's notation, or ranks 0..9 after `ucicyclone`.
pub fn info(i: &Info, show_wdl: bool, n: Notation) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        i.depth,
        i.seldepth,
        i.multipv,
        score(i.score)
    );
    match i.bound {
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
        Bound::Exact => {}
    }
    if show_wdl {
        let (w, d, l) = i.wdl;
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        i.nodes, i.nps, i.hashfull, i.time_ms
    ));
    if !i.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv(&i.pv, n));
    }
    s
}

pub fn bestmove(best: Option<Move>, ponder: Option<Move>, n: Notation) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {}", move_to_string(b, n)),
        (Some(b), Some(p)) => format!(
            "bestmove {} ponder {}",
            move_to_string(b, n),
            move_to_string(p, n)
        ),
    }
}
