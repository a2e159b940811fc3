//! The move type and a fixed-capacity move list.

use super::square::{Square, NUM_SQUARES};
use std::num::NonZeroU16;

/// From in bits 0..7, to in bits 7..14, bit 14 always set so the value is
/// never zero and `Option<Move>` stays two bytes. A pass is a move from the
/// general's point to itself, exactly as the protocol writes it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

const TAG: u16 = 1 << 14;

impl Move {
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        let v = from.index() as u16 | (to.index() as u16) << 7 | TAG;
        match NonZeroU16::new(v) {
            Some(n) => Move(n),
            None => unreachable!(),
        }
    }

    #[inline]
    pub const fn pass(general: Square) -> Move {
        Move::new(general, general)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0.get() & 0x7f) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0.get() >> 7 & 0x7f) as u8)
    }

    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0.get() & 0x7f == self.0.get() >> 7 & 0x7f
    }

    /// A 14-bit index for history tables and the transposition table.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0.get() & (TAG - 1)
    }

    /// Inverse of `raw`; `None` for 0 or an off-board point.
    pub fn from_raw(raw: u16) -> Option<Move> {
        let from = raw & 0x7f;
        let to = raw >> 7 & 0x7f;
        if raw >= TAG || from as usize >= NUM_SQUARES || to as usize >= NUM_SQUARES {
            return None;
        }
        Some(Move::new(Square::new(from as u8), Square::new(to as u8)))
    }
}

pub const MAX_MOVES: usize = 256;

/// A stack-allocated list of moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::new(0), Square::new(1)); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        // Janggi positions have well under 256 moves (the most known is
        // about 120), so overflowing is a bug, not an input error.
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `n` moves (all of them if there are fewer).
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }

    pub fn retain(&mut self, keep: impl FnMut(Move) -> bool) {
        self.retain_from(0, keep);
    }

    /// `retain` on the moves from index `start` on; those before stay.
    pub fn retain_from(&mut self, start: usize, mut keep: impl FnMut(Move) -> bool) {
        let start = start.min(self.len);
        let mut n = start;
        for i in start..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
