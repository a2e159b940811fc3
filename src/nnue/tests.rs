//! Inference against itself (incremental accumulators against a full
//! refresh, the mirror symmetry) and against the format's own statement
//! (an evaluator in i64 from a file's bytes): the shipped version 1 nets,
//! SCReLU and bucket nets, input bucket nets (version 3). (A search with
//! the net is `tests/nnue_search.rs`.)

use super::buckets::bucket;
use super::embedded;
use super::features::{index, mirror};
use super::layout::{out_weight_limit, Activation, Arch, Block, Header, InputBuckets, QA, QB};
use super::{Accumulators, Network};
use crate::board::notation::setup_fen;
use crate::board::walk::capture_biased_move;
use crate::board::{
    legal_moves, Color, Move, MoveList, Piece, PieceKind, Position, RuleSet, Setup, Square,
};
use crate::util::rng::Rng;

/// The start position of setup pair `g` (0..16: Cho's setup g / 4, Han's
/// g % 4).
fn setup_start(g: usize) -> Position {
    Position::from_fen(
        &setup_fen(Setup::ALL[g / 4], Setup::ALL[g % 4]),
        RuleSet::Janggi,
    )
    .unwrap()
}

fn fresh(net: &Network, pos: &Position) -> Vec<i16> {
    let mut a = Accumulators::new(net, 1);
    a.refresh(net, pos);
    a.current(net, pos).to_vec()
}

#[test]
fn incremental_equals_refresh_for_every_setup() {
    let net = embedded::network().unwrap();
    let mut rng = Rng::new(42);
    let (mut passes, mut unmakes, mut captures) = (0, 0, 0);
    for cho in Setup::ALL {
        for han in Setup::ALL {
            let mut pos = Position::from_fen(&setup_fen(cho, han), RuleSet::Janggi).unwrap();
            let mut acc = Accumulators::new(&net, 4);
            acc.refresh(&net, &pos);
            let mut depth = 0;
            for _ in 0..300 {
                let mut list = MoveList::new();
                legal_moves(&pos, &mut list);
                if depth > 0 && (list.is_empty() || rng.below(4) == 0) {
                    acc.pop();
                    pos.unmake();
                    depth -= 1;
                    unmakes += 1;
                } else if !list.is_empty() {
                    let m = list.as_slice()[rng.below(list.len())];
                    passes += m.is_pass() as u32;
                    captures += (!m.is_pass() && pos.piece_at(m.to()).is_some()) as u32;
                    acc.push(&pos, m);
                    pos.make(m);
                    depth += 1;
                } else {
                    break;
                }
                assert_eq!(
                    acc.current(&net, &pos),
                    fresh(&net, &pos).as_slice(),
                    "{}",
                    pos.to_fen()
                );
                assert_eq!(acc.evaluate(&net, &pos), net.evaluate(&pos));
            }
        }
    }
    assert!(
        passes > 20 && unmakes > 500 && captures > 100,
        "{passes} {unmakes} {captures}"
    );
}

/// Levels are computed only when asked: a walk that evaluates now and then
/// (so that several levels, some taken back before they were ever computed,
/// wait at once) reads the same accumulators as a refresh whenever it asks.
#[test]
fn levels_computed_late_equal_refresh() {
    let net = embedded::network().unwrap();
    let mut rng = Rng::new(7);
    let (mut asked, mut waited) = (0, 0);
    for g in 0..16 {
        let mut pos = setup_start(g);
        // Room for two levels: the walk goes deeper, so the stack grows.
        let mut acc = Accumulators::new(&net, 2);
        acc.refresh(&net, &pos);
        let (mut depth, mut since) = (0, 0);
        for _ in 0..400 {
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            if depth > 0 && (list.is_empty() || rng.below(3) == 0) {
                acc.pop();
                pos.unmake();
                depth -= 1;
            } else if !list.is_empty() {
                let m = list.as_slice()[rng.below(list.len())];
                acc.push(&pos, m);
                pos.make(m);
                depth += 1;
            } else {
                break;
            }
            since += 1;
            if rng.below(5) == 0 {
                asked += 1;
                waited += (since > 1) as u32;
                since = 0;
                assert_eq!(acc.evaluate(&net, &pos), net.evaluate(&pos));
                assert_eq!(acc.current(&net, &pos), fresh(&net, &pos).as_slice());
            }
        }
    }
    assert!(asked > 500 && waited > 300, "{asked} {waited}");
}

/// The position mirrored left-right (file f to 8 - f), through its FEN.
fn mirrored(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let (board, rest) = fen.split_once(' ').unwrap();
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    Position::from_fen(&format!("{} {rest}", ranks.join("/")), RuleSet::Janggi).unwrap()
}

#[test]
fn a_mirror_symmetric_net_evaluates_mirror_images_alike() {
    // The trained net is only nearly symmetric (it learns from both
    // images); one with each row tied to its mirror's must be exactly so,
    // which checks that the features map mirror images consistently.
    let mut net = Network::from_bytes(&embedded::network().unwrap().to_bytes()).unwrap();
    let h = net.hidden;
    for persp in Color::ALL {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                for sq in Square::all().filter(|s| s.file() > 4) {
                    let (to, from) = (index(persp, p, sq), index(persp, p, mirror(sq)));
                    let row: Vec<i16> = net.row(from).to_vec();
                    net.ft_weights[to * h..(to + 1) * h].copy_from_slice(&row);
                }
            }
        }
    }
    let mut rng = Rng::new(5);
    let mut asymmetric = 0;
    for g in 0..16 {
        let g = g as usize;
        let mut pos = setup_start(g);
        for _ in 0..80 {
            let m = mirrored(&pos);
            asymmetric += (m.to_fen() != pos.to_fen()) as u32;
            assert_eq!(net.evaluate(&pos), net.evaluate(&m), "{}", pos.to_fen());
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            pos.make(list.as_slice()[rng.below(list.len())]);
        }
    }
    assert!(asymmetric > 1000);
}

/// The evaluation as docs/FORMATS.md states it, read straight from a net
/// file's bytes with nothing of `layout.rs` or `net.rs`, in i64 so that
/// nothing can wrap: the oracle the loader and the SIMD paths must match.
fn reference_eval(bytes: &[u8], pos: &Position) -> i32 {
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let i32_at = |at: usize| u32_at(at) as i32 as i64;
    let i16_at = |at: usize| i16::from_le_bytes([bytes[at], bytes[at + 1]]) as i64;
    assert_eq!(&bytes[..8], b"JANGNNUE");
    let version = u32_at(8);
    let (n, qa, qb, scale) = (u32_at(16) as usize, i32_at(20), i32_at(24), i32_at(28));
    // Version 1: CReLU, one bucket, a 32-byte header; version 3 adds the
    // input bucket layout (0 none, 1 palace9, 2 palace6).
    let (screlu, buckets, layout, body) = match version {
        1 => (false, 1, 0, 32),
        2 => (u32_at(32) == 1, u32_at(36) as usize, 0, 40),
        3 => (u32_at(32) == 1, u32_at(36) as usize, u32_at(40), 44),
        v => panic!("version {v}"),
    };
    let k = [1, 9, 6][layout as usize];
    assert_eq!(u32_at(12) as usize, 1260 * k);
    let ft = body;
    let ft_bias = ft + 2 * 1260 * k * n;
    let out = ft_bias + 2 * n;
    let out_bias = out + 2 * 2 * buckets * 2 * n;
    assert_eq!(bytes.len(), out_bias + 4 * 2 * buckets);
    // The bucket of side `persp` and whether it sees the board mirrored:
    // its general's point in its own view (the last general on the board
    // in square order; none: the palace's centre), moved to the nearest
    // palace point, files d-f 3..=5, ranks 0..=2; palace9 numbers the nine
    // points, palace6 mirrors the f-file to the d-file first.
    let view = |persp: Color| -> (usize, bool) {
        let g = Square::all()
            .filter(|&s| pos.piece_at(s) == Some(Piece::new(persp, PieceKind::General)))
            .last();
        let (file, rank) = match g {
            Some(g) => {
                let rank = g.index() / 9;
                let rank = if persp == Color::Han { 9 - rank } else { rank };
                ((g.index() % 9).clamp(3, 5), rank.min(2))
            }
            None => (4, 1),
        };
        match layout {
            0 => (0, false),
            1 => (rank * 3 + file - 3, false),
            _ if file == 5 => (rank * 2, true),
            _ => (rank * 2 + file - 3, false),
        }
    };
    // The feature of piece p on square s seen by side `persp`: own pieces
    // first, kinds in order, Han's view rank-mirrored, in its bucket.
    let feature = |persp: Color, p: Piece, sq: Square| -> usize {
        let (bucket, mirrored) = view(persp);
        let (file, rank) = (sq.index() % 9, sq.index() / 9);
        let rank = if persp == Color::Han { 9 - rank } else { rank };
        let file = if mirrored { 8 - file } else { file };
        let theirs = (p.color() != persp) as usize;
        bucket * 1260 + (theirs * 7 + p.kind().index()) * 90 + rank * 9 + file
    };
    let accumulate = |persp: Color| -> Vec<i64> {
        (0..n)
            .map(|j| {
                let mut a = i16_at(ft_bias + 2 * j);
                for sq in Square::all() {
                    if let Some(p) = pos.piece_at(sq) {
                        a += i16_at(ft + 2 * (feature(persp, p, sq) * n + j));
                    }
                }
                a
            })
            .collect()
    };
    let stm = pos.side_to_move();
    let (us, them) = (accumulate(stm), accumulate(!stm));
    // Bucket: pieces other than the generals, n * B / 31.
    let men = Square::all().filter(|&s| pos.piece_at(s).is_some()).count() - 2;
    let row = stm.index() * buckets + men.min(30) * buckets / 31;
    let w = |k: usize| i16_at(out + 2 * (row * 2 * n + k));
    let act = |a: i64| {
        let v = a.clamp(0, qa);
        if screlu {
            v * v
        } else {
            v
        }
    };
    let mut sum = i32_at(out_bias + 4 * row);
    for j in 0..n {
        sum += act(us[j]) * w(j) + act(them[j]) * w(n + j);
    }
    let peak = if screlu { qa * qa } else { qa };
    (sum * scale / (peak * qb)).clamp(-10_000, 10_000) as i32
}

/// Every position of one game from each of the 16 setups, `plies` long or
/// until `pick` finds no move.
fn walk_setups(
    seed: u64,
    plies: usize,
    mut pick: impl FnMut(&Position, &mut Rng) -> Option<Move>,
) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for g in 0..16 {
        let mut pos = setup_start(g);
        for _ in 0..plies {
            out.push(pos.clone());
            let Some(m) = pick(&pos, &mut rng) else {
                break;
            };
            pos.make(m);
        }
    }
    out
}

/// Positions of random games from every setup, some deep in the game.
fn random_positions(seed: u64, plies: usize) -> Vec<Position> {
    walk_setups(seed, plies, capture_biased_move)
}

#[test]
fn the_shipped_version_1_nets_load_unchanged_and_evaluate_as_their_format_says() {
    let positions = random_positions(3, 120);
    for (file, hidden) in [
        ("nn-239453d7ff50.jnn", 512),
        ("nn-27f44730272b.jnn", 512),
        ("nn-074c3c36faf5.jnn", 512),
        ("nn-013b8d4f0298.jnn", 256),
        ("nn-abc4e3e48b16.jnn", 256),
        ("nn-c7f2d971be0b.jnn", 256),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("nets")
            .join(file);
        let bytes = std::fs::read(&path).unwrap();
        let net = Network::load(&path).unwrap();
        assert_eq!((net.version, net.arch()), (1, Arch::v1(hidden)));
        // Byte for byte the same file back, so the same name.
        assert_eq!(net.to_bytes(), bytes);
        assert_eq!(net.name(), file);
        let mut acc = Accumulators::new(&net, 1);
        for pos in &positions {
            let want = reference_eval(&bytes, pos);
            assert_eq!(net.evaluate(pos), want, "{file} {}", pos.to_fen());
            acc.refresh(&net, pos);
            assert_eq!(acc.evaluate(&net, pos), want);
        }
    }
    // The embedded net is the first file, byte for byte.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
    let file = std::fs::read(dir.join(embedded::NAME)).unwrap();
    assert_eq!(embedded::network().unwrap().to_bytes(), file);
}

/// A random net of `arch`, its output weights as large as the overflow
/// limit lets them be, its output biases different in every row.
pub(super) fn random_net(arch: Arch, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let lim = out_weight_limit(&arch, QA) as usize;
    let blocks = Block::ORDER.map(|b| {
        (0..b.len(&arch))
            .map(|i| match b {
                Block::FtWeights => rng.below(81) as i32 - 40,
                Block::FtBias => rng.below(121) as i32 - 20,
                Block::OutWeights => rng.below(2 * lim + 1) as i32 - lim as i32,
                Block::OutBias => (i as i32 - 3) * 123_457,
            })
            .collect()
    });
    Network::from_blocks(Header::new(arch, QA, QB, 300), blocks).unwrap()
}

#[test]
fn screlu_and_bucket_nets_evaluate_as_their_format_says_incrementally_too() {
    let positions = random_positions(8, 150);
    let mut rows_seen = std::collections::BTreeSet::new();
    for (activation, buckets) in [
        (Activation::SCRelu, 8),
        (Activation::CRelu, 8),
        (Activation::SCRelu, 1),
        (Activation::SCRelu, 16),
    ] {
        let arch = Arch {
            hidden: 64,
            activation,
            buckets,
            input_buckets: InputBuckets::None,
        };
        let net = random_net(arch, buckets as u64);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap().to_bytes(), bytes);
        for pos in &positions {
            assert_eq!(
                net.evaluate(pos),
                reference_eval(&bytes, pos),
                "{arch:?} {}",
                pos.to_fen()
            );
            if buckets == 8 {
                rows_seen.insert(bucket(pos.piece_count(), 8));
            }
        }
    }
    // The positions reach most buckets, the low ones included.
    assert!(
        rows_seen.len() >= 6 && rows_seen.contains(&1),
        "{rows_seen:?}"
    );

    // Incremental updates along games give the refresh's accumulators and
    // evaluation, bucket changes on captures included.
    let net = random_net(
        Arch {
            hidden: 32,
            activation: Activation::SCRelu,
            buckets: 8,
            input_buckets: InputBuckets::None,
        },
        5,
    );
    let mut rng = Rng::new(6);
    for g in 0..16 {
        let mut pos = setup_start(g);
        let mut acc = Accumulators::new(&net, 4);
        acc.refresh(&net, &pos);
        for _ in 0..200 {
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list.as_slice()[rng.below(list.len())];
            acc.push(&pos, m);
            pos.make(m);
            assert_eq!(acc.current(&net, &pos), fresh(&net, &pos).as_slice());
            assert_eq!(acc.evaluate(&net, &pos), net.evaluate(&pos));
        }
    }
}

/// A random walk that moves a general whenever it can half the time, so
/// that the generals visit every point of their palaces; each position
/// visited.
fn general_walk(seed: u64, plies: usize) -> Vec<Position> {
    walk_setups(seed, plies, |pos, rng| {
        let mut list = MoveList::new();
        legal_moves(pos, &mut list);
        let moves = list.as_slice();
        if moves.is_empty() {
            return None;
        }
        let general: Vec<_> = moves
            .iter()
            .filter(|m| {
                !m.is_pass() && pos.piece_at(m.from()).map(|p| p.kind()) == Some(PieceKind::General)
            })
            .collect();
        Some(if !general.is_empty() && rng.below(2) == 0 {
            *general[rng.below(general.len())]
        } else {
            moves[rng.below(moves.len())]
        })
    })
}

fn arch_with(input_buckets: InputBuckets, activation: Activation, buckets: usize) -> Arch {
    Arch {
        hidden: 32,
        activation,
        buckets,
        input_buckets,
    }
}

/// Input bucket nets along walks that move the generals often: the
/// accumulators, pushed and popped and evaluated now and then (levels
/// left uncomputed across general moves included), equal a refresh
/// whenever asked, and the evaluation equals the format's oracle. The
/// walks cross buckets and, with palace6, mirror sides, in both
/// perspectives.
#[test]
fn input_bucket_nets_update_incrementally_and_evaluate_as_their_format_says() {
    for (n, layout) in [InputBuckets::Palace9, InputBuckets::Palace6]
        .into_iter()
        .enumerate()
    {
        let net = random_net(arch_with(layout, Activation::SCRelu, 8), 40 + n as u64);
        assert_eq!(net.version, 3);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap().to_bytes(), bytes);
        for pos in general_walk(50 + n as u64, 60).iter().step_by(7) {
            assert_eq!(
                net.evaluate(pos),
                reference_eval(&bytes, pos),
                "{}",
                pos.to_fen()
            );
        }
        let mut rng = Rng::new(60 + n as u64);
        let mut views = std::collections::BTreeSet::new();
        let (mut asked, mut crossed) = (0, 0);
        for g in 0..16 {
            let mut pos = setup_start(g);
            let mut acc = Accumulators::new(&net, 2);
            acc.refresh(&net, &pos);
            let mut depth = 0;
            for _ in 0..300 {
                let mut list = MoveList::new();
                legal_moves(&pos, &mut list);
                let moves = list.as_slice();
                if depth > 0 && (moves.is_empty() || rng.below(4) == 0) {
                    acc.pop();
                    pos.unmake();
                    depth -= 1;
                } else if !moves.is_empty() {
                    let general: Vec<_> = moves
                        .iter()
                        .filter(|m| !m.is_pass() && m.from() == pos.king(pos.side_to_move()))
                        .collect();
                    let m = if !general.is_empty() && rng.below(2) == 0 {
                        crossed += 1;
                        *general[rng.below(general.len())]
                    } else {
                        moves[rng.below(moves.len())]
                    };
                    acc.push(&pos, m);
                    pos.make(m);
                    depth += 1;
                } else {
                    break;
                }
                for c in Color::ALL {
                    let v = super::features::View::of(layout, c, Some(pos.king(c)));
                    views.insert((c.index(), v.bucket(), v.mirror));
                }
                if rng.below(3) == 0 {
                    asked += 1;
                    assert_eq!(acc.current(&net, &pos), fresh(&net, &pos).as_slice());
                    assert_eq!(acc.evaluate(&net, &pos), net.evaluate(&pos));
                }
            }
        }
        // Every bucket of both sides seen, mirrored and not with palace6.
        let want = match layout {
            InputBuckets::Palace9 => 2 * 9,
            _ => 2 * 6 + 2 * 3,
        };
        assert_eq!(views.len(), want, "{layout}: {views:?}");
        assert!(asked > 1000 && crossed > 500, "{asked} {crossed}");
    }
}

/// The position mirrored left-right with its general (and the other
/// one) off the e-file: with palace6 each perspective's view mirrors back
/// what the mirror image moved, so any palace6 net evaluates the two
/// alike. palace9 gives the image's general another bucket, so a random
/// palace9 net reads them apart; on the e-file palace6 does too (the
/// e-file is its own mirror image: no view mirrors it back).
#[test]
fn palace6_nets_evaluate_mirror_images_alike_when_the_generals_are_off_the_e_file() {
    let six = random_net(arch_with(InputBuckets::Palace6, Activation::CRelu, 4), 70);
    let nine = random_net(arch_with(InputBuckets::Palace9, Activation::CRelu, 4), 71);
    let (mut off, mut on, mut nine_differ, mut six_differ_on) = (0, 0, 0, 0);
    for pos in general_walk(72, 80) {
        let m = mirrored(&pos);
        let off_e = Color::ALL.into_iter().all(|c| pos.king(c).file() != 4);
        if off_e {
            off += 1;
            assert_eq!(six.evaluate(&pos), six.evaluate(&m), "{}", pos.to_fen());
            assert_eq!(fresh(&six, &pos), fresh(&six, &m));
            // (Accumulators rather than evaluations: a random net's
            // evaluations often sit at the clamp.)
            nine_differ += (fresh(&nine, &pos) != fresh(&nine, &m)) as u32;
        } else if Color::ALL.into_iter().all(|c| pos.king(c).file() == 4)
            && m.to_fen() != pos.to_fen()
        {
            on += 1;
            six_differ_on += (fresh(&six, &pos) != fresh(&six, &m)) as u32;
        }
    }
    assert!(off > 50 && on > 50, "{off} {on}");
    assert_eq!(nine_differ, off);
    assert_eq!(six_differ_on, on);
}

/// Placements no FEN admits (a record's, through `Sample::placement`): a
/// general off its palace, none, two. Each reads a defined bucket and
/// evaluates as the oracle says, never out of the net's rows.
#[test]
fn hostile_placements_read_a_defined_bucket() {
    let g = |c| Piece::new(c, PieceKind::General);
    let r = |c| Piece::new(c, PieceKind::Chariot);
    let sq = |s: &str| Square::parse(s, 1).unwrap();
    let cases: Vec<Vec<(Piece, Square)>> = vec![
        // Off the palace: the far corner, the enemy's palace, beside it.
        vec![
            (g(Color::Cho), sq("a1")),
            (g(Color::Han), sq("i5")),
            (r(Color::Cho), sq("e5")),
        ],
        vec![
            (g(Color::Cho), sq("f9")),
            (g(Color::Han), sq("d2")),
            (r(Color::Han), sq("b3")),
        ],
        // No general on one side, then none at all.
        vec![(g(Color::Cho), sq("f2")), (r(Color::Han), sq("b3"))],
        vec![(r(Color::Cho), sq("a1")), (r(Color::Han), sq("i10"))],
        // Two generals of one side.
        vec![
            (g(Color::Cho), sq("d1")),
            (g(Color::Cho), sq("f3")),
            (g(Color::Han), sq("e9")),
        ],
    ];
    for layout in [InputBuckets::Palace9, InputBuckets::Palace6] {
        let net = random_net(arch_with(layout, Activation::SCRelu, 2), 80);
        let bytes = net.to_bytes();
        for pieces in &cases {
            for stm in Color::ALL {
                let mut pos = Position::empty(RuleSet::Janggi);
                let mut sorted = pieces.clone();
                sorted.sort_by_key(|&(_, s)| s.index());
                for &(p, s) in &sorted {
                    pos.put(p, s);
                }
                pos.finish_setup(stm, 0, 1);
                assert_eq!(
                    net.evaluate(&pos),
                    reference_eval(&bytes, &pos),
                    "{layout} {pieces:?}"
                );
            }
        }
    }
}
