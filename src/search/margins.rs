//! The search's tunable margins, declared once: each with its default, its
//! bounds and the SPSA step sizes `janggun spsa` starts from. The option
//! table offers each as a hidden spin option of the same name, so a tuner
//! (or a curious user) can set them on a running engine; the search reads
//! them from `Settings::margins`.

/// One tunable value.
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA: the perturbation at the last iteration (fishtest's c_end).
    pub c_end: f64,
    /// SPSA: the learning rate at the last iteration (fishtest's r_end).
    pub r_end: f64,
}

const fn t(name: &'static str, default: i32, min: i32, max: i32, c_end: f64) -> Tunable {
    Tunable {
        name,
        default,
        min,
        max,
        c_end,
        r_end: 0.002,
    }
}

/// Declares the margins, one row each: the index constant the search
/// reads it by, then its option name, default, bounds and SPSA step. The
/// indices, `TUNABLES` and `COUNT` all come from the rows, in their order.
macro_rules! margins {
    ($($(#[$doc:meta])* $index:ident = $name:literal, $default:literal, $min:literal, $max:literal, $c_end:literal;)*) => {
        /// The margins in table order; `Order::X as usize` is `X`'s index.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        enum Order {
            $($index,)*
        }
        $($(#[$doc])* pub const $index: usize = Order::$index as usize;)*
        pub const TUNABLES: [Tunable; COUNT] = [$(t($name, $default, $min, $max, $c_end),)*];
        pub const COUNT: usize = [$($name),*].len();
    };
}

margins! {
    /// Reverse futility: centipawns a ply of depth.
    RFP = "RfpMargin", 130, 40, 300, 10.0;
    /// Futility of quiet moves: the base ...
    FUTILITY_BASE = "FutilityBase", 120, 0, 400, 10.0;
    /// ... and the margin a ply of depth.
    FUTILITY_DEPTH = "FutilityDepth", 110, 30, 300, 8.0;
    /// Late move pruning: moves searched before the rest are pruned, at depth 0.
    LMP_BASE = "LmpBase", 3, 1, 10, 0.5;
    /// Null move: the reduction at depth 0 ...
    NMP_BASE = "NmpBase", 3, 1, 6, 0.5;
    /// ... and the eval margin (centipawns above beta) worth one more ply
    /// of reduction.
    NMP_EVAL_DIV = "NmpEvalDiv", 200, 50, 600, 15.0;
    /// ProbCut: the margin over beta.
    PROBCUT = "ProbCutMargin", 180, 50, 400, 12.0;
    /// Aspiration: the first window's half-width.
    ASPIRATION = "AspirationDelta", 25, 8, 80, 3.0;
    /// Quiescence: the margin a capture's gain must be within of alpha.
    QS_DELTA = "QsDelta", 200, 50, 500, 15.0;
    /// Late move reductions: the divisor of ln(depth) * ln(move number), x100.
    LMR_DIV = "LmrDivisor", 175, 100, 300, 8.0;
    /// Late move reductions: history points worth one ply less.
    HIST_DIV = "HistoryDivisor", 6000, 1000, 20000, 500.0;
    /// Exchange-test pruning of quiet moves: Stockfish 11's factor 32 in
    /// -(32 - min(d, 18)) * d^2 (d the depth after reduction), rescaled to
    /// this table's soldier (83 against Stockfish's 128 in the exchange
    /// values).
    SEE_QUIET = "SeeQuiet", 21, 4, 64, 2.0;
    /// Exchange-test pruning of captures and checks: centipawns a ply
    /// (Stockfish 11's 194, rescaled alike).
    SEE_CAPTURE = "SeeCapture", 126, 30, 400, 10.0;
    /// Correction history: the percentage of the learned correction added
    /// to the static evaluation (0 switches it off: nothing is learned or
    /// applied). 100 passed an SPRT at 2+0.02 against 0 (docs/RESULTS.md).
    CORR_WEIGHT = "CorrWeight", 100, 0, 200, 10.0;
    /// Singular extensions with multi-cut: the least depth they are tried
    /// at (Fairy-Stockfish's 7; 0 switches them off).
    SINGULAR_DEPTH = "SingularDepth", 7, 0, 16, 1.0;
}

/// The feature switches among the margins (0 switches the feature off):
/// tuned only when asked for by name, since a perturbation to or from 0
/// switches the feature.
pub const SWITCHES: [usize; 1] = [SINGULAR_DEPTH];

/// The index of the margin called `name` (any case), if there is one.
pub fn index_of(name: &str) -> Option<usize> {
    TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name.trim()))
}

/// The values in force.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Margins(pub [i32; COUNT]);

impl Default for Margins {
    fn default() -> Margins {
        let mut v = [0; COUNT];
        for (slot, t) in v.iter_mut().zip(TUNABLES.iter()) {
            *slot = t.default;
        }
        Margins(v)
    }
}

impl Margins {
    #[inline]
    pub fn get(&self, i: usize) -> i32 {
        self.0[i]
    }
}

/// Late move reductions by depth and move number, from `LmrDivisor`.
pub struct LmrTable([[i32; 64]; 64]);

impl LmrTable {
    pub fn new(divisor_x100: i32) -> LmrTable {
        let div = f64::from(divisor_x100.max(1)) / 100.0;
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (m as f64).ln() / div) as i32;
            }
        }
        LmrTable(t)
    }

    #[inline]
    pub fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[depth.clamp(0, 63) as usize][moves.min(63)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_within_bounds_and_names_are_unique() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.c_end > 0.0 && t.r_end > 0.0, "{}", t.name);
            assert!(
                TUNABLES[i + 1..].iter().all(|u| u.name != t.name),
                "{}",
                t.name
            );
        }
    }

    #[test]
    fn indices_follow_the_rows() {
        assert_eq!(COUNT, 15);
        assert_eq!(TUNABLES[RFP].name, "RfpMargin");
        assert_eq!(TUNABLES[LMR_DIV].name, "LmrDivisor");
        assert_eq!(TUNABLES[SINGULAR_DEPTH].name, "SingularDepth");
        assert_eq!(SINGULAR_DEPTH, COUNT - 1);
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let t = LmrTable::new(175);
        assert_eq!(t.get(1, 1), 0);
        assert!(t.get(20, 40) > t.get(5, 40));
        assert!(t.get(20, 40) > t.get(20, 5));
        assert!(LmrTable::new(100).get(20, 40) > t.get(20, 40));
    }
}
