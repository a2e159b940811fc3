//! Attack tables, built at compile time, and the slider routines.
//!
//! Sliders (chariot, cannon) use the classical ray method: one ray per
//! direction and point, the nearest blocker found with a bit scan (lowest bit
//! for rays that grow in index, highest for the others). Palace diagonals are
//! just four more rays that are empty outside the palaces, so chariots and
//! cannons need no special case for them. The cannon's screen and target fall
//! out of a second scan from the screen.
//!
//! Why rays: a rank/file occupancy lookup needs the file bits gathered, which on
//! a 9-wide board means a second, transposed occupancy kept in make/unmake (no
//! multiply gathers the 9-spaced bits without collisions). The measurement that
//! decided it is in docs/RESULTS.md, "Why sliders use rays".

use super::bitboard::Bitboard;
use super::square::{Color, Square, FILES, NUM_SQUARES};

/// Direction steps as (file, rank) deltas. The first four are orthogonal;
/// the last four exist only along palace diagonals.
pub const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (1, -1),
    (-1, -1),
];
/// Directions 0..4 grow in square index (nearest blocker = lowest bit).
pub const POSITIVE_DIRS: usize = 4;

const fn sq_fr(f: i8, r: i8) -> i32 {
    if f < 0 || f > 8 || r < 0 || r > 9 {
        -1
    } else {
        (r * 9 + f) as i32
    }
}

/// 0 = not in a palace, 1 = Cho's palace, 2 = Han's.
const fn palace_of(f: i8, r: i8) -> u8 {
    if f < 3 || f > 5 {
        0
    } else if r >= 0 && r <= 2 {
        1
    } else if r >= 7 && r <= 9 {
        2
    } else {
        0
    }
}

/// Corners and centre of a palace: the only points with diagonal lines.
const fn is_diag_point(f: i8, r: i8) -> bool {
    let p = palace_of(f, r);
    if p == 0 {
        return false;
    }
    let base = if p == 1 { 0 } else { 7 };
    let x = f - 3;
    let y = r - base;
    (x + y) % 2 == 0
}

/// A diagonal step is allowed between two diagonal points of one palace.
const fn diag_step_ok(f: i8, r: i8, df: i8, dr: i8) -> bool {
    let nf = f + df;
    let nr = r + dr;
    is_diag_point(f, r) && is_diag_point(nf, nr) && palace_of(f, r) == palace_of(nf, nr)
}

const fn step_ok(f: i8, r: i8, d: usize) -> bool {
    let (df, dr) = DIRS[d];
    if sq_fr(f + df, r + dr) < 0 {
        return false;
    }
    if df != 0 && dr != 0 {
        diag_step_ok(f, r, df, dr)
    } else {
        true
    }
}

const fn build_rays() -> [[u128; NUM_SQUARES]; 8] {
    let mut rays = [[0u128; NUM_SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < NUM_SQUARES {
            let mut f = (s % 9) as i8;
            let mut r = (s / 9) as i8;
            let mut bb = 0u128;
            while step_ok(f, r, d) {
                f += DIRS[d].0;
                r += DIRS[d].1;
                bb |= 1u128 << sq_fr(f, r);
            }
            rays[d][s] = bb;
            s += 1;
        }
        d += 1;
    }
    rays
}

pub static RAYS: [[u128; NUM_SQUARES]; 8] = build_rays();

const fn build_palace_steps() -> [u128; NUM_SQUARES] {
    let mut t = [0u128; NUM_SQUARES];
    let mut s = 0;
    while s < NUM_SQUARES {
        let f = (s % 9) as i8;
        let r = (s / 9) as i8;
        let p = palace_of(f, r);
        if p != 0 {
            let mut d = 0;
            while d < 8 {
                let (df, dr) = DIRS[d];
                if step_ok(f, r, d) && palace_of(f + df, r + dr) == p {
                    t[s] |= 1u128 << sq_fr(f + df, r + dr);
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

/// General and guard steps: along the palace lines, never out of the palace.
pub static PALACE_STEPS: [u128; NUM_SQUARES] = build_palace_steps();

const fn build_soldier() -> [[u128; NUM_SQUARES]; 2] {
    let mut t = [[0u128; NUM_SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i8 = if c == 0 { 1 } else { -1 };
        let enemy_palace = if c == 0 { 2 } else { 1 };
        let mut s = 0;
        while s < NUM_SQUARES {
            let f = (s % 9) as i8;
            let r = (s / 9) as i8;
            let mut bb = 0u128;
            let targets = [(0, fwd), (1, 0), (-1, 0)];
            let mut i = 0;
            while i < 3 {
                let q = sq_fr(f + targets[i].0, r + targets[i].1);
                if q >= 0 {
                    bb |= 1u128 << q;
                }
                i += 1;
            }
            if palace_of(f, r) == enemy_palace {
                let mut df = -1;
                while df <= 1 {
                    if diag_step_ok(f, r, df, fwd) {
                        bb |= 1u128 << sq_fr(f + df, r + fwd);
                    }
                    df += 2;
                }
            }
            t[c][s] = bb;
            s += 1;
        }
        c += 1;
    }
    t
}

pub static SOLDIER_STEPS: [[u128; NUM_SQUARES]; 2] = build_soldier();

const fn build_soldier_rev() -> [[u128; NUM_SQUARES]; 2] {
    let fwd = build_soldier();
    let mut t = [[0u128; NUM_SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < NUM_SQUARES {
            let mut q = 0;
            while q < NUM_SQUARES {
                if fwd[c][s] >> q & 1 != 0 {
                    t[c][q] |= 1u128 << s;
                }
                q += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// `SOLDIER_ATTACKERS[c][t]`: points from which a soldier of colour `c` reaches `t`.
pub static SOLDIER_ATTACKERS: [[u128; NUM_SQUARES]; 2] = build_soldier_rev();

pub const NONE: u8 = 255;

/// One way for a leaper to reach a target: the points that must be empty.
#[derive(Copy, Clone, Debug)]
pub struct Leap {
    pub leg1: u8,
    /// Second blocking point (elephant only; `NONE` for the horse).
    pub leg2: u8,
    pub from: u8,
    pub to: u8,
}

const EMPTY_LEAP: Leap = Leap {
    leg1: NONE,
    leg2: NONE,
    from: NONE,
    to: NONE,
};

/// Orthogonal first steps; each horse/elephant path turns outward from one.
const ORTHO: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// Returns (count, paths) of the horse (`steps` = 1) or elephant (`steps` = 2)
/// from `s`: one orthogonal step then `steps` diagonal steps outward.
const fn leaps_from(s: usize, steps: i8) -> (usize, [Leap; 8]) {
    let mut out = [EMPTY_LEAP; 8];
    let mut n = 0;
    let f = (s % 9) as i8;
    let r = (s / 9) as i8;
    let mut o = 0;
    while o < 4 {
        let (of, or) = ORTHO[o];
        let mut side = -1;
        while side <= 1 {
            // The diagonal continues the orthogonal step and turns to one side.
            let (df, dr) = if of == 0 { (side, or) } else { (of, side) };
            let l1 = sq_fr(f + of, r + or);
            let l2 = sq_fr(f + of + df, r + or + dr);
            let to = sq_fr(f + of + df * steps, r + or + dr * steps);
            if l1 >= 0 && to >= 0 {
                out[n] = Leap {
                    leg1: l1 as u8,
                    leg2: if steps == 2 { l2 as u8 } else { NONE },
                    from: s as u8,
                    to: to as u8,
                };
                n += 1;
            }
            side += 2;
        }
        o += 1;
    }
    (n, out)
}

const fn build_leaps(steps: i8) -> [[Leap; 8]; NUM_SQUARES] {
    let mut t = [[EMPTY_LEAP; 8]; NUM_SQUARES];
    let mut s = 0;
    while s < NUM_SQUARES {
        t[s] = leaps_from(s, steps).1;
        s += 1;
    }
    t
}

/// Paths that end on each point (used to find attackers of a point).
const fn build_leaps_rev(steps: i8) -> [[Leap; 8]; NUM_SQUARES] {
    let mut t = [[EMPTY_LEAP; 8]; NUM_SQUARES];
    let mut cnt = [0usize; NUM_SQUARES];
    let mut s = 0;
    while s < NUM_SQUARES {
        let (n, l) = leaps_from(s, steps);
        let mut i = 0;
        while i < n {
            let to = l[i].to as usize;
            t[to][cnt[to]] = l[i];
            cnt[to] += 1;
            i += 1;
        }
        s += 1;
    }
    t
}

/// Horse paths from each point; unused slots have `to == NONE`.
pub static HORSE_LEAPS: [[Leap; 8]; NUM_SQUARES] = build_leaps(1);
pub static HORSE_LEAPS_TO: [[Leap; 8]; NUM_SQUARES] = build_leaps_rev(1);
pub static ELEPHANT_LEAPS: [[Leap; 8]; NUM_SQUARES] = build_leaps(2);
pub static ELEPHANT_LEAPS_TO: [[Leap; 8]; NUM_SQUARES] = build_leaps_rev(2);

const fn build_file_masks() -> [u128; FILES as usize] {
    let mut files = [0u128; FILES as usize];
    let mut s = 0;
    while s < NUM_SQUARES {
        files[s % FILES as usize] |= 1u128 << s;
        s += 1;
    }
    files
}

const fn build_lines() -> [u128; NUM_SQUARES] {
    let rays = build_rays();
    let mut t = [0u128; NUM_SQUARES];
    let mut s = 0;
    while s < NUM_SQUARES {
        let mut d = 0;
        while d < 8 {
            t[s] |= rays[d][s];
            d += 1;
        }
        s += 1;
    }
    t
}

/// Every point a chariot or cannon could reach from here on an empty board.
pub static LINES: [u128; NUM_SQUARES] = build_lines();

const fn build_leap_sources(steps: i8) -> [u128; NUM_SQUARES] {
    let mut t = [0u128; NUM_SQUARES];
    let mut s = 0;
    while s < NUM_SQUARES {
        let (n, l) = leaps_from(s, steps);
        let mut i = 0;
        while i < n {
            t[l[i].to as usize] |= 1u128 << s;
            i += 1;
        }
        s += 1;
    }
    t
}

/// Points from which a horse could reach each point (legs ignored).
pub static HORSE_SOURCES: [u128; NUM_SQUARES] = build_leap_sources(1);
/// Points from which an elephant could reach each point (legs ignored).
pub static ELEPHANT_SOURCES: [u128; NUM_SQUARES] = build_leap_sources(2);

const fn build_legs_to() -> [u128; NUM_SQUARES] {
    let mut t = [0u128; NUM_SQUARES];
    let mut steps = 1;
    while steps <= 2 {
        let mut s = 0;
        while s < NUM_SQUARES {
            let (n, l) = leaps_from(s, steps);
            let mut i = 0;
            while i < n {
                let to = l[i].to as usize;
                t[to] |= 1u128 << l[i].leg1;
                if l[i].leg2 != NONE {
                    t[to] |= 1u128 << l[i].leg2;
                }
                i += 1;
            }
            s += 1;
        }
        steps += 1;
    }
    t
}

/// The legs of every horse or elephant leap onto each point.
pub static LEGS_TO: [u128; NUM_SQUARES] = build_legs_to();

/// The points of each file.
pub static FILE_MASKS: [u128; FILES as usize] = build_file_masks();

const fn build_palace_masks() -> ([u128; 2], u128) {
    let mut pal = [0u128; 2];
    let mut diag = 0u128;
    let mut s = 0;
    while s < NUM_SQUARES {
        let f = (s % 9) as i8;
        let r = (s / 9) as i8;
        let p = palace_of(f, r);
        if p != 0 {
            pal[(p - 1) as usize] |= 1u128 << s;
            if is_diag_point(f, r) {
                diag |= 1u128 << s;
            }
        }
        s += 1;
    }
    (pal, diag)
}

/// The nine points of each side's palace.
pub static PALACE: [u128; 2] = build_palace_masks().0;
/// Corners and centres of both palaces.
pub static PALACE_DIAG_POINTS: u128 = build_palace_masks().1;

#[inline]
pub fn palace(c: Color) -> Bitboard {
    Bitboard(PALACE[c.index()])
}

#[inline]
fn nearest(d: usize, blockers: u128) -> usize {
    if d < POSITIVE_DIRS {
        blockers.trailing_zeros() as usize
    } else {
        127 - blockers.leading_zeros() as usize
    }
}

#[inline]
fn dir_count(sq: Square) -> usize {
    if PALACE_DIAG_POINTS >> sq.index() & 1 != 0 {
        8
    } else {
        4
    }
}

/// The direction order interleaves positive and negative rays: 0..4 are
/// N, E, NE, NW (growing index), 4..8 are S, W, SE, SW.
#[inline]
fn dir_at(i: usize) -> usize {
    // Orthogonal first (0, 1, 4, 5), then the palace diagonals (2, 3, 6, 7).
    const ORDER: [usize; 8] = [0, 1, 4, 5, 2, 3, 6, 7];
    ORDER[i]
}

/// Chariot reach: every point up to and including the first piece in each line.
#[inline]
pub fn chariot_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let mut att = 0u128;
    for i in 0..dir_count(sq) {
        let d = dir_at(i);
        let ray = RAYS[d][sq.index()];
        let blockers = ray & occ.0;
        if blockers == 0 {
            att |= ray;
        } else {
            att |= ray ^ RAYS[d][nearest(d, blockers)];
        }
    }
    Bitboard(att)
}

/// Cannon reach: past exactly one screen (not a cannon) up to and including
/// the next piece. Targets are not filtered: a cannon may still not land on
/// a cannon, which move generation removes, while attack detection (the
/// target is a general) needs no filter.
#[inline]
pub fn cannon_attacks(sq: Square, occ: Bitboard, cannons: Bitboard) -> Bitboard {
    let mut att = 0u128;
    for i in 0..dir_count(sq) {
        let d = dir_at(i);
        let ray = RAYS[d][sq.index()];
        let blockers = ray & occ.0;
        if blockers == 0 {
            continue;
        }
        let screen = nearest(d, blockers);
        if cannons.0 >> screen & 1 != 0 {
            continue;
        }
        let beyond = RAYS[d][screen];
        let second = beyond & occ.0;
        if second == 0 {
            att |= beyond;
        } else {
            att |= beyond ^ RAYS[d][nearest(d, second)];
        }
    }
    Bitboard(att)
}

/// Calls `f(d, nearest)` for each line from `sq` that holds a point of
/// `cands` and a piece, with the line's direction and its nearest piece,
/// until `f` says stop; whether it did. The tests below walk only these
/// lines: most lines from a general hold no enemy slider, and the attack
/// tests of legality and check run for nearly every move.
#[inline(always)]
fn each_candidate_line(
    sq: Square,
    occ: Bitboard,
    cands: u128,
    mut f: impl FnMut(usize, usize) -> bool,
) -> bool {
    if LINES[sq.index()] & cands == 0 {
        return false;
    }
    for i in 0..dir_count(sq) {
        let d = dir_at(i);
        let ray = RAYS[d][sq.index()];
        if ray & cands == 0 {
            continue;
        }
        let blockers = ray & occ.0;
        if blockers != 0 && f(d, nearest(d, blockers)) {
            return true;
        }
    }
    false
}

/// The piece beyond `first` on line `d`, if any.
#[inline(always)]
fn beyond(d: usize, first: usize, occ: Bitboard) -> Option<usize> {
    let rest = RAYS[d][first] & occ.0;
    (rest != 0).then(|| nearest(d, rest))
}

/// The pieces of `cands` a chariot on `sq` would reach: `chariot_attacks(sq,
/// occ) & cands`, walking only the lines that hold a candidate.
#[inline]
pub fn chariot_hits(sq: Square, occ: Bitboard, cands: Bitboard) -> Bitboard {
    let mut hits = 0u128;
    each_candidate_line(sq, occ, cands.0, |_, first| {
        hits |= 1u128 << first;
        false
    });
    Bitboard(hits & cands.0)
}

/// The pieces of `cands` a cannon on `sq` would reach (`cannons` every
/// cannon): `cannon_attacks(sq, occ, cannons) & cands`, walking only the
/// lines that hold a candidate.
#[inline]
pub fn cannon_hits(sq: Square, occ: Bitboard, cannons: Bitboard, cands: Bitboard) -> Bitboard {
    let mut hits = 0u128;
    each_candidate_line(sq, occ, cands.0, |d, screen| {
        // A cannon never screens a cannon.
        if cannons.0 >> screen & 1 == 0 {
            if let Some(target) = beyond(d, screen, occ) {
                hits |= 1u128 << target;
            }
        }
        false
    });
    Bitboard(hits & cands.0)
}

/// Does a chariot of `chariots` or a cannon of `cannon_attackers` reach
/// `sq`? The same answer as testing `chariot_attacks(sq, occ)` and
/// `cannon_attacks(sq, occ, cannons)` against them (attacks are
/// symmetric), each line walked only as far as it must.
#[inline]
pub fn slider_attack(
    sq: Square,
    occ: Bitboard,
    chariots: Bitboard,
    cannon_attackers: Bitboard,
    cannons: Bitboard,
) -> bool {
    each_candidate_line(sq, occ, chariots.0 | cannon_attackers.0, |d, first| {
        chariots.0 >> first & 1 != 0
            || (cannons.0 >> first & 1 == 0
                && beyond(d, first, occ).is_some_and(|s| cannon_attackers.0 >> s & 1 != 0))
    })
}

#[inline]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let mut att = 0u128;
    for l in HORSE_LEAPS[sq.index()].iter() {
        if l.to == NONE {
            break;
        }
        if occ.0 >> l.leg1 & 1 == 0 {
            att |= 1u128 << l.to;
        }
    }
    Bitboard(att)
}

#[inline]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let mut att = 0u128;
    for l in ELEPHANT_LEAPS[sq.index()].iter() {
        if l.to == NONE {
            break;
        }
        if occ.0 >> l.leg1 & 1 == 0 && occ.0 >> l.leg2 & 1 == 0 {
            att |= 1u128 << l.to;
        }
    }
    Bitboard(att)
}

#[inline]
pub fn palace_steps(sq: Square) -> Bitboard {
    Bitboard(PALACE_STEPS[sq.index()])
}

#[inline]
pub fn soldier_steps(c: Color, sq: Square) -> Bitboard {
    Bitboard(SOLDIER_STEPS[c.index()][sq.index()])
}

/// Points strictly between two points on one rank or file (empty otherwise).
pub fn between(a: Square, b: Square) -> Bitboard {
    for rays in RAYS.iter() {
        let ray = rays[a.index()];
        if ray >> b.index() & 1 != 0 {
            return Bitboard(ray & !rays[b.index()] & !(1u128 << b.index()));
        }
    }
    Bitboard::EMPTY
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s, 1).unwrap()
    }

    fn set(list: &[&str]) -> Bitboard {
        list.iter().fold(Bitboard::EMPTY, |b, s| b.with(sq(s)))
    }

    #[test]
    fn palace_lines() {
        assert_eq!(
            palace_steps(sq("e2")),
            set(&["d1", "e1", "f1", "d2", "f2", "d3", "e3", "f3"])
        );
        assert_eq!(palace_steps(sq("d2")), set(&["d1", "d3", "e2"]));
        assert_eq!(palace_steps(sq("d1")), set(&["d2", "e1", "e2"]));
        assert_eq!(palace_steps(sq("e9")).count(), 8);
        assert_eq!(palace_steps(sq("e5")), Bitboard::EMPTY);
    }

    #[test]
    fn chariot_on_palace_diagonal() {
        // d1-e2-f3 in one move when e2 is empty.
        let att = chariot_attacks(sq("d1"), set(&["d1"]));
        assert!(att.has(sq("e2")) && att.has(sq("f3")));
        let att = chariot_attacks(sq("d1"), set(&["d1", "e2"]));
        assert!(att.has(sq("e2")) && !att.has(sq("f3")));
        // No diagonal from a non-diagonal palace point.
        let att = chariot_attacks(sq("d2"), set(&["d2"]));
        assert!(!att.has(sq("e3")) && !att.has(sq("e1")));
    }

    #[test]
    fn cannon_screens() {
        let occ = set(&["a1", "a4", "a7"]);
        let att = cannon_attacks(sq("a1"), occ, set(&["a1"]));
        assert_eq!(att, set(&["a5", "a6", "a7"]));
        let att = cannon_attacks(sq("a1"), occ, set(&["a1", "a4"]));
        assert_eq!(att, Bitboard::EMPTY);
        // Palace diagonal jump d8 over e9 to f10.
        let occ = set(&["d8", "e9", "f10"]);
        let att = cannon_attacks(sq("d8"), occ, set(&["d8"]));
        assert!(att.has(sq("f10")));
    }

    #[test]
    fn soldiers() {
        assert_eq!(
            soldier_steps(Color::Cho, sq("e4")),
            set(&["e5", "d4", "f4"])
        );
        assert_eq!(
            soldier_steps(Color::Cho, sq("d8")),
            set(&["d9", "c8", "e8", "e9"])
        );
        assert_eq!(
            soldier_steps(Color::Cho, sq("e9")),
            set(&["e10", "d9", "f9", "d10", "f10"])
        );
        // No diagonal inside its own palace.
        assert_eq!(
            soldier_steps(Color::Cho, sq("d2")),
            set(&["d3", "c2", "e2"])
        );
        assert_eq!(
            soldier_steps(Color::Han, sq("f3")),
            set(&["f2", "e3", "g3", "e2"])
        );
    }

    #[test]
    fn leapers() {
        assert_eq!(
            horse_attacks(sq("b1"), set(&["b1"])),
            set(&["a3", "c3", "d2"])
        );
        assert_eq!(horse_attacks(sq("b1"), set(&["b1", "b2"])), set(&["d2"]));
        assert_eq!(
            elephant_attacks(sq("c1"), set(&["c1"])),
            set(&["a4", "e4", "f3"])
        );
        assert_eq!(
            elephant_attacks(sq("c1"), set(&["c1", "d3"])),
            set(&["a4", "f3"])
        );
        assert_eq!(elephant_attacks(sq("c1"), set(&["c1", "c2"])), set(&["f3"]));
        for s in Square::all() {
            let n = HORSE_LEAPS_TO[s.index()]
                .iter()
                .filter(|l| l.to != NONE)
                .count();
            assert_eq!(n, horse_attacks(s, Bitboard::EMPTY).count() as usize);
        }
    }

    /// The line-filtered tests against the full reach they shortcut, on
    /// random boards of every density (palace points included, where the
    /// diagonals count), with random candidates and cannons.
    #[test]
    fn filtered_slider_tests_agree_with_the_full_reach() {
        let mut rng = crate::util::rng::Rng::new(11);
        let mut board = |keep: u64| {
            let mut b = 0u128;
            for s in 0..NUM_SQUARES {
                if rng.next_u64() % 100 < keep {
                    b |= 1u128 << s;
                }
            }
            Bitboard(b)
        };
        let mut hits = [0u32; 3];
        for round in 0..3000u64 {
            let occ = board(10 + round % 60);
            let cannons = occ & board(30);
            let cands = occ & board(40);
            let chariots = cands & !cannons;
            let cannon_cands = cands & cannons;
            for s in Square::all() {
                let (occ, cannons) = (occ.with(s), cannons.without(s));
                let c = chariot_attacks(s, occ) & cands;
                assert_eq!(chariot_hits(s, occ, cands), c);
                let k = cannon_attacks(s, occ, cannons) & cands;
                assert_eq!(cannon_hits(s, occ, cannons, cands), k);
                let any = (chariot_attacks(s, occ) & chariots).any()
                    || (cannon_attacks(s, occ, cannons) & cannon_cands).any();
                assert_eq!(slider_attack(s, occ, chariots, cannon_cands, cannons), any);
                hits[0] += c.any() as u32;
                hits[1] += k.any() as u32;
                hits[2] += any as u32;
            }
        }
        // Every branch was reached many times both ways.
        assert!(hits.iter().all(|&h| h > 10_000), "{hits:?}");
    }
}
