//! The accumulators of a search: one pair (Cho's and Han's perspective) per
//! ply, kept in a stack beside the position. Making a move only notes what
//! it changes; a level is computed from the one below (two or three feature
//! rows per perspective) when an evaluation first asks for it, so the many
//! nodes that end without one (table cutoffs, table evaluations, checks,
//! rule ends) cost no update. Taking a move back just drops a level: nothing
//! is subtracted back. A pass copies the level unchanged.
//!
//! With input buckets (`features::View`) a perspective whose own general
//! moves to another view has no rows in common with the level below: that
//! perspective is recomputed from the position instead, and only at the
//! level evaluated (the position is at hand only there); the levels
//! between, should they be evaluated after the moves above them are taken
//! back, are recomputed then alike. Each perspective keeps its own
//! computed flag and view. A net without input buckets takes the plain
//! path, both perspectives at once, as before the buckets.

use super::buckets;
use super::features::{index, View};
use super::layout::{Activation, InputBuckets};
use super::net::Network;
use super::simd;
use crate::board::{Color, Move, Piece, PieceKind, Position, Square};

/// What a move changes in the features: `piece` from `from` to `to`,
/// taking `captured` there. `None` for a pass (nothing changes).
#[derive(Copy, Clone)]
struct Change {
    piece: Piece,
    from: Square,
    to: Square,
    captured: Option<Piece>,
}

/// A level of the stack: how it follows from the level below, and per
/// perspective whether its rows in `buf` hold it yet, and in which view.
#[derive(Copy, Clone)]
struct Level {
    change: Option<Change>,
    computed: [bool; 2],
    views: [View; 2],
}

const ROOT: Level = Level {
    change: None,
    computed: [false; 2],
    views: [View::PLAIN; 2],
};

/// Rows added at once while summing a perspective from scratch.
const ROWS_AT_ONCE: usize = 16;

pub struct Accumulators {
    hidden: usize,
    /// `[level][perspective][hidden]`.
    buf: Vec<i16>,
    levels: Vec<Level>,
    top: usize,
    /// `[hidden]`, a partial sum while summing from scratch.
    scratch: Vec<i16>,
}

/// The general of `c` on `pos`'s board, if it has one.
fn general_of(pos: &Position, c: Color) -> Option<Square> {
    let sq = pos.king(c);
    (pos.piece_at(sq) == Some(Piece::new(c, PieceKind::General))).then_some(sq)
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
            scratch: vec![0; net.hidden],
        }
    }

    /// The current level (which must be `pos`'s), Cho's perspective then
    /// Han's, computed first if no evaluation asked for it yet.
    #[inline]
    pub fn current(&mut self, net: &Network, pos: &Position) -> &[i16] {
        self.compute(net, pos);
        let w = 2 * self.hidden;
        &self.buf[self.top * w..(self.top + 1) * w]
    }

    /// Computes the current level from scratch (the root of a search).
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        for persp in Color::ALL {
            self.refresh_one(net, pos, persp);
        }
        self.levels[self.top].change = None;
    }

    /// Computes `persp`'s half of the current level from `pos`: the bias
    /// and the row of every piece in `persp`'s view.
    fn refresh_one(&mut self, net: &Network, pos: &Position, persp: Color) {
        let h = self.hidden;
        let view = View::of(net.input_buckets, persp, general_of(pos, persp));
        let o = (self.top * 2 + persp.index()) * h;
        let dst = &mut self.buf[o..o + h];
        dst.copy_from_slice(&net.ft_bias);
        let mut rows: [&[i16]; ROWS_AT_ONCE] = [&[]; ROWS_AT_ONCE];
        let mut n = 0;
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                rows[n] = net.row(view.index(persp, p, sq));
                n += 1;
                if n == ROWS_AT_ONCE {
                    self.scratch.copy_from_slice(dst);
                    simd::update(dst, &self.scratch, &rows, &[]);
                    n = 0;
                }
            }
        }
        self.scratch.copy_from_slice(dst);
        simd::update(dst, &self.scratch, &rows[..n], &[]);
        let level = &mut self.levels[self.top];
        level.computed[persp.index()] = true;
        level.views[persp.index()] = view;
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
        self.levels[self.top] = Level { change, ..ROOT };
    }

    /// Takes back the last `push`.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Computes the current level (`pos`'s) where it is not yet.
    #[inline]
    fn compute(&mut self, net: &Network, pos: &Position) {
        if net.input_buckets == InputBuckets::None {
            self.compute_plain(net);
        } else {
            for persp in Color::ALL {
                self.compute_view(net, pos, persp);
            }
        }
    }

    /// Without input buckets: the levels up to the current one from the
    /// highest computed level below it, both perspectives at once (they
    /// are always computed together then). The root level is always
    /// computed (`refresh`); a stack never refreshed starts from zeros, as
    /// it always did.
    fn compute_plain(&mut self, net: &Network) {
        let mut from = self.top;
        while from > 0 && !self.levels[from].computed[0] {
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
            self.levels[l].computed = [true; 2];
        }
    }

    /// Whether `change` changes `persp`'s view: its own general moved to a
    /// point of another view, or taken (a hostile position's move only).
    fn changes_view(net: &Network, change: &Option<Change>, persp: Color) -> bool {
        let Some(c) = change else {
            return false;
        };
        let general = Piece::new(persp, PieceKind::General);
        let layout = net.input_buckets;
        (c.piece == general
            && View::of(layout, persp, Some(c.from)) != View::of(layout, persp, Some(c.to)))
            || c.captured == Some(general)
    }

    /// With input buckets: `persp`'s half of the current level, from the
    /// highest level below it computed in the same view, or from `pos`
    /// when a move since changed the view (or nothing below is computed).
    fn compute_view(&mut self, net: &Network, pos: &Position, persp: Color) {
        let pi = persp.index();
        let mut from = self.top;
        while !self.levels[from].computed[pi] {
            if from == 0 || Self::changes_view(net, &self.levels[from].change, persp) {
                self.refresh_one(net, pos, persp);
                return;
            }
            from -= 1;
        }
        let h = self.hidden;
        let width = 2 * h;
        let o = pi * h;
        let view = self.levels[from].views[pi];
        for l in from + 1..=self.top {
            let (below, above) = self.buf.split_at_mut(l * width);
            let s = &below[(l - 1) * width + o..(l - 1) * width + o + h];
            let d = &mut above[o..o + h];
            match self.levels[l].change {
                None => d.copy_from_slice(s),
                Some(c) => {
                    let add = net.row(view.index(persp, c.piece, c.to));
                    let sub = net.row(view.index(persp, c.piece, c.from));
                    match c.captured {
                        Some(x) => {
                            let taken = net.row(view.index(persp, x, c.to));
                            simd::update(d, s, &[add], &[sub, taken])
                        }
                        None => simd::update(d, s, &[add], &[sub]),
                    }
                }
            }
            let level = &mut self.levels[l];
            level.computed[pi] = true;
            level.views[pi] = view;
        }
    }

    /// The evaluation of the current level (which must be `pos`'s), side to
    /// move's view, through the output row of the side to move and `pos`'s
    /// material bucket.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let h = self.hidden;
        let stm = pos.side_to_move();
        let acc = self.current(net, pos);
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
