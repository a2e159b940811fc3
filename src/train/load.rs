//! Loading data files for training: every record decoded and checked as a
//! position, then the load filters (what the search saw there, from the
//! version-2 flags) and the dropping of duplicates. Filtering here rather
//! than when the data is written means a change of filter needs no new
//! data; version-1 records carry no flags (they were filtered as they were
//! written), so only the duplicate check applies to them.

use super::datafile::DataReader;
use super::record::{position_key, Flags, Meta, Raw, Sample};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::PathBuf;

/// Which records a load drops. The default is what version 1 kept out
/// when writing: positions in check, a capture for best move, a decided
/// score; plus duplicates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// The side to move in check: the score is about the escape, not the
    /// position.
    pub in_check: bool,
    /// The best move a capture: the score hangs on a tactic the static
    /// evaluation is not meant to see.
    pub captures: bool,
    /// A decided score (mate, win by the rules): no evaluation at all.
    pub decided: bool,
    /// Any capture available that does not lose material.
    pub winning_captures: bool,
    /// The same position with the same side to move as an earlier record
    /// (the first one is kept).
    pub duplicates: bool,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            in_check: true,
            captures: true,
            decided: true,
            winning_captures: false,
            duplicates: true,
        }
    }
}

impl Filter {
    /// The flags, in the order a dropped record is counted under the
    /// first that applies, that this filter drops.
    fn reasons(&self) -> [(bool, u8); 4] {
        [
            (self.in_check, Flags::IN_CHECK),
            (self.captures, Flags::CAPTURE),
            (self.decided, Flags::DECIDED),
            (self.winning_captures, Flags::WINNING_CAPTURE),
        ]
    }
}

/// What a load read and dropped, and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub records: u64,
    pub kept: u64,
    /// Records that do not decode, or decode to no legal position.
    pub skipped: u64,
    /// Dropped by each filter: a record is counted under the first of
    /// in check, capture, decided, winning capture that drops it.
    pub in_check: u64,
    pub captures: u64,
    pub decided: u64,
    pub winning_captures: u64,
    pub duplicates: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.records += o.records;
        self.kept += o.kept;
        self.skipped += o.skipped;
        self.in_check += o.in_check;
        self.captures += o.captures;
        self.decided += o.decided;
        self.winning_captures += o.winning_captures;
        self.duplicates += o.duplicates;
    }

    fn count(&mut self, flag: u8) {
        match flag {
            Flags::IN_CHECK => self.in_check += 1,
            Flags::CAPTURE => self.captures += 1,
            Flags::DECIDED => self.decided += 1,
            _ => self.winning_captures += 1,
        }
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{} records, {} kept; dropped: in check {}, best move a capture {}, \
             decided score {}, winning capture available {}, duplicates {}; \
             {} not legal positions",
            self.records,
            self.kept,
            self.in_check,
            self.captures,
            self.decided,
            self.winning_captures,
            self.duplicates,
            self.skipped
        )
    }
}

/// Records decoded for training.
#[derive(Default)]
pub struct Decoded {
    pub samples: Vec<Sample>,
    /// Records that do not decode, or decode to no legal position.
    pub skipped: u64,
    /// Why the first skipped record was skipped.
    pub first_reason: Option<String>,
    pub counts: Counts,
}

/// Records decoded at once while loading.
const LOAD_CHUNK: usize = 1 << 16;

/// A record's sample, flags and duplicate key, or why it is no position:
/// a net must not learn from boards no game reaches.
fn decode(r: &Raw) -> Result<(Sample, Flags, u64), String> {
    let s = Sample::decode(r)?;
    s.to_position()?;
    let meta = Meta::decode(r)?;
    Ok((s, meta.flags, position_key(r)))
}

/// Reads and decodes data files a chunk at a time (each file's header
/// checked first), applies `filter`, and says for each file what it kept
/// and dropped. Duplicates are dropped across all of `files`.
pub fn load_samples(files: &[PathBuf], filter: &Filter) -> Result<Decoded, String> {
    let mut all = Decoded::default();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut chunk: Vec<Raw> = Vec::with_capacity(LOAD_CHUNK);
    for f in files {
        let mut counts = Counts::default();
        let mut first_reason = None;
        let mut reader = DataReader::open(f)?;
        loop {
            chunk.clear();
            while chunk.len() < LOAD_CHUNK {
                match reader.next_record()? {
                    Some(r) => chunk.push(r),
                    None => break,
                }
            }
            if chunk.is_empty() {
                break;
            }
            let decoded: Vec<_> = chunk.par_iter().map(decode).collect();
            for d in decoded {
                counts.records += 1;
                let (s, flags, key) = match d {
                    Ok(d) => d,
                    Err(e) => {
                        counts.skipped += 1;
                        first_reason.get_or_insert(e);
                        continue;
                    }
                };
                if let Some(&(_, flag)) = filter
                    .reasons()
                    .iter()
                    .find(|&&(on, flag)| on && flags.has(flag))
                {
                    counts.count(flag);
                    continue;
                }
                if filter.duplicates && !seen.insert(key) {
                    counts.duplicates += 1;
                    continue;
                }
                counts.kept += 1;
                all.samples.push(s);
            }
        }
        if let Some(note) = reader.note() {
            eprintln!("{note}");
        }
        eprintln!("{} ({}): {counts}", f.display(), reader.describe());
        if let Some(why) = &first_reason {
            eprintln!(
                "{}: {} records skipped, not legal positions (the first: {why})",
                f.display(),
                counts.skipped
            );
        }
        all.skipped += counts.skipped;
        all.first_reason = all.first_reason.or(first_reason);
        all.counts.add(&counts);
    }
    Ok(all)
}
