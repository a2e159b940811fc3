//! The accumulators of a search: one pair (Cho's and Han's perspective) per
//! ply, kept in a stack beside the position. Making a move only notes what
//! it changes; a level is computed from the one below (two or three feature
//! rows per perspective) when an evaluation first asks for it, so the many
//! nodes that end without one (table cutoffs, table evaluations, checks,
//! rule ends) cost no update. Taking a move back just drops a level: nothing
//! is subtracted back. A pass copies the level unchanged.

use super::buckets;
use super::features::index;
use super::layout::Activation;
use super::net::Network;
use super::simd;
use crate::board::{Color, Move, Piece, Position, Square};

/// What a move changes in the features: `piece` from `from` to `to`,
/// taking `captured` there. `None` for a pass (nothing changes).
#[derive(Copy, Clone)]
struct Change {
    piece: Piece,
    from: Square,
    to: Square,
    captured: Option<Piece>,
}

/// A level of the stack: how it follows from the level below, and whether
/// its rows in `buf` hold it yet.
#[derive(Copy, Clone)]
struct Level {
    change: Option<Change>,
    computed: bool,
}

const ROOT: Level = Level {
    change: None,
    computed: false,
};

pub struct Accumulators {
    hidden: usize,
    /// `[level][perspective][hidden]`.
    buf: Vec<i16>,
    levels: Vec<Level>,
    top: usize,
}

impl Accumulators {
    /// A stack with room for `levels` plies (it grows if a search goes deeper).
    pub fn new(net: &Network, levels: usize) -> Accumulators {
        let levels = levels.max(1);
        Accumulators {
            hidden: net.hidden,
            buf: vec![0; levels * 2 * net.hidden],
            levels: vec![ROOT; levels],
            top: 0,
        }
    }

    /// The current level, Cho's perspective then Han's, computed first if
    /// no evaluation asked for it yet.
    #[inline]
    pub fn current(&mut self, net: &Network) -> &[i16] {
        self.compute(net);
        let w = 2 * self.hidden;
        &self.buf[self.top * w..(self.top + 1) * w]
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
        self.levels[self.top] = Level {
            change: None,
            computed: true,
        };
    }

    /// Pushes the level for `m` made in `pos` (`pos` is still before `m`).
    /// Only what `m` changes is noted; the rows are added when the level is
    /// first evaluated.
    #[inline]
    pub fn push(&mut self, pos: &Position, m: Move) {
        let change = if m.is_pass() {
            None
        } else {
            pos.piece_at(m.from()).map(|piece| Change {
                piece,
                from: m.from(),
                to: m.to(),
                captured: pos.piece_at(m.to()),
            })
        };
        self.top += 1;
        if self.top == self.levels.len() {
            let grown = self.levels.len() * 2;
            self.levels.resize(grown, ROOT);
            self.buf.resize(grown * 2 * self.hidden, 0);
        }
        self.levels[self.top] = Level {
            change,
            computed: false,
        };
    }

    /// Takes back the last `push`.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Computes the levels up to the current one from the highest computed
    /// level below it. The root level is always computed (`refresh`); a
    /// stack never refreshed starts from zeros, as it always did.
    fn compute(&mut self, net: &Network) {
        let mut from = self.top;
        while from > 0 && !self.levels[from].computed {
            from -= 1;
        }
        let h = self.hidden;
        let width = 2 * h;
        for l in from + 1..=self.top {
            let (below, above) = self.buf.split_at_mut(l * width);
            let src = &below[(l - 1) * width..];
            let dst = &mut above[..width];
            match self.levels[l].change {
                None => dst.copy_from_slice(src),
                Some(c) => {
                    for persp in Color::ALL {
                        let o = persp.index() * h;
                        let add = net.row(index(persp, c.piece, c.to));
                        let sub = net.row(index(persp, c.piece, c.from));
                        let (s, d) = (&src[o..o + h], &mut dst[o..o + h]);
                        match c.captured {
                            Some(x) => {
                                simd::update(d, s, &[add], &[sub, net.row(index(persp, x, c.to))])
                            }
                            None => simd::update(d, s, &[add], &[sub]),
                        }
                    }
                }
            }
            self.levels[l].computed = true;
        }
    }

    /// The evaluation of the current level (which must be `pos`'s), side to
    /// move's view, through the output row of the side to move and `pos`'s
    /// material bucket.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let h = self.hidden;
        let stm = pos.side_to_move();
        let acc = self.current(net);
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
