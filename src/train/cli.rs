//! Command lines of `janggun datagen` and `janggun train`, kept here so
//! that `main.rs` only dispatches.

use super::datagen::{
    DEFAULT_ADJUDICATE_CP, DEFAULT_ADJUDICATE_PLIES, DEFAULT_VERIFY_LIMIT, DEFAULT_VERIFY_NODES,
};
use super::recipe::{Recipe, TrainSettings};
use super::trainer;
use crate::nnue::layout::{Activation, InputBuckets};
use crate::nnue::{Evaluator, NetChoice};
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
    /// Play the games with this net (`Use NNUE`) instead of the classical
    /// evaluation.
    #[arg(long)]
    pub nnue: Option<PathBuf>,
    /// Seconds between progress lines on stderr.
    #[arg(long, default_value_t = 10)]
    pub progress: u64,
    /// Nodes of the search that checks each game's position after the
    /// random plies (0: no check).
    #[arg(long, default_value_t = DEFAULT_VERIFY_NODES)]
    pub verify_nodes: u64,
    /// Drop a game whose checked position scores beyond this many
    /// centipawns either way, or a decided game.
    #[arg(long, default_value_t = DEFAULT_VERIFY_LIMIT)]
    pub verify_limit: i32,
    /// Adjudicate a game as won once one side's search score is past this
    /// many centipawns (0: never; else at least 600, twice what the count
    /// term can add, so that a score mostly from the count never decides).
    /// Mate and rule-win scores never adjudicate.
    #[arg(long, default_value_t = DEFAULT_ADJUDICATE_CP)]
    pub adjudicate_cp: i32,
    /// Searches of each side in a row that must see the same side past
    /// --adjudicate-cp before a game is adjudicated.
    #[arg(long, default_value_t = DEFAULT_ADJUDICATE_PLIES)]
    pub adjudicate_plies: u32,
    /// Data format version to write: 3 (every searched position with its
    /// flags, chained as games: about 3.3 bytes a position), 2 (the same
    /// records, 40 bytes each) or 1 (32-byte records, no flags; in-check,
    /// capture and decided positions left out as they are written).
    #[arg(long, default_value_t = super::datafile::DEFAULT_FORMAT)]
    pub format: u32,
    /// Keep a resume point beside the output (OUT.resume) and go on from
    /// it: a run cut short and resumed with the same settings writes the
    /// same file as one uninterrupted run, --positions and --games then
    /// counting from the file's start (one thread only).
    #[arg(long)]
    pub resume: bool,
}

#[derive(Subcommand, Debug)]
pub enum DatagenCommand {
    /// Check the headers of data files (of any format) and append their
    /// records to OUT, all of one record version. A new or chained OUT is
    /// written chained (format 3); a fixed-record OUT keeps its format.
    Merge {
        out: PathBuf,
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    /// What data files hold: versions, records, flags, duplicates, results,
    /// scores and the generals' palace points.
    Stats {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write the records of IN to OUT in another format, losslessly: fixed
    /// records to chained (format 3) and chained to the fixed records they
    /// hold, by default.
    Convert {
        input: PathBuf,
        out: PathBuf,
        /// The format to write: 3 or chained; fixed, or the version of the
        /// records (1 or 2: the fixed records as they are; never another
        /// version).
        #[arg(long)]
        to: Option<super::datafile::Target>,
    },
    /// The records each data file holds (of any format), one number a
    /// line: what a script asks instead of reckoning from a file's size.
    Count {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// What a net's recipe (`nets/nn-<hash>.recipe`) plays: its shards in
    /// training order, one a line (GROUP NAME RECORDS); with SHARD, the
    /// datagen arguments that make it, one a line (all but --out,
    /// --resume and --progress); with --groups, one line a group (GROUP
    /// SIGNATURE PLAYER: the bench signature of the search that played
    /// it, `-` where no binary plays the same bytes again, and its net,
    /// `-` for the classical evaluation).
    Recipe {
        file: PathBuf,
        shard: Option<String>,
        #[arg(long, conflicts_with = "shard")]
        groups: bool,
    },
}

pub fn datagen(args: DatagenArgs) -> Result<(), String> {
    match args.command {
        Some(DatagenCommand::Merge { out, inputs }) => {
            let (n, format) = super::datafile::merge(&out, &inputs)?;
            eprintln!(
                "merge: {} now holds {n} records (format version {format})",
                out.display()
            );
            return Ok(());
        }
        Some(DatagenCommand::Stats { files }) => {
            crate::out!("{}", super::stats::gather(&files)?);
            return Ok(());
        }
        Some(DatagenCommand::Convert { input, out, to }) => {
            let c = super::datafile::convert(&input, &out, to)?;
            if let Some(note) = &c.note {
                eprintln!("convert: {note}");
            }
            eprintln!(
                "convert: wrote {} records of {} to {} (format version {}, version-{} records)",
                c.records,
                input.display(),
                out.display(),
                c.format,
                c.version
            );
            return Ok(());
        }
        Some(DatagenCommand::Count { files }) => {
            // Every file counted before anything is printed: a script
            // reads either every count or an error.
            let mut lines = Vec::new();
            for f in &files {
                lines.push(super::datafile::count(f)?.records.to_string());
            }
            crate::outln!("{}", lines.join("\n"));
            return Ok(());
        }
        Some(DatagenCommand::Recipe {
            file,
            shard,
            groups,
        }) => {
            crate::out!("{}", recipe_lines(&Recipe::load(&file)?, shard, groups)?);
            return Ok(());
        }
        None => {}
    }
    let out = args.out.ok_or("datagen needs --out FILE")?;
    let opts = super::datagen::DatagenConfig {
        threads: args.threads,
        nodes: args.nodes,
        random_plies: args.random_plies,
        seed: args.seed,
        games: args.games,
        positions: args.positions,
        out,
        openings: args.openings,
        settings: Settings {
            eval: Evaluator::load(&NetChoice::file_or(
                args.nnue.as_deref(),
                NetChoice::Classical,
            ))?,
            ..Settings::default()
        },
        progress: Duration::from_secs(args.progress.max(1)),
        verify_nodes: args.verify_nodes,
        verify_limit: args.verify_limit,
        adjudicate_cp: args.adjudicate_cp,
        adjudicate_plies: args.adjudicate_plies,
        version: args.format,
        resume: args.resume,
    };
    // Settings are refused before a net is loaded or a file touched.
    opts.validate()?;
    super::datagen::run(&opts).map(|_| ())
}

/// What `datagen recipe` prints, each line ending in a newline.
fn recipe_lines(r: &Recipe, shard: Option<String>, groups: bool) -> Result<String, String> {
    let lines: Vec<String> = if let Some(name) = shard {
        let (g, s) = r.find(&name)?;
        g.args(s)
    } else if groups {
        r.groups
            .iter()
            .map(|g| {
                let sig = g.signature.map_or("-".to_string(), |s| s.to_string());
                format!("{} {sig} {}", g.name, g.player().unwrap_or("-"))
            })
            .collect()
    } else {
        r.shards()
            .map(|(g, s)| format!("{} {} {}", g.name, g.shard_name(s), s.records))
            .collect()
    };
    Ok(lines.iter().map(|l| format!("{l}\n")).collect())
}

// The settings a sweep varies are --activation, --buckets, --input-buckets, --lr and
// --lr-floor, --batch, --epochs and --wdl. Every setting is optional here:
// what is not given comes from --recipe, or else from the embedded net's
// recipe, so that the defaults are the shipped net's settings with one
// owner (`recipe::SHIPPED`).
#[derive(Args, Debug)]
#[command(after_help = train_after_help())]
pub struct TrainArgs {
    /// Data files (`janggun datagen` output).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Held-out data (default: every 20th block of 1024 records).
    #[arg(long)]
    pub val: Option<PathBuf>,
    /// Take every setting of this recipe's [train] section (a net's
    /// `nets/nn-<hash>.recipe`); an option given here overrides it.
    #[arg(long)]
    pub recipe: Option<PathBuf>,
    /// Print the settings this run would train with, as a recipe's [train]
    /// section, and its files, then stop before reading any data.
    #[arg(long)]
    pub dry_run: bool,
    /// Hidden units per perspective (a multiple of 16, at most 2048).
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Hidden activation: crelu (clipped ReLU) or screlu (squared clipped
    /// ReLU; its output weights are clipped to what the integer path holds
    /// without overflow: 2.0 up to 128 hidden units, 1.0 at 256, halving
    /// with each doubling above).
    #[arg(long)]
    pub activation: Option<Activation>,
    /// Output buckets by material, each crossed with the side to move: the
    /// pieces other than the generals, n (0..=30), pick bucket n * N / 31
    /// (8 buckets: n / 4). 1 to 16; 1 is the single row per side of the
    /// version 1 nets.
    #[arg(long)]
    pub buckets: Option<usize>,
    /// Input buckets by where the side's own general stands, each with its
    /// own feature rows: none (one set, as every net before), palace9 (one
    /// per palace point) or palace6 (a general on the f-file sees the board
    /// mirrored left-right, so 2 files x 3 ranks). A net with input buckets
    /// is written as format version 3.
    #[arg(long)]
    pub input_buckets: Option<InputBuckets>,
    /// With input buckets, train each feature's weights as a row shared by
    /// every bucket plus the bucket's own, folded into one at export (true
    /// unless the recipe says otherwise): the rare buckets learn from every
    /// position.
    #[arg(long)]
    pub factorize: Option<bool>,
    /// Passes over the training data.
    #[arg(long)]
    pub epochs: Option<u32>,
    /// Positions per optimiser step.
    #[arg(long)]
    pub batch: Option<usize>,
    /// Peak learning rate (cosine decay to --lr-floor times it).
    #[arg(long)]
    pub lr: Option<f32>,
    /// Where the cosine decay ends, as a fraction of --lr (0 to 1; e.g. 0.01).
    #[arg(long)]
    pub lr_floor: Option<f32>,
    /// AdamW's decoupled weight decay.
    #[arg(long)]
    pub weight_decay: Option<f32>,
    /// Weight of the game result in the target (the rest: the score), 0 to 1.
    #[arg(long)]
    pub wdl: Option<f32>,
    /// Centipawns per unit of the net's output (default: fitted).
    #[arg(long)]
    pub scale: Option<f32>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Do not add the left-right mirror image of every position.
    #[arg(long)]
    pub no_mirror: bool,
    /// Directory for checkpoints and the exported net.
    #[arg(long, default_value = "target/nnue")]
    pub out_dir: PathBuf,
    /// Continue from a checkpoint (same --epochs, --hidden, --activation,
    /// --buckets and data).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Keep positions whose side to move is in check (dropped by default;
    /// version-2 data only, as are the other filters).
    #[arg(long)]
    pub keep_in_check: bool,
    /// Keep positions whose best move is a capture (dropped by default).
    #[arg(long)]
    pub keep_captures: bool,
    /// Keep positions with a decided score, a mate or a win by the rules
    /// (dropped by default).
    #[arg(long)]
    pub keep_decided: bool,
    /// Drop positions where a capture that does not lose material is
    /// available (kept by default).
    #[arg(long)]
    pub drop_winning_captures: bool,
    /// Keep repeated positions (same pieces and side to move), as the
    /// shipped recipe does.
    #[arg(long, conflicts_with = "drop_duplicates")]
    pub keep_duplicates: bool,
    /// Keep only the first of repeated positions.
    #[arg(long)]
    pub drop_duplicates: bool,
}

/// `janggun train --help`'s closing text: the gate, and the defaults as
/// the embedded net's recipe states them.
fn train_after_help() -> String {
    let defaults = match super::recipe::Recipe::shipped() {
        Ok(r) => r.train.to_text(),
        Err(e) => format!("(unreadable: {e})\n"),
    };
    format!(
        "Every epoch prints the training and held-out losses, against the blended \
         target of --wdl, which differs between settings. To compare nets trained \
         with different settings use the fixed gate metric, `janggun net loss NET \
         HELD-OUT.bin` (the quantised net as the engine evaluates it, against the \
         score-only target at one fixed scale; see `janggun net loss --help`).\n\n\
         A setting not given is --recipe's, or else that of the embedded net's \
         recipe ({}), which is:\n\n{defaults}",
        super::recipe::SHIPPED_PATH
    )
}

impl TrainArgs {
    /// The settings of this run: --recipe's (or the embedded net's recipe's)
    /// with the options given on top.
    pub fn settings(&self) -> Result<TrainSettings, String> {
        let mut s = match &self.recipe {
            Some(p) => Recipe::load(p)?.train,
            None => Recipe::shipped()?.train,
        };
        if let Some(v) = self.hidden {
            s.hidden = v;
        }
        if let Some(v) = self.activation {
            s.activation = v;
        }
        if let Some(v) = self.buckets {
            s.buckets = v;
        }
        if let Some(v) = self.input_buckets {
            s.input_buckets = v;
        }
        if let Some(v) = self.factorize {
            s.factorize = v;
        }
        if let Some(v) = self.epochs {
            s.epochs = v;
        }
        if let Some(v) = self.batch {
            s.batch = v;
        }
        if let Some(v) = self.lr {
            s.lr = v;
        }
        if let Some(v) = self.lr_floor {
            s.lr_floor = v;
        }
        if let Some(v) = self.weight_decay {
            s.weight_decay = v;
        }
        if let Some(v) = self.wdl {
            s.wdl = v;
        }
        if self.scale.is_some() {
            s.scale = self.scale;
        }
        if let Some(v) = self.seed {
            s.seed = v;
        }
        s.mirror &= !self.no_mirror;
        s.keep_in_check |= self.keep_in_check;
        s.keep_captures |= self.keep_captures;
        s.keep_decided |= self.keep_decided;
        s.drop_winning_captures |= self.drop_winning_captures;
        if self.keep_duplicates || self.drop_duplicates {
            s.keep_duplicates = self.keep_duplicates;
        }
        Ok(s)
    }
}

/// What `--dry-run` prints: the settings as a recipe's [train] section, then
/// the run's files as comments.
fn dry_run(args: &TrainArgs, settings: &TrainSettings) -> String {
    let mut s = settings.to_text();
    let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    s.push_str(&format!("# data: {}\n", files.join(" ")));
    if let Some(v) = &args.val {
        s.push_str(&format!("# val: {}\n", v.display()));
    }
    s.push_str(&format!("# out-dir: {}\n", args.out_dir.display()));
    if let Some(r) = &args.resume {
        s.push_str(&format!("# resume: {}\n", r.display()));
    }
    s
}

pub fn train(args: TrainArgs) -> Result<(), String> {
    let settings = args.settings()?;
    let filter = settings.filter();
    let opts = settings.config(Some(args.out_dir.clone()), args.resume.clone());
    // Settings and the checkpoint are refused before any data is read.
    opts.validate()?;
    if args.dry_run {
        crate::out!("{}", dry_run(&args, &settings));
        return Ok(());
    }
    if let Some(p) = &opts.resume {
        super::checkpoint::load(p, opts.weight_decay)?;
    }
    if let Some(t) = args.threads {
        crate::search::check_threads(t).map_err(|e| format!("--{e}"))?;
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    std::fs::create_dir_all(&args.out_dir)
        .map_err(|e| format!("{}: {e}", args.out_dir.display()))?;
    let data = super::load::load_samples(&args.data, &filter)?;
    let mut skipped = data.skipped;
    let val = match &args.val {
        Some(v) => {
            let d = super::load::load_samples(std::slice::from_ref(v), &filter)?;
            skipped += d.skipped;
            Some(d.samples)
        }
        None => None,
    };
    let (train_set, val_set) = trainer::split(data.samples, val);
    eprintln!(
        "train: {} training positions ({} with mirrors), {} held out, {skipped} records skipped",
        train_set.len(),
        train_set.len() * if opts.mirror { 2 } else { 1 },
        val_set.len()
    );
    let start = std::time::Instant::now();
    let (model, scale) = trainer::fit(&train_set, &val_set, &opts, &mut |r| {
        eprintln!(
            "epoch {:3}  train loss {:.6}  val loss {:.6}  lr {:.2e}  {:.0} positions/s",
            r.epoch, r.train_loss, r.val_loss, r.lr, r.positions_per_s
        );
    })?;
    // Quantising checks the net as `EvalFile` would: what it refuses is
    // never written.
    let net = model.quantise(scale)?;
    let path = args.out_dir.join(net.name());
    crate::util::outfile::write_whole(&path, &NET_FILE, &net.to_bytes())?;
    let probe = &val_set[..val_set.len().min(5000)];
    let (mean, worst) = trainer::quantisation_error(&model, scale, probe)?;
    eprintln!(
        "scale {scale:.1} cp; quantised vs float on {} held-out positions: mean {mean:.2} cp, worst {worst} cp; {:.1} s",
        probe.len(),
        start.elapsed().as_secs_f64()
    );
    crate::outln!("{}", path.display());
    Ok(())
}

/// What may be replaced where a net is written: a net (its name is its
/// content's hash, so the same net again), never another file.
pub const NET_FILE: crate::util::outfile::Existing<'static> =
    crate::util::outfile::Existing::Prefix(&[crate::nnue::layout::MAGIC], "a Janggun net file");

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use std::path::Path;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        train: TrainArgs,
    }

    /// The settings of `janggun train` with these arguments (split at spaces).
    fn settings(args: &str) -> Result<TrainSettings, String> {
        let words = std::iter::once("train").chain(args.split_whitespace());
        let cli = Cli::try_parse_from(words).map_err(|e| e.to_string())?;
        cli.train.settings()
    }

    fn recipe(name: &str) -> String {
        format!("{}/nets/{name}.recipe", env!("CARGO_MANIFEST_DIR"))
    }

    /// The command line scripts/train_net.sh gave `janggun train` before
    /// the recipes (scripts/recipe.sh's `recipe hidden=512 floor=0.01`),
    /// `--recipe` on the shipped net's recipe, and no setting at all are
    /// one run.
    #[test]
    fn the_shipped_recipe_is_the_old_command_line_and_the_defaults() {
        let old = settings(
            "a.bin --hidden 512 --epochs 2 --batch 1024 --lr 0.002 --lr-floor 0.01 --wdl 0.1 \
             --activation crelu --buckets 1 --seed 1 --keep-duplicates",
        )
        .unwrap();
        // What that line meant to the binary before the recipes, whose
        // defaults filled in the rest (no weight decay, a fitted scale,
        // mirrors, the filters but duplicates): written out, since this
        // binary's defaults are now the recipe's.
        let before = TrainSettings {
            hidden: 512,
            activation: Activation::CRelu,
            buckets: 1,
            input_buckets: InputBuckets::None,
            factorize: true,
            epochs: 2,
            batch: 1024,
            lr: 0.002,
            lr_floor: 0.01,
            weight_decay: 0.0,
            wdl: 0.1,
            scale: None,
            seed: 1,
            mirror: true,
            keep_in_check: false,
            keep_captures: false,
            keep_decided: false,
            drop_winning_captures: false,
            keep_duplicates: true,
        };
        let by_recipe = settings(&format!("a.bin --recipe {}", recipe("nn-27f44730272b")));
        let by_recipe = by_recipe.unwrap();
        let defaults = settings("a.bin").unwrap();
        assert_eq!(old, before);
        assert_eq!(by_recipe, before);
        assert_eq!(defaults, before);
        // nn-abc4e3e48b16's: `recipe` with no change.
        let old = settings(
            "a.bin --hidden 256 --epochs 2 --batch 1024 --lr 0.002 --lr-floor 0.05 --wdl 0.1 \
             --activation crelu --buckets 1 --seed 1 --keep-duplicates",
        )
        .unwrap();
        let by_recipe = settings(&format!("a.bin --recipe {}", recipe("nn-abc4e3e48b16")));
        assert_eq!(old, by_recipe.unwrap());
    }

    #[test]
    fn options_override_the_recipe() {
        let r = recipe("nn-abc4e3e48b16");
        let s = settings(&format!(
            "a.bin --recipe {r} --epochs 1 --drop-duplicates --no-mirror --scale 113 \
             --keep-in-check --activation screlu"
        ))
        .unwrap();
        assert_eq!((s.epochs, s.hidden, s.lr_floor), (1, 256, 0.05));
        assert_eq!((s.scale, s.activation), (Some(113.0), Activation::SCRelu));
        assert!(!s.keep_duplicates && !s.mirror && s.keep_in_check);
        assert_eq!(s.input_buckets, InputBuckets::None);
        let s = settings(&format!("a.bin --recipe {r} --input-buckets palace6")).unwrap();
        assert_eq!(s.input_buckets, InputBuckets::Palace6);
        assert!(s.factorize);
        let s = settings("a.bin --input-buckets palace9 --factorize false").unwrap();
        assert!(!s.factorize && !s.config(None, None).factorized());
        assert!(settings("a.bin --factorize sometimes").is_err());
        assert!(settings("a.bin --input-buckets palace7").is_err());
        assert!(settings("a.bin --keep-duplicates --drop-duplicates").is_err());
        let e = settings("a.bin --recipe /nonexistent.recipe").unwrap_err();
        assert!(e.contains("nonexistent.recipe"), "{e}");
    }

    #[test]
    fn datagen_recipe_lists_shards_groups_and_arguments() {
        let r = Recipe::load(Path::new(&recipe("nn-abc4e3e48b16"))).unwrap();
        let all = recipe_lines(&r, None, false).unwrap();
        assert!(all.starts_with("gen0 gen0_seed1.bin 436033\ngen0 gen0_seed2.bin 144606\n"));
        assert_eq!(all.lines().count(), 10);
        assert_eq!(
            recipe_lines(&r, None, true).unwrap(),
            "gen0 1882546 -\ngen1 - nets/nn-c7f2d971be0b.jnn\n"
        );
        assert_eq!(
            recipe_lines(&r, Some("gen0_seed2.bin".into()), false).unwrap(),
            "--seed\n2\n--positions\n144606\n--threads\n1\n--nodes\n3000\n--random-plies\n8\n\
             --format\n1\n--verify-nodes\n0\n--adjudicate-cp\n0\n"
        );
        assert!(recipe_lines(&r, Some("gen2_seed101.bin".into()), false).is_err());
    }
}
