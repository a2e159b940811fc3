//! `janggun rules --batch`: answers "which moves are legal here, and is the
//! game over" for many positions at once, so that scripts can compare the
//! rules with another implementation (pyffish) quickly.
//!
//! Input, one position per line: `<rule set> <fen|startpos> [moves m1 m2 ...]`.
//! Output, one line per input line:
//! `legal <sorted moves> | immediate <none|result> | optional <none|result>`
//! or `error <message>`.

use crate::board::rules::{immediate_end, optional_end};
use crate::board::{
    legal_moves, move_to_string, parse_move, MoveList, Notation, Position, RuleSet, START_FEN,
};
use std::io::{BufRead, Write};

/// Sets up the position a batch line describes.
pub fn parse_line(line: &str) -> Result<Position, String> {
    let mut tokens = line.split_whitespace();
    let rules: RuleSet = tokens
        .next()
        .ok_or("empty line (expected '<rule set> <fen|startpos> [moves ...]')")?
        .parse()?;
    let rest: Vec<&str> = tokens.collect();
    let split = rest
        .iter()
        .position(|t| *t == "moves")
        .unwrap_or(rest.len());
    let fen = if rest.first() == Some(&"startpos") {
        START_FEN.to_string()
    } else {
        rest[..split].join(" ")
    };
    let mut pos = Position::from_fen(&fen, rules).map_err(|e| format!("bad FEN: {e}"))?;
    for (i, s) in rest.iter().skip(split + 1).enumerate() {
        let m = parse_move(&pos, s, Notation::Uci).map_err(|e| format!("move {}: {e}", i + 1))?;
        pos.make(m);
    }
    Ok(pos)
}

pub fn answer(line: &str) -> String {
    match parse_line(line) {
        Err(e) => format!("error {}", crate::util::text::escape(&e)),
        Ok(pos) => {
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            let mut moves: Vec<String> = list
                .iter()
                .map(|m| move_to_string(*m, Notation::Uci))
                .collect();
            moves.sort();
            let imm = immediate_end(&pos).map_or("none", |e| e.outcome.result_string());
            let opt = optional_end(&pos).map_or("none", |e| e.outcome.result_string());
            format!(
                "legal {} | immediate {} | optional {}",
                moves.join(" "),
                imm,
                opt
            )
        }
    }
}

/// Reads lines from stdin until EOF, answering each at once.
pub fn run() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut buf = Vec::new();
    let mut reader = stdin.lock();
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buf);
        // One answer per input line, a blank one included, so that a script
        // can pair questions and answers by line number.
        writeln!(out, "{}", answer(line.trim()))?;
        out.flush()?;
    }
    Ok(())
}
