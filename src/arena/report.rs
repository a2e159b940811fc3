//! The JSON report of a match (`--json`, `match merge`), read and written
//! with serde. The layout is docs/FORMATS.md's: the conditions as
//! top-level text fields, the totals, and one object per game. The top
//! two levels are written one item a line and everything deeper on one
//! line, so that a game is one line however long.

use super::config::SprtSpec;
use crate::util::outfile::{self, Existing};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// The version this runner writes. Files without the field are version 1
/// (before per-move times and depths, per-engine limits and merges) and
/// are read as well.
pub const VERSION: u32 = 2;

/// Fields in the order they were written, for the conditions and the
/// end reasons (a map would sort them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fields<T>(pub Vec<(String, T)>);

impl<T> Fields<T> {
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<T: Serialize> Serialize for Fields<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The top level's conditions come flattened among the other fields:
/// whatever is text and not a field of [`MatchReport`] is one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conditions(pub Fields<String>);

impl Serialize for Conditions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Conditions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Conditions;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the conditions of a match as text fields")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Conditions, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, serde_json::Value>()? {
                    if let serde_json::Value::String(s) = v {
                        out.push((k, s));
                    }
                }
                Ok(Conditions(Fields(out)))
            }
        }
        d.deserialize_map(V)
    }
}

impl<'de> Deserialize<'de> for Fields<u64> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Fields<u64>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of counts")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Fields<u64>, A::Error> {
                let mut out = Vec::new();
                while let Some(kv) = m.next_entry::<String, u64>()? {
                    out.push(kv);
                }
                Ok(Fields(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// An engine option as the report lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionEntry {
    pub name: String,
    pub value: String,
}

/// One engine, its totals and its statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineEntry {
    pub name: String,
    pub cmd: String,
    /// `None` in a report from before arguments and options were written.
    #[serde(default)]
    pub args: Option<Vec<String>>,
    #[serde(default)]
    pub options: Option<Vec<OptionEntry>>,
    /// Its own limits as `--engine` fields (`tc=5+0.05 nodes=1000`), when
    /// it had any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<String>,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub points: f64,
    pub pentanomial: [u64; 5],
    pub illegal_moves: u64,
    pub crashes: u64,
    pub time_losses: u64,
    pub no_move: u64,
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<SummaryEntry>,
}

/// The statistics once games were played; `None` (`null`) where a value
/// cannot be computed (an error bar from one pair).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryEntry {
    pub score: Option<f64>,
    pub elo: Option<f64>,
    pub elo_error95: Option<f64>,
    pub nelo: Option<f64>,
    pub nelo_error95: Option<f64>,
    pub los: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtEntry {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: String,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    pub state: String,
}

impl SprtEntry {
    /// The test the report ran, without where it stands.
    pub fn spec(&self) -> SprtSpec {
        SprtSpec {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
        }
    }
}

/// A shard that a merged report was made from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardEntry {
    pub file: String,
    pub seed: String,
    pub opening_offset: String,
    pub games: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    pub game: u64,
    pub pairing: u64,
    pub pair: u64,
    pub cho: String,
    pub han: String,
    pub fen: String,
    /// UCI, space-separated, the opening's moves first.
    pub moves: String,
    pub plies: u64,
    pub result: String,
    pub end: String,
    pub termination: String,
    #[serde(default)]
    pub detail: String,
    /// How many of the moves the opening dealt (version 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book_plies: Option<u64>,
    /// Milliseconds and depth of each move after the opening (version 2;
    /// empty for a game taken back from a PGN).
    #[serde(default)]
    pub time_ms: Vec<u64>,
    #[serde(default)]
    pub depth: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchReport {
    #[serde(default = "version_one")]
    pub version: u32,
    #[serde(flatten)]
    pub conditions: Conditions,
    pub games_planned: u64,
    pub games_played: u64,
    pub interrupted: bool,
    /// Whether no search of the match was bounded by time (only nodes or
    /// depth): games from the same opening are then the same games. Typed
    /// once from the command line (`MatchConfig::deterministic`); `None`
    /// in a report written before the field: see [`MatchReport::deterministic`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deterministic: Option<bool>,
    pub engines: Vec<EngineEntry>,
    pub end_reasons: Fields<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards: Option<Vec<ShardEntry>>,
    pub games: Vec<GameEntry>,
}

fn version_one() -> u32 {
    1
}

impl MatchReport {
    pub fn condition(&self, key: &str) -> Option<&str> {
        self.conditions.0.get(key).map(String::as_str)
    }

    /// Whether no search of the match was bounded by time: the recorded
    /// field, or for a report written before it, what its text conditions
    /// and engine limits say.
    pub fn deterministic(&self) -> bool {
        self.deterministic
            .unwrap_or_else(|| self.deterministic_from_text())
    }

    /// The old reading, kept only for reports without `deterministic`:
    /// the match's limits from its conditions (`time_control` "-" is no
    /// clock, "none" no limit) and each engine's own limits as the
    /// `--engine` fields it was given (`tc=`, `movetime=` are time).
    fn deterministic_from_text(&self) -> bool {
        let cond = |k: &str| self.condition(k).unwrap_or("none");
        let match_timed = cond("time_control") != "-" || cond("movetime") != "none";
        let match_bounded = cond("nodes") != "none" || cond("depth") != "none";
        self.engines.iter().all(|e| match e.limits.as_deref() {
            Some(l) => !l.contains("tc=") && !l.contains("movetime="),
            None => !match_timed && match_bounded,
        })
    }
}

/// `x` as JSON can hold it (JSON has no NaN or infinity).
pub fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// serde_json's pretty layout for the top two levels, its compact one
/// (with spaces after `:` and `,`) below.
#[derive(Default)]
struct Layout {
    depth: usize,
    has_value: bool,
}

/// Containers at this depth or above are written one item a line.
const OPEN: usize = 2;

impl Layout {
    fn open(&mut self, w: &mut (impl Write + ?Sized), c: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(c)
    }

    fn close(&mut self, w: &mut (impl Write + ?Sized), c: &[u8]) -> std::io::Result<()> {
        let was_open = self.depth <= OPEN;
        self.depth -= 1;
        if was_open && self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        self.has_value = true;
        w.write_all(c)
    }

    fn indent(&self, w: &mut (impl Write + ?Sized)) -> std::io::Result<()> {
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn item(&mut self, w: &mut (impl Write + ?Sized), first: bool) -> std::io::Result<()> {
        if self.depth <= OPEN {
            w.write_all(if first { b"\n" } else { b",\n" })?;
            self.indent(w)
        } else if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }
}

impl serde_json::ser::Formatter for Layout {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// The report as text, with a final line feed.
pub fn to_text(r: &MatchReport) -> Result<String, String> {
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, Layout::default());
    r.serialize(&mut ser)
        .map_err(|e| format!("writing the JSON report: {e}"))?;
    buf.push(b'\n');
    String::from_utf8(buf).map_err(|e| format!("writing the JSON report: {e}"))
}

/// Writes the report aside and renames it, so that an interruption never
/// leaves half a file under the name, once `existing` accepts what stands
/// there.
pub fn write(path: &Path, r: &MatchReport, existing: &Existing) -> Result<(), String> {
    outfile::write_whole(path, existing, to_text(r)?.as_bytes())
}

/// What a match's `--json` may replace: a match's own report (its own,
/// when it resumes or runs again), never a merge of many, nor any other file.
pub fn match_report_at(path: &Path) -> Result<(), String> {
    match read(path).map_err(|e| not_a(path, "match report", &e))? {
        Some(r) if r.shards.is_some() => Err(format!(
            "{}: a merged report, not one match's own",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// `path` is not a `what`, for the reason `read` gave.
fn not_a(path: &Path, what: &str, why: &str) -> String {
    let shown = path.display().to_string();
    let why = why
        .strip_prefix(&shown)
        .and_then(|w| w.strip_prefix(": "))
        .unwrap_or(why);
    format!("{shown}: exists and is not a {what} ({why})")
}

/// What `match merge` may replace: a merged report (one it wrote before).
/// A shard there is a command line with its output left out.
pub fn merged_report_at(path: &Path) -> Result<(), String> {
    match read(path).map_err(|e| not_a(path, "merged report", &e))? {
        Some(r) if r.shards.is_none() => Err(format!(
            "{}: a match's own report, not a merge: give the output first",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// Reads a report from text. Errors name the field (`games[3].plies`) and
/// say what was wrong; a file cut short says so.
pub fn parse(text: &str) -> Result<MatchReport, String> {
    // The fields that make a file a match report are looked for first, so
    // that another JSON file is told apart from a damaged report.
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) if e.is_eof() => {
            return Err(format!(
                "JSON cut short ({e}): a file still being written or truncated"
            ))
        }
        Err(e) => return Err(format!("not JSON: {e}")),
    };
    for key in ["rules", "games"] {
        if value.get(key).is_none() {
            return Err(format!("no \"{key}\": not a JSON report of janggun match"));
        }
    }
    // Read again from the text, not the value: a value's objects are
    // sorted by key, and the conditions and end reasons keep their order.
    let mut de = serde_json::Deserializer::from_str(text);
    let r: MatchReport = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        format!("\"{path}\": {}", e.into_inner())
    })?;
    if r.version > VERSION {
        return Err(format!(
            "report version {} (this janggun reads up to {VERSION}): written by a newer janggun",
            r.version
        ));
    }
    if let Some(s) = &r.sprt {
        s.spec().check().map_err(|e| format!("\"sprt\": {e}"))?;
    }
    Ok(r)
}

/// The largest report `read` takes. A game is about 2 KB of it (its moves,
/// times and depths on one line), so this is some 500,000 games, more than
/// a match is played in before it is split into shards; the parsed tree
/// takes a few times the text, which must still fit in memory. A larger
/// file is not a report of ours.
pub const MAX_REPORT_BYTES: u64 = 1 << 30;

/// Reads a report file; `Ok(None)` when there is none yet. Only a regular
/// file is opened (a FIFO would block, a device never end), and no more
/// than `MAX_REPORT_BYTES` of it read.
pub fn read(path: &Path) -> Result<Option<MatchReport>, String> {
    let Some(bytes) = crate::util::file::read_capped_if_exists(path, MAX_REPORT_BYTES)? else {
        return Ok(None);
    };
    let at = |e: &str| format!("{}: {e}", path.display());
    let text = String::from_utf8(bytes).map_err(|_| at("JSON report expected, not UTF-8 text"))?;
    parse(&text).map(Some).map_err(|e| at(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> MatchReport {
        MatchReport {
            version: VERSION,
            conditions: Conditions(Fields(vec![
                ("rules".into(), "janggi".into()),
                ("seed".into(), "7".into()),
            ])),
            games_planned: 2,
            games_played: 1,
            interrupted: false,
            deterministic: Some(true),
            engines: vec![EngineEntry {
                name: "a \"b\"\n\u{1}é".into(),
                cmd: "/bin/a".into(),
                args: Some(vec!["-x".into()]),
                options: Some(vec![OptionEntry {
                    name: "Hash".into(),
                    value: "64".into(),
                }]),
                limits: Some("tc=5+0.05".into()),
                games: 1,
                wins: 1,
                draws: 0,
                losses: 0,
                points: 1.0,
                pentanomial: [0, 0, 0, 0, 0],
                illegal_moves: 0,
                crashes: 0,
                time_losses: 0,
                no_move: 0,
                summary: Some(SummaryEntry {
                    score: Some(1.0),
                    elo: finite(f64::INFINITY),
                    elo_error95: finite(f64::NAN),
                    nelo: None,
                    nelo_error95: None,
                    los: Some(1.0),
                }),
            }],
            end_reasons: Fields(vec![("checkmate".into(), 1), ("bikjang".into(), 0)]),
            sprt: None,
            shards: None,
            games: vec![GameEntry {
                game: 1,
                pairing: 0,
                pair: 0,
                cho: "a".into(),
                han: "b".into(),
                fen: "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into(),
                moves: "e1e2 e10e9".into(),
                plies: 2,
                result: "1-0".into(),
                end: "checkmate".into(),
                termination: "normal".into(),
                detail: String::new(),
                book_plies: Some(1),
                time_ms: vec![12],
                depth: vec![7],
            }],
        }
    }

    #[test]
    fn round_trip_and_layout() {
        let r = sample();
        let text = to_text(&r).unwrap();
        assert_eq!(parse(&text).unwrap(), r);
        // Conditions first, one a line; a game on one line.
        assert!(text
            .starts_with("{\n  \"version\": 2,\n  \"rules\": \"janggi\",\n  \"seed\": \"7\",\n"));
        assert!(
            text.contains("\n    {\"game\": 1, \"pairing\": 0,"),
            "{text}"
        );
        assert!(
            text.contains("\"time_ms\": [12], \"depth\": [7]}\n"),
            "{text}"
        );
        assert!(text.contains("\"elo\": null"), "{text}");
        // Order of the end reasons is kept.
        let back = parse(&text).unwrap();
        assert_eq!(back.end_reasons.0[0].0, "checkmate");
    }

    #[test]
    fn damaged_files_are_named_for_what_is_wrong() {
        let text = to_text(&sample()).unwrap();
        let cut = parse(&text[..text.len() / 2]).unwrap_err();
        assert!(cut.contains("cut short"), "{cut}");
        let bad = text.replacen("\"plies\": 2", "\"plies\": -2", 1);
        let err = parse(&bad).unwrap_err();
        assert!(err.contains("games[0].plies"), "{err}");
        let err = parse("{\"a\": 1}").unwrap_err();
        assert!(err.contains("not a JSON report"), "{err}");
        let err = parse("[1,]").unwrap_err();
        assert!(err.contains("not JSON"), "{err}");
        let newer = text.replacen("\"version\": 2", "\"version\": 3", 1);
        assert!(parse(&newer).unwrap_err().contains("newer"));
        // A report from before the version field is version 1.
        let old = text.replacen("\"version\": 2,\n", "", 1);
        assert_eq!(parse(&old).unwrap().version, 1);
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn a_report_without_the_deterministic_field_is_read_from_its_conditions() {
        let text = to_text(&sample()).unwrap();
        assert!(text.contains("\"deterministic\": true"), "{text}");
        let old = text.replacen("  \"deterministic\": true,\n", "", 1);
        let mut r = parse(&old).unwrap();
        assert_eq!(r.deterministic, None);
        // Its engine has tc=5+0.05 of its own: timed.
        assert!(!r.deterministic());
        r.engines[0].limits = Some("nodes=300".into());
        assert!(r.deterministic());
        r.engines[0].limits = None;
        r.conditions.0 .0.push(("time_control".into(), "-".into()));
        assert!(!r.deterministic(), "no limit at all is no fixed limit");
        r.conditions.0 .0.push(("depth".into(), "7".into()));
        assert!(r.deterministic());
        r.deterministic = Some(false);
        assert!(!r.deterministic(), "the field, where it is, decides");
    }

    #[test]
    fn an_sprt_is_read_only_within_the_bounds_sprt_takes() {
        let mut r = sample();
        let entry = |alpha: f64, elo1: f64| SprtEntry {
            elo0: 0.0,
            elo1,
            alpha,
            beta: 0.05,
            model: "normalized".into(),
            llr: 0.0,
            lower_bound: -2.94,
            upper_bound: 2.94,
            state: "continue".into(),
        };
        r.sprt = Some(entry(0.05, 5.0));
        assert!(parse(&to_text(&r).unwrap()).is_ok());
        for (alpha, elo1, why) in [
            (1.5, 5.0, "alpha"),
            (0.5, 5.0, "alpha"),
            (0.05, -5.0, "elo0 < elo1"),
        ] {
            r.sprt = Some(entry(alpha, elo1));
            let err = parse(&to_text(&r).unwrap()).unwrap_err();
            assert!(err.contains("\"sprt\"") && err.contains(why), "{err}");
        }
    }
}
