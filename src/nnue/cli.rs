//! Command lines of `janggun datagen` and `janggun train`, kept here so
//! that `main.rs` only dispatches.

use crate::search::Settings;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct DatagenArgs {
    #[command(subcommand)]
    pub command: Option<DatagenCommand>,
    /// Games played at once, one per thread.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Nodes a move (soft: the iteration that passes it is finished).
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random moves at the start of every game (not kept).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop after this many games.
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop after this many positions.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Data file to append to (created with a header if missing).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Start from these FENs (one a line) instead of the 16 setups.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Seconds between progress lines on stderr.
    #[arg(long, default_value_t = 10)]
    pub progress: u64,
}

#[derive(Subcommand, Debug)]
pub enum DatagenCommand {
    /// Check the headers of data files and append their records to OUT.
    Merge {
        out: PathBuf,
        #[arg(required = true)]
        inputs: Vec<String>,
    },
}

pub fn datagen(args: DatagenArgs) -> Result<(), String> {
    if let Some(DatagenCommand::Merge { out, inputs }) = args.command {
        let n = super::record::merge(&out, &inputs)?;
        eprintln!("merge: {} now holds {n} records", out.display());
        return Ok(());
    }
    let out = args.out.ok_or("datagen needs --out FILE")?;
    let opts = crate::tools::datagen::Options {
        threads: args.threads,
        nodes: args.nodes,
        random_plies: args.random_plies,
        seed: args.seed,
        games: args.games,
        positions: args.positions,
        out,
        openings: args.openings,
        settings: Settings::default(),
        progress: Duration::from_secs(args.progress.max(1)),
    };
    crate::tools::datagen::run(&opts)
}
