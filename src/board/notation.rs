//! Move strings (UCI ranks 1..10, UCCI ranks 0..9, passes) and the names of
//! the 16 start positions.

use super::fen::FenError;
use super::movegen::legal_moves;
use super::moves::{Move, MoveList};
use super::position::Position;
use super::ruleset::RuleSet;
use super::square::{Color, Square};
use std::fmt;
use std::str::FromStr;

/// How squares are written: UCI (ranks 1..10) or UCCI (ranks 0..9).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Notation {
    Uci,
    Ucci,
}

impl Notation {
    fn rank_base(self) -> u8 {
        match self {
            Notation::Uci => 1,
            Notation::Ucci => 0,
        }
    }
}

pub fn move_to_string(m: Move, notation: Notation) -> String {
    let mut s = String::with_capacity(6);
    m.from().write(notation.rank_base(), &mut s);
    m.to().write(notation.rank_base(), &mut s);
    s
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&move_to_string(*self, Notation::Uci))
    }
}

/// Splits a move string into its two squares (no legality check).
fn split_squares(s: &str, notation: Notation) -> Option<(Square, Square)> {
    if !s.is_ascii() || s.len() < 4 || s.len() > 6 {
        return None;
    }
    // The second square starts at the second letter.
    let second = s[1..].find(|c: char| c.is_ascii_lowercase())? + 1;
    let from = Square::parse(&s[..second], notation.rank_base())?;
    let to = Square::parse(&s[second..], notation.rank_base())?;
    Some((from, to))
}

/// Reads a move string in the given notation and returns the legal move it
/// names here, or a message saying why not. `0000`, `pass` and `@@@@` are
/// passes, as is the general's point written twice.
pub fn parse_move(pos: &Position, s: &str, notation: Notation) -> Result<Move, String> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    let m = if matches!(s, "0000" | "pass" | "@@@@") {
        Move::pass(pos.king(pos.side_to_move()))
    } else {
        match split_squares(s, notation) {
            Some((from, to)) => Move::new(from, to),
            None => return Err(format!("unparsable move '{}'", truncate(s))),
        }
    };
    if list.contains(m) {
        Ok(m)
    } else if m.is_pass() {
        if m.from() != pos.king(pos.side_to_move()) {
            Err(format!(
                "'{}' is not a move (a pass is the general's own point twice)",
                truncate(s)
            ))
        } else {
            Err(format!("pass '{}' is illegal here", truncate(s)))
        }
    } else {
        Err(format!("illegal move '{}'", truncate(s)))
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(24).collect()
}

/// One side's horse/elephant arrangement, named from the owner's seat.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Setup {
    /// 마상상마: horse, elephant, elephant, horse.
    Inner,
    /// 상마마상: elephant, horse, horse, elephant.
    Outer,
    /// 상마상마: elephant, horse, elephant, horse.
    Left,
    /// 마상마상: horse, elephant, horse, elephant.
    Right,
}

impl Setup {
    pub const ALL: [Setup; 4] = [Setup::Inner, Setup::Outer, Setup::Left, Setup::Right];

    pub fn name(self) -> &'static str {
        match self {
            Setup::Inner => "inner",
            Setup::Outer => "outer",
            Setup::Left => "left",
            Setup::Right => "right",
        }
    }

    /// Pieces on b, c, g, h from the owner's own left to right.
    fn own_order(self) -> [char; 4] {
        match self {
            Setup::Inner => ['n', 'b', 'b', 'n'],
            Setup::Outer => ['b', 'n', 'n', 'b'],
            Setup::Left => ['b', 'n', 'b', 'n'],
            Setup::Right => ['n', 'b', 'n', 'b'],
        }
    }

    /// The back rank in FEN order (file a..i) for the given side.
    pub fn back_rank(self, side: Color) -> String {
        let mut order = self.own_order();
        // Han sits on the far side: its left is file i.
        if side == Color::Han {
            order.reverse();
        }
        let s = format!("r{}{}a1a{}{}r", order[0], order[1], order[2], order[3]);
        match side {
            Color::Cho => s.to_ascii_uppercase(),
            Color::Han => s,
        }
    }

    pub fn from_back_rank(rank: &str, side: Color) -> Option<Setup> {
        Setup::ALL.into_iter().find(|s| s.back_rank(side) == rank)
    }
}

impl FromStr for Setup {
    type Err = String;
    fn from_str(s: &str) -> Result<Setup, String> {
        let lower = s.to_ascii_lowercase();
        Ok(match lower.as_str() {
            "inner" | "heeh" | "마상상마" | "inner-elephant" => Setup::Inner,
            "outer" | "ehhe" | "상마마상" | "outer-elephant" => Setup::Outer,
            "left" | "eheh" | "상마상마" | "left-elephant" => Setup::Left,
            "right" | "hehe" | "마상마상" | "right-elephant" => Setup::Right,
            _ => {
                return Err(format!(
                    "unknown setup '{}' (inner, outer, left, right)",
                    truncate(s)
                ))
            }
        })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The start FEN for a Cho and a Han arrangement.
pub fn setup_fen(cho: Setup, han: Setup) -> String {
    format!(
        "{}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{} w - - 0 1",
        han.back_rank(Color::Han),
        cho.back_rank(Color::Cho)
    )
}

pub fn setup_position(cho: Setup, han: Setup, rules: RuleSet) -> Result<Position, FenError> {
    Position::from_fen(&setup_fen(cho, han), rules)
}

/// Names the arrangements of a start FEN, if it is one of the 16.
pub fn setups_of_fen(fen: &str) -> Option<(Setup, Setup)> {
    let placement = fen.split_whitespace().next()?;
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 10 || rows[1..9].join("/") != "4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4" {
        return None;
    }
    Some((
        Setup::from_back_rank(rows[9], Color::Cho)?,
        Setup::from_back_rank(rows[0], Color::Han)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen::START_FEN;

    #[test]
    fn setup_names_pinned_to_fens() {
        // docs/RULES.md's table, both sides.
        assert_eq!(Setup::Inner.back_rank(Color::Cho), "RNBA1ABNR");
        assert_eq!(Setup::Outer.back_rank(Color::Cho), "RBNA1ANBR");
        assert_eq!(Setup::Left.back_rank(Color::Cho), "RBNA1ABNR");
        assert_eq!(Setup::Right.back_rank(Color::Cho), "RNBA1ANBR");
        assert_eq!(Setup::Inner.back_rank(Color::Han), "rnba1abnr");
        assert_eq!(Setup::Outer.back_rank(Color::Han), "rbna1anbr");
        assert_eq!(Setup::Left.back_rank(Color::Han), "rnba1anbr");
        assert_eq!(Setup::Right.back_rank(Color::Han), "rbna1abnr");
        assert_eq!(setup_fen(Setup::Inner, Setup::Inner), START_FEN);
        for cho in Setup::ALL {
            for han in Setup::ALL {
                assert_eq!(setups_of_fen(&setup_fen(cho, han)), Some((cho, han)));
            }
        }
        assert_eq!("마상마상".parse::<Setup>(), Ok(Setup::Right));
        assert_eq!("EHHE".parse::<Setup>(), Ok(Setup::Outer));
        assert!("middle".parse::<Setup>().is_err());
    }

    #[test]
    fn move_strings() {
        let pos = Position::startpos(RuleSet::Janggi);
        let m = parse_move(&pos, "h1g3", Notation::Uci).unwrap();
        assert_eq!(move_to_string(m, Notation::Uci), "h1g3");
        assert_eq!(move_to_string(m, Notation::Ucci), "h0g2");
        assert_eq!(parse_move(&pos, "h0g2", Notation::Ucci), Ok(m));
        for p in ["0000", "pass", "@@@@", "e2e2"] {
            assert_eq!(
                parse_move(&pos, p, Notation::Uci),
                Ok(Move::pass(Square::parse("e2", 1).unwrap()))
            );
        }
        assert!(parse_move(&pos, "a1a9", Notation::Uci)
            .unwrap_err()
            .contains("illegal"));
        assert!(parse_move(&pos, "zz99", Notation::Uci)
            .unwrap_err()
            .contains("unparsable"));
        assert!(parse_move(&pos, "a1a1", Notation::Uci).is_err());
        assert!(parse_move(&pos, "é1a2", Notation::Uci).is_err());
        let mut p2 = pos.clone();
        p2.make(m);
        assert_eq!(
            parse_move(&p2, "h10g8", Notation::Uci).map(|m| m.to_string()),
            Ok("h10g8".to_string())
        );
    }
}
