//! NNUE: the training-data format, the trainer, and the efficiently
//! updatable network the search can evaluate with instead of the classical
//! evaluation.

pub mod cli;
pub mod record;
pub mod rng;
pub mod accumulator;
pub mod features;
pub mod hash;
pub mod net;
pub mod simd;
pub mod train;

pub use accumulator::Accumulators;
pub use net::Network;
