//! The engine's options, declared once. Each row says how its value is
//! read, how a new value is applied and where it is listed; every dialect's
//! rendering (`option name ...` for UCI, `option ...` for UCCI, `feature
//! option="..."` for CECP) is written here, beside the table, so that no
//! dialect keeps its own copy of either. Defaults are read back from
//! `Config::default()`, so the table cannot drift from `Settings::default()`.

use super::dialect::Dialect;
use crate::board::RuleSet;
use crate::search::margins::TUNABLES;
use crate::search::{Ablation, Settings, MAX_HASH_MB, MAX_THREADS};
use crate::util::text::clip;
use std::sync::Arc;

/// Everything the options change.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub settings: Settings,
    pub variant: RuleSet,
    /// UCCI: `go` times are in milliseconds instead of seconds.
    pub use_millisec: bool,
    /// Where every protocol line in and out is written (empty: nowhere).
    pub debug_log: String,
    /// The network `Use NNUE` evaluates with (`None`: the embedded one)
    /// and the file it came from.
    pub net: Option<Arc<crate::nnue::Network>>,
    pub eval_file: String,
    /// Declared for bot frameworks whose configs set it (python-chess
    /// refuses to set an undeclared option); Janggi has no tablebases.
    pub syzygy_path: String,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Id {
    Variant,
    Threads,
    Hash,
    ClearHash,
    Ponder,
    MultiPv,
    MoveOverhead,
    SkillLevel,
    LimitStrength,
    Elo,
    AnalyseMode,
    ShowWdl,
    UseMillisec,
    Ablate,
    DebugLogFile,
    UseNnue,
    EvalFile,
    SyzygyPath,
    /// A search margin of `search::margins::TUNABLES`, by index.
    Margin(usize),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Check,
    Spin {
        min: i64,
        max: i64,
    },
    Combo(&'static [&'static str]),
    Button,
    /// Free text (a file name); empty means none.
    Text,
}

/// Where an option is listed. Every option can be set in every dialect;
/// this only decides which handshake shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shown {
    Everywhere,
    /// CECP sets these with commands of its own (`variant`, `memory`,
    /// `cores`, `hard`/`easy`, `analyze`), so offering them again as
    /// options would give a GUI two controls for one thing.
    NotCecp,
    /// UCCI's own (`usemillisec`).
    UcciOnly,
    /// Listed nowhere, settable everywhere: the search's tunable margins,
    /// for tuners, not for players.
    Hidden,
}

/// What the conversation must do after an option changed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Only the protocol's own state changed.
    None,
    /// The engine needs the new settings (when it is free).
    Settings,
    ClearHash,
    Variant,
    DebugLog,
}

/// A parsed option value, checked against the option's kind.
pub enum Value {
    Bool(bool),
    Int(i64),
    Name(&'static str),
    Press,
    Text(String),
}

impl Value {
    fn int(&self) -> i64 {
        match self {
            Value::Int(n) => *n,
            _ => 0,
        }
    }
    fn flag(&self) -> bool {
        matches!(self, Value::Bool(true))
    }
    fn text(self) -> String {
        match self {
            Value::Text(t) => t,
            Value::Name(n) => n.to_string(),
            _ => String::new(),
        }
    }
}

type Getter = fn(&Config) -> String;
/// Applies a value already checked against the kind. On error `config`
/// must be unchanged.
type Setter = fn(&mut Config, Value) -> Result<Effect, String>;

pub struct OptionDef {
    pub id: Id,
    pub uci: &'static str,
    pub ucci: &'static str,
    pub kind: Kind,
    pub shown: Shown,
    get: Getter,
    set: Setter,
}

const fn row(
    id: Id,
    uci: &'static str,
    ucci: &'static str,
    kind: Kind,
    get: Getter,
    set: Setter,
) -> OptionDef {
    OptionDef {
        id,
        uci,
        ucci,
        kind,
        shown: Shown::Everywhere,
        get,
        set,
    }
}

const fn not_cecp(d: OptionDef) -> OptionDef {
    OptionDef {
        shown: Shown::NotCecp,
        ..d
    }
}

/// The row of tunable margin `I`: a hidden spin option named as the
/// margin, within its bounds.
macro_rules! margin_row {
    ($i:literal) => {
        OptionDef {
            id: Id::Margin($i),
            uci: TUNABLES[$i].name,
            ucci: TUNABLES[$i].name,
            kind: Kind::Spin {
                min: TUNABLES[$i].min as i64,
                max: TUNABLES[$i].max as i64,
            },
            shown: Shown::Hidden,
            get: |c| c.settings.margins.get($i).to_string(),
            set: |c, v| {
                c.settings.margins.0[$i] = v.int() as i32;
                Ok(Effect::Settings)
            },
        }
    };
}

pub const OPTIONS: &[OptionDef] = &[
    not_cecp(row(
        Id::Variant,
        "UCI_Variant",
        "UCI_Variant",
        Kind::Combo(&RuleSet::NAMES),
        |c| c.variant.name().to_string(),
        |c, v| {
            // The combo lists `RuleSet::NAMES`, so the name always reads back.
            c.variant = v.text().parse()?;
            Ok(Effect::Variant)
        },
    )),
    not_cecp(row(
        Id::Threads,
        "Threads",
        "threads",
        Kind::Spin {
            min: 1,
            max: MAX_THREADS as i64,
        },
        |c| c.settings.threads.to_string(),
        // Spin ranges are checked before a setter runs, so no cast wraps.
        |c, v| {
            c.settings.threads = v.int() as usize;
            Ok(Effect::Settings)
        },
    )),
    not_cecp(row(
        Id::Hash,
        "Hash",
        "hashsize",
        Kind::Spin {
            min: 1,
            max: MAX_HASH_MB as i64,
        },
        |c| c.settings.hash_mb.to_string(),
        set_hash,
    )),
    row(
        Id::ClearHash,
        "Clear Hash",
        "Clear_Hash",
        Kind::Button,
        |_| String::new(),
        |_, _| Ok(Effect::ClearHash),
    ),
    not_cecp(row(
        Id::Ponder,
        "Ponder",
        "Ponder",
        Kind::Check,
        |c| c.settings.ponder.to_string(),
        |c, v| {
            c.settings.ponder = v.flag();
            Ok(Effect::Settings)
        },
    )),
    row(
        Id::MultiPv,
        "MultiPV",
        "MultiPV",
        Kind::Spin { min: 1, max: 500 },
        |c| c.settings.multipv.to_string(),
        |c, v| {
            c.settings.multipv = v.int() as u32;
            Ok(Effect::Settings)
        },
    ),
    row(
        Id::MoveOverhead,
        "Move Overhead",
        "Move_Overhead",
        Kind::Spin { min: 0, max: 5000 },
        |c| c.settings.move_overhead_ms.to_string(),
        |c, v| {
            c.settings.move_overhead_ms = v.int() as u64;
            Ok(Effect::Settings)
        },
    ),
    row(
        Id::SkillLevel,
        "Skill Level",
        "Skill_Level",
        Kind::Spin { min: -20, max: 20 },
        |c| c.settings.skill_level.to_string(),
        |c, v| {
            c.settings.skill_level = v.int() as i32;
            Ok(Effect::Settings)
        },
    ),
    row(
        Id::LimitStrength,
        "UCI_LimitStrength",
        "UCI_LimitStrength",
        Kind::Check,
        |c| c.settings.limit_strength.to_string(),
        |c, v| {
            c.settings.limit_strength = v.flag();
            Ok(Effect::Settings)
        },
    ),
    row(
        Id::Elo,
        "UCI_Elo",
        "UCI_Elo",
        Kind::Spin {
            min: 500,
            max: 2850,
        },
        |c| c.settings.elo.to_string(),
        |c, v| {
            c.settings.elo = v.int() as u32;
            Ok(Effect::Settings)
        },
    ),
    not_cecp(row(
        Id::AnalyseMode,
        "UCI_AnalyseMode",
        "UCI_AnalyseMode",
        Kind::Check,
        |c| c.settings.analyse_mode.to_string(),
        |c, v| {
            c.settings.analyse_mode = v.flag();
            Ok(Effect::Settings)
        },
    )),
    row(
        Id::ShowWdl,
        "UCI_ShowWDL",
        "UCI_ShowWDL",
        Kind::Check,
        |c| c.settings.show_wdl.to_string(),
        |c, v| {
            c.settings.show_wdl = v.flag();
            Ok(Effect::None)
        },
    ),
    row(
        Id::Ablate,
        "Ablate",
        "Ablate",
        Kind::Combo(Ablation::NAMES),
        |c| c.settings.ablation.name().to_string(),
        |c, v| {
            let name = v.text();
            c.settings.ablation =
                Ablation::from_name(&name).ok_or_else(|| format!("unknown ablation '{name}'"))?;
            Ok(Effect::Settings)
        },
    ),
    row(
        Id::DebugLogFile,
        "Debug Log File",
        "Debug_Log_File",
        Kind::Text,
        |c| c.debug_log.clone(),
        |c, v| {
            c.debug_log = v.text();
            Ok(Effect::DebugLog)
        },
    ),
    row(
        Id::UseNnue,
        "Use NNUE",
        "Use_NNUE",
        Kind::Check,
        |c| c.settings.nnue.is_some().to_string(),
        |c, v| {
            c.settings.nnue = if v.flag() {
                Some(match &c.net {
                    Some(n) => n.clone(),
                    None => crate::nnue::embedded::network()?,
                })
            } else {
                None
            };
            Ok(Effect::Settings)
        },
    ),
    row(
        Id::EvalFile,
        "EvalFile",
        "EvalFile",
        Kind::Text,
        |c| {
            if c.eval_file.is_empty() {
                crate::nnue::embedded::NAME.to_string()
            } else {
                c.eval_file.clone()
            }
        },
        set_eval_file,
    ),
    row(
        Id::SyzygyPath,
        "SyzygyPath",
        "SyzygyPath",
        Kind::Text,
        |c| c.syzygy_path.clone(),
        |c, v| {
            c.syzygy_path = v.text();
            Ok(Effect::None)
        },
    ),
    OptionDef {
        shown: Shown::UcciOnly,
        ..row(
            Id::UseMillisec,
            "usemillisec",
            "usemillisec",
            Kind::Check,
            |c| c.use_millisec.to_string(),
            |c, v| {
                c.use_millisec = v.flag();
                Ok(Effect::None)
            },
        )
    },
    margin_row!(0),
    margin_row!(1),
    margin_row!(2),
    margin_row!(3),
    margin_row!(4),
    margin_row!(5),
    margin_row!(6),
    margin_row!(7),
    margin_row!(8),
    margin_row!(9),
    margin_row!(10),
    margin_row!(11),
    margin_row!(12),
    margin_row!(13),
    margin_row!(14),
];

// One row for each tunable margin: a margin added to `TUNABLES` needs its
// `margin_row!` above, and this stops the build until it has one.
const _: () = assert!(OPTIONS.len() == 18 + crate::search::margins::COUNT);

fn set_hash(c: &mut Config, v: Value) -> Result<Effect, String> {
    let mb = v.int();
    if let Some(total) = physical_memory_mb() {
        if mb as u64 > total / 2 {
            return Err(format!(
                "Hash {mb} MB is more than half of this machine's {total} MB"
            ));
        }
    }
    c.settings.hash_mb = mb as usize;
    Ok(Effect::Settings)
}

fn set_eval_file(c: &mut Config, v: Value) -> Result<Effect, String> {
    let path = v.text();
    // The embedded net by name (or no name) needs no file.
    let net = if path.is_empty() || path == crate::nnue::embedded::NAME {
        crate::nnue::embedded::network()?
    } else {
        Arc::new(crate::nnue::Network::load(std::path::Path::new(&path))?)
    };
    if c.settings.nnue.is_some() {
        c.settings.nnue = Some(net.clone());
    }
    c.net = Some(net);
    c.eval_file = path;
    Ok(Effect::Settings)
}

/// Options Fairy-Stockfish GUIs send that mean nothing here; acknowledged
/// with a note rather than refused (Liground sends `Analysis Contempt`).
const IGNORED: &[&str] = &["UCI_Chess960", "VariantPath", "Analysis Contempt"];

/// Other names GUIs use for an option (fairyground's UCCI mode).
const ALIASES: &[(&str, Id)] = &[("UCCI_Variant", Id::Variant)];

/// Option names compare case-insensitively, with `_` standing for a space
/// (UCCI cannot write spaces in a name).
fn normalise(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('_', " ")
}

pub fn find(name: &str) -> Option<&'static OptionDef> {
    let n = normalise(name);
    let id = ALIASES
        .iter()
        .find(|(a, _)| normalise(a) == n)
        .map(|(_, id)| *id);
    OPTIONS
        .iter()
        .find(|d| Some(d.id) == id || normalise(d.uci) == n || normalise(d.ucci) == n)
}

pub fn is_ignored(name: &str) -> bool {
    let n = normalise(name);
    IGNORED.iter().any(|i| normalise(i) == n)
}

/// The option's value in `config`, as the protocols write it.
pub fn current(config: &Config, id: Id) -> String {
    OPTIONS
        .iter()
        .find(|d| d.id == id)
        .map_or_else(String::new, |d| (d.get)(config))
}

fn parse_value(d: &OptionDef, raw: Option<&str>) -> Result<Value, String> {
    let raw = raw.map(str::trim).filter(|s| !s.is_empty());
    match (d.kind, raw) {
        (Kind::Button, _) => Ok(Value::Press),
        // UCI writes an empty string as `<empty>`.
        (Kind::Text, None | Some("<empty>")) => Ok(Value::Text(String::new())),
        (Kind::Text, Some(v)) => Ok(Value::Text(v.to_string())),
        (_, None) => Err(format!("option '{}' needs a value", d.uci)),
        // XBoard writes a check box as 0/1.
        (Kind::Check, Some(v)) => match v.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" => Ok(Value::Bool(true)),
            "false" | "off" | "0" => Ok(Value::Bool(false)),
            _ => Err(format!(
                "option '{}' takes true or false, not '{}'",
                d.uci,
                clip(v)
            )),
        },
        (Kind::Spin { min, max }, Some(v)) => {
            let digits = v.strip_prefix('-').unwrap_or(v);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "value '{}' for option '{}' is not an integer",
                    clip(v),
                    d.uci
                ));
            }
            match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(Value::Int(n)),
                _ => Err(format!(
                    "value {} for option '{}' is out of range {}..{}",
                    clip(v),
                    d.uci,
                    min,
                    max
                )),
            }
        }
        (Kind::Combo(vars), Some(v)) => vars
            .iter()
            .find(|x| x.eq_ignore_ascii_case(v))
            .map(|x| Value::Name(x))
            .ok_or_else(|| {
                format!(
                    "value '{}' for option '{}' is not one of: {}",
                    clip(v),
                    d.uci,
                    vars.join(" ")
                )
            }),
    }
}

/// Sets an option; on error `config` is unchanged.
pub fn set(config: &mut Config, d: &OptionDef, raw: Option<&str>) -> Result<Effect, String> {
    let v = parse_value(d, raw)?;
    (d.set)(config, v)
}

/// Total RAM in MB where the OS tells us; a Hash beyond half of it would
/// abort the process on allocation.
fn physical_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// The options a dialect's handshake lists, in table order.
pub fn listed(dialect: Dialect) -> impl Iterator<Item = &'static OptionDef> {
    OPTIONS.iter().filter(move |d| match (d.shown, dialect) {
        (Shown::Everywhere, _) => true,
        (Shown::NotCecp, d) => d != Dialect::Cecp,
        (Shown::UcciOnly, d) => d == Dialect::Ucci,
        (Shown::Hidden, _) => false,
    })
}

/// `type ...` part of a UCI/UCCI option line, with the default from `config`.
pub fn describe(config: &Config, d: &OptionDef) -> String {
    let default = (d.get)(config);
    match d.kind {
        Kind::Check => format!("type check default {default}"),
        Kind::Spin { min, max } => format!("type spin default {default} min {min} max {max}"),
        Kind::Combo(vars) => {
            let mut s = format!("type combo default {default}");
            for v in vars {
                s.push_str(" var ");
                s.push_str(v);
            }
            s
        }
        Kind::Button => "type button".to_string(),
        Kind::Text if default.is_empty() => "type string default <empty>".to_string(),
        Kind::Text => format!("type string default {default}"),
    }
}

/// How the option appears in the dialect's handshake.
pub fn render(dialect: Dialect, config: &Config, d: &OptionDef) -> String {
    match dialect {
        Dialect::Uci => format!("option name {} {}", d.uci, describe(config, d)),
        Dialect::Ucci => format!("option {} {}", d.ucci, describe(config, d)),
        Dialect::Cecp => format!("feature option=\"{} {}\"", d.uci, cecp_kind(config, d)),
    }
}

/// CECP's `-spin default min max`, `-check 0|1`, `-combo a /// *b`, ...
fn cecp_kind(config: &Config, d: &OptionDef) -> String {
    let default = (d.get)(config);
    match d.kind {
        Kind::Check => format!("-check {}", u8::from(default == "true")),
        Kind::Spin { min, max } => format!("-spin {default} {min} {max}"),
        Kind::Combo(vars) => {
            let marked: Vec<String> = vars
                .iter()
                .map(|v| {
                    if *v == default {
                        format!("*{v}")
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("-combo {}", marked.join(" /// "))
        }
        Kind::Button => "-button".to_string(),
        Kind::Text => format!("-string {default}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_loosely() {
        assert_eq!(find("skill_level").map(|d| d.id), Some(Id::SkillLevel));
        assert_eq!(find("Skill Level").map(|d| d.id), Some(Id::SkillLevel));
        assert_eq!(find("hashsize").map(|d| d.id), Some(Id::Hash));
        assert_eq!(find("HASH").map(|d| d.id), Some(Id::Hash));
        assert!(find("Hash Size Of Doom").is_none());
        assert!(!is_ignored("use_nnue"));
        assert_eq!(find("use_nnue").map(|d| d.id), Some(Id::UseNnue));
        assert!(is_ignored("UCI_Chess960"));
        // Declared, not ignored: python-chess sets only declared options.
        assert!(!is_ignored("SyzygyPath"));
        assert_eq!(find("syzygypath").map(|d| d.id), Some(Id::SyzygyPath));
        assert!(!is_ignored("Threads"));
    }

    #[test]
    fn bad_values_keep_old() {
        let mut c = Config::default();
        let hash = find("Hash").unwrap();
        for bad in ["-5", "99999999", "abc", "", "1e3"] {
            assert!(set(&mut c, hash, Some(bad)).is_err(), "{bad}");
        }
        assert_eq!(c.settings.hash_mb, Settings::default().hash_mb);
        let th = find("Threads").unwrap();
        assert!(set(&mut c, th, Some("0"))
            .unwrap_err()
            .contains("out of range"));
        assert_eq!(set(&mut c, th, Some("2")), Ok(Effect::Settings));
        assert_eq!(c.settings.threads, 2);
        let v = find("UCI_Variant").unwrap();
        assert!(set(&mut c, v, Some("chess")).is_err());
        assert_eq!(set(&mut c, v, Some("KJA")), Ok(Effect::Variant));
        assert_eq!(c.variant, RuleSet::Kja);
        let sk = find("Skill Level").unwrap();
        assert!(set(&mut c, sk, Some("21")).is_err());
        set(&mut c, sk, Some("-20")).unwrap();
        assert_eq!(c.settings.skill_level, -20);
        let p = find("Ponder").unwrap();
        assert!(set(&mut c, p, Some("maybe")).is_err());
        set(&mut c, p, Some("true")).unwrap();
        assert!(c.settings.ponder);
        assert_eq!(
            set(&mut c, find("clear hash").unwrap(), None),
            Ok(Effect::ClearHash)
        );
    }

    #[test]
    fn describe_reads_defaults() {
        let c = Config::default();
        let d = describe(&c, find("Hash").unwrap());
        assert_eq!(
            d,
            format!(
                "type spin default {} min 1 max {}",
                Settings::default().hash_mb,
                MAX_HASH_MB
            )
        );
        assert!(describe(&c, find("UCI_Variant").unwrap())
            .starts_with("type combo default janggi var janggi var janggitraditional"));
    }

    #[test]
    fn every_margin_is_a_hidden_option_within_its_bounds() {
        let mut c = Config::default();
        for (i, t) in TUNABLES.iter().enumerate() {
            let d = find(t.name).expect(t.name);
            assert_eq!(d.id, Id::Margin(i));
            assert_eq!(current(&c, d.id), t.default.to_string());
            set(&mut c, d, Some(&t.max.to_string())).unwrap();
            assert_eq!(c.settings.margins.get(i), t.max);
            assert!(set(&mut c, d, Some(&(t.max + 1).to_string())).is_err());
            assert_eq!(c.settings.margins.get(i), t.max, "kept");
        }
        for dialect in [Dialect::Uci, Dialect::Ucci, Dialect::Cecp] {
            assert!(listed(dialect).all(|d| !matches!(d.id, Id::Margin(_))));
        }
    }

    #[test]
    fn ablation_names_round_trip() {
        let mut c = Config::default();
        let d = find("ablate").unwrap();
        assert_eq!(current(&c, Id::Ablate), "none");
        for &name in Ablation::NAMES {
            set(&mut c, d, Some(&name.to_uppercase())).unwrap();
            assert_eq!(current(&c, Id::Ablate), name);
        }
        assert!(set(&mut c, d, Some("everything")).is_err());
        // A rejected value keeps the last one set.
        let last = Ablation::NAMES[Ablation::NAMES.len() - 1];
        assert_eq!(current(&c, Id::Ablate), last);
    }
}
