//! Training the NNUE, a leaf above the search: the data format, self-play
//! data generation, the float trainer, the gate metric and the command
//! lines of `janggun datagen`, `janggun train` and `janggun net`.
//! Inference (`crate::nnue`) knows nothing of this module; the net's
//! parameter layout both share is `crate::nnue::layout`.

pub mod chain;
pub mod checkpoint;
pub mod cli;
pub mod data;
pub mod datafile;
pub mod datagen;
pub mod gate;
pub mod load;
pub mod model;
pub mod net_cli;
pub mod optim;
pub mod recipe;
pub mod record;
pub mod resume;
pub mod stats;
pub mod trainer;

#[cfg(test)]
mod tests;
