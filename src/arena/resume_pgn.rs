//! The strict reader `--resume` applies to the runner's own PGN. Each game
//! is written with one call, so an interruption can only cut the file
//! inside its last game: every earlier game must be whole and shaped as
//! `output::pgn_game` writes it, and anything else is refused. The reader
//! reports where the whole games end so that a cut last game can be cut
//! off and played again.

use super::pgn::parse_tag;
use std::path::Path;

/// The first line of every game the runner writes.
pub const FIRST_LINE: &str = "[Event \"janggun match\"]";

/// The largest of the runner's PGN files read back (by `--resume`, and by
/// `match merge --pgn` beside each shard). A game is about 2 KB of it, its
/// tags and moves, so this is some 500,000 games, as many as the largest
/// JSON report read (`report::MAX_REPORT_BYTES`) holds; the games' tags and
/// moves are held while they are checked, a few times the text.
pub const MAX_PGN_BYTES: u64 = 1 << 30;

/// The runner's PGN at `path`, `None` when there is none yet: a regular
/// file only (a FIFO would block, a device never end) of at most
/// `MAX_PGN_BYTES`.
pub fn read(path: &Path) -> Result<Option<Vec<u8>>, String> {
    crate::util::file::read_capped_if_exists(path, MAX_PGN_BYTES)
}

/// A whole game as it lies in the file, not yet checked against a match.
#[derive(Debug)]
pub struct WrittenGame {
    /// The line of its first tag (1-based).
    pub line: usize,
    pub tags: Vec<(String, String)>,
    /// SAN tokens, without move numbers, the comment or the result.
    pub moves: Vec<String>,
    /// The result token that ends the move text.
    pub result: String,
}

impl WrittenGame {
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug)]
pub struct Scan {
    pub games: Vec<WrittenGame>,
    /// Bytes up to the end of the last whole game's result token.
    pub whole_len: usize,
    /// The line of a last game that the file ends inside of.
    pub cut_at: Option<usize>,
}

struct Line<'a> {
    no: usize,
    start: usize,
    text: &'a str,
    /// Ends with a line feed (only the file's last line may not).
    complete: bool,
}

fn split_lines(bytes: &[u8]) -> Result<Vec<Line<'_>>, String> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let no = out.len() + 1;
        let (end, complete) = match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(k) => (start + k, true),
            None => (bytes.len(), false),
        };
        let raw = &bytes[start..end];
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t,
            // A cut may split a character, at the very end only.
            Err(e) if !complete && e.error_len().is_none() => {
                std::str::from_utf8(&raw[..e.valid_up_to()]).map_err(|e| e.to_string())?
            }
            Err(_) => return Err(format!("line {no}: not UTF-8 text")),
        };
        if text
            .chars()
            .any(|c| c.is_control() && c != '\t' && c != '\r')
        {
            return Err(format!("line {no}: control characters"));
        }
        out.push(Line {
            no,
            start,
            text,
            complete,
        });
        start = end + 1;
    }
    Ok(out)
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2")
}

fn is_move_number(t: &str) -> bool {
    let digits = t.trim_end_matches('.');
    digits.len() < t.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Move-text tokens, a `{comment}` being one; and whether a comment is
/// still open at the end.
fn tokens(text: &str) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_comment = false;
    for c in text.chars() {
        if in_comment {
            cur.push(c);
            if c == '}' {
                out.push(std::mem::take(&mut cur));
                in_comment = false;
            }
        } else if c.is_whitespace() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            if c == '{' && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            in_comment = c == '{';
            cur.push(c);
        }
    }
    if !cur.is_empty() && !in_comment {
        out.push(cur);
    }
    (out, in_comment)
}

enum Read {
    /// A whole game, and the byte offset just past its result.
    Whole(WrittenGame, usize),
    /// The file ends inside this game.
    Cut,
}

fn blank(l: &Line) -> bool {
    l.text.trim().is_empty()
}

/// Reads the game whose first line is `lines[*i]`, moving `i` past it.
fn read_game(lines: &[Line], i: &mut usize) -> Result<Read, String> {
    let first = &lines[*i];
    if first.text.trim_end() != FIRST_LINE {
        if !first.complete && FIRST_LINE.starts_with(first.text) {
            return Ok(Read::Cut);
        }
        return Err(format!(
            "line {}: expected '{FIRST_LINE}', the start of a game of janggun match",
            first.no
        ));
    }
    let mut tags = Vec::new();
    while let Some(l) = lines.get(*i).filter(|l| l.text.starts_with('[')) {
        if !l.complete {
            return Ok(Read::Cut);
        }
        tags.push(parse_tag(l.text).ok_or_else(|| format!("line {}: not a PGN tag", l.no))?);
        *i += 1;
    }
    match lines.get(*i) {
        None => return Ok(Read::Cut),
        Some(l) if !blank(l) => {
            return Err(format!(
                "line {}: expected a blank line after the tags",
                l.no
            ))
        }
        Some(_) => *i += 1,
    }
    let mut text = String::new();
    let mut last = None;
    while let Some(l) = lines.get(*i).filter(|l| !blank(l)) {
        if l.text.starts_with('[') {
            return Err(format!(
                "line {}: a tag inside the moves of the game at line {}",
                l.no, first.no
            ));
        }
        text.push_str(l.text);
        text.push('\n');
        last = Some(l);
        *i += 1;
    }
    let (tokens, open_comment) = tokens(&text);
    let ends_with_result = !open_comment && tokens.last().is_some_and(|t| is_result(t));
    let (Some(last), true) = (last, ends_with_result) else {
        if *i == lines.len() {
            return Ok(Read::Cut);
        }
        return Err(format!(
            "game at line {}: its moves end without a result",
            first.no
        ));
    };
    let mut moves = Vec::new();
    for t in &tokens[..tokens.len() - 1] {
        if is_result(t) {
            return Err(format!(
                "game at line {}: a result before the end of its moves",
                first.no
            ));
        }
        if !is_move_number(t) && !t.starts_with('{') {
            moves.push(t.clone());
        }
    }
    let game = WrittenGame {
        line: first.no,
        tags,
        moves,
        result: tokens[tokens.len() - 1].clone(),
    };
    Ok(Read::Whole(game, last.start + last.text.trim_end().len()))
}

/// Splits the runner's PGN into whole games and, at the end, a cut one.
pub fn scan(bytes: &[u8]) -> Result<Scan, String> {
    let lines = split_lines(bytes)?;
    let mut scan = Scan {
        games: Vec::new(),
        whole_len: 0,
        cut_at: None,
    };
    let mut i = 0;
    loop {
        while lines.get(i).is_some_and(blank) {
            i += 1;
        }
        let Some(first) = lines.get(i) else {
            return Ok(scan);
        };
        let line = first.no;
        match read_game(&lines, &mut i)? {
            Read::Whole(game, end) => {
                scan.games.push(game);
                scan.whole_len = end;
            }
            Read::Cut => {
                scan.cut_at = Some(line);
                return Ok(scan);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::pgn::write_game;
    use crate::board::{parse_move, Notation, Position, RuleSet};

    fn game(round: usize, detail: &str) -> String {
        let root = Position::startpos(RuleSet::Janggi);
        let mut p = root.clone();
        let mut moves = Vec::new();
        for s in ["a1a2", "a10a9", "e2e2", "e9e9"] {
            let m = parse_move(&p, s, Notation::Uci).unwrap();
            p.make(m);
            moves.push(m);
        }
        let tags = [
            ("Event", "janggun match".to_string()),
            ("Round", round.to_string()),
            ("White", "Ünï".to_string()),
            ("Result", "0-1".to_string()),
        ];
        write_game(&tags, &root, &moves, "0-1", detail)
    }

    #[test]
    fn every_cut_keeps_exactly_the_whole_games_before_it() {
        let games = [game(1, "a 1-0 {x} é"), game(2, ""), game(3, "한수쉼")];
        let text = games.concat();
        // Where each game's result ends, and where the next one starts.
        let mut ends = Vec::new();
        let mut starts = Vec::new();
        let mut at = 0;
        for g in &games {
            starts.push(at);
            ends.push(at + g.trim_end().len());
            at += g.len();
        }
        let bytes = text.as_bytes();
        for len in 0..=bytes.len() {
            let s = scan(&bytes[..len]).unwrap_or_else(|e| panic!("cut at {len}: {e}"));
            let whole = ends.iter().filter(|&&e| e <= len).count();
            assert_eq!(s.games.len(), whole, "cut at {len}");
            assert_eq!(s.whole_len, if whole > 0 { ends[whole - 1] } else { 0 });
            let cut = starts.get(whole).is_some_and(|&st| len > st);
            assert_eq!(s.cut_at.is_some(), cut, "cut at {len}");
            for g in &s.games {
                assert_eq!(g.moves, ["Ra2", "Ra9", "Ke2", "Ke9"]);
                assert_eq!(g.result, "0-1");
                assert_eq!(g.tag("White"), Some("Ünï"));
            }
        }
    }

    #[test]
    fn anything_but_whole_games_and_a_cut_is_refused() {
        let g = game(1, "why");
        for (bad, why) in [
            (format!("{g}x\n{g}"), "line 8"),
            (
                format!("{g}{}", g.replace("0-1\n\n", "\n\n")),
                "without a result",
            ),
            (
                g.replace("[Round \"1\"]", "[Round 1]"),
                "line 2: not a PGN tag",
            ),
            (g.replace("Ke9 ", "Ke9 1-0 "), "before the end"),
            (g.replace("\n\n1.", "\n1."), "blank line"),
            (
                format!("{}{g}", g.replace("{why} 0-1", "{why 0-1")),
                "without a result",
            ),
            (
                format!("{}{g}", g.replace("0-1\n\n", "\n")),
                "line 7: a tag inside",
            ),
            (g.replace("Ra2", "R\u{1}a2"), "control"),
            ("[Event \"janggun matcH".into(), "line 1"),
        ] {
            let err = scan(bad.as_bytes()).unwrap_err();
            assert!(err.contains(why), "'{err}' lacks '{why}' in\n{bad}");
        }
        let mut bytes = g.clone().into_bytes();
        bytes.extend_from_slice(&[0xff, b'\n']);
        assert!(scan(&bytes).unwrap_err().contains("UTF-8"));
    }
}
