//! `janggun net`: what a net file says (`info`), the gate metric of a net
//! on held-out data (`loss`), and an untrained net of any architecture
//! (`random`, for timing the inference before a net is trained).

use super::gate::{gate_loss, GATE_K};
use super::model::Model;
use crate::nnue::layout::{self, Activation, Arch, InputBuckets};
use crate::nnue::{embedded, Network};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct NetArgs {
    #[command(subcommand)]
    pub command: NetCommand,
}

#[derive(Subcommand, Debug)]
pub enum NetCommand {
    /// Print a net file's header: name, format version, inputs, hidden
    /// size, activation, output buckets, input buckets, scales.
    Info {
        /// A .jnn file (or the embedded net's name).
        net: String,
    },
    /// The gate metric: the held-out loss of a net as the engine evaluates
    /// it (the quantised .jnn) against the score-only target.
    #[command(
        long_about = "The gate metric, the one number that compares nets trained with any \
                      settings: the mean of (sigmoid(eval / K) - sigmoid(score / K))^2 over the \
                      records of DATA, where eval is the net's evaluation as the engine computes \
                      it (the quantised .jnn, side to move's view, no count term) and score the \
                      record's search score (the score-only target: result weight 0). K is 113 \
                      cp for every net (the scale the shipped nets' data fitted), whatever scale \
                      the net carries. DATA should be a held-out file no compared net trained \
                      on, the same file for every net compared."
    )]
    Loss {
        /// A .jnn file (or the embedded net's name).
        net: String,
        /// Held-out data files (`janggun datagen` output).
        #[arg(required = true)]
        data: Vec<PathBuf>,
    },
    /// Write an untrained net (random weights, quantised as `janggun train`
    /// exports) of the given architecture, to time the inference.
    Random {
        /// Directory to write nn-<hash>.jnn into.
        #[arg(long, default_value = "target/nnue")]
        out_dir: PathBuf,
        #[arg(long, default_value_t = layout::DEFAULT_HIDDEN)]
        hidden: usize,
        /// crelu or screlu.
        #[arg(long, default_value_t = Activation::CRelu)]
        activation: Activation,
        #[arg(long, default_value_t = 1)]
        buckets: usize,
        /// none, palace9 or palace6 (`janggun train --input-buckets`).
        #[arg(long, default_value_t = InputBuckets::None)]
        input_buckets: InputBuckets,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Centipawns per output unit.
        #[arg(long, default_value_t = 113.0)]
        scale: f32,
    },
}

/// A net named on the command line: the embedded one by its name, as
/// `EvalFile` takes it, else a file.
fn open(net: &str) -> Result<Arc<Network>, String> {
    if net == embedded::NAME && !Path::new(net).exists() {
        embedded::network()
    } else {
        Network::load(Path::new(net)).map(Arc::new)
    }
}

/// The lines `janggun net info` prints.
pub fn info_lines(net: &Network) -> Vec<String> {
    let h = net.header();
    vec![
        format!("name {}", net.name()),
        format!("version {}", h.version),
        format!("inputs {}", h.arch.inputs()),
        format!("hidden {}", h.arch.hidden),
        format!("activation {}", h.arch.activation),
        format!("buckets {}", h.arch.buckets),
        format!("input-buckets {}", h.arch.input_buckets),
        format!("qa {}", h.qa),
        format!("qb {}", h.qb),
        format!("scale {}", h.scale),
        format!("bytes {}", h.file_size()),
    ]
}

pub fn run(args: NetArgs) -> Result<(), String> {
    match args.command {
        NetCommand::Info { net } => {
            for l in info_lines(&*open(&net)?) {
                crate::outln!("{l}");
            }
            Ok(())
        }
        NetCommand::Loss { net, data } => {
            let n = open(&net)?;
            // The gate always reads its file through the trainer's default
            // filters, so its figure does not move with a training option.
            let d = super::load::load_samples(&data, &super::load::Filter::default())?;
            if d.samples.is_empty() {
                return Err("no positions in the data".into());
            }
            let g = gate_loss(&n, &d.samples);
            eprintln!(
                "{}: {} positions ({} records skipped), score-only target, K = {GATE_K} cp",
                n.name(),
                g.positions,
                d.skipped
            );
            crate::outln!(
                "gate loss {:.7} positions {} mean |eval - score| {:.1} cp",
                g.loss,
                g.positions,
                g.mean_abs_cp
            );
            Ok(())
        }
        NetCommand::Random {
            out_dir,
            hidden,
            activation,
            buckets,
            input_buckets,
            seed,
            scale,
        } => {
            let arch = Arch {
                hidden,
                activation,
                buckets,
                input_buckets,
            };
            arch.check()?;
            let net = Model::new(arch, seed).quantise(scale)?;
            std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
            let path = out_dir.join(net.name());
            crate::util::outfile::write_whole(&path, &super::cli::NET_FILE, &net.to_bytes())?;
            crate::outln!("{}", path.display());
            Ok(())
        }
    }
}
