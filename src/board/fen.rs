//! FEN reading and writing, exactly as Fairy-Stockfish writes Janggi FENs.

use super::attacks::palace;
use super::position::Position;
use super::ruleset::RuleSet;
use super::square::{Color, Piece, PieceKind, Square};
use std::fmt;

pub const START_FEN: &str =
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

/// Why a FEN was refused; the message says what and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FenError {}

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Cho => "Cho (white)",
        Color::Han => "Han (black)",
    }
}

impl Position {
    pub fn startpos(rules: RuleSet) -> Position {
        Position::from_fen(START_FEN, rules).expect("the start FEN is valid")
    }

    /// Reads a FEN and refuses anything that is not a legal Janggi position.
    pub fn from_fen(fen: &str, rules: RuleSet) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = match fields.next() {
            Some(p) => p,
            None => return err("empty FEN"),
        };
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 10 {
            return err(format!(
                "expected 10 ranks separated by '/', found {}",
                rows.len()
            ));
        }
        let mut pos = Position::empty(rules);
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file: u32 = 0;
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if c.is_ascii_digit() {
                    // Read the whole run as text: a long run must not wrap a
                    // counter into a small number of empty points.
                    let mut run = String::from(c);
                    while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                        run.push(d);
                        chars.next();
                    }
                    let n = match run.parse::<u32>() {
                        Ok(n) if (1..=9).contains(&n) => n,
                        _ => {
                            return err(format!(
                                "rank {} has an empty run '{}'; runs are 1 to 9",
                                rank + 1,
                                crate::util::text::clip(&run)
                            ))
                        }
                    };
                    file += n;
                } else if let Some(p) = Piece::from_fen_char(c) {
                    if file < 9 {
                        pos.put(p, Square::from_coords(file as u8, rank).expect("file < 9"));
                    }
                    file += 1;
                } else {
                    return err(format!(
                        "unknown piece letter '{}' in rank {}",
                        crate::util::text::escape(&c.to_string()),
                        rank + 1
                    ));
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                let extra = if file > 9 {
                    "more than 9"
                } else {
                    "fewer than 9"
                };
                return err(format!("rank {} has {} files ('{}')", rank + 1, extra, row));
            }
        }

        pos.check_placement()?;

        let side = match fields.next() {
            None | Some("w") => Color::Cho,
            Some("b") => Color::Han,
            Some(s) => return err(format!("bad side to move '{s}', expected 'w' or 'b'")),
        };
        // Castling and en-passant fields are always '-' in Janggi; accept anything there.
        let _ = fields.next();
        let _ = fields.next();
        let halfmove = match fields.next() {
            None => 0,
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| FenError(format!("bad halfmove clock '{s}'")))?,
        };
        let fullmove = match fields.next() {
            None => 1,
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| FenError(format!("bad fullmove number '{s}'")))?,
        };
        if halfmove > 100_000 || fullmove > 100_000 {
            return err("move counters out of range");
        }
        pos.finish_setup(side, halfmove, fullmove);
        pos.check_not_to_move()?;
        Ok(pos)
    }

    /// Whether a set-up position is one the rules and the engine accept:
    /// what a FEN's placement and side to move are checked against, for
    /// positions built another way (training records).
    pub fn validate(&self) -> Result<(), FenError> {
        self.check_placement()?;
        self.check_not_to_move()
    }

    fn check_placement(&self) -> Result<(), FenError> {
        // Any number of each other piece is accepted, as Fairy-Stockfish does
        // (composed problems use a third chariot): nothing in the rules or
        // the engine depends on the counts. What is refused breaks the
        // engine's invariants: one general per side in its palace, and
        // guards in their own palace. Fairy-Stockfish gives a guard outside
        // its palace no moves but lets it check along the enemy palace's
        // diagonals; no game reaches that, and the attack code here assumes
        // guards stay home.
        for c in Color::ALL {
            let n = self.pieces_of(c, PieceKind::General).count();
            if n != 1 {
                return err(format!(
                    "{} has {} generals, needs exactly one",
                    side_name(c),
                    n
                ));
            }
            for k in [PieceKind::General, PieceKind::Guard] {
                if let Some(sq) = (self.pieces_of(c, k) & !palace(c)).next() {
                    return err(format!(
                        "{}'s {} on {} is outside its palace",
                        side_name(c),
                        k.name(),
                        sq
                    ));
                }
            }
        }
        Ok(())
    }

    /// The side not to move may not be in check (it would be captured).
    fn check_not_to_move(&self) -> Result<(), FenError> {
        let side = self.side_to_move();
        let mut other = self.clone();
        other.finish_setup(!side, self.halfmove(), self.fullmove());
        if other.in_check() {
            return err(format!("{}, not to move, is in check", side_name(!side)));
        }
        Ok(())
    }

    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.piece_at(Square::from_coords(file, rank).expect("on board")) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side_to_move() == Color::Cho {
            " w"
        } else {
            " b"
        });
        s.push_str(&format!(" - - {} {}", self.halfmove(), self.fullmove()));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(fen: &str, needle: &str) {
        match Position::from_fen(fen, RuleSet::Janggi) {
            Ok(_) => panic!("accepted bad FEN {fen}"),
            Err(e) => assert!(e.0.contains(needle), "message '{}' lacks '{}'", e.0, needle),
        }
    }

    #[test]
    fn round_trip_start() {
        let p = Position::startpos(RuleSet::Janggi);
        assert_eq!(p.to_fen(), START_FEN);
    }

    #[test]
    fn letters_e_and_h_accepted() {
        let p = Position::from_fen(
            "rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1",
            RuleSet::Janggi,
        )
        .unwrap();
        assert_eq!(p.to_fen(), START_FEN);
    }

    #[test]
    fn any_piece_counts_accepted() {
        // A third chariot, a third cannon, six soldiers: Fairy-Stockfish
        // accepts these, and so do problem collections.
        for fen in [
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/R8/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "rnba1abnr/4k4/1c2c2c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1",
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "3k5/9/9/9/RRRRRRRRR/9/9/9/4K4/9 b - - 0 1",
        ] {
            let p = Position::from_fen(fen, RuleSet::Janggi).expect(fen);
            assert_eq!(p.to_fen(), fen);
        }
    }

    #[test]
    fn bad_fens_refused_with_reason() {
        refused("", "empty");
        refused(
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBA1ABNR w - - 0 1",
            "expected 10 ranks",
        );
        refused(
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR/9 w - - 0 1",
            "expected 10 ranks",
        );
        refused(
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNRR w - - 0 1",
            "more than 9",
        );
        refused(
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABN w - - 0 1",
            "fewer than 9",
        );
        refused(
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNX w - - 0 1",
            "unknown piece letter 'X'",
        );
        refused(
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4KK3/RNBA1ABNR w - - 0 1",
            "2 generals",
        );
        refused(
            "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "0 generals",
        );
        refused(
            "rnba1abnr/9/1c5c1/p1p1p1p1p/4k4/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "outside its palace",
        );
        refused(
            "rnb2abnr/4k4/1c5c1/p1p1p1p1p/a8/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "guard on a6 is outside",
        );
        refused(
            "rnbA1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNB2ABNR b - - 0 1",
            "guard on d10 is outside",
        );
        refused(
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR x - - 0 1",
            "bad side to move 'x'",
        );
        // Digit runs that wrap a 32-bit counter (2^32 - 1, 2^32 + 9).
        refused(
            "9/4k4/9/9/9/9/9/9/3K5/N4294967295r8 w - - 0 1",
            "empty run '4294967295'",
        );
        refused(
            "9/4k4/9/9/9/9/9/9/3K5/4294967305 w - - 0 1",
            "empty run '4294967305'",
        );
        refused(
            "9/4k4/9/9/9/9/9/9/3K5/99999999999999999999999999 w - - 0 1",
            "empty run",
        );
        refused(
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/10 w - - 0 1",
            "empty run '10'",
        );
        refused(
            "9/4k4/9/9/9/9/9/9/4K4/8\0 w - - 0 1",
            "unknown piece letter '\\0'",
        );
        // Han's general on e9 attacked by Cho's chariot on e5 with Cho to move.
        refused(
            "4k4/9/9/9/4R4/9/9/9/4K4/9 w - - 0 1",
            "not to move, is in check",
        );
        refused(
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - x 1",
            "halfmove",
        );
    }
}
