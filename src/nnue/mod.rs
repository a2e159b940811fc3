//! NNUE: the training-data format, the trainer, and the efficiently
//! updatable network the search can evaluate with instead of the classical
//! evaluation.

pub mod cli;
pub mod record;
pub mod rng;
