//! Points of the board, sides and pieces as small value types.
//!
//! Squares are numbered rank by rank from Cho's side: `a1 = 0`, `i1 = 8`,
//! `a2 = 9`, ... `i10 = 89`. Ranks are 0-based internally (UCI rank minus one,
//! which is exactly the UCCI rank).

use std::fmt;

pub const FILES: u8 = 9;
pub const RANKS: u8 = 10;
pub const NUM_SQUARES: usize = 90;
/// Piece kinds a side has, and pieces (colour and kind) in all.
pub const NUM_KINDS: usize = 7;
pub const NUM_PIECES: usize = 2 * NUM_KINDS;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

const _: () = assert!(std::mem::size_of::<Square>() == 1);
const _: () = assert!(std::mem::size_of::<Option<Piece>>() == 1);

impl Square {
    /// Builds a square from a 0-based file and rank; `None` off the board.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!((index as usize) < NUM_SQUARES);
        Square(index)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The same point seen from the other side of the board.
    #[inline]
    pub const fn flip(self) -> Square {
        Square((RANKS - 1 - self.rank()) * FILES + self.file())
    }

    /// Steps by (df, dr) if the target is on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 || f >= FILES as i8 || r >= RANKS as i8 {
            None
        } else {
            Some(Square((r * FILES as i8 + f) as u8))
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_SQUARES as u8).map(Square)
    }

    /// Parses `a1`..`i10` (`rank_base` 1, UCI) or `a0`..`i9` (`rank_base` 0, UCCI).
    pub fn parse(s: &str, rank_base: u8) -> Option<Square> {
        let bytes = s.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let digits = &s[1..];
        if !digits.bytes().all(|b| b.is_ascii_digit())
            || (digits.len() == 2 && digits.starts_with('0'))
        {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        let rank = rank.checked_sub(rank_base)?;
        Square::from_coords(file, rank)
    }

    /// Writes the square with ranks starting at `rank_base`.
    pub fn write(self, rank_base: u8, out: &mut String) {
        out.push((b'a' + self.file()) as char);
        let r = self.rank() + rank_base;
        if r >= 10 {
            out.push('1');
            out.push((b'0' + r - 10) as char);
        } else {
            out.push((b'0' + r) as char);
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(3);
        self.write(1, &mut s);
        f.write_str(&s)
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Cho, "white" in FEN, moves first, palace on ranks 1-3.
    Cho = 0,
    /// Han, "black" in FEN, palace on ranks 8-10.
    Han = 1,
}

impl Color {
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Cho => Color::Han,
            Color::Han => Color::Cho,
        }
    }

    pub const ALL: [Color; 2] = [Color::Cho, Color::Han];

    pub const fn name(self) -> &'static str {
        match self {
            Color::Cho => "Cho",
            Color::Han => "Han",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    General = 0,
    Guard = 1,
    Elephant = 2,
    Horse = 3,
    Chariot = 4,
    Cannon = 5,
    Soldier = 6,
}

impl PieceKind {
    pub const ALL: [PieceKind; NUM_KINDS] = [
        PieceKind::General,
        PieceKind::Guard,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Points on the Korean counting scale (the general counts nothing).
    #[inline]
    pub const fn count_value(self) -> i32 {
        match self {
            PieceKind::General => 0,
            PieceKind::Guard => 3,
            PieceKind::Elephant => 3,
            PieceKind::Horse => 5,
            PieceKind::Chariot => 13,
            PieceKind::Cannon => 7,
            PieceKind::Soldier => 2,
        }
    }

    /// Lower-case FEN letter as Fairy-Stockfish writes it.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::General => 'k',
            PieceKind::Guard => 'a',
            PieceKind::Elephant => 'b',
            PieceKind::Horse => 'n',
            PieceKind::Chariot => 'r',
            PieceKind::Cannon => 'c',
            PieceKind::Soldier => 'p',
        }
    }

    /// Accepts FSF's letters plus `e` (elephant) and `h` (horse).
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_lowercase() {
            'k' => PieceKind::General,
            'a' => PieceKind::Guard,
            'b' | 'e' => PieceKind::Elephant,
            'n' | 'h' => PieceKind::Horse,
            'r' => PieceKind::Chariot,
            'c' => PieceKind::Cannon,
            'p' => PieceKind::Soldier,
            _ => return None,
        })
    }

    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Guard => "guard",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Soldier => "soldier",
        }
    }
}

/// A coloured piece, packed as `color * 7 + kind` so that boards of
/// `Option<Piece>` stay one byte per point.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Piece {
    ChoGeneral,
    ChoGuard,
    ChoElephant,
    ChoHorse,
    ChoChariot,
    ChoCannon,
    ChoSoldier,
    HanGeneral,
    HanGuard,
    HanElephant,
    HanHorse,
    HanChariot,
    HanCannon,
    HanSoldier,
}

impl Piece {
    const TABLE: [Piece; NUM_PIECES] = [
        Piece::ChoGeneral,
        Piece::ChoGuard,
        Piece::ChoElephant,
        Piece::ChoHorse,
        Piece::ChoChariot,
        Piece::ChoCannon,
        Piece::ChoSoldier,
        Piece::HanGeneral,
        Piece::HanGuard,
        Piece::HanElephant,
        Piece::HanHorse,
        Piece::HanChariot,
        Piece::HanCannon,
        Piece::HanSoldier,
    ];

    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece::TABLE[color.index() * NUM_KINDS + kind.index()]
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn color(self) -> Color {
        if (self as usize) < NUM_KINDS {
            Color::Cho
        } else {
            Color::Han
        }
    }

    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[(self as usize) % NUM_KINDS]
    }

    pub fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Cho => c.to_ascii_uppercase(),
            Color::Han => c,
        }
    }

    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Cho
        } else {
            Color::Han
        };
        Some(Piece::new(color, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_round_trip() {
        for sq in Square::all() {
            let mut s = String::new();
            sq.write(1, &mut s);
            assert_eq!(Square::parse(&s, 1), Some(sq));
            let mut u = String::new();
            sq.write(0, &mut u);
            assert_eq!(Square::parse(&u, 0), Some(sq));
        }
        assert_eq!(Square::parse("h10", 1), Square::from_coords(7, 9));
        assert_eq!(Square::parse("j1", 1), None);
        assert_eq!(Square::parse("a11", 1), None);
        assert_eq!(Square::parse("a0", 1), None);
        assert_eq!(Square::parse("a01", 1), None);
        assert_eq!(Square::parse("a10", 0), None);
    }

    #[test]
    fn piece_packing() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(p.color(), c);
                assert_eq!(p.kind(), k);
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
    }
}
