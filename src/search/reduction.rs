//! Late move reductions: how many plies shallower a move after the node's
//! first is searched with a null window. The table's value by depth and
//! move number, adjusted by what the node and the move say about its
//! chances. Kept apart from the search loop so that each adjustment can be
//! asserted by a test.

use super::margins::LmrTable;

/// What kind of move is to be reduced.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A quiet move (the pass among them): its history adjusts it.
    Quiet,
    /// A capture that does not lose by the exchange test.
    GoodCapture,
    /// A capture that loses by the exchange test.
    BadCapture,
}

/// A move about to be searched, with what its node knows.
#[derive(Copy, Clone, Debug)]
pub(super) struct LateMove {
    /// The node's depth.
    pub depth: i32,
    /// The depth the move's search gets unreduced (`depth - 1` and its
    /// extension).
    pub new_depth: i32,
    /// Its number among the node's moves, from 1.
    pub number: usize,
    pub pv_node: bool,
    pub improving: bool,
    /// The node is an expected cut node.
    pub cut: bool,
    pub gives_check: bool,
    pub kind: Kind,
    /// The node's table move, searched first, is a capture.
    pub tt_capture: bool,
}

/// The reduction of `m`: 0 for a move searched at its full depth, never so
/// much that the search drops into quiescence. `history` gives a quiet
/// move's history score (read only when the move is reduced); `hist_div`
/// is the score worth a ply (`HistoryDivisor`).
pub(super) fn reduction(
    table: &LmrTable,
    hist_div: i32,
    m: &LateMove,
    history: impl FnOnce() -> i32,
) -> i32 {
    // Quiet moves, checks and losing captures are reduced after the first
    // move (two at a PV node); captures that win or hold material are not.
    if m.depth < 3 || m.number <= 1 + m.pv_node as usize || m.kind == Kind::GoodCapture {
        return 0;
    }
    let mut r = table.get(m.depth, m.number);
    r -= m.pv_node as i32;
    r += !m.improving as i32;
    r += m.cut as i32;
    r -= m.gives_check as i32;
    if m.kind == Kind::Quiet {
        r -= (history() / hist_div.max(1)).clamp(-2, 2);
        // The best move found before was a capture: quiet moves are
        // unlikely to do better.
        r += m.tt_capture as i32;
    }
    r.min(m.new_depth - 1).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HIST_DIV: i32 = 6000;

    fn table() -> LmrTable {
        LmrTable::new(175)
    }

    /// A late quiet move at a non-PV node that is neither improving nor an
    /// expected cut node, with no history.
    fn quiet(depth: i32, number: usize) -> LateMove {
        LateMove {
            depth,
            new_depth: depth - 1,
            number,
            pv_node: false,
            improving: true,
            cut: false,
            gives_check: false,
            kind: Kind::Quiet,
            tt_capture: false,
        }
    }

    fn r(m: &LateMove) -> i32 {
        reduction(&table(), HIST_DIV, m, || 0)
    }

    #[test]
    fn quiet_moves_take_the_tables_value() {
        let t = table();
        let m = quiet(12, 20);
        assert!(t.get(12, 20) > 0);
        assert_eq!(r(&m), t.get(12, 20));
    }

    #[test]
    fn shallow_nodes_and_first_moves_are_not_reduced() {
        assert_eq!(r(&quiet(2, 30)), 0);
        assert_eq!(r(&quiet(12, 1)), 0);
        let second_at_pv = LateMove {
            pv_node: true,
            ..quiet(12, 2)
        };
        assert_eq!(r(&second_at_pv), 0);
        assert!(r(&quiet(12, 2)) > 0);
    }

    #[test]
    fn adjustments_move_it_a_ply_each() {
        let base = r(&quiet(12, 20));
        let check = LateMove {
            gives_check: true,
            ..quiet(12, 20)
        };
        assert_eq!(r(&check), base - 1);
        let not_improving = LateMove {
            improving: false,
            ..quiet(12, 20)
        };
        assert_eq!(r(&not_improving), base + 1);
        let good = reduction(&table(), HIST_DIV, &quiet(12, 20), || 2 * HIST_DIV);
        assert_eq!(good, base - 2);
        let awful = reduction(&table(), HIST_DIV, &quiet(12, 20), || -100 * HIST_DIV);
        assert_eq!(awful, base + 2);
    }

    #[test]
    fn never_below_zero_nor_into_quiescence() {
        let shallow_child = LateMove {
            new_depth: 3,
            ..quiet(40, 60)
        };
        assert!(table().get(40, 60) > 2);
        assert_eq!(r(&shallow_child), 2);
        let wanted = LateMove {
            gives_check: true,
            pv_node: true,
            ..quiet(3, 3)
        };
        assert_eq!(reduction(&table(), HIST_DIV, &wanted, || 100 * HIST_DIV), 0);
    }

    #[test]
    fn a_capture_as_table_move_reduces_quiet_moves_a_ply_more() {
        let base = r(&quiet(12, 20));
        let after_capture = LateMove {
            tt_capture: true,
            ..quiet(12, 20)
        };
        assert_eq!(r(&after_capture), base + 1);
        let bad = LateMove {
            kind: Kind::BadCapture,
            ..quiet(12, 20)
        };
        assert_eq!(
            r(&LateMove {
                tt_capture: true,
                ..bad
            }),
            r(&bad)
        );
    }

    #[test]
    fn history_is_read_only_for_reduced_quiet_moves() {
        let bad = LateMove {
            kind: Kind::BadCapture,
            ..quiet(12, 20)
        };
        let unread = || -> i32 { panic!("history read") };
        assert_eq!(reduction(&table(), HIST_DIV, &bad, unread), r(&bad));
        assert_eq!(reduction(&table(), HIST_DIV, &quiet(2, 20), unread), 0);
    }
}
