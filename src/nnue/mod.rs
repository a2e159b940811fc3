//! NNUE: the training-data format, the trainer, and the efficiently
//! updatable network the search can evaluate with instead of the classical
//! evaluation.

pub mod accumulator;
pub mod cli;
pub mod embedded;
pub mod features;
pub mod net;
pub mod record;
pub mod simd;
pub mod train;

pub use accumulator::Accumulators;
pub use net::Network;

#[cfg(test)]
mod tests;
