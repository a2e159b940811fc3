//! Inference against itself: incremental accumulators against a full
//! refresh, and the mirror symmetry. (A search with the net is
//! `tests/nnue_search.rs`.)

use super::embedded;
use super::features::{index, mirror};
use super::{Accumulators, Network};
use crate::board::notation::setup_fen;
use crate::board::{
    legal_moves, Color, MoveList, Piece, PieceKind, Position, RuleSet, Setup, Square,
};
use crate::util::rng::Rng;

fn fresh(net: &Network, pos: &Position) -> Vec<i16> {
    let mut a = Accumulators::new(net, 1);
    a.refresh(net, pos);
    a.current().to_vec()
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
                    acc.push(&net, &pos, m);
                    pos.make(m);
                    depth += 1;
                } else {
                    break;
                }
                assert_eq!(
                    acc.current(),
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
        let mut pos = Position::from_fen(
            &setup_fen(Setup::ALL[g / 4], Setup::ALL[g % 4]),
            RuleSet::Janggi,
        )
        .unwrap();
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
