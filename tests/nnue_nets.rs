//! Net files from the outside, through the real binary: `EvalFile` with
//! version 1 and version 2 nets and with hostile ones (cut short, an
//! unknown version, output weights that could overflow), which are refused
//! with the reason while the net before stays; `janggun net info`, `net
//! random`, `net loss` (the gate metric) and `bench --net`; and a short
//! `janggun train` of every architecture on data `janggun datagen` makes.

use janggun::nnue::embedded::NAME as EMBEDDED;
use janggun::nnue::layout::{Activation, Arch, Block, Header, InputBuckets, QA, QB};
use janggun::nnue::Network;
use janggun::train::gate::GATE_K;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_janggun");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggun-nets-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("nets")
        .join(name)
}

/// Runs the binary to its end: (success, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A UCI session: sets each `EvalFile` in turn (empty: none), then
/// searches the start position to a fixed depth, waiting for its
/// `bestmove`; returns what each step printed and the search's nodes.
fn uci_nodes(dir: &Path, eval_files: &[&str]) -> (String, u64) {
    let mut child = Command::new(BIN)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut said = String::new();
    let mut until = |stdin: &mut std::process::ChildStdin, cmd: &str, end: &str| -> String {
        writeln!(stdin, "{cmd}").unwrap();
        stdin.flush().unwrap();
        let mut got = String::new();
        for l in lines.by_ref() {
            let l = l.unwrap();
            got.push_str(&l);
            got.push('\n');
            if l.starts_with(end) {
                break;
            }
        }
        got
    };
    said += &until(&mut stdin, "uci", "uciok");
    for f in eval_files {
        said += &until(
            &mut stdin,
            &format!("setoption name EvalFile value {f}\nisready"),
            "readyok",
        );
    }
    let search = until(
        &mut stdin,
        "setoption name Threads value 1\nucinewgame\nposition startpos\ngo depth 7",
        "bestmove",
    );
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    let nodes = search
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            w.position(|x| x == "nodes")?;
            w.next()?.parse().ok()
        })
        .next_back()
        .unwrap();
    (said, nodes)
}

/// A version 2 net's bytes with every output weight of row 0 set to `w`
/// (a file the loader must refuse when `w` can overflow).
fn net_with_row0(arch: Arch, w: i32) -> Vec<u8> {
    let blocks = Block::ORDER.map(|b| match b {
        Block::OutWeights => (0..b.len(&arch))
            .map(|i| if i < 2 * arch.hidden { w } else { 1 })
            .collect(),
        Block::FtBias => vec![10; b.len(&arch)],
        _ => vec![1; b.len(&arch)],
    });
    let mut bytes = Header::new(arch, QA, QB, 100).to_bytes();
    for (b, v) in Block::ORDER.iter().zip(&blocks) {
        for &x in v {
            match b.width() {
                2 => bytes.extend_from_slice(&(x as i16).to_le_bytes()),
                _ => bytes.extend_from_slice(&x.to_le_bytes()),
            }
        }
    }
    bytes
}

/// An untrained SCReLU net with 8 buckets written into `dir`: its path.
fn random_screlu_net(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "net",
        "random",
        "--out-dir",
        ".",
        "--activation",
        "screlu",
        "--buckets",
        "8",
    ];
    args.extend_from_slice(extra);
    let (ok, path, err) = run(dir, &args);
    assert!(ok, "{err}");
    path.trim().to_string()
}

#[test]
fn eval_file_takes_both_versions_and_refuses_hostile_nets_keeping_the_last() {
    let dir = scratch("evalfile");
    let old = shipped("nn-c7f2d971be0b.jnn").display().to_string();
    let new = random_screlu_net(&dir, &["--hidden", "32"]);
    let screlu = Arch {
        hidden: 32,
        activation: Activation::SCRelu,
        buckets: 8,
        input_buckets: InputBuckets::None,
    };
    // Hostile files, each refused with its reason. At 256 hidden units
    // SCReLU admits output weights up to 64 each (and sums of |w| up to
    // 33025 a row): 100 each can overflow i32, 200 a 16-bit product.
    let wide = Arch {
        hidden: 256,
        ..screlu
    };
    let good = net_with_row0(wide, 64);
    assert!(Network::from_bytes(&good).is_ok());
    let mut hostile: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "cut.jnn",
            good[..good.len() - 2].to_vec(),
            "its header needs",
        ),
        ("head.jnn", good[..36].to_vec(), "too short"),
        ("overflow.jnn", net_with_row0(wide, 100), "overflow"),
        ("lane.jnn", net_with_row0(wide, 200), "16 bits"),
    ];
    let mut v9 = good.clone();
    v9[8] = 9;
    hostile.push(("v9.jnn", v9, "version 9"));
    let mut act = good.clone();
    act[32] = 5;
    hostile.push(("act.jnn", act, "activation"));
    // Version 3: an unknown input bucket layout.
    let mut layout = net_with_row0(
        Arch {
            input_buckets: InputBuckets::Palace6,
            ..wide
        },
        64,
    );
    assert!(Network::from_bytes(&layout).is_ok());
    layout[40] = 7;
    hostile.push(("layout.jnn", layout, "input bucket layout code 7"));
    for (name, bytes, _) in &hostile {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    // The node count of a fixed search tells the nets apart.
    let (_, embedded) = uci_nodes(&dir, &[]);
    let (_, with_old) = uci_nodes(&dir, &[&old]);
    let (_, with_new) = uci_nodes(&dir, &[&new]);
    assert!(
        embedded != with_old && with_old != with_new,
        "{embedded} {with_old} {with_new}"
    );
    for (name, _, why) in &hostile {
        // Each refused, the net set before it kept.
        let (said, nodes) = uci_nodes(&dir, &[&old, name]);
        assert!(said.contains(why), "{name}: {said}");
        assert_eq!(nodes, with_old, "{name}");
        let (said, nodes) = uci_nodes(&dir, &[&new, name]);
        assert!(said.contains(why), "{name}: {said}");
        assert_eq!(nodes, with_new, "{name}");
        // `net info` refuses it too, with the same reason.
        let (ok, _, err) = run(&dir, &["net", "info", name]);
        assert!(!ok && err.contains(why), "{name}: {err}");
    }
    // Loading the shipped net again, after the new one: as before.
    assert_eq!(uci_nodes(&dir, &[&new, &old]).1, with_old);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn net_info_prints_the_header() {
    let dir = scratch("info");
    let p = shipped(EMBEDDED).display().to_string();
    let (ok, out, err) = run(&dir, &["net", "info", &p]);
    assert!(ok, "{err}");
    let name_line = format!("name {EMBEDDED}");
    for want in [
        name_line.as_str(),
        "version 1",
        "hidden 512",
        "activation crelu",
        "buckets 1",
    ] {
        assert!(out.lines().any(|l| l == want), "{want}: {out}");
    }
    // The embedded net by its name, no file needed.
    let (ok, by_name, _) = run(&dir, &["net", "info", EMBEDDED]);
    assert!(ok && by_name == out, "{by_name}");
    let path = random_screlu_net(&dir, &[]);
    let (ok, out, _) = run(&dir, &["net", "info", &path]);
    assert!(ok);
    for want in [
        "version 2",
        "inputs 1260",
        "hidden 256",
        "activation screlu",
        "buckets 8",
        "input-buckets none",
    ] {
        assert!(out.lines().any(|l| l == want), "{want}: {out}");
    }
    // Input buckets: version 3, K * 1260 inputs; it searches too, and
    // differently by layout.
    let mut benches = Vec::new();
    for (layout, k) in [("palace9", 9), ("palace6", 6)] {
        let p = random_screlu_net(&dir, &["--hidden", "32", "--input-buckets", layout]);
        let (ok, out, err) = run(&dir, &["net", "info", &p]);
        assert!(ok, "{err}");
        for want in [
            "version 3".to_string(),
            format!("inputs {}", k * 1260),
            format!("input-buckets {layout}"),
        ] {
            assert!(out.lines().any(|l| l == want), "{want}: {out}");
        }
        let (ok, bench, err) = run(&dir, &["bench", "5", "--net", &p]);
        assert!(ok && bench.contains("Bench: "), "{err}");
        benches.push(bench.lines().last().unwrap_or("").to_string());
    }
    assert_ne!(benches[0], benches[1]);
    let (ok, _, err) = run(&dir, &["net", "random", "--input-buckets", "palace4"]);
    assert!(!ok && err.contains("palace4"), "{err}");
    let name = Path::new(&path).file_name().unwrap().to_string_lossy();
    assert!(out.lines().any(|l| l == format!("name {name}")), "{out}");
    // A random net searches: bench with it runs and differs from the
    // embedded net's count.
    let (ok, bench, err) = run(&dir, &["bench", "5", "--net", &path]);
    assert!(ok && bench.contains("Bench: "), "{err}");
    let (_, bench0, _) = run(&dir, &["bench", "5"]);
    let last = |s: &str| s.lines().last().unwrap_or("").to_string();
    assert_ne!(last(&bench), last(&bench0));
    let (ok, _, err) = run(&dir, &["bench", "5", "--net", "missing.jnn"]);
    assert!(!ok && err.contains("missing.jnn"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn help_documents_the_training_knobs_and_the_gate() {
    let dir = scratch("help");
    let (ok, help, _) = run(&dir, &["train", "--help"]);
    assert!(ok);
    for opt in [
        "--activation",
        "--buckets",
        "--input-buckets",
        "--lr-floor",
        "--batch",
        "--epochs",
        "--wdl",
        "net loss",
    ] {
        assert!(help.contains(opt), "{opt}: {help}");
    }
    let (ok, help, _) = run(&dir, &["net", "loss", "--help"]);
    assert!(ok);
    assert!(help.contains(&format!("K is {GATE_K} cp")), "{help}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Trains a tiny net of every architecture on a little self-play data
/// (`datagen --nodes 300 --positions 3000`); each run's training loss
/// falls epoch by epoch and its net loads as the architecture asked.
/// The gate metric is what its definition says, the same on a second
/// reading, and tells the shipped nets from an untrained one.
#[test]
fn train_every_architecture_briefly_and_measure_nets_on_the_gate() {
    let dir = scratch("train");
    for (n, seed, out) in [("3000", "3", "d.bin"), ("1000", "4", "val.bin")] {
        let (ok, _, err) = run(
            &dir,
            &[
                "datagen",
                "--nodes",
                "300",
                "--positions",
                n,
                "--seed",
                seed,
                "--out",
                out,
            ],
        );
        assert!(ok, "{err}");
    }
    let gate = |net: &str| -> f64 {
        let (ok, out, err) = run(&dir, &["net", "loss", net, "val.bin"]);
        assert!(ok, "{err}");
        let w: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(&w[..2], ["gate", "loss"], "{out}");
        w[2].parse().unwrap()
    };
    for (act, buckets, inputs) in [
        ("crelu", "1", "none"),
        ("crelu", "8", "none"),
        ("screlu", "1", "none"),
        ("screlu", "8", "none"),
        ("screlu", "8", "palace6"),
        ("crelu", "1", "palace9"),
    ] {
        let out_dir = format!("t-{act}-{buckets}-{inputs}");
        let (ok, net, err) = run(
            &dir,
            &[
                "train",
                "d.bin",
                "--val",
                "val.bin",
                "--hidden",
                "32",
                "--epochs",
                "4",
                "--batch",
                "64",
                "--lr",
                "0.005",
                "--lr-floor",
                "0.01",
                "--wdl",
                "0.25",
                "--activation",
                act,
                "--buckets",
                buckets,
                "--input-buckets",
                inputs,
                "--threads",
                "1",
                "--out-dir",
                &out_dir,
            ],
        );
        assert!(ok, "{act} {buckets}: {err}");
        let losses: Vec<f64> = err
            .lines()
            .filter(|l| l.starts_with("epoch"))
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let at = w.iter().position(|&x| x == "train").unwrap();
                w[at + 2].parse().unwrap()
            })
            .collect();
        assert_eq!(losses.len(), 4, "{err}");
        assert!(
            losses.windows(2).all(|w| w[1] < w[0]),
            "{act} {buckets}: {losses:?}"
        );
        let net = net.trim();
        let (ok, info, _) = run(&dir, &["net", "info", net]);
        assert!(
            ok && info.contains(&format!("activation {act}\n")),
            "{info}"
        );
        assert!(info.contains(&format!("\nbuckets {buckets}\n")), "{info}");
        assert!(
            info.contains(&format!("input-buckets {inputs}\n")),
            "{info}"
        );
        let version = if inputs != "none" {
            3
        } else if act == "crelu" && buckets == "1" {
            1
        } else {
            2
        };
        assert!(info.contains(&format!("version {version}\n")), "{info}");
        let g = gate(net);
        assert!(g.is_finite() && g > 0.0);
        assert_eq!(gate(net), g);
    }
    // The gate by its definition: the mean over the records the default
    // load filters keep (no side in check, no capture as best move, no
    // decided score, first of duplicates) of
    // (sigmoid(eval / K) - sigmoid(score / K))^2, eval the net's own.
    use janggun::train::record::{Flags, Meta, Sample};
    let recs = janggun::train::datafile::read_file(&dir.join("val.bin")).unwrap();
    let net = Network::load(&shipped(EMBEDDED)).unwrap();
    let sig = |x: f64| 1.0 / (1.0 + (-x / GATE_K as f64).exp());
    let mut seen = std::collections::HashSet::new();
    let kept: Vec<Sample> = recs
        .iter()
        .filter(|r| {
            let f = Meta::decode(r).unwrap().flags;
            let dropped = [Flags::IN_CHECK, Flags::CAPTURE, Flags::DECIDED];
            !dropped.iter().any(|&b| f.has(b)) && seen.insert((r[..28].to_vec(), r[30]))
        })
        .map(|r| Sample::decode(r).unwrap())
        .collect();
    assert!(
        kept.len() > 500 && kept.len() < recs.len(),
        "{}",
        kept.len()
    );
    let want = kept
        .iter()
        .map(|s| {
            let e = net.evaluate(&s.placement()) as f64;
            (sig(e) - sig(s.score as f64)).powi(2)
        })
        .sum::<f64>()
        / kept.len() as f64;
    let shipped_gate = gate(&shipped(EMBEDDED).display().to_string());
    assert!(
        (shipped_gate - want).abs() < 1e-6,
        "{shipped_gate} vs {want}"
    );
    // The embedded net by name is the same net.
    assert_eq!(gate(EMBEDDED), shipped_gate);
    // Trained nets score far better than an untrained one.
    let (_, untrained, _) = run(&dir, &["net", "random", "--out-dir", "."]);
    let untrained = gate(untrained.trim());
    let older = gate(&shipped("nn-c7f2d971be0b.jnn").display().to_string());
    assert!(
        shipped_gate < untrained / 4.0 && older < untrained / 4.0,
        "{shipped_gate} {older} {untrained}"
    );
    // The gate needs data it can read.
    let (ok, _, err) = run(&dir, &["net", "loss", EMBEDDED, "nothing.bin"]);
    assert!(!ok && err.contains("nothing.bin"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_net_replaces_only_a_net() {
    let dir = scratch("replace");
    let path = random_screlu_net(&dir, &[]);
    let file = dir.join(&path);
    // The same net again (its name is its content's hash): replaced.
    assert_eq!(random_screlu_net(&dir, &[]), path);
    // Something else under that name is never replaced.
    std::fs::write(&file, "my notes").unwrap();
    let (ok, _, err) = run(
        &dir,
        &[
            "net",
            "random",
            "--out-dir",
            ".",
            "--activation",
            "screlu",
            "--buckets",
            "8",
        ],
    );
    assert!(!ok && err.contains("not replaced"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), b"my notes");
    std::fs::remove_dir_all(&dir).ok();
}
