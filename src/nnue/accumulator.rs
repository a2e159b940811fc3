//! The accumulators of a search: one pair (Cho's and Han's perspective) per
//! ply, kept in a stack beside the position. Making a move computes the
//! next level from the one below (two or three feature rows per
//! perspective); taking it back just drops a level, so nothing is
//! subtracted back. A pass copies the level unchanged.

use super::buckets;
use super::features::index;
use super::layout::Activation;
use super::net::Network;
use super::simd;
use crate::board::{Color, Move, Position, Square};

pub struct Accumulators {
    hidden: usize,
    /// `[level][perspective][hidden]`.
    buf: Vec<i16>,
    top: usize,
}

impl Accumulators {
    /// A stack with room for `levels` plies (it grows if a search goes deeper).
    pub fn new(net: &Network, levels: usize) -> Accumulators {
        Accumulators {
            hidden: net.hidden,
            buf: vec![0; levels.max(1) * 2 * net.hidden],
            top: 0,
        }
    }

    #[inline]
    fn level(&self, l: usize) -> &[i16] {
        &self.buf[l * 2 * self.hidden..(l + 1) * 2 * self.hidden]
    }

    /// The current level, Cho's perspective then Han's.
    #[inline]
    pub fn current(&self) -> &[i16] {
        self.level(self.top)
    }

    /// Computes the current level from scratch (the root of a search).
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        let h = self.hidden;
        let at = self.top * 2 * h;
        for persp in Color::ALL {
            let mut acc = net.ft_bias.clone();
            for sq in Square::all() {
                if let Some(p) = pos.piece_at(sq) {
                    let row = net.row(index(persp, p, sq));
                    let before = acc.clone();
                    simd::update(&mut acc, &before, &[row], &[]);
                }
            }
            let o = at + persp.index() * h;
            self.buf[o..o + h].copy_from_slice(&acc);
        }
    }

    /// Pushes the level for `m` made in `pos` (`pos` is still before `m`).
    pub fn push(&mut self, net: &Network, pos: &Position, m: Move) {
        let h = self.hidden;
        let width = 2 * h;
        if (self.top + 2) * width > self.buf.len() {
            self.buf.resize((self.top + 2) * width * 2, 0);
        }
        let (below, above) = self.buf.split_at_mut((self.top + 1) * width);
        let src = &below[self.top * width..];
        let dst = &mut above[..width];
        self.top += 1;
        let moved = if m.is_pass() {
            None
        } else {
            pos.piece_at(m.from())
        };
        let Some(p) = moved else {
            dst.copy_from_slice(src);
            return;
        };
        let captured = pos.piece_at(m.to());
        for persp in Color::ALL {
            let o = persp.index() * h;
            let add = net.row(index(persp, p, m.to()));
            let sub = net.row(index(persp, p, m.from()));
            let (s, d) = (&src[o..o + h], &mut dst[o..o + h]);
            match captured {
                Some(c) => simd::update(d, s, &[add], &[sub, net.row(index(persp, c, m.to()))]),
                None => simd::update(d, s, &[add], &[sub]),
            }
        }
    }

    /// Takes back the last `push`.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// The evaluation of the current level (which must be `pos`'s), side to
    /// move's view, through the output row of the side to move and `pos`'s
    /// material bucket.
    #[inline]
    pub fn evaluate(&self, net: &Network, pos: &Position) -> i32 {
        let h = self.hidden;
        let stm = pos.side_to_move();
        let acc = self.current();
        let (us, them) = if stm == Color::Cho {
            (&acc[..h], &acc[h..])
        } else {
            (&acc[h..], &acc[..h])
        };
        let bucket = if net.buckets == 1 {
            0
        } else {
            buckets::bucket(pos.piece_count(), net.buckets)
        };
        let row = net.out_row_index(stm.index(), bucket);
        let w = net.out_row(row);
        let sum = match net.activation {
            Activation::CRelu => simd::output(us, them, w, net.qa as i16),
            Activation::SCRelu => simd::output_screlu(us, them, w, net.qa as i16),
        };
        net.to_cp(row, sum)
    }
}

impl Network {
    /// The evaluation of `pos` from scratch, side to move's view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = Accumulators::new(self, 1);
        acc.refresh(self, pos);
        acc.evaluate(self, pos)
    }
}
