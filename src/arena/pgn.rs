//! PGN as pychess-variants and pyffish read it: `[Variant "Janggi"]`,
//! `[FEN]` with `[SetUp "1"]`, the players, result, termination and time
//! control, and the moves in Fairy-Stockfish's SAN. The reader takes any
//! such file back (for openings and for `--resume`).

use crate::board::{san, Move, Position, RuleSet};
use std::fmt::Write as _;

#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    /// The line the game starts on (1-based), for messages.
    pub line: usize,
    pub tags: Vec<(String, String)>,
    /// Move tokens (SAN or coordinates) without numbers, comments or result.
    pub moves: Vec<String>,
}

impl PgnGame {
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// The start position and the moves, checked one by one by the rules.
    pub fn replay(&self, rules: RuleSet) -> Result<(Position, Vec<Move>), String> {
        let fen = self.tag("FEN").unwrap_or(crate::board::START_FEN);
        let root = super::fen::read_fen(fen, rules)?;
        let mut pos = root.clone();
        let mut out = Vec::with_capacity(self.moves.len());
        for (i, t) in self.moves.iter().enumerate() {
            let m = san::from_san(&mut pos, t).map_err(|e| format!("ply {}: {e}", i + 1))?;
            pos.make(m);
            out.push(m);
        }
        Ok((root, out))
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes one game. `tags` come first in the given order; the move text
/// follows with the result, wrapped at 80 columns.
pub fn write_game(
    tags: &[(&str, String)],
    root: &Position,
    moves: &[Move],
    result: &str,
    comment: &str,
) -> String {
    let mut s = String::new();
    for (k, v) in tags {
        let _ = writeln!(s, "[{k} \"{}\"]", escape(v));
    }
    s.push('\n');
    let sans = san::line_to_san(root, moves);
    let mut words = Vec::with_capacity(sans.len() * 3 / 2 + 2);
    let mut number = root.fullmove();
    let han_first = root.side_to_move() == crate::board::Color::Han;
    for (i, m) in sans.into_iter().enumerate() {
        let han = i.is_multiple_of(2) == han_first;
        if !han {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(m);
        if han {
            number += 1;
        }
    }
    if !comment.is_empty() {
        words.push(format!("{{{}}}", comment.replace(['{', '}'], "")));
    }
    words.push(result.to_string());
    let mut col = 0;
    for w in words {
        if col > 0 && col + 1 + w.len() > 80 {
            s.push('\n');
            col = 0;
        } else if col > 0 {
            s.push(' ');
            col += 1;
        }
        col += w.len();
        s.push_str(&w);
    }
    s.push_str("\n\n");
    s
}

pub fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (k, rest) = inner.split_once(char::is_whitespace)?;
    let v = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((k.to_string(), v.replace("\\\"", "\"").replace("\\\\", "\\")))
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Splits a PGN file into games. Comments, variations, move numbers and
/// NAGs are skipped; tokens that are neither are kept as moves.
pub fn read_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut cur = PgnGame::default();
    let mut in_moves = false;
    let mut depth_comment = false;
    let mut depth_var = 0usize;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if cur.line == 0 && !t.is_empty() {
            cur.line = n + 1;
        }
        if !depth_comment && depth_var == 0 && t.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut cur));
                cur.line = n + 1;
                in_moves = false;
            }
            if let Some(tag) = parse_tag(t) {
                cur.tags.push(tag);
            }
            continue;
        }
        if t.starts_with('%') {
            continue;
        }
        let mut token = String::new();
        let flush = |token: &mut String, cur: &mut PgnGame, in_moves: &mut bool| {
            let w = std::mem::take(token);
            if is_result(&w) {
                *in_moves = true;
                return;
            }
            let w = w.trim_start_matches(|c: char| c.is_ascii_digit());
            let w = w.trim_start_matches('.');
            if w.is_empty() || w.starts_with('$') {
                return;
            }
            *in_moves = true;
            if !is_result(w) {
                cur.moves.push(w.to_string());
            }
        };
        for c in t.chars() {
            if depth_comment {
                if c == '}' {
                    depth_comment = false;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, &mut cur, &mut in_moves);
                    depth_comment = true;
                }
                ';' => break,
                '(' => {
                    flush(&mut token, &mut cur, &mut in_moves);
                    depth_var += 1;
                }
                ')' => {
                    token.clear();
                    depth_var = depth_var.saturating_sub(1);
                }
                c if c.is_whitespace() => {
                    if depth_var == 0 {
                        flush(&mut token, &mut cur, &mut in_moves);
                    }
                    token.clear();
                }
                c => token.push(c),
            }
        }
        if depth_var == 0 {
            flush(&mut token, &mut cur, &mut in_moves);
        }
        in_moves |= t.split_whitespace().any(is_result);
    }
    if !cur.tags.is_empty() || !cur.moves.is_empty() {
        games.push(cur);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_move, Notation};

    #[test]
    fn write_then_read_back() {
        let rules = RuleSet::Janggi;
        let root = Position::startpos(rules);
        let mut p = root.clone();
        let mut moves = Vec::new();
        for s in ["b1c3", "b10c8", "e2e2", "e9e9"] {
            let m = parse_move(&p, s, Notation::Uci).unwrap();
            p.make(m);
            moves.push(m);
        }
        let text = write_game(
            &[("Variant", "Janggi".into()), ("Result", "1/2-1/2".into())],
            &root,
            &moves,
            "1/2-1/2",
            "double pass {x}",
        );
        assert!(
            text.contains("1. Hc3 Hc8 2. Ke2 Ke9 {double pass x} 1/2-1/2"),
            "{text}"
        );
        let games = read_games(&format!("{text}{text}"));
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].tag("variant"), Some("Janggi"));
        assert_eq!(games[1].line, text.lines().count() + 1);
        let (_, replayed) = games[0].replay(rules).unwrap();
        assert_eq!(replayed, moves);
    }

    #[test]
    fn reader_skips_comments_variations_and_nags() {
        let g =
            read_games("[Event \"x\"]\n\n1. Hc3 {a (b) c} (1. Hg3 Hg8) Hc8 $1 2. Ke2; rest\n*\n");
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].moves, vec!["Hc3", "Hc8", "Ke2"]);
        let bad = PgnGame {
            line: 1,
            tags: vec![],
            moves: vec!["Hc3".into(), "Rxa9".into()],
        };
        assert!(bad.replay(RuleSet::Janggi).err().unwrap().contains("ply 2"));
    }
}
