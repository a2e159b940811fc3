//! A net's recipe: the shards it was trained on with the `janggun datagen`
//! settings that make each, and the trainer's settings, in a small text file
//! beside the net (`nets/nn-<hash>.recipe`). The binary owns these facts so
//! that the scripts only run things: `janggun datagen recipe` lists the
//! shards and the arguments of each, `janggun train --recipe` takes the
//! `[train]` settings, and the embedded net's recipe is `janggun train`'s
//! defaults.
//!
//! The format: `key = value` lines; `#` starts a comment (a whole line, or
//! after a space); `[train]` and `[data.GROUP]` open sections. Top level
//! holds `net = nn-<hash>`, the net the recipe makes. A `[data.GROUP]`
//! section is a group of shards named `GROUP_seedSEED.bin`, trained on in
//! the order of the sections and, within one, of its `shards`
//! (`SEED:RECORDS` or `FIRST-LAST:RECORDS` items); `signature` is the
//! `janggun bench [--net NNUE]` of the search that played them, where one
//! binary makes the same bytes again; the other keys are datagen's options.
//! `[train]` names every trainer setting, so that no later default changes
//! a net, but `input-buckets`: the recipes before input buckets existed
//! lack it, and its absence means `none` for good (a recipe and `--dry-run`
//! write it only when it is not `none`); `factorize` likewise is written
//! only with input buckets, and its absence means `true`. Anything unknown, repeated or
//! otherwise missing is refused.

use super::load::Filter;
use super::trainer::TrainConfig;
use crate::nnue::layout::{Activation, InputBuckets};
use std::path::{Path, PathBuf};

/// The embedded net's recipe, which is also `janggun train`'s defaults.
pub const SHIPPED: &str = include_str!("../../nets/nn-239453d7ff50.recipe");
pub const SHIPPED_PATH: &str = "nets/nn-239453d7ff50.recipe";

/// A recipe is a few kilobytes; anything far larger is not one.
const MAX_BYTES: u64 = 1 << 20;
/// Shards one recipe may name (the largest so far, the embedded net's, names 188).
const MAX_SHARDS: u64 = 100_000;

/// The trainer's settings a recipe fixes: everything of `TrainConfig` but
/// where the run writes, plus the load filter.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSettings {
    pub hidden: usize,
    pub activation: Activation,
    pub buckets: usize,
    pub input_buckets: InputBuckets,
    /// Train the bucketed rows factorised (`train::model`).
    pub factorize: bool,
    pub epochs: u32,
    pub batch: usize,
    pub lr: f32,
    pub lr_floor: f32,
    pub weight_decay: f32,
    pub wdl: f32,
    /// `None`: fitted to the training data (`scale = fitted`).
    pub scale: Option<f32>,
    pub seed: u64,
    pub mirror: bool,
    pub keep_in_check: bool,
    pub keep_captures: bool,
    pub keep_decided: bool,
    pub drop_winning_captures: bool,
    pub keep_duplicates: bool,
}

/// The `[train]` keys, in the order a recipe and `--dry-run` write them.
const TRAIN_KEYS: [&str; 19] = [
    "hidden",
    "activation",
    "buckets",
    "input-buckets",
    "factorize",
    "epochs",
    "batch",
    "lr",
    "lr-floor",
    "weight-decay",
    "wdl",
    "scale",
    "seed",
    "mirror",
    "keep-in-check",
    "keep-captures",
    "keep-decided",
    "drop-winning-captures",
    "keep-duplicates",
];

impl TrainSettings {
    /// The load filter these settings ask for.
    pub fn filter(&self) -> Filter {
        Filter {
            in_check: !self.keep_in_check,
            captures: !self.keep_captures,
            decided: !self.keep_decided,
            winning_captures: self.drop_winning_captures,
            duplicates: !self.keep_duplicates,
        }
    }

    /// The trainer's configuration for a run writing to `checkpoint` (and
    /// resuming from `resume`).
    pub fn config(&self, checkpoint: Option<PathBuf>, resume: Option<PathBuf>) -> TrainConfig {
        TrainConfig {
            hidden: self.hidden,
            activation: self.activation,
            buckets: self.buckets,
            input_buckets: self.input_buckets,
            factorize: self.factorize,
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            lr_floor: self.lr_floor,
            weight_decay: self.weight_decay,
            wdl: self.wdl,
            scale: self.scale,
            seed: self.seed,
            mirror: self.mirror,
            checkpoint,
            resume,
        }
    }

    /// The value of `key` as a recipe writes it.
    fn value(&self, key: &str) -> String {
        match key {
            "hidden" => self.hidden.to_string(),
            "activation" => self.activation.to_string(),
            "buckets" => self.buckets.to_string(),
            "input-buckets" => self.input_buckets.to_string(),
            "factorize" => self.factorize.to_string(),
            "epochs" => self.epochs.to_string(),
            "batch" => self.batch.to_string(),
            "lr" => self.lr.to_string(),
            "lr-floor" => self.lr_floor.to_string(),
            "weight-decay" => self.weight_decay.to_string(),
            "wdl" => self.wdl.to_string(),
            "scale" => self.scale.map_or("fitted".into(), |s| s.to_string()),
            "seed" => self.seed.to_string(),
            "mirror" => self.mirror.to_string(),
            "keep-in-check" => self.keep_in_check.to_string(),
            "keep-captures" => self.keep_captures.to_string(),
            "keep-decided" => self.keep_decided.to_string(),
            "drop-winning-captures" => self.drop_winning_captures.to_string(),
            "keep-duplicates" => self.keep_duplicates.to_string(),
            _ => String::new(),
        }
    }

    /// The `[train]` section that reads back as these settings.
    pub fn to_text(&self) -> String {
        let mut s = String::from("[train]\n");
        for key in TRAIN_KEYS {
            let bucketed = self.input_buckets != InputBuckets::None;
            if (key == "input-buckets" || key == "factorize") && !bucketed {
                continue;
            }
            s.push_str(&format!("{key} = {}\n", self.value(key)));
        }
        s
    }

    /// The settings of a `[train]` section's `key = value` pairs, every
    /// key present once.
    fn from_pairs(pairs: &[Pair]) -> Result<TrainSettings, String> {
        let get = |key: &str| -> Result<&Pair, String> {
            pairs
                .iter()
                .find(|p| p.key == key)
                .ok_or_else(|| format!("[train] has no {key} (a recipe names every setting)"))
        };
        if let Some(p) = pairs.iter().find(|p| !TRAIN_KEYS.contains(&p.key.as_str())) {
            return Err(p.error("is not a setting of [train]"));
        }
        Ok(TrainSettings {
            hidden: get("hidden")?.parse()?,
            activation: get("activation")?.parse()?,
            buckets: get("buckets")?.parse()?,
            input_buckets: match pairs.iter().find(|p| p.key == "input-buckets") {
                Some(p) => p.parse()?,
                None => InputBuckets::None,
            },
            factorize: match pairs.iter().find(|p| p.key == "factorize") {
                Some(p) => p.parse()?,
                None => true,
            },
            epochs: get("epochs")?.parse()?,
            batch: get("batch")?.parse()?,
            lr: get("lr")?.parse()?,
            lr_floor: get("lr-floor")?.parse()?,
            weight_decay: get("weight-decay")?.parse()?,
            wdl: get("wdl")?.parse()?,
            scale: match get("scale")? {
                p if p.value == "fitted" => None,
                p => Some(p.parse()?),
            },
            seed: get("seed")?.parse()?,
            mirror: get("mirror")?.parse()?,
            keep_in_check: get("keep-in-check")?.parse()?,
            keep_captures: get("keep-captures")?.parse()?,
            keep_decided: get("keep-decided")?.parse()?,
            drop_winning_captures: get("drop-winning-captures")?.parse()?,
            keep_duplicates: get("keep-duplicates")?.parse()?,
        })
    }
}

/// One shard of a group: its seed and the records it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub seed: u64,
    pub records: u64,
}

/// The datagen options a group may set, in the order `args` writes them,
/// and whether a group must set each.
const DATAGEN_KEYS: [(&str, bool); 9] = [
    ("nnue", false),
    ("threads", true),
    ("nodes", true),
    ("random-plies", true),
    ("format", true),
    ("verify-nodes", true),
    ("verify-limit", false),
    ("adjudicate-cp", true),
    ("adjudicate-plies", false),
];

/// A `[data.GROUP]` section: shards made alike.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub name: String,
    pub shards: Vec<Shard>,
    /// The bench signature of the search that played the shards, where
    /// one binary plays them again byte for byte.
    pub signature: Option<u64>,
    /// The datagen options set, in `DATAGEN_KEYS` order.
    pub datagen: Vec<(&'static str, String)>,
}

impl Group {
    pub fn shard_name(&self, shard: &Shard) -> String {
        format!("{}_seed{}.bin", self.name, shard.seed)
    }

    /// The net that plays the shards (`None`: the classical evaluation).
    pub fn player(&self) -> Option<&str> {
        self.datagen
            .iter()
            .find(|(k, _)| *k == "nnue")
            .map(|(_, v)| v.as_str())
    }

    /// The `janggun datagen` arguments that make `shard`, but where it is
    /// written and how (`--out`, `--resume`, `--progress`).
    pub fn args(&self, shard: &Shard) -> Vec<String> {
        let mut a = vec![
            "--seed".to_string(),
            shard.seed.to_string(),
            "--positions".to_string(),
            shard.records.to_string(),
        ];
        for (k, v) in &self.datagen {
            a.push(format!("--{k}"));
            a.push(v.clone());
        }
        a
    }

    fn from_pairs(name: &str, pairs: &[Pair]) -> Result<Group, String> {
        let mut shards = None;
        let mut signature = None;
        let mut datagen = Vec::new();
        for p in pairs {
            match p.key.as_str() {
                "shards" => shards = Some(parse_shards(p)?),
                "signature" => signature = Some(p.parse()?),
                k => {
                    if !DATAGEN_KEYS.iter().any(|(d, _)| *d == k) {
                        return Err(p.error("is not a setting of a data group"));
                    }
                    // Numbers but for the net's path; the path is one
                    // word, so that a script passes it whole.
                    if k != "nnue" {
                        p.parse::<i64>()?;
                    } else if p.value.split_whitespace().count() != 1 {
                        return Err(p.error("must be one path"));
                    }
                }
            }
        }
        for (key, required) in DATAGEN_KEYS {
            match pairs.iter().find(|p| p.key == key) {
                Some(p) => datagen.push((key, p.value.clone())),
                None if required => {
                    return Err(format!("[data.{name}] has no {key}"));
                }
                None => {}
            }
        }
        let shards = shards.ok_or_else(|| format!("[data.{name}] has no shards"))?;
        Ok(Group {
            name: name.to_string(),
            shards,
            signature,
            datagen,
        })
    }
}

/// A recipe file, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    /// The net it makes, `nn-<hash>`.
    pub net: Option<String>,
    pub groups: Vec<Group>,
    pub train: TrainSettings,
}

impl Recipe {
    pub fn load(path: &Path) -> Result<Recipe, String> {
        let text = crate::util::file::read_text_capped(path, MAX_BYTES)?;
        Recipe::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The embedded net's recipe.
    pub fn shipped() -> Result<Recipe, String> {
        Recipe::parse(SHIPPED).map_err(|e| format!("{SHIPPED_PATH} (built in): {e}"))
    }

    pub fn parse(text: &str) -> Result<Recipe, String> {
        let sections = sections(text)?;
        let mut net = None;
        let mut groups: Vec<Group> = Vec::new();
        let mut train = None;
        let mut total = 0u64;
        for (name, pairs) in &sections {
            match name.as_str() {
                "" => {
                    for p in pairs {
                        match p.key.as_str() {
                            "net" => net = Some(p.value.clone()),
                            _ => return Err(p.error("is not a top-level setting")),
                        }
                    }
                }
                "train" => train = Some(TrainSettings::from_pairs(pairs)?),
                s => {
                    let group = s
                        .strip_prefix("data.")
                        .filter(|g| valid_group_name(g))
                        .ok_or_else(|| {
                            format!(
                                "[{s}] is no section (\"train\", or \"data.\" and a group \
                                 name of letters, digits, '-' and '_')"
                            )
                        })?;
                    let g = Group::from_pairs(group, pairs)?;
                    total += g.shards.len() as u64;
                    if total > MAX_SHARDS {
                        return Err(format!("more than {MAX_SHARDS} shards"));
                    }
                    groups.push(g);
                }
            }
        }
        let recipe = Recipe {
            net,
            groups,
            train: train.ok_or("no [train] section")?,
        };
        recipe.check_unique_shards()?;
        Ok(recipe)
    }

    /// Every shard in training order, with its group.
    pub fn shards(&self) -> impl Iterator<Item = (&Group, &Shard)> {
        self.groups
            .iter()
            .flat_map(|g| g.shards.iter().map(move |s| (g, s)))
    }

    /// The shard named `name` (`GROUP_seedSEED.bin`), with its group.
    pub fn find(&self, name: &str) -> Result<(&Group, &Shard), String> {
        self.shards()
            .find(|(g, s)| g.shard_name(s) == name)
            .ok_or_else(|| format!("the recipe names no shard {name}"))
    }

    fn check_unique_shards(&self) -> Result<(), String> {
        let mut names: Vec<String> = self.shards().map(|(g, s)| g.shard_name(s)).collect();
        names.sort();
        match names.windows(2).find(|w| w[0] == w[1]) {
            Some(w) => Err(format!("shard {} named twice", w[0])),
            None => Ok(()),
        }
    }
}

/// One `key = value` line, with where it was for errors.
struct Pair {
    line: usize,
    key: String,
    value: String,
}

impl Pair {
    fn error(&self, what: &str) -> String {
        format!("line {}: {} {what}", self.line, self.key)
    }

    fn parse<T: std::str::FromStr>(&self) -> Result<T, String> {
        self.value
            .parse()
            .map_err(|_| self.error(&format!("= {:?}: not a valid value", self.value)))
    }
}

/// The text's sections in file order (the top level first, named ""), each
/// with its pairs; a repeated section or key is refused.
fn sections(text: &str) -> Result<Vec<(String, Vec<Pair>)>, String> {
    let mut out: Vec<(String, Vec<Pair>)> = vec![(String::new(), Vec::new())];
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = match raw.find(" #") {
            Some(at) => &raw[..at],
            None => raw,
        }
        .trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if let Some(name) = content.strip_prefix('[') {
            let name = name
                .strip_suffix(']')
                .ok_or_else(|| format!("line {line}: a section header ends with ']'"))?
                .trim();
            if out.iter().any(|(n, _)| n == name) {
                return Err(format!("line {line}: section [{name}] repeated"));
            }
            out.push((name.to_string(), Vec::new()));
            continue;
        }
        let (key, value) = content
            .split_once('=')
            .ok_or_else(|| format!("line {line}: not `key = value`"))?;
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() || value.is_empty() {
            return Err(format!("line {line}: not `key = value`"));
        }
        // The last section, the one this line belongs to.
        let Some((section, pairs)) = out.last_mut() else {
            return Err(format!("line {line}: no section"));
        };
        if pairs.iter().any(|p| p.key == key) {
            return Err(format!("line {line}: {key} repeated in [{section}]"));
        }
        pairs.push(Pair {
            line,
            key: key.to_string(),
            value: value.to_string(),
        });
    }
    Ok(out)
}

fn valid_group_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `SEED:RECORDS` and `FIRST-LAST:RECORDS` items.
fn parse_shards(p: &Pair) -> Result<Vec<Shard>, String> {
    let mut shards = Vec::new();
    for item in p.value.split_whitespace() {
        let bad = || {
            p.error(&format!(
                "item {item:?} (SEED:RECORDS or FIRST-LAST:RECORDS)"
            ))
        };
        let (seeds, records) = item.split_once(':').ok_or_else(bad)?;
        let records: u64 = records.parse().map_err(|_| bad())?;
        let (first, last) = match seeds.split_once('-') {
            Some((a, b)) => (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?),
            None => {
                let s: u64 = seeds.parse().map_err(|_| bad())?;
                (s, s)
            }
        };
        if first > last || last - first >= MAX_SHARDS {
            return Err(bad());
        }
        if records == 0 {
            return Err(p.error(&format!("item {item:?}: a shard of no records")));
        }
        for seed in first..=last {
            shards.push(Shard { seed, records });
        }
        if shards.len() as u64 > MAX_SHARDS {
            return Err(p.error(&format!("more than {MAX_SHARDS} shards")));
        }
    }
    if shards.is_empty() {
        return Err(p.error("names no shard"));
    }
    Ok(shards)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRAIN: &str = "[train]\nhidden = 256\nactivation = crelu\nbuckets = 1\n\
        epochs = 2\nbatch = 1024\nlr = 0.002\nlr-floor = 0.05\nweight-decay = 0\n\
        wdl = 0.1\nscale = fitted\nseed = 1\nmirror = true\nkeep-in-check = false\n\
        keep-captures = false\nkeep-decided = false\ndrop-winning-captures = false\n\
        keep-duplicates = true\n";

    fn group(body: &str) -> String {
        format!(
            "net = nn-x\n[data.g]\n{body}\nthreads = 1\nnodes = 300\nrandom-plies = 8\n\
             format = 3\nverify-nodes = 0\nadjudicate-cp = 0\n{TRAIN}"
        )
    }

    #[test]
    fn the_shipped_recipe_is_the_embedded_nets() {
        let r = Recipe::shipped().unwrap();
        assert_eq!(r.net.as_deref(), Some("nn-239453d7ff50"));
        let names: Vec<String> = r.shards().map(|(g, s)| g.shard_name(s)).collect();
        assert_eq!(names.len(), 8 + 44 + 16 + 120);
        assert_eq!(names[0], "gen1_seed11.bin");
        assert_eq!(names[8], "gen2_seed101.bin");
        assert_eq!(names[51], "gen2_seed144.bin");
        assert_eq!(names[52], "gen2_seed165.bin");
        assert_eq!(names[67], "gen2_seed180.bin");
        assert_eq!(names[68], "gen3_seed301.bin");
        assert_eq!(names.last().unwrap(), "gen3_seed420.bin");
        let t = &r.train;
        assert_eq!(
            (t.hidden, t.activation, t.buckets),
            (512, Activation::CRelu, 1)
        );
        assert_eq!((t.epochs, t.batch, t.seed), (2, 1024, 1));
        assert_eq!(
            (t.lr, t.lr_floor, t.wdl, t.weight_decay),
            (0.002, 0.01, 0.1, 0.0)
        );
        assert_eq!(t.scale, None);
        assert!(t.mirror && t.keep_duplicates);
        assert!(!(t.keep_in_check || t.keep_captures || t.keep_decided));
        assert!(!t.drop_winning_captures);
        let (g, s) = r.find("gen2_seed101.bin").unwrap();
        assert_eq!(g.signature, Some(1529251));
        assert_eq!(g.player(), Some("nets/nn-abc4e3e48b16.jnn"));
        assert_eq!(
            g.args(s).join(" "),
            "--seed 101 --positions 100000 --nnue nets/nn-abc4e3e48b16.jnn --threads 1 \
             --nodes 3000 --random-plies 8 --format 3 --verify-nodes 5000 --verify-limit 500 \
             --adjudicate-cp 1000 --adjudicate-plies 4"
        );
        let (g, s) = r.find("gen1_seed15.bin").unwrap();
        assert_eq!((g.signature, s.records), (None, 169296));
    }

    #[test]
    fn every_recipe_in_nets_reads() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "jnn") {
                let r = Recipe::load(&path.with_extension("recipe")).unwrap();
                let stem = path.file_stem().unwrap().to_str().unwrap();
                assert_eq!(r.net.as_deref(), Some(stem));
                r.train.config(None, None).validate().unwrap();
                n += 1;
            }
        }
        assert!(n >= 5);
    }

    #[test]
    fn settings_write_and_read_back() {
        let r = Recipe::shipped().unwrap();
        let again = Recipe::parse(&r.train.to_text()).unwrap();
        assert_eq!(again.train, r.train);
        assert!(again.groups.is_empty() && again.net.is_none());
        let mut t = r.train.clone();
        t.scale = Some(112.5);
        t.activation = Activation::SCRelu;
        assert_eq!(Recipe::parse(&t.to_text()).unwrap().train, t);
        // input-buckets: written only when not none, so the settings of
        // every recipe before it read and write as they did; absent, none.
        assert!(!r.train.to_text().contains("input-buckets"));
        assert_eq!(r.train.input_buckets, InputBuckets::None);
        for layout in [InputBuckets::Palace9, InputBuckets::Palace6] {
            t.input_buckets = layout;
            let text = t.to_text();
            assert!(
                text.contains(&format!("\ninput-buckets = {layout}\n")),
                "{text}"
            );
            assert_eq!(Recipe::parse(&text).unwrap().train, t);
            // factorize: written with input buckets; absent, true.
            assert!(text.contains("\nfactorize = true\n"), "{text}");
            let absent = text.replace("factorize = true\n", "");
            assert_eq!(Recipe::parse(&absent).unwrap().train, t);
            let mut off = t.clone();
            off.factorize = false;
            assert!(off.to_text().contains("\nfactorize = false\n"));
            assert_eq!(Recipe::parse(&off.to_text()).unwrap().train, off);
            assert!(off.config(None, None).input_buckets == layout);
            assert!(!off.config(None, None).factorized());
            assert!(t.config(None, None).factorized());
        }
        assert!(!r.train.to_text().contains("factorize"));
        assert!(!r.train.config(None, None).factorized());
    }

    #[test]
    fn shards_and_comments_read() {
        let r = Recipe::parse(&group("shards = 3:10 5-7:20 # a comment\n# more\n")).unwrap();
        let got: Vec<(u64, u64)> = r.shards().map(|(_, s)| (s.seed, s.records)).collect();
        assert_eq!(got, [(3, 10), (5, 20), (6, 20), (7, 20)]);
        assert_eq!(r.groups[0].player(), None);
        assert_eq!(r.groups[0].signature, None);
    }

    #[test]
    fn what_is_not_a_recipe_is_refused() {
        let cases = [
            (group("shards = 1:10\nshards = 2:10"), "repeated"),
            (group("shards = 1:0"), "no records"),
            (group("shards = 5-3:10"), "FIRST-LAST"),
            (group("shards = x:10"), "SEED:RECORDS"),
            (group("shards = 1:10 1:20"), "named twice"),
            (group("shards = 1-999999999:10"), "FIRST-LAST"),
            (group("shards = 1:10\nhash = 16"), "not a setting"),
            (group("shards = 1:10\nnnue = a b"), "one path"),
            (
                group("shards = 1:10\nverify-limit = lots"),
                "not a valid value",
            ),
            (group(""), "no shards"),
            (format!("[data.g]\nshards = 1:1\n{TRAIN}"), "has no threads"),
            (format!("[data.a/b]\nshards = 1:1\n{TRAIN}"), "no section"),
            (format!("[fun]\n{TRAIN}"), "no section"),
            (format!("colour = red\n{TRAIN}"), "top-level"),
            (format!("{TRAIN}[train]\n"), "repeated"),
            (TRAIN.replace("hidden = 256\n", ""), "no hidden"),
            (format!("{TRAIN}colour = red\n"), "not a setting of [train]"),
            (
                TRAIN.replace("buckets = 1\n", "buckets = 1\nfactorize = maybe\n"),
                "not a valid value",
            ),
            (TRAIN.replace("= crelu", "= relu"), "not a valid value"),
            (
                TRAIN.replace("buckets = 1\n", "buckets = 1\ninput-buckets = palace8\n"),
                "not a valid value",
            ),
            (
                TRAIN.replace("mirror = true", "mirror = yes"),
                "not a valid value",
            ),
            (TRAIN.replace("lr = 0.002", "lr 0.002"), "key = value"),
            (TRAIN.replace("[train]", "[train"), "ends with"),
            ("net = nn-x\n".to_string(), "no [train]"),
        ];
        for (text, want) in cases {
            let e = Recipe::parse(&text).unwrap_err();
            assert!(e.contains(want), "{want}: {e}\n{text}");
        }
    }

    #[test]
    fn a_missing_or_huge_file_is_an_error() {
        let e = Recipe::load(Path::new("/nonexistent/x.recipe")).unwrap_err();
        assert!(e.contains("x.recipe"), "{e}");
    }
}
