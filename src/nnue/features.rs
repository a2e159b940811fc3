//! The network's inputs: 90 points x 14 (own and their 7 kinds) = 1260
//! features per perspective. Each side sees the board from its own end
//! (Han's perspective flips the ranks), so one feature transformer serves
//! both; which side is Cho is told to the net by its output layer instead.
//!
//! A net with input buckets ([`InputBuckets`]) has 1260 features per
//! bucket, and each perspective reads the bucket of its own general's
//! palace point ([`View`]): feature `bucket * 1260 + index`, the index of
//! the square mirrored left-right when the view says so (palace6).

use super::layout::InputBuckets;
use crate::board::square::FILES;
use crate::board::{Color, Piece, PieceKind, Square, NUM_KINDS, NUM_PIECES, NUM_SQUARES};

pub const INPUTS: usize = NUM_SQUARES * NUM_PIECES;

/// The feature of piece `p` on `sq` as `persp` sees it.
#[inline]
pub fn index(persp: Color, p: Piece, sq: Square) -> usize {
    let rel = if persp == Color::Cho { sq } else { sq.flip() };
    let theirs = (p.color() != persp) as usize;
    (theirs * NUM_KINDS + p.kind().index()) * NUM_SQUARES + rel.index()
}

/// The left-right mirror (file f to 8 - f): the rules are symmetric under
/// it, so a mirrored position is an equally good training sample.
#[inline]
pub fn mirror(sq: Square) -> Square {
    Square::new(sq.rank() * FILES + (FILES - 1 - sq.file()))
}

/// The palace's files (d, e, f) and, in a perspective's own view, ranks
/// (its first three).
const PALACE_FILES: std::ops::RangeInclusive<u8> = 3..=5;
const PALACE_LAST_RANK: u8 = 2;

/// How one perspective reads the board under a net's input buckets: where
/// its rows start and whether it sees the board mirrored left-right.
///
/// The bucket comes from the perspective's own general's point in its own
/// view (Han's ranks flipped; files are the board's, a to i, for both):
/// palace9 numbers the points `rank * 3 + (file - d)`; palace6 first
/// mirrors a general on the f-file to the d-file (the whole board with
/// it, file f to 8 - f) and numbers `rank * 2 + (file - d)`. A general off
/// its palace (no legal position has one, but a hostile record or FEN
/// placement may) counts as on the nearest palace point (its file clamped
/// to d..f, its rank to the palace's three); a side with no general reads
/// the palace's centre, the general's starting point. Every view so is a
/// bucket of the layout: no square maps outside the net's rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// `bucket * INPUTS` (at most 8 * 1260).
    pub base: u32,
    pub mirror: bool,
}

impl View {
    /// The one view of a net without input buckets.
    pub const PLAIN: View = View {
        base: 0,
        mirror: false,
    };

    /// The view of `persp` whose general stands on `general` (`None`: it
    /// has none).
    pub fn of(layout: InputBuckets, persp: Color, general: Option<Square>) -> View {
        if layout == InputBuckets::None {
            return View::PLAIN;
        }
        let (file, rank) = match general {
            Some(g) => {
                let rel = if persp == Color::Cho { g } else { g.flip() };
                (
                    g.file().clamp(*PALACE_FILES.start(), *PALACE_FILES.end()),
                    rel.rank().min(PALACE_LAST_RANK),
                )
            }
            None => (4, 1),
        };
        let (file, rank) = ((file - PALACE_FILES.start()) as usize, rank as usize);
        let (bucket, mirror) = match layout {
            InputBuckets::Palace6 => (rank * 2 + file % 2, file == 2),
            _ => (rank * 3 + file, false),
        };
        View {
            base: (bucket * INPUTS) as u32,
            mirror,
        }
    }

    /// The feature of piece `p` on `sq` as `persp` sees it in this view.
    #[inline]
    pub fn index(self, persp: Color, p: Piece, sq: Square) -> usize {
        let sq = if self.mirror { mirror(sq) } else { sq };
        self.base as usize + index(persp, p, sq)
    }

    /// The bucket this view reads.
    pub fn bucket(self) -> usize {
        self.base as usize / INPUTS
    }
}

/// The general of `c` in a piece list: the last one listed, as
/// `Position::king` keeps the last one placed (a list has one unless it is
/// hostile).
pub fn general_in(pieces: &[(Piece, Square)], c: Color) -> Option<Square> {
    let g = Piece::new(c, PieceKind::General);
    pieces
        .iter()
        .rev()
        .find(|&&(p, _)| p == g)
        .map(|&(_, sq)| sq)
}

/// Active features of `persp` for a piece list, optionally mirrored
/// (the mirror image of the position, whose view then follows its
/// mirrored general: with palace6 the image of a position whose general
/// stands off the e-file reads exactly the position's own features).
pub fn active(
    layout: InputBuckets,
    pieces: &[(Piece, Square)],
    persp: Color,
    mirrored: bool,
    out: &mut Vec<u16>,
) {
    out.clear();
    let flip = |sq: Square| if mirrored { mirror(sq) } else { sq };
    let view = View::of(layout, persp, general_in(pieces, persp).map(flip));
    for &(p, sq) in pieces {
        out.push(view.index(persp, p, flip(sq)) as u16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceKind;

    #[test]
    fn indices_cover_the_inputs_once() {
        let mut seen = vec![false; INPUTS];
        for sq in Square::all() {
            for c in Color::ALL {
                for k in PieceKind::ALL {
                    let i = index(Color::Cho, Piece::new(c, k), sq);
                    assert!(!seen[i]);
                    seen[i] = true;
                    // Han sees the colour-flipped, rank-flipped board alike.
                    let j = index(Color::Han, Piece::new(!c, k), sq.flip());
                    assert_eq!(i, j);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        for sq in Square::all() {
            assert_eq!(mirror(mirror(sq)), sq);
            assert_eq!(mirror(sq).rank(), sq.rank());
        }
    }

    fn sq(s: &str) -> Square {
        Square::parse(s, 1).unwrap()
    }

    #[test]
    fn views_number_the_palace_points_and_every_square_has_one() {
        let of = View::of;
        // Cho's palace d1-f3, Han's d10-f8 seen from Han's end alike.
        for (cho, han, nine, six, mirrored) in [
            ("d1", "d10", 0, 0, false),
            ("e1", "e10", 1, 1, false),
            ("f1", "f10", 2, 0, true),
            ("e2", "e9", 4, 3, false),
            ("f3", "f8", 8, 4, true),
            ("d3", "d8", 6, 4, false),
        ] {
            for (c, g) in [(Color::Cho, sq(cho)), (Color::Han, sq(han))] {
                assert_eq!(of(InputBuckets::Palace9, c, Some(g)).bucket(), nine);
                assert!(!of(InputBuckets::Palace9, c, Some(g)).mirror);
                let v = of(InputBuckets::Palace6, c, Some(g));
                assert_eq!((v.bucket(), v.mirror), (six, mirrored), "{c:?} {g}");
                assert_eq!(of(InputBuckets::None, c, Some(g)), View::PLAIN);
            }
        }
        // Off the palace: the nearest point; no general: the centre.
        assert_eq!(
            of(InputBuckets::Palace9, Color::Cho, Some(sq("a10"))).bucket(),
            6
        );
        assert_eq!(
            of(InputBuckets::Palace9, Color::Han, Some(sq("i1"))).bucket(),
            8
        );
        assert_eq!(of(InputBuckets::Palace9, Color::Cho, None).bucket(), 4);
        assert_eq!(
            of(InputBuckets::Palace6, Color::Han, None),
            of(InputBuckets::Palace6, Color::Han, Some(sq("e9")))
        );
        // Every general square, every piece square: inside the net's rows,
        // and every bucket reached.
        for layout in InputBuckets::ALL {
            let mut seen = vec![false; layout.count()];
            for c in Color::ALL {
                for g in Square::all().map(Some).chain([None]) {
                    let v = of(layout, c, g);
                    seen[v.bucket()] = true;
                    for s in Square::all() {
                        let i = v.index(c, Piece::new(!c, PieceKind::Soldier), s);
                        assert!(i < layout.count() * INPUTS);
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "{layout}");
        }
    }

    #[test]
    fn active_features_follow_the_general_and_the_mirror() {
        let g = Piece::new(Color::Cho, PieceKind::General);
        let h = Piece::new(Color::Han, PieceKind::General);
        let r = Piece::new(Color::Han, PieceKind::Chariot);
        let pieces = [(g, sq("f2")), (r, sq("a5")), (h, sq("e9"))];
        let mut out = Vec::new();
        active(InputBuckets::Palace6, &pieces, Color::Cho, false, &mut out);
        // Cho's general on f2: bucket 2 (d2's), the board mirrored.
        let want: Vec<u16> = pieces
            .iter()
            .map(|&(p, s)| (2 * INPUTS + index(Color::Cho, p, mirror(s))) as u16)
            .collect();
        assert_eq!(out, want);
        // The mirror image reads the same; Han (on e9) reads it unmirrored.
        let mut again = Vec::new();
        active(InputBuckets::Palace6, &pieces, Color::Cho, true, &mut again);
        assert_eq!(again, out);
        active(InputBuckets::Palace6, &pieces, Color::Han, true, &mut again);
        let want: Vec<u16> = pieces
            .iter()
            .map(|&(p, s)| (3 * INPUTS + index(Color::Han, p, mirror(s))) as u16)
            .collect();
        assert_eq!(again, want);
        // No input buckets: the features as before.
        active(InputBuckets::None, &pieces, Color::Han, false, &mut again);
        let want: Vec<u16> = pieces
            .iter()
            .map(|&(p, s)| index(Color::Han, p, s) as u16)
            .collect();
        assert_eq!(again, want);
        assert_eq!(general_in(&pieces[1..2], Color::Cho), None);
    }
}
