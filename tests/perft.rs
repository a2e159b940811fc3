//! Perft against Fairy-Stockfish's reference counts (copied into tests/data).

use janggun::board::perft::{divide, perft};
use janggun::board::{move_to_string, perft_moves, MoveList, Notation, Position, RuleSet};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{}", env!("CARGO_MANIFEST_DIR"), name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

fn count(fen: &str, rules: RuleSet, depth: u32) -> u64 {
    let mut pos = Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
    perft(&mut pos, depth)
}

/// (rule set, [counts for depth 1..]) rows of startpos.txt.
fn startpos_rows() -> Vec<(RuleSet, Vec<u64>)> {
    let text = data("startpos.txt");
    let mut rows = Vec::new();
    let mut main = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let Some(first) = fields.first() {
            if let Ok(depth) = first.parse::<u32>() {
                assert_eq!(depth as usize, main.len() + 1);
                main.push(fields[1].parse().unwrap());
            } else if fields.len() == 7 && fields[0] == "#" {
                if let Ok(rules) = fields[1].parse::<RuleSet>() {
                    rows.push((
                        rules,
                        fields[2..].iter().map(|n| n.parse().unwrap()).collect(),
                    ));
                }
            }
        }
    }
    assert_eq!(main.len(), 6, "startpos.txt lists depths 1-6");
    assert_eq!(rows.len(), 4, "startpos.txt lists the four FSF rule sets");
    rows.insert(0, (RuleSet::Janggi, main));
    rows
}

#[test]
fn startpos_depths_1_to_5() {
    let rows = startpos_rows();
    for d in 1..=5 {
        assert_eq!(
            count(janggun::board::START_FEN, RuleSet::Janggi, d),
            rows[0].1[d as usize - 1],
            "depth {d}"
        );
    }
}

#[test]
fn startpos_rule_sets_to_depth_4() {
    // Depth 5 for all four is in the ignored test; 4 already separates them.
    for (rules, counts) in startpos_rows().into_iter().skip(1) {
        for d in 1..=4u32 {
            assert_eq!(
                count(janggun::board::START_FEN, rules, d),
                counts[d as usize - 1],
                "{rules} depth {d}"
            );
        }
    }
}

#[test]
#[ignore = "about 30 s; run by .ci/run"]
fn startpos_depth_6_and_rule_sets_depth_5() {
    let rows = startpos_rows();
    assert_eq!(
        count(janggun::board::START_FEN, RuleSet::Janggi, 6),
        rows[0].1[5]
    );
    for (rules, counts) in rows.into_iter().skip(1) {
        assert_eq!(
            count(janggun::board::START_FEN, rules, 5),
            counts[4],
            "{rules} depth 5"
        );
    }
}

fn setups() -> Vec<(String, Vec<u64>)> {
    data("setups.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (left, fen) = l.split_once('|').expect("setups.txt line has '|'");
            let counts = left
                .split_whitespace()
                .skip(2)
                .map(|n| n.parse().unwrap())
                .collect();
            (fen.trim().to_string(), counts)
        })
        .collect()
}

#[test]
fn all_16_setups_to_depth_4() {
    let rows = setups();
    assert_eq!(rows.len(), 16);
    for (fen, counts) in rows {
        for d in 1..=4u32 {
            assert_eq!(
                count(&fen, RuleSet::Janggi, d),
                counts[d as usize - 1],
                "{fen} depth {d}"
            );
        }
    }
}

#[test]
#[ignore = "about 20 s; run by .ci/run"]
fn all_16_setups_depth_5() {
    for (fen, counts) in setups() {
        assert_eq!(count(&fen, RuleSet::Janggi, 5), counts[4], "{fen}");
    }
}

/// (fen, [(depth, count)], id) from an EPD file.
type EpdRow = (String, Vec<(u32, u64)>, String);

fn epd(name: &str) -> Vec<EpdRow> {
    data(name)
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let mut counts = Vec::new();
            let mut id = String::new();
            for p in parts {
                let p = p.trim();
                if let Some(rest) = p.strip_prefix("id ") {
                    id = rest.to_string();
                } else if let Some(rest) = p.strip_prefix('D') {
                    let (d, n) = rest.split_once(' ').unwrap();
                    counts.push((d.parse().unwrap(), n.parse().unwrap()));
                }
            }
            (fen, counts, id)
        })
        .collect()
}

fn check_epd(name: &str, rules: RuleSet, max_depth: u32) {
    check_rows(name, epd(name), 20, rules, max_depth);
}

fn check_rows(name: &str, rows: Vec<EpdRow>, min: usize, rules: RuleSet, max_depth: u32) {
    assert!(rows.len() >= min, "{name} has the reference positions");
    for (fen, counts, id) in rows {
        for (d, n) in counts {
            if d <= max_depth {
                assert_eq!(
                    count(&fen, rules, d),
                    n,
                    "{id} ({fen}) depth {d} under {rules}"
                );
            }
        }
    }
}

/// More pieces than a side starts with (a third chariot or cannon, six
/// soldiers): Fairy-Stockfish plays these, and so must we.
#[test]
fn extra_pieces_match_pyffish() {
    let rows = epd("extra_pieces.epd");
    check_rows("extra_pieces.epd", rows, 6, RuleSet::Janggi, 4);
}

#[test]
fn positions_epd_to_depth_4() {
    check_epd("positions.epd", RuleSet::Janggi, 4);
}

#[test]
fn positions_janggicasual_to_depth_4() {
    check_epd("positions_janggicasual.epd", RuleSet::Casual, 4);
}

#[test]
#[ignore = "about a minute; run by .ci/run"]
fn positions_epd_depth_5() {
    check_epd("positions.epd", RuleSet::Janggi, 5);
}

/// The sorted move list and depth-3 divide of each divide/NN.txt.
#[test]
fn divide_files_match() {
    let dir = format!("{}/tests/data/divide", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name == "startpos.txt" {
            continue;
        }
        let text = data(&format!("divide/{name}"));
        let fen = text
            .lines()
            .find_map(|l| l.strip_prefix("# FEN: "))
            .expect("FEN line")
            .trim()
            .to_string();
        let pos = Position::from_fen(&fen, RuleSet::Janggi).unwrap();

        let mut section = "";
        let mut expected_moves = Vec::new();
        let mut expected_divide = Vec::new();
        for line in text.lines() {
            if line.starts_with('[') {
                section = if line.starts_with("[legal moves") {
                    "moves"
                } else {
                    "divide"
                };
            } else if !line.trim().is_empty() && !line.starts_with('#') {
                match section {
                    "moves" => expected_moves.push(line.trim().to_string()),
                    "divide" => {
                        let (m, n) = line.split_once(": ").expect("divide line");
                        expected_divide.push((m.to_string(), n.trim().parse::<u64>().unwrap()));
                    }
                    _ => {}
                }
            }
        }

        let mut list = MoveList::new();
        perft_moves(&pos, &mut list);
        let mut got: Vec<String> = list
            .iter()
            .map(|m| move_to_string(*m, Notation::Uci))
            .collect();
        got.sort();
        assert_eq!(got, expected_moves, "{name}: legal moves");
        assert_eq!(
            divide(&pos, 3, 1),
            expected_divide,
            "{name}: depth-3 divide"
        );
        checked += 1;
    }
    assert!(checked >= 20, "divide files found: {checked}");
}

#[test]
fn threaded_divide_equals_serial() {
    let pos = Position::startpos(RuleSet::Janggi);
    assert_eq!(divide(&pos, 3, 2), divide(&pos, 3, 1));
}
