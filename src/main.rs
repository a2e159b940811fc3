use clap::{Parser, Subcommand};
use janggun::board::{Position, RuleSet, Setup};
use janggun::nnue::NetChoice;
use janggun::tools;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "janggun",
    version,
    about = "Janggi (Korean chess) engine for UCI, UCCI and CECP (XBoard) GUIs, with an NNUE \
             evaluation. With no subcommand, runs the protocol loop."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree.
    Perft {
        depth: u32,
        /// Start from this FEN (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Start from a named setup: Cho's then Han's arrangement (inner, outer, left, right).
        #[arg(long, num_args = 2, value_names = ["CHO", "HAN"])]
        setup: Option<Vec<String>>,
        #[arg(long, default_value = "janggi")]
        variant: String,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Search a fixed list of positions; prints `Bench: <nodes>`.
    Bench {
        #[arg(default_value_t = tools::bench::DEFAULT_DEPTH)]
        depth: u32,
        #[arg(default_value_t = 1)]
        threads: usize,
        #[arg(default_value_t = 16)]
        hash: usize,
        /// Evaluate with the classical terms instead of the embedded network.
        #[arg(long, conflicts_with_all = ["nnue", "net"])]
        classical: bool,
        /// Evaluate with this net file instead of the embedded one.
        #[arg(long)]
        net: Option<std::path::PathBuf>,
        /// The embedded network (the default; kept for old scripts).
        #[arg(long, hide = true)]
        nnue: bool,
        /// A search margin other than its default, as NAME=VALUE (the
        /// hidden options, e.g. `--margin SingularDepth=7`); repeatable.
        #[arg(long = "margin", value_name = "NAME=VALUE")]
        margins: Vec<String>,
    },
    /// Self-play games for tuning data (`<fen> | <result> | <moves>` lines).
    Selfplay {
        #[arg(long, default_value_t = 100)]
        games: usize,
        #[arg(long, default_value_t = 20000)]
        nodes: u64,
        #[arg(long, default_value_t = 8)]
        random_plies: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Texel-style tuning of the evaluation weights from game files.
    Tune {
        #[arg(required = true)]
        games: Vec<String>,
        #[arg(long, default_value_t = 500)]
        epochs: usize,
        /// L2 pull towards the current weights.
        #[arg(long, default_value_t = 1e-6)]
        lambda: f64,
        /// Keep the piece-square tables as they are.
        #[arg(long)]
        freeze_pst: bool,
    },
    /// Self-play training data for the NNUE (see `janggun datagen --help`).
    Datagen(janggun::train::cli::DatagenArgs),
    /// Train an NNUE on datagen files (see `janggun train --help`).
    Train(janggun::train::cli::TrainArgs),
    /// Net files: their header, the gate metric, untrained nets (see `janggun net --help`).
    Net(janggun::train::net_cli::NetArgs),
    /// Rules oracle for scripts.
    Rules {
        /// Read `<variant> <fen> [moves ...]` lines from stdin, answer each.
        #[arg(long)]
        batch: bool,
    },
    /// Play UCI engines against each other, merge shards, draw a report (see `janggun match --help`).
    Match(janggun::arena::cli::MatchArgs),
    /// Tune the search margins by SPSA (see `janggun spsa --help`).
    Spsa(janggun::arena::spsa::SpsaArgs),
}

fn run_perft(
    depth: u32,
    fen: Option<String>,
    setup: Option<Vec<String>>,
    variant: &str,
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let depth =
        janggun::board::perft::check_depth(depth.into()).map_err(|e| format!("perft: {e}"))?;
    let rules: RuleSet = variant.parse()?;
    let pos = match (fen, setup) {
        (Some(_), Some(_)) => return Err("give either --fen or --setup, not both".into()),
        (Some(f), None) => Position::from_fen(&f, rules).map_err(|e| format!("bad FEN: {e}"))?,
        (None, Some(s)) => {
            let cho: Setup = s[0].parse()?;
            let han: Setup = s[1].parse()?;
            janggun::board::notation::setup_position(cho, han, rules).map_err(|e| e.to_string())?
        }
        (None, None) => Position::startpos(rules),
    };
    janggun::search::check_threads(threads)?;
    let start = Instant::now();
    let total = if divide || threads > 1 {
        let lines = janggun::board::perft::divide(&pos, depth.max(1), threads);
        if depth == 0 {
            1
        } else {
            for (m, n) in &lines {
                if divide {
                    janggun::outln!("{m}: {n}");
                }
            }
            if divide {
                janggun::outln!();
            }
            lines.iter().map(|(_, n)| n).sum()
        }
    } else {
        let mut p = pos.clone();
        janggun::board::perft::perft(&mut p, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    janggun::outln!("Nodes searched: {total}");
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn main() -> ExitCode {
    // `RUST_LOG=debug` shows time decisions, table resizes and searches on
    // stderr; stdout stays the protocol's.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            fen,
            setup,
            variant,
            divide,
            threads,
        }) => run_perft(depth, fen, setup, &variant, divide, threads),
        Some(Command::Rules { batch }) => {
            if batch {
                tools::batch::run().map_err(|e| e.to_string())
            } else {
                Err("rules: only --batch is supported".into())
            }
        }
        Some(Command::Bench {
            depth,
            threads,
            hash,
            classical,
            net,
            nnue: _,
            margins,
        }) => {
            let choice = if classical {
                NetChoice::Classical
            } else {
                NetChoice::file_or(net.as_deref(), NetChoice::Embedded)
            };
            tools::bench::run_eval(depth, threads, hash, &choice, &margins)
        }
        Some(Command::Selfplay {
            games,
            nodes,
            random_plies,
            seed,
        }) => tools::selfplay::run(games, nodes, random_plies, seed),
        Some(Command::Tune {
            games,
            epochs,
            lambda,
            freeze_pst,
        }) => tools::tune::run(&games, epochs, lambda, freeze_pst),
        Some(Command::Datagen(args)) => janggun::train::cli::datagen(args),
        Some(Command::Train(args)) => janggun::train::cli::train(args),
        Some(Command::Net(args)) => janggun::train::net_cli::run(args),
        Some(Command::Match(args)) => janggun::arena::main(args),
        Some(Command::Spsa(args)) => janggun::arena::spsa::main(args),
        None => {
            janggun::protocol::run();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", janggun::util::text::escape(&e));
            ExitCode::FAILURE
        }
    }
}
