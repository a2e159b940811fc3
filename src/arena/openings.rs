//! Where games start: the 16 setups by default, or a file of FEN/EPD lines,
//! PGN games or GIB (Korean) game records cut at a ply; plus reproducible
//! random plies on top.

use super::fen::read_fen;
use super::pgn;
use crate::board::notation::setup_fen;
use crate::board::rules::game_end;
use crate::board::{legal_moves, Move, MoveList, Position, RuleSet, Setup, Square};

#[derive(Clone, Debug)]
pub struct Opening {
    /// The root position; games are written from here, so the book moves
    /// stay in the record and the repetition history is complete.
    pub fen: String,
    pub moves: Vec<Move>,
}

/// The match runner draws openings from the same seeded generator as datagen.
use crate::util::rng::Rng;

/// The 16 start positions, Han's arrangement varying fastest.
pub fn default_openings() -> Vec<Opening> {
    let mut v = Vec::with_capacity(16);
    for cho in Setup::ALL {
        for han in Setup::ALL {
            v.push(Opening {
                fen: setup_fen(cho, han),
                moves: Vec::new(),
            });
        }
    }
    v
}

/// The largest openings file read. A book of a million FEN lines, far more
/// openings than a match plays, is about 100 MB, and so is a PGN book of
/// some 100,000 games; all of it is parsed in memory.
pub const MAX_OPENINGS_BYTES: u64 = 256 << 20;

/// Reads an openings file; the format is told from the content. Only a
/// regular file is opened (a FIFO would block, a device never end).
pub fn load(path: &std::path::Path, rules: RuleSet, plies: usize) -> Result<Vec<Opening>, String> {
    let bytes = crate::util::file::read_capped(path, MAX_OPENINGS_BYTES)?;
    let text = String::from_utf8_lossy(&bytes);
    let list = parse(&text, rules, plies).map_err(|e| format!("{}: {e}", path.display()))?;
    if list.is_empty() {
        return Err(format!("{}: no openings found", path.display()));
    }
    Ok(list)
}

pub fn parse(text: &str, rules: RuleSet, plies: usize) -> Result<Vec<Opening>, String> {
    let is_gib = ["초차림", "한차림", "대국결과", "한수쉼"]
        .iter()
        .any(|k| text.contains(k));
    if is_gib {
        return parse_gib(text, rules, plies);
    }
    let is_pgn = text.lines().any(|l| l.trim_start().starts_with('['));
    if is_pgn {
        let mut out = Vec::new();
        for (i, g) in pgn::read_games(text).iter().enumerate() {
            let (root, moves) = g
                .replay(rules)
                .map_err(|e| format!("game {} (line {}): {e}", i + 1, g.line))?;
            out.push(Opening {
                fen: root.to_fen(),
                moves: moves.into_iter().take(plies).collect(),
            });
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = t.split_whitespace().collect();
        // EPD: placement, side, two placeholder fields, then operations.
        let counters_ok = fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].parse::<u32>().is_ok();
        let fen = if counters_ok {
            fields[..6].join(" ")
        } else {
            format!("{} {} - - 0 1", fields[0], fields.get(1).unwrap_or(&"w"))
        };
        let pos = read_fen(&fen, rules).map_err(|e| format!("line {}: {e}", n + 1))?;
        out.push(Opening {
            fen: pos.to_fen(),
            moves: Vec::new(),
        });
    }
    Ok(out)
}

/// GIB square: row from the top (1..9, 0 for the tenth) then file 1..9.
fn gib_square(d: &[u8]) -> Option<Square> {
    let row = match d[0] {
        b'0' => 10,
        c => c - b'0',
    };
    let file = d[1].checked_sub(b'1')?;
    Square::from_coords(file, 10 - row)
}

/// GIB's arrangement text lists the horses (마) and elephants (상) on files
/// b, c, g, h as seen from Cho's side, for both players.
fn gib_rank(arrangement: &str, upper: bool) -> Option<String> {
    let pieces: Vec<char> = arrangement
        .chars()
        .filter_map(|c| match c {
            '마' => Some('n'),
            '상' => Some('b'),
            _ => None,
        })
        .collect();
    if pieces.len() != 4 {
        return None;
    }
    let s = format!("r{}{}a1a{}{}r", pieces[0], pieces[1], pieces[2], pieces[3]);
    Some(if upper { s.to_ascii_uppercase() } else { s })
}

fn parse_gib(text: &str, rules: RuleSet, plies: usize) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    let mut cho = None;
    let mut han = None;
    let mut moves_text = String::new();
    let mut finish = |cho: &mut Option<String>,
                      han: &mut Option<String>,
                      mt: &mut String|
     -> Result<(), String> {
        if cho.is_none() && han.is_none() && mt.trim().is_empty() {
            return Ok(());
        }
        let c = cho.take().unwrap_or_else(|| "RNBA1ABNR".into());
        let h = han.take().unwrap_or_else(|| "rnba1abnr".into());
        let fen = format!("{h}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{c} w - - 0 1");
        let mut pos = Position::from_fen(&fen, rules).map_err(|e| format!("GIB setup: {e}"))?;
        let mut moves = Vec::new();
        for tok in mt.split_whitespace() {
            if moves.len() >= plies {
                break;
            }
            if tok.ends_with('.') && tok[..tok.len() - 1].bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let m = if tok.contains("한수쉼") {
                Move::pass(pos.king(pos.side_to_move()))
            } else {
                let digits: Vec<u8> = tok.bytes().filter(|b| b.is_ascii_digit()).collect();
                if digits.len() != 4 {
                    continue;
                }
                let from = gib_square(&digits[..2]).ok_or("bad GIB square")?;
                let to = gib_square(&digits[2..]).ok_or("bad GIB square")?;
                Move::new(from, to)
            };
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            if !list.contains(m) {
                return Err(format!(
                    "GIB move '{tok}' is illegal at ply {}",
                    moves.len() + 1
                ));
            }
            pos.make(m);
            moves.push(m);
        }
        mt.clear();
        out.push(Opening { fen, moves });
        Ok(())
    };
    for line in text.lines() {
        let t = line.trim();
        if let Some(v) = t.strip_prefix("[초차림") {
            if !moves_text.trim().is_empty() {
                finish(&mut cho, &mut han, &mut moves_text)?;
            }
            cho = gib_rank(v, true);
        } else if let Some(v) = t.strip_prefix("[한차림") {
            han = gib_rank(v, false);
        } else if t.starts_with('[') {
            if !moves_text.trim().is_empty() {
                finish(&mut cho, &mut han, &mut moves_text)?;
            }
        } else {
            moves_text.push(' ');
            moves_text.push_str(t);
        }
    }
    finish(&mut cho, &mut han, &mut moves_text)?;
    Ok(out)
}

/// The opening of game pair `pair` of the match `cfg`: the pair its
/// `--opening-offset` shifts it to.
pub fn for_match(book: &[Opening], cfg: &super::MatchConfig, pair: usize) -> Opening {
    let pair = cfg.opening_offset.saturating_add(pair);
    for_pair(book, pair, cfg.seed, cfg.random_plies, cfg.rules)
}

/// The opening of game pair `pair`: the book entry in a seed-shuffled order,
/// then `random_plies` random moves, all fixed by (seed, pair) alone so a
/// resumed match replays the same openings.
pub fn for_pair(
    book: &[Opening],
    pair: usize,
    seed: u64,
    random_plies: usize,
    rules: RuleSet,
) -> Opening {
    let n = book.len();
    let round = pair / n;
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = Rng::new(seed ^ (round as u64).wrapping_mul(0xA076_1D64_78BD_642F));
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut op = book[order[pair % n]].clone();
    if random_plies == 0 {
        return op;
    }
    let mut rng =
        Rng::new(seed.wrapping_add((pair as u64 + 1).wrapping_mul(0xE703_7ED1_A0B4_28DB)));
    let Ok(mut pos) = Position::from_fen(&op.fen, rules) else {
        return op;
    };
    for &m in &op.moves {
        pos.make(m);
    }
    for _ in 0..random_plies {
        let mut list = MoveList::new();
        legal_moves(&pos, &mut list);
        // Passes make dull openings; keep them only when nothing else is legal.
        let real: Vec<Move> = list.iter().copied().filter(|m| !m.is_pass()).collect();
        if real.is_empty() {
            break;
        }
        let m = real[rng.below(real.len())];
        pos.make(m);
        if game_end(&pos).is_some() {
            pos.unmake();
            break;
        }
        op.moves.push(m);
    }
    op
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_setups_and_reproducible_random_plies() {
        let book = default_openings();
        assert_eq!(book.len(), 16);
        let mut fens: Vec<&str> = book.iter().map(|o| o.fen.as_str()).collect();
        fens.sort();
        fens.dedup();
        assert_eq!(fens.len(), 16);
        // Every setup once in the first 16 pairs.
        let mut seen: Vec<String> = (0..16)
            .map(|k| for_pair(&book, k, 7, 0, RuleSet::Janggi).fen)
            .collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 16);
        let a = for_pair(&book, 3, 7, 6, RuleSet::Janggi);
        let b = for_pair(&book, 3, 7, 6, RuleSet::Janggi);
        let c = for_pair(&book, 3, 8, 6, RuleSet::Janggi);
        assert_eq!(a.moves.len(), 6);
        assert_eq!((a.fen.clone(), a.moves.clone()), (b.fen, b.moves));
        assert!(a.moves != c.moves || a.fen != c.fen);
    }

    #[test]
    fn shards_draw_other_openings() {
        use std::collections::HashMap;
        let book = default_openings();
        let key = |o: &Opening| (o.fen.clone(), o.moves.clone());
        // Other seeds, random plies: no opening dealt to two seeds.
        let mut owner = HashMap::new();
        for seed in 1..=24u64 {
            for pair in 0..40 {
                let o = for_pair(&book, pair, seed, 6, RuleSet::Janggi);
                if let Some(other) = owner.insert(key(&o), seed) {
                    assert_eq!(other, seed, "seeds {other} and {seed} share an opening");
                }
            }
        }
        // One seed, offsets k * 5: shard k plays pairs 5k..5k+5 of the
        // long match, with or without random plies.
        for plies in [0, 4] {
            let mut a: Vec<&str> = vec!["--engine", "cmd=a", "--engine", "cmd=b", "--nodes", "1"];
            let p = plies.to_string();
            a.extend(["--random-plies", &p, "--seed", "9"]);
            let args = |extra: &[&str]| {
                let mut v: Vec<String> = a.iter().map(|s| s.to_string()).collect();
                v.extend(extra.iter().map(|s| s.to_string()));
                crate::arena::cli::parse(&v).unwrap()
            };
            let whole = args(&[]);
            for k in 0..4usize {
                let off = (5 * k).to_string();
                let shard = args(&["--opening-offset", &off]);
                for pair in 0..5 {
                    let o = for_match(&book, &shard, pair);
                    let w = for_match(&book, &whole, 5 * k + pair);
                    assert_eq!(key(&o), key(&w));
                }
            }
        }
        // Without random plies or an offset, two seeds only reorder the
        // 16 setups: why shards at fixed nodes need one or the other.
        let firsts = |seed| -> Vec<String> {
            let mut v: Vec<String> = (0..16)
                .map(|p| for_pair(&book, p, seed, 0, RuleSet::Janggi).fen)
                .collect();
            v.sort();
            v
        };
        assert_eq!(firsts(1), firsts(2));
    }

    #[test]
    fn reads_fen_epd_pgn_and_gib() {
        let r = RuleSet::Janggi;
        let epd =
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - id \"x\";\n\
                   4k4/9/9/9/9/9/9/9/9/4K4 b - - 3 9\n";
        let v = parse(epd, r, 8).unwrap();
        assert_eq!(v.len(), 2);
        assert!(v[1].fen.contains(" b "));
        let pgn = "[Variant \"Janggi\"]\n\n1. Hc3 Hc8 2. Hg3 Hg8 *\n";
        let v = parse(pgn, r, 3).unwrap();
        assert_eq!(v[0].moves.len(), 3);
        // Cho's horse h1-g3 is `01마83`; Han answers from the top rows.
        let gib = "[초차림 \"마상상마\"]\n[한차림 \"마상마상\"]\n\n1. 08마87 2. 12마33 3. 한수쉼 4. 33마12\n";
        let v = parse(gib, r, 10).unwrap();
        assert_eq!(v[0].fen.split('/').next(), Some("rnba1anbr"));
        let uci: Vec<String> = v[0].moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(uci, vec!["h1g3", "b10c8", "e2e2", "c8b10"]);
        assert!(parse("[초차림 \"마상상마\"]\n1. 08마88\n", r, 10).is_err());
        assert!(parse("not a fen\n", r, 8).is_err());
    }
}
