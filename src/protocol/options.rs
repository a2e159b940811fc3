//! The engine's options, declared once. Both dialects print and set them
//! from this table; defaults are read back from `Config::default()` so the
//! table cannot drift from `Settings::default()`.

use super::dialect::Dialect;
use crate::board::RuleSet;
use crate::search::{Ablation, Settings};
use crate::text::clip;

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
    pub net: Option<std::sync::Arc<crate::nnue::Network>>,
    pub eval_file: String,
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

pub struct OptionDef {
    pub id: Id,
    pub uci: &'static str,
    pub ucci: &'static str,
    pub kind: Kind,
    /// Shown only in this dialect (`None`: both).
    pub only: Option<Dialect>,
}

use crate::search::{MAX_HASH_MB, MAX_THREADS};

const fn def(id: Id, uci: &'static str, ucci: &'static str, kind: Kind) -> OptionDef {
    OptionDef {
        id,
        uci,
        ucci,
        kind,
        only: None,
    }
}

pub const OPTIONS: &[OptionDef] = &[
    def(
        Id::Variant,
        "UCI_Variant",
        "UCI_Variant",
        Kind::Combo(&RuleSet::NAMES),
    ),
    def(
        Id::Threads,
        "Threads",
        "threads",
        Kind::Spin {
            min: 1,
            max: MAX_THREADS as i64,
        },
    ),
    def(
        Id::Hash,
        "Hash",
        "hashsize",
        Kind::Spin {
            min: 1,
            max: MAX_HASH_MB as i64,
        },
    ),
    def(Id::ClearHash, "Clear Hash", "Clear_Hash", Kind::Button),
    def(Id::Ponder, "Ponder", "Ponder", Kind::Check),
    def(
        Id::MultiPv,
        "MultiPV",
        "MultiPV",
        Kind::Spin { min: 1, max: 500 },
    ),
    def(
        Id::MoveOverhead,
        "Move Overhead",
        "Move_Overhead",
        Kind::Spin { min: 0, max: 5000 },
    ),
    def(
        Id::SkillLevel,
        "Skill Level",
        "Skill_Level",
        Kind::Spin { min: -20, max: 20 },
    ),
    def(
        Id::LimitStrength,
        "UCI_LimitStrength",
        "UCI_LimitStrength",
        Kind::Check,
    ),
    def(
        Id::Elo,
        "UCI_Elo",
        "UCI_Elo",
        Kind::Spin {
            min: 500,
            max: 2850,
        },
    ),
    def(
        Id::AnalyseMode,
        "UCI_AnalyseMode",
        "UCI_AnalyseMode",
        Kind::Check,
    ),
    def(Id::ShowWdl, "UCI_ShowWDL", "UCI_ShowWDL", Kind::Check),
    def(Id::Ablate, "Ablate", "Ablate", Kind::Combo(Ablation::NAMES)),
    def(
        Id::DebugLogFile,
        "Debug Log File",
        "Debug_Log_File",
        Kind::Text,
    ),
    def(Id::UseNnue, "Use NNUE", "Use_NNUE", Kind::Check),
    def(Id::EvalFile, "EvalFile", "EvalFile", Kind::Text),
    OptionDef {
        id: Id::UseMillisec,
        uci: "usemillisec",
        ucci: "usemillisec",
        kind: Kind::Check,
        only: Some(Dialect::Ucci),
    },
];

/// Options Fairy-Stockfish GUIs send that mean nothing here.
/// python-chess configs set `SyzygyPath`, Liground `Analysis Contempt`.
const IGNORED: &[&str] = &[
    "UCI_Chess960",
    "VariantPath",
    "SyzygyPath",
    "Analysis Contempt",
];

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

/// The option's value in `config`, as the protocol writes it.
pub fn current(config: &Config, id: Id) -> String {
    let s = &config.settings;
    match id {
        Id::Variant => config.variant.name().to_string(),
        Id::Threads => s.threads.to_string(),
        Id::Hash => s.hash_mb.to_string(),
        Id::ClearHash => String::new(),
        Id::Ponder => s.ponder.to_string(),
        Id::MultiPv => s.multipv.to_string(),
        Id::MoveOverhead => s.move_overhead_ms.to_string(),
        Id::SkillLevel => s.skill_level.to_string(),
        Id::LimitStrength => s.limit_strength.to_string(),
        Id::Elo => s.elo.to_string(),
        Id::AnalyseMode => s.analyse_mode.to_string(),
        Id::ShowWdl => s.show_wdl.to_string(),
        Id::UseMillisec => config.use_millisec.to_string(),
        Id::Ablate => s.ablation.name().to_string(),
        Id::DebugLogFile => config.debug_log.clone(),
        Id::UseNnue => s.nnue.is_some().to_string(),
        Id::EvalFile => {
            if config.eval_file.is_empty() {
                crate::nnue::embedded::NAME.to_string()
            } else {
                config.eval_file.clone()
            }
        }
    }
}

/// What the session must do after an option changed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Only the protocol's own state changed.
    None,
    /// The engine needs the new settings.
    Settings,
    ClearHash,
    Variant,
    DebugLog,
}

/// A parsed option value, checked against the option's kind.
enum Value {
    Bool(bool),
    Int(i64),
    Name(&'static str),
    Press,
    Text(String),
}

fn parse_value(d: &OptionDef, raw: Option<&str>) -> Result<Value, String> {
    let raw = raw.map(str::trim).filter(|s| !s.is_empty());
    match (d.kind, raw) {
        (Kind::Button, _) => Ok(Value::Press),
        // UCI writes an empty string as `<empty>`.
        (Kind::Text, None | Some("<empty>")) => Ok(Value::Text(String::new())),
        (Kind::Text, Some(v)) => Ok(Value::Text(v.to_string())),
        (_, None) => Err(format!("option '{}' needs a value", d.uci)),
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
    if d.id == Id::Hash {
        if let (Value::Int(mb), Some(total)) = (&v, physical_memory_mb()) {
            if *mb as u64 > total / 2 {
                return Err(format!(
                    "Hash {mb} MB is more than half of this machine's {total} MB"
                ));
            }
        }
    }
    let s = &mut config.settings;
    let int = |v: &Value| match v {
        Value::Int(n) => *n,
        _ => 0,
    };
    let flag = |v: &Value| matches!(v, Value::Bool(true));
    // Spin ranges are checked above, so these conversions cannot wrap.
    Ok(match d.id {
        Id::Variant => {
            // The combo lists `RuleSet::NAMES`, so the name always reads back.
            if let Value::Name(n) = v {
                config.variant = n.parse().map_err(|e: String| e)?;
            }
            Effect::Variant
        }
        Id::Threads => {
            s.threads = int(&v) as usize;
            Effect::Settings
        }
        Id::Hash => {
            s.hash_mb = int(&v) as usize;
            Effect::Settings
        }
        Id::ClearHash => Effect::ClearHash,
        Id::Ponder => {
            s.ponder = flag(&v);
            Effect::Settings
        }
        Id::MultiPv => {
            s.multipv = int(&v) as u32;
            Effect::Settings
        }
        Id::MoveOverhead => {
            s.move_overhead_ms = int(&v) as u64;
            Effect::Settings
        }
        Id::SkillLevel => {
            s.skill_level = int(&v) as i32;
            Effect::Settings
        }
        Id::LimitStrength => {
            s.limit_strength = flag(&v);
            Effect::Settings
        }
        Id::Elo => {
            s.elo = int(&v) as u32;
            Effect::Settings
        }
        Id::AnalyseMode => {
            s.analyse_mode = flag(&v);
            Effect::Settings
        }
        Id::ShowWdl => {
            s.show_wdl = flag(&v);
            Effect::None
        }
        Id::UseMillisec => {
            config.use_millisec = flag(&v);
            Effect::None
        }
        Id::Ablate => {
            if let Value::Name(n) = v {
                s.ablation =
                    Ablation::from_name(n).ok_or_else(|| format!("unknown ablation '{n}'"))?;
            }
            Effect::Settings
        }
        Id::DebugLogFile => {
            if let Value::Text(t) = v {
                config.debug_log = t;
            }
            Effect::DebugLog
        }
        Id::UseNnue => {
            s.nnue = if flag(&v) {
                Some(match &config.net {
                    Some(n) => n.clone(),
                    None => crate::nnue::embedded::network()?,
                })
            } else {
                None
            };
            Effect::Settings
        }
        Id::EvalFile => {
            let Value::Text(path) = v else {
                return Ok(Effect::None);
            };
            // The embedded net by name (or no name) needs no file.
            let net = if path.is_empty() || path == crate::nnue::embedded::NAME {
                crate::nnue::embedded::network()?
            } else {
                std::sync::Arc::new(crate::nnue::Network::load(std::path::Path::new(&path))?)
            };
            if config.settings.nnue.is_some() {
                config.settings.nnue = Some(net.clone());
            }
            config.net = Some(net);
            config.eval_file = path;
            Effect::Settings
        }
    })
}

/// Total RAM in MB where the OS tells us; a Hash beyond half of it would
/// abort the process on allocation.
fn physical_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// `type ...` part of an option line, with the default from `config`.
pub fn describe(config: &Config, d: &OptionDef) -> String {
    let default = current(config, d.id);
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
