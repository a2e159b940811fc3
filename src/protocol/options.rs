//! The engine's options, declared once. Each row says how its value is
//! read, how a new value is applied and where it is listed; every dialect's
//! rendering (`option name ...` for UCI, `option ...` for UCCI, `feature
//! option="..."` for CECP) is written here, beside the table, so that no
//! dialect keeps its own copy of either. Defaults are read back from
//! `Config::default()`, so the table cannot drift from `Settings::default()`.

use super::dialect::Dialect;
use crate::board::RuleSet;
use crate::nnue::NetChoice;
use crate::search::margins::{COUNT, TUNABLES};
use crate::search::{Ablation, Settings, MAX_HASH_MB, MAX_THREADS};
use crate::util::text::clip;

/// Everything the options change.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The engine's settings, the evaluation (`Use NNUE`, `EvalFile`)
    /// included.
    pub settings: Settings,
    pub variant: RuleSet,
    /// UCCI: `go` times are in milliseconds instead of seconds.
    pub use_millisec: bool,
    /// Where every protocol line in and out is written (empty: nowhere).
    pub debug_log: String,
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

/// Applies a value of the option's own type. On error `config` must be
/// unchanged.
type Set<T> = fn(&mut Config, T) -> Result<Effect, String>;

/// What an option holds, with how it is read and applied. Each kind's
/// setter takes that kind's type, so a value reaches a setter only as the
/// type its option declares.
#[derive(Copy, Clone)]
pub enum Kind {
    Check {
        get: fn(&Config) -> bool,
        set: Set<bool>,
    },
    /// A whole number within `min..=max` (checked before `set` runs, so
    /// a setter's cast never wraps).
    Spin {
        min: i64,
        max: i64,
        get: fn(&Config) -> i64,
        set: Set<i64>,
    },
    /// One of `names`, as the table spells it whatever case it came in.
    Combo {
        names: &'static [&'static str],
        get: fn(&Config) -> &'static str,
        set: Set<&'static str>,
    },
    Button(fn(&mut Config) -> Result<Effect, String>),
    /// Free text (a file name); empty means none.
    Text {
        get: fn(&Config) -> String,
        set: Set<String>,
    },
    /// Search margin `i`: a spin within its bounds in `TUNABLES`.
    Margin(usize),
}

/// The bounds of margin `i` as an option's.
fn margin_range(i: usize) -> (i64, i64) {
    (TUNABLES[i].min as i64, TUNABLES[i].max as i64)
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

#[derive(Copy, Clone)]
pub struct OptionDef {
    pub id: Id,
    pub uci: &'static str,
    pub ucci: &'static str,
    pub kind: Kind,
    pub shown: Shown,
}

const fn row(id: Id, uci: &'static str, ucci: &'static str, kind: Kind) -> OptionDef {
    OptionDef {
        id,
        uci,
        ucci,
        kind,
        shown: Shown::Everywhere,
    }
}

const fn not_cecp(d: OptionDef) -> OptionDef {
    OptionDef {
        shown: Shown::NotCecp,
        ..d
    }
}

/// The options other than the margins, in the order handshakes list them.
const FIXED: [OptionDef; 18] = [
    not_cecp(row(
        Id::Variant,
        "UCI_Variant",
        "UCI_Variant",
        Kind::Combo {
            names: &RuleSet::NAMES,
            get: |c| c.variant.name(),
            set: |c, name| {
                // The combo lists `RuleSet::NAMES`, so the name always reads back.
                c.variant = name.parse()?;
                Ok(Effect::Variant)
            },
        },
    )),
    not_cecp(row(
        Id::Threads,
        "Threads",
        "threads",
        Kind::Spin {
            min: 1,
            max: MAX_THREADS as i64,
            get: |c| c.settings.threads as i64,
            set: |c, n| {
                c.settings.threads = n as usize;
                Ok(Effect::Settings)
            },
        },
    )),
    not_cecp(row(
        Id::Hash,
        "Hash",
        "hashsize",
        Kind::Spin {
            min: 1,
            max: MAX_HASH_MB as i64,
            get: |c| c.settings.hash_mb as i64,
            set: set_hash,
        },
    )),
    row(
        Id::ClearHash,
        "Clear Hash",
        "Clear_Hash",
        Kind::Button(|_| Ok(Effect::ClearHash)),
    ),
    not_cecp(row(
        Id::Ponder,
        "Ponder",
        "Ponder",
        Kind::Check {
            get: |c| c.settings.ponder,
            set: |c, on| {
                c.settings.ponder = on;
                Ok(Effect::Settings)
            },
        },
    )),
    row(
        Id::MultiPv,
        "MultiPV",
        "MultiPV",
        Kind::Spin {
            min: 1,
            max: 500,
            get: |c| c.settings.multipv.into(),
            set: |c, n| {
                c.settings.multipv = n as u32;
                Ok(Effect::Settings)
            },
        },
    ),
    row(
        Id::MoveOverhead,
        "Move Overhead",
        "Move_Overhead",
        Kind::Spin {
            min: 0,
            max: 5000,
            get: |c| c.settings.move_overhead_ms as i64,
            set: |c, n| {
                c.settings.move_overhead_ms = n as u64;
                Ok(Effect::Settings)
            },
        },
    ),
    row(
        Id::SkillLevel,
        "Skill Level",
        "Skill_Level",
        Kind::Spin {
            min: -20,
            max: 20,
            get: |c| c.settings.skill_level.into(),
            set: |c, n| {
                c.settings.skill_level = n as i32;
                Ok(Effect::Settings)
            },
        },
    ),
    row(
        Id::LimitStrength,
        "UCI_LimitStrength",
        "UCI_LimitStrength",
        Kind::Check {
            get: |c| c.settings.limit_strength,
            set: |c, on| {
                c.settings.limit_strength = on;
                Ok(Effect::Settings)
            },
        },
    ),
    row(
        Id::Elo,
        "UCI_Elo",
        "UCI_Elo",
        Kind::Spin {
            min: 500,
            max: 2850,
            get: |c| c.settings.elo.into(),
            set: |c, n| {
                c.settings.elo = n as u32;
                Ok(Effect::Settings)
            },
        },
    ),
    not_cecp(row(
        Id::AnalyseMode,
        "UCI_AnalyseMode",
        "UCI_AnalyseMode",
        Kind::Check {
            get: |c| c.settings.analyse_mode,
            set: |c, on| {
                c.settings.analyse_mode = on;
                Ok(Effect::Settings)
            },
        },
    )),
    row(
        Id::ShowWdl,
        "UCI_ShowWDL",
        "UCI_ShowWDL",
        Kind::Check {
            get: |c| c.settings.show_wdl,
            set: |c, on| {
                c.settings.show_wdl = on;
                Ok(Effect::None)
            },
        },
    ),
    row(
        Id::Ablate,
        "Ablate",
        "Ablate",
        Kind::Combo {
            names: Ablation::NAMES,
            get: |c| c.settings.ablation.name(),
            set: |c, name| {
                c.settings.ablation = Ablation::from_name(name)
                    .ok_or_else(|| format!("unknown ablation '{name}'"))?;
                Ok(Effect::Settings)
            },
        },
    ),
    row(
        Id::DebugLogFile,
        "Debug Log File",
        "Debug_Log_File",
        Kind::Text {
            get: |c| c.debug_log.clone(),
            set: |c, path| {
                c.debug_log = path;
                Ok(Effect::DebugLog)
            },
        },
    ),
    row(
        Id::UseNnue,
        "Use NNUE",
        "Use_NNUE",
        Kind::Check {
            get: |c| c.settings.eval.network().is_some(),
            set: |c, on| {
                c.settings.eval.set_classical(!on)?;
                Ok(Effect::Settings)
            },
        },
    ),
    row(
        Id::EvalFile,
        "EvalFile",
        "EvalFile",
        Kind::Text {
            get: |c| c.settings.eval.net_file(),
            set: |c, name| {
                c.settings
                    .eval
                    .choose_net(&NetChoice::from_eval_file(&name))?;
                Ok(Effect::Settings)
            },
        },
    ),
    row(
        Id::SyzygyPath,
        "SyzygyPath",
        "SyzygyPath",
        Kind::Text {
            get: |c| c.syzygy_path.clone(),
            set: |c, path| {
                c.syzygy_path = path;
                Ok(Effect::None)
            },
        },
    ),
    OptionDef {
        shown: Shown::UcciOnly,
        ..row(
            Id::UseMillisec,
            "usemillisec",
            "usemillisec",
            Kind::Check {
                get: |c| c.use_millisec,
                set: |c, on| {
                    c.use_millisec = on;
                    Ok(Effect::None)
                },
            },
        )
    },
];

/// Every option: the fixed ones, then one hidden spin option for each
/// tunable margin, named as the margin.
const ALL: [OptionDef; FIXED.len() + COUNT] = {
    let mut all = [FIXED[0]; FIXED.len() + COUNT];
    let mut i = 0;
    while i < all.len() {
        all[i] = if i < FIXED.len() {
            FIXED[i]
        } else {
            let m = i - FIXED.len();
            OptionDef {
                id: Id::Margin(m),
                uci: TUNABLES[m].name,
                ucci: TUNABLES[m].name,
                kind: Kind::Margin(m),
                shown: Shown::Hidden,
            }
        };
        i += 1;
    }
    all
};

pub const OPTIONS: &[OptionDef] = &ALL;

fn set_hash(c: &mut Config, mb: i64) -> Result<Effect, String> {
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
        .map_or_else(String::new, |d| value(config, d))
}

fn value(c: &Config, d: &OptionDef) -> String {
    match d.kind {
        Kind::Check { get, .. } => get(c).to_string(),
        Kind::Spin { get, .. } => get(c).to_string(),
        Kind::Combo { get, .. } => get(c).to_string(),
        Kind::Button(_) => String::new(),
        Kind::Text { get, .. } => get(c),
        Kind::Margin(i) => c.settings.margins.get(i).to_string(),
    }
}

/// XBoard writes a check box as 0/1.
fn parse_check(d: &OptionDef, v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!(
            "option '{}' takes true or false, not '{}'",
            d.uci,
            clip(v)
        )),
    }
}

fn parse_spin(d: &OptionDef, v: &str, (min, max): (i64, i64)) -> Result<i64, String> {
    let digits = v.strip_prefix('-').unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "value '{}' for option '{}' is not an integer",
            clip(v),
            d.uci
        ));
    }
    match v.parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "value {} for option '{}' is out of range {}..{}",
            clip(v),
            d.uci,
            min,
            max
        )),
    }
}

fn parse_combo(d: &OptionDef, v: &str, names: &[&'static str]) -> Result<&'static str, String> {
    names
        .iter()
        .copied()
        .find(|x| x.eq_ignore_ascii_case(v))
        .ok_or_else(|| {
            format!(
                "value '{}' for option '{}' is not one of: {}",
                clip(v),
                d.uci,
                names.join(" ")
            )
        })
}

/// Sets an option from its text (`None`: no value given), read as the
/// option's kind; on error `config` is unchanged.
pub fn set(config: &mut Config, d: &OptionDef, raw: Option<&str>) -> Result<Effect, String> {
    let raw = raw.map(str::trim).filter(|s| !s.is_empty());
    match (d.kind, raw) {
        (Kind::Button(press), _) => press(config),
        // UCI writes an empty string as `<empty>`.
        (Kind::Text { set, .. }, None | Some("<empty>")) => set(config, String::new()),
        (Kind::Text { set, .. }, Some(v)) => set(config, v.to_string()),
        (_, None) => Err(format!("option '{}' needs a value", d.uci)),
        (Kind::Check { set, .. }, Some(v)) => set(config, parse_check(d, v)?),
        (Kind::Spin { min, max, set, .. }, Some(v)) => set(config, parse_spin(d, v, (min, max))?),
        (Kind::Combo { names, set, .. }, Some(v)) => set(config, parse_combo(d, v, names)?),
        (Kind::Margin(i), Some(v)) => {
            // Within the margin's i32 bounds, so the cast keeps it.
            config.settings.margins.0[i] = parse_spin(d, v, margin_range(i))? as i32;
            Ok(Effect::Settings)
        }
    }
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
    let default = value(config, d);
    let spin = |(min, max): (i64, i64)| format!("type spin default {default} min {min} max {max}");
    match d.kind {
        Kind::Spin { min, max, .. } => spin((min, max)),
        Kind::Margin(i) => spin(margin_range(i)),
        Kind::Check { .. } => format!("type check default {default}"),
        Kind::Combo { names, .. } => {
            let mut s = format!("type combo default {default}");
            for v in names {
                s.push_str(" var ");
                s.push_str(v);
            }
            s
        }
        Kind::Button(_) => "type button".to_string(),
        Kind::Text { .. } if default.is_empty() => "type string default <empty>".to_string(),
        Kind::Text { .. } => format!("type string default {default}"),
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
    let default = value(config, d);
    let spin = |(min, max): (i64, i64)| format!("-spin {default} {min} {max}");
    match d.kind {
        Kind::Spin { min, max, .. } => spin((min, max)),
        Kind::Margin(i) => spin(margin_range(i)),
        Kind::Check { .. } => format!("-check {}", u8::from(default == "true")),
        Kind::Combo { names, .. } => {
            let marked: Vec<String> = names
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
        Kind::Button(_) => "-button".to_string(),
        Kind::Text { .. } => format!("-string {default}"),
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
    fn every_value_sets_back() {
        let mut c = Config::default();
        for d in OPTIONS {
            if matches!(d.kind, Kind::Button(_)) {
                continue;
            }
            let v = current(&c, d.id);
            if let Err(e) = set(&mut c, d, Some(&v)) {
                panic!("{} = {v}: {e}", d.uci);
            }
            assert_eq!(current(&c, d.id), v, "{}", d.uci);
        }
    }

    #[test]
    fn use_nnue_off_and_on_keeps_the_net() {
        let mut c = Config::default();
        let (on, file) = (find("Use NNUE").unwrap(), find("EvalFile").unwrap());
        set(&mut c, on, Some("false")).unwrap();
        assert!(c.settings.eval.network().is_none());
        assert!(set(&mut c, file, Some("/nonexistent/net.jnn")).is_err());
        assert_eq!(current(&c, Id::UseNnue), "false");
        set(&mut c, on, Some("true")).unwrap();
        assert_eq!(
            current(&c, Id::EvalFile),
            crate::nnue::embedded::NAME.to_string()
        );
        assert!(c.settings.eval.network().is_some());
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
