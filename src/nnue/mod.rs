//! NNUE inference: the efficiently updatable network the search evaluates
//! with instead of the classical evaluation (features, the net file and
//! its layout, the output buckets, the accumulators, the SIMD loops, the
//! embedded net, and which net a search evaluates with). It imports nothing above `board`; training is
//! `crate::train`.

pub mod accumulator;
pub mod buckets;
pub mod choice;
pub mod embedded;
pub mod features;
pub mod layout;
pub mod net;
pub mod simd;

pub use accumulator::Accumulators;
pub use choice::{Evaluator, NetChoice};
pub use net::Network;

#[cfg(test)]
mod tests;
