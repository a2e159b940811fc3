//! The rules of Janggi: points, bitboards, attacks, positions, move
//! generation, notation and the rule sets.

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod repetition;
pub mod rules;
pub mod ruleset;
pub mod san;
pub mod square;
#[cfg(test)]
pub(crate) mod walk;

pub use bitboard::Bitboard;
pub use fen::{FenError, START_FEN};
pub use movegen::{count_legal, legal_captures, legal_moves, perft_moves};
pub use moves::{Move, MoveList};
pub use notation::{move_to_string, parse_move, Notation, Setup};
pub use position::Position;
pub use rules::{game_end, immediate_end, optional_end, EndReason, GameEnd, Outcome};
pub use ruleset::RuleSet;
pub use san::{from_san, line_to_san, to_san};
pub use square::{Color, Piece, PieceKind, Square, NUM_KINDS, NUM_PIECES, NUM_SQUARES};
