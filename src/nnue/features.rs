//! The network's inputs: 90 points x 14 (own and their 7 kinds) = 1260
//! features per perspective. Each side sees the board from its own end
//! (Han's perspective flips the ranks), so one feature transformer serves
//! both; which side is Cho is told to the net by its output layer instead.

use crate::board::square::FILES;
use crate::board::{Color, Piece, Square, NUM_KINDS, NUM_PIECES, NUM_SQUARES};

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

/// Active features of `persp` for a piece list, optionally mirrored.
pub fn active(pieces: &[(Piece, Square)], persp: Color, mirrored: bool, out: &mut Vec<u16>) {
    out.clear();
    for &(p, sq) in pieces {
        let sq = if mirrored { mirror(sq) } else { sq };
        out.push(index(persp, p, sq) as u16);
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
}
