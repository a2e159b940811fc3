//! `janggun datagen stats`: what data files hold, read as the trainer
//! reads them: record counts and versions, the flags, duplicates, the
//! results, the scores, and where the generals stand in their palaces (the
//! nine points a side, over all records: whether buckets by the general's
//! point could pay depends on how the data spreads over them).

use super::datafile::DataReader;
use super::record::{position_key, Flags, Meta, Raw, Sample, VERSION_V1};
use crate::board::{Color, PieceKind};
use crate::search::score::WIN_BOUND;
use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;

/// Upper bounds (exclusive) of the score buckets, centipawns either way;
/// past the last is a decided score.
pub const SCORE_BOUNDS: [i32; 4] = [100, 300, 1000, WIN_BOUND];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileStats {
    pub name: String,
    /// "format version 2", "format version 3, chained version-2 records".
    pub format: String,
    /// The records' version (1 or 2).
    pub version: u32,
    pub records: u64,
    /// The count in the header: fewer than `records` while a datagen is
    /// still writing the file (it counts now and then), or after one was
    /// stopped before its last count.
    pub header_count: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub files: Vec<FileStats>,
    pub records: u64,
    /// Records that do not decode or are no legal position.
    pub invalid: u64,
    pub first_invalid: Option<String>,
    /// Records with flags (version 2).
    pub flagged: u64,
    /// Per entry of `Flags::NAMES`: flagged records with that flag.
    pub flags: [u64; Flags::NAMES.len()],
    /// Flagged records the default load filter keeps (not in check, best
    /// move not a capture, score not decided), duplicates included.
    pub quiet: u64,
    /// Records whose position and side to move an earlier record had.
    pub duplicates: u64,
    /// Results from the side to move's view: loss, draw, win.
    pub results_stm: [u64; 3],
    /// Results from Cho's view: Cho wins, draw, Han wins.
    pub results_cho: [u64; 3],
    /// |score| below each of `SCORE_BOUNDS`, then decided.
    pub scores: [u64; SCORE_BOUNDS.len() + 1],
    /// Sum and largest of the plies of flagged records.
    pub ply_sum: u64,
    pub ply_max: u16,
    /// `palace[side][row][col]`: records with that side's general on that
    /// point, seen from the side's own end as its net perspective sees
    /// the board (row 0 its back rank, col 0 the d-file).
    pub palace: [[[u64; 3]; 3]; 2],
}

impl Stats {
    /// One record of a file of `version`.
    fn add(&mut self, r: &Raw, version: u32, seen: &mut HashSet<u64>) {
        self.records += 1;
        let decoded = Sample::decode(r).and_then(|s| {
            s.to_position()?;
            Ok((s, Meta::decode(r)?))
        });
        let (s, meta) = match decoded {
            Ok(d) => d,
            Err(e) => {
                self.invalid += 1;
                self.first_invalid.get_or_insert(e);
                return;
            }
        };
        if !seen.insert(position_key(r)) {
            self.duplicates += 1;
        }
        self.results_stm[s.result as usize] += 1;
        let cho_view = if s.stm == Color::Cho {
            s.result
        } else {
            2 - s.result
        };
        self.results_cho[2 - cho_view as usize] += 1;
        let v = (s.score as i32).abs();
        let bucket = SCORE_BOUNDS
            .iter()
            .position(|&b| v < b)
            .unwrap_or(SCORE_BOUNDS.len());
        self.scores[bucket] += 1;
        for &(p, sq) in &s.pieces {
            if p.kind() != PieceKind::General {
                continue;
            }
            let (file, rank) = (sq.index() % 9, sq.index() / 9);
            let row = if p.color() == Color::Cho {
                rank
            } else {
                9 - rank
            };
            // A legal position has its generals in their palaces.
            if let (Some(c), true) = (file.checked_sub(3).filter(|&c| c < 3), row < 3) {
                self.palace[p.color().index()][row][c] += 1;
            }
        }
        if version != VERSION_V1 {
            self.flagged += 1;
            for (n, &(bit, _)) in Flags::NAMES.iter().enumerate() {
                self.flags[n] += meta.flags.has(bit) as u64;
            }
            let noisy = Flags::IN_CHECK | Flags::CAPTURE | Flags::DECIDED;
            self.quiet += (meta.flags.0 & noisy == 0) as u64;
            self.ply_sum += meta.ply as u64;
            self.ply_max = self.ply_max.max(meta.ply);
        }
    }
}

/// Reads every file (headers checked first, so a bad one stops the report
/// before any work) and gathers the statistics over all of them.
pub fn gather(files: &[PathBuf]) -> Result<Stats, String> {
    let mut readers = Vec::new();
    for f in files {
        readers.push((f.display().to_string(), DataReader::open(f)?));
    }
    let mut st = Stats::default();
    let mut seen = HashSet::new();
    for (name, mut reader) in readers {
        let version = reader.version();
        let header_count = reader.header_count();
        let before = st.records;
        while let Some(r) = reader.next_record()? {
            st.add(&r, version, &mut seen);
        }
        st.files.push(FileStats {
            name,
            format: reader.describe(),
            version,
            records: st.records - before,
            header_count,
        });
    }
    Ok(st)
}

fn pct(n: u64, of: u64) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for file in &self.files {
            write!(
                f,
                "{}: {}, {} records",
                file.name, file.format, file.records
            )?;
            if file.header_count < file.records {
                write!(
                    f,
                    " (its header counts {}: being written, or its writer stopped \
                     before the last count)",
                    file.header_count
                )?;
            }
            writeln!(f)?;
        }
        let valid = self.records - self.invalid;
        writeln!(
            f,
            "records {}, positions {valid}, not legal positions {}{}",
            self.records,
            self.invalid,
            self.first_invalid
                .as_ref()
                .map_or(String::new(), |e| format!(" (the first: {e})"))
        )?;
        writeln!(
            f,
            "duplicates {} ({:.1}%: same position and side to move as an earlier record)",
            self.duplicates,
            pct(self.duplicates, valid)
        )?;
        writeln!(
            f,
            "flags (of {} version-2 positions; version 1 has none):",
            self.flagged
        )?;
        for (n, (_, name)) in Flags::NAMES.iter().enumerate() {
            writeln!(
                f,
                "  {name:<27} {:>10} {:5.1}%",
                self.flags[n],
                pct(self.flags[n], self.flagged)
            )?;
        }
        writeln!(
            f,
            "  {:<27} {:>10} {:5.1}%",
            "kept by the default filter",
            self.quiet,
            pct(self.quiet, self.flagged)
        )?;
        if self.flagged > 0 {
            writeln!(
                f,
                "ply: mean {:.1}, largest {}",
                self.ply_sum as f64 / self.flagged as f64,
                self.ply_max
            )?;
        }
        let [l, d, w] = self.results_stm;
        writeln!(
            f,
            "results, side to move: win {w} ({:.1}%), draw {d} ({:.1}%), loss {l} ({:.1}%)",
            pct(w, valid),
            pct(d, valid),
            pct(l, valid)
        )?;
        let [c, d, h] = self.results_cho;
        writeln!(
            f,
            "results, by game: Cho wins {c} ({:.1}%), draw {d} ({:.1}%), Han wins {h} ({:.1}%)",
            pct(c, valid),
            pct(d, valid),
            pct(h, valid)
        )?;
        write!(f, "|score|:")?;
        let mut lo = 0;
        for (n, &hi) in SCORE_BOUNDS.iter().enumerate() {
            write!(f, " {lo}..{hi} {:.1}%,", pct(self.scores[n], valid))?;
            lo = hi;
        }
        writeln!(
            f,
            " decided {:.1}%",
            pct(self.scores[SCORE_BOUNDS.len()], valid)
        )?;
        writeln!(
            f,
            "general's palace point, % of positions, each side from its own end \
             (back rank at the bottom; files d e f):"
        )?;
        writeln!(f, "  {:<20}{:<20}both", "Cho", "Han")?;
        for row in (0..3).rev() {
            let mut line = String::from("  ");
            for side in 0..3 {
                for col in 0..3 {
                    let n = if side == 2 {
                        self.palace[0][row][col] + self.palace[1][row][col]
                    } else {
                        self.palace[side][row][col]
                    };
                    let of = if side == 2 { 2 * valid } else { valid };
                    line += &format!("{:>6.1}", pct(n, of));
                }
                line += "  ";
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}
