//! The position: piece placement, side to move, Zobrist key and the history
//! the rule sets need (passes, bikjang, checks, keys for repetition).

use super::attacks::{
    cannon_hits, chariot_hits, slider_attack, Leap, ELEPHANT_LEAPS_TO, ELEPHANT_SOURCES,
    HORSE_LEAPS_TO, HORSE_SOURCES, LEGS_TO, LINES, NONE, RAYS, SOLDIER_ATTACKERS,
};
use super::bitboard::Bitboard;
use super::moves::Move;
use super::ruleset::RuleSet;
use super::square::{Color, Piece, PieceKind, Square, NUM_SQUARES};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build_zobrist() -> ([[u64; NUM_SQUARES]; 14], u64) {
    let mut t = [[0u64; NUM_SQUARES]; 14];
    let mut state = 0x4A41_4E47_4755_4E00; // "JANGGUN"
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < NUM_SQUARES {
            let (ns, v) = splitmix(state);
            state = ns;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (t, side)
}

static ZOBRIST: ([[u64; NUM_SQUARES]; 14], u64) = build_zobrist();

#[inline]
fn zobrist(p: Piece, sq: Square) -> u64 {
    ZOBRIST.0[p.index()][sq.index()]
}

#[inline]
pub fn zobrist_side() -> u64 {
    ZOBRIST.1
}

/// What one ply left behind: enough to undo it and to judge the rules.
#[derive(Copy, Clone, Debug)]
pub struct State {
    pub key: u64,
    /// The move that led here (`None` at the root).
    pub mv: Option<Move>,
    pub captured: Option<Piece>,
    /// Plies since the last capture (passes and soldier moves count).
    pub halfmove: u32,
    /// The side to move is in check here.
    pub in_check: bool,
    /// The generals face each other on an open file here.
    pub facing: bool,
}

#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; NUM_SQUARES],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    side: Color,
    kings: [Square; 2],
    fullmove: u32,
    rules: RuleSet,
    states: Vec<State>,
}

impl Position {
    /// An empty board; used by the FEN reader, which checks what it builds.
    pub(crate) fn empty(rules: RuleSet) -> Position {
        let mut states = Vec::with_capacity(512);
        states.push(State {
            key: 0,
            mv: None,
            captured: None,
            halfmove: 0,
            in_check: false,
            facing: false,
        });
        Position {
            board: [None; NUM_SQUARES],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            side: Color::Cho,
            kings: [Square::new(4), Square::new(85)],
            fullmove: 1,
            rules,
            states,
        }
    }

    pub(crate) fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = Some(p);
        self.by_color[p.color().index()] |= Bitboard::from_square(sq);
        self.by_kind[p.kind().index()] |= Bitboard::from_square(sq);
        if p.kind() == PieceKind::General {
            self.kings[p.color().index()] = sq;
        }
    }

    #[inline]
    fn remove(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = None;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color().index()] ^= b;
        self.by_kind[p.kind().index()] ^= b;
    }

    /// Recomputes everything derived from the placement; the FEN reader calls it.
    pub(crate) fn finish_setup(&mut self, side: Color, halfmove: u32, fullmove: u32) {
        self.side = side;
        self.fullmove = fullmove.max(1);
        let mut key = if side == Color::Han {
            zobrist_side()
        } else {
            0
        };
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist(p, sq);
            }
        }
        let in_check = self.compute_in_check(side);
        let facing = self.generals_facing(self.occupied());
        self.states.clear();
        self.states.push(State {
            key,
            mv: None,
            captured: None,
            halfmove,
            in_check,
            facing,
        });
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    #[inline]
    pub fn kind(&self, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()]
    }

    #[inline]
    pub fn pieces_of(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[k.index()]
    }

    #[inline]
    pub fn king(&self, c: Color) -> Square {
        self.kings[c.index()]
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.state().key
    }

    #[inline]
    pub fn state(&self) -> &State {
        // The root state is pushed at construction and never popped.
        &self.states[self.states.len() - 1]
    }

    /// The states from the root to now (index 0 is the root).
    pub fn history(&self) -> &[State] {
        &self.states
    }

    /// Number of plies made since the root position.
    pub fn game_ply(&self) -> usize {
        self.states.len() - 1
    }

    #[inline]
    pub fn halfmove(&self) -> u32 {
        self.state().halfmove
    }

    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.state().in_check
    }

    /// The move that led here was a pass.
    #[inline]
    pub fn last_was_pass(&self) -> bool {
        self.state().mv.is_some_and(|m| m.is_pass())
    }

    /// Generals on one file with nothing between (raw geometry, any rule set).
    #[inline]
    pub fn facing(&self) -> bool {
        self.state().facing
    }

    /// Bikjang stands: the generals face and the rule set's bikjang rule is in force.
    #[inline]
    pub fn bikjang(&self) -> bool {
        self.state().facing && self.rules.bikjang_in_force(self)
    }

    /// Points on the counting scale, without Han's 1.5 bonus.
    pub fn material_points(&self, c: Color) -> i32 {
        PieceKind::ALL
            .iter()
            .map(|&k| k.count_value() * self.pieces_of(c, k).count() as i32)
            .sum()
    }

    pub fn piece_count(&self) -> u32 {
        self.occupied().count()
    }

    #[inline]
    pub(crate) fn generals_facing(&self, occ: Bitboard) -> bool {
        let a = self.kings[0];
        let b = self.kings[1];
        a.file() == b.file()
            && (Bitboard(RAYS[0][a.index()] & !RAYS[0][b.index()]) & occ)
                == Bitboard::from_square(b)
    }

    /// Is `ksq` attacked by `them`, with the given occupancy, with `enemy` the
    /// attacking side's pieces still on the board and `cannons` every cannon?
    #[inline]
    pub(crate) fn attacked_by(
        &self,
        ksq: Square,
        them: Color,
        occ: Bitboard,
        enemy: Bitboard,
        cannons: Bitboard,
    ) -> bool {
        let k = &self.by_kind;
        // Cheap geometric filters first: most positions have no enemy
        // slider on the general's lines and no leaper within reach.
        let lines = Bitboard(LINES[ksq.index()]) & enemy;
        let chariots = lines & k[PieceKind::Chariot.index()];
        let cannon_attackers = lines & k[PieceKind::Cannon.index()];
        if (chariots | cannon_attackers).any()
            && slider_attack(ksq, occ, chariots, cannon_attackers, cannons)
        {
            return true;
        }
        if (Bitboard(SOLDIER_ATTACKERS[them.index()][ksq.index()])
            & enemy
            & k[PieceKind::Soldier.index()])
        .any()
        {
            return true;
        }
        let horses = Bitboard(HORSE_SOURCES[ksq.index()]) & enemy & k[PieceKind::Horse.index()];
        if horses.any() && leaper_attack(&HORSE_LEAPS_TO[ksq.index()], horses, occ) {
            return true;
        }
        let elephants =
            Bitboard(ELEPHANT_SOURCES[ksq.index()]) & enemy & k[PieceKind::Elephant.index()];
        elephants.any() && leaper_attack(&ELEPHANT_LEAPS_TO[ksq.index()], elephants, occ)
    }

    fn compute_in_check(&self, us: Color) -> bool {
        let them = !us;
        self.attacked_by(
            self.king(us),
            them,
            self.occupied(),
            self.pieces(them),
            self.kind(PieceKind::Cannon),
        )
    }

    /// Pieces of `them` attacking `us`'s general (for diagrams and tests).
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let ksq = self.king(us);
        let mut out = Bitboard::EMPTY;
        for sq in self.pieces(them) {
            if self.attacked_by(
                ksq,
                them,
                occ,
                Bitboard::from_square(sq),
                self.kind(PieceKind::Cannon),
            ) {
                out = out.with(sq);
            }
        }
        out
    }

    /// Does the (legal) move `m` check the enemy general? The same answer as
    /// making it and asking `in_check`, for the price of one attack test:
    /// the search asks this of many moves it then prunes without playing.
    pub fn gives_check(&self, m: Move) -> bool {
        if m.is_pass() {
            return false;
        }
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let Some(p) = self.board[from.index()] else {
            return false;
        };
        let ksq = self.king(!us);
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let occ = (self.occupied() & !from_bb) | to_bb;
        // The enemy general is not in check before our move, so only the
        // moved piece can check it: from `to`, or by changing a line through
        // the general (a chariot uncovered, a cannon's screen made or
        // removed) or the leg of a leap onto it. Most moves touch neither.
        let lines = Bitboard(LINES[ksq.index()]);
        let touches = lines.has(to) || (lines | Bitboard(LEGS_TO[ksq.index()])).has(from);
        let mut cannons = self.kind(PieceKind::Cannon) & !from_bb & !to_bb;
        if p.kind() == PieceKind::Cannon {
            cannons |= to_bb;
        }
        // The other pieces, through lines, screens and legs the move changed.
        if touches && self.attacked_by(ksq, us, occ, self.pieces(us) & !from_bb, cannons) {
            return true;
        }
        // The moved piece from its new point (attacks are symmetric here,
        // as in `attacked_by`).
        match p.kind() {
            PieceKind::Chariot => lines.has(to) && chariot_hits(ksq, occ, to_bb).any(),
            PieceKind::Cannon => lines.has(to) && cannon_hits(ksq, occ, cannons, to_bb).any(),
            PieceKind::Soldier => Bitboard(SOLDIER_ATTACKERS[us.index()][ksq.index()]).has(to),
            PieceKind::Horse => leaper_attack(&HORSE_LEAPS_TO[ksq.index()], to_bb, occ),
            PieceKind::Elephant => leaper_attack(&ELEPHANT_LEAPS_TO[ksq.index()], to_bb, occ),
            // Palace pieces never reach the other palace.
            PieceKind::General | PieceKind::Guard => false,
        }
    }

    /// The key the position will have after the (pseudo-legal) move `m`.
    pub fn key_after(&self, m: Move) -> u64 {
        let mut key = self.key() ^ zobrist_side();
        if !m.is_pass() {
            if let Some(p) = self.board[m.from().index()] {
                key ^= zobrist(p, m.from()) ^ zobrist(p, m.to());
            }
            if let Some(c) = self.board[m.to().index()] {
                key ^= zobrist(c, m.to());
            }
        }
        key
    }

    /// Makes a move or a pass. The move must be legal here.
    pub fn make(&mut self, m: Move) {
        self.make_known(m, None);
    }

    /// `make` for a caller that has already asked `gives_check(m)`: the
    /// answer is the check the move leaves, so the attack test need not run
    /// twice (a search asks both for nearly every move it makes).
    #[inline]
    pub fn make_giving_check(&mut self, m: Move, gives_check: bool) {
        self.make_known(m, Some(gives_check));
    }

    // Always inlined, so that each caller's `gives_check` is a constant
    // branch (perft's `make` pays nothing for it).
    #[inline(always)]
    fn make_known(&mut self, m: Move, gives_check: Option<bool>) {
        let prev = *self.state();
        let mut key = prev.key ^ zobrist_side();
        let mut captured = None;
        let mut halfmove = prev.halfmove + 1;
        if !m.is_pass() {
            let from = m.from();
            let to = m.to();
            let p = self.board[from.index()].expect("make: no piece on the from point");
            if let Some(c) = self.board[to.index()] {
                self.remove(c, to);
                key ^= zobrist(c, to);
                captured = Some(c);
                halfmove = 0;
            }
            self.remove(p, from);
            self.put(p, to);
            key ^= zobrist(p, from) ^ zobrist(p, to);
        }
        if self.side == Color::Han {
            self.fullmove += 1;
        }
        self.side = !self.side;
        let in_check = match gives_check {
            Some(known) => {
                debug_assert_eq!(known, self.compute_in_check(self.side), "{m:?}");
                known
            }
            None => self.compute_in_check(self.side),
        };
        let facing = self.generals_facing(self.occupied());
        self.states.push(State {
            key,
            mv: Some(m),
            captured,
            halfmove,
            in_check,
            facing,
        });
    }

    /// Takes back the last move made with `make`.
    pub fn unmake(&mut self) {
        if self.states.len() < 2 {
            return;
        }
        let st = self.states.pop().expect("checked length");
        self.side = !self.side;
        if self.side == Color::Han {
            self.fullmove -= 1;
        }
        let m = st.mv.expect("non-root state has a move");
        if !m.is_pass() {
            let from = m.from();
            let to = m.to();
            let p = self.board[to.index()].expect("unmake: moved piece missing");
            self.remove(p, to);
            self.put(p, from);
            if let Some(c) = st.captured {
                self.put(c, to);
            }
        }
    }

    /// The same position with colours and board flipped (debug `flip`).
    pub fn flipped(&self) -> Position {
        let mut p = Position::empty(self.rules);
        for sq in Square::all() {
            if let Some(pc) = self.board[sq.index()] {
                p.put(Piece::new(!pc.color(), pc.kind()), sq.flip());
            }
        }
        p.finish_setup(!self.side, self.halfmove(), self.fullmove);
        p
    }
}

#[inline]
fn leaper_attack(paths: &[Leap; 8], attackers: Bitboard, occ: Bitboard) -> bool {
    for l in paths {
        if l.to == NONE {
            break;
        }
        if attackers.0 >> l.from & 1 != 0
            && occ.0 >> l.leg1 & 1 == 0
            && (l.leg2 == NONE || occ.0 >> l.leg2 & 1 == 0)
        {
            return true;
        }
    }
    false
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in (0..10u8).rev() {
            write!(f, "{:>2} ", rank + 1)?;
            for file in 0..9u8 {
                let sq = Square::from_coords(file, rank).expect("on board");
                let c = self.piece_at(sq).map_or('.', |p| p.fen_char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "    a b c d e f g h i")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.to_fen())?;
        writeln!(f, "Key: {:016X}", self.key())?;
        let checkers: Vec<String> = self.checkers().map(|s| s.to_string()).collect();
        write!(f, "Checkers: {}", checkers.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::board::moves::MoveList;

    #[test]
    fn key_after_matches_make() {
        let fen = "1n1a1k1br/4a4/1cc2n3/1pp1b3p/2r2p3/P2P1p3/3BPBPP1/3N3C1/4AA3/R2KC3R w - - 18 16";
        let mut pos = Position::from_fen(fen, RuleSet::Janggi).unwrap();
        let mut list = MoveList::new();
        legal_moves(&pos, &mut list);
        for &m in list.iter() {
            let predicted = pos.key_after(m);
            pos.make(m);
            assert_eq!(pos.key(), predicted, "{m}");
            pos.unmake();
        }
    }

    /// `gives_check` against make + `in_check` for every legal move along
    /// pseudo-random games (checks of every piece kind, discovered checks,
    /// screens appearing and vanishing).
    #[test]
    fn gives_check_matches_make() {
        let mut rng = crate::util::rng::Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut checks = 0;
        for game in 0..60 {
            let mut pos = Position::from_fen(crate::board::START_FEN, RuleSet::Janggi).unwrap();
            for _ in 0..(60 + game * 3) {
                let mut list = MoveList::new();
                legal_moves(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                for &m in list.iter() {
                    let predicted = pos.gives_check(m);
                    pos.make(m);
                    assert_eq!(pos.in_check(), predicted, "{m} in {}", pos.to_fen());
                    checks += predicted as u32;
                    pos.unmake();
                }
                let m = list.as_slice()[rng.below(list.len())];
                pos.make(m);
            }
        }
        assert!(checks > 1000, "only {checks} checks seen");
    }
}
