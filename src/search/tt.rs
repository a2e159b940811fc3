//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two relaxed `AtomicU64`s: `key ^ data` and `data`. A reader
//! recomputes `key` from both words, so an entry torn by a concurrent writer
//! (one word old, one new) fails the key check and is simply a miss.

use crate::board::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use super::Bound;

const CLUSTER: usize = 4;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// One cache line: a probe touches a single line, never two.
#[derive(Default)]
#[repr(align(64))]
struct Cluster([Entry; CLUSTER]);

const _: () = assert!(std::mem::size_of::<Cluster>() == 64);

/// What a probe finds.
#[derive(Copy, Clone, Debug)]
pub struct TtHit {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// The depth of an entry that keeps only a static evaluation: a node that
/// returned before searching (reverse futility, the null move) would
/// otherwise evaluate again each time the search comes back to it.
pub const EVAL_ONLY: i32 = -1;

impl TtHit {
    /// Whether the entry holds a searched score and bound, not just an
    /// evaluation.
    #[inline]
    pub fn scored(&self) -> bool {
        self.depth > EVAL_ONLY
    }
}

/// A store to a position already in the table keeps the old score unless
/// the new one is exact or searched at least this much less shallowly:
/// a quiescence store must not wipe a deep bound (Fairy-Stockfish's rule).
const KEEP_DEEPER: i32 = 4;

fn bound_bits(b: Bound) -> u64 {
    match b {
        Bound::Upper => 1,
        Bound::Lower => 2,
        Bound::Exact => 3,
    }
}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let m = mv.map_or(0, |m| m.raw()) as u64;
    let s = score.clamp(-32767, 32767) as i16 as u16 as u64;
    let e = eval.clamp(-32767, 32767) as i16 as u16 as u64;
    let d = (depth.clamp(-1, 254) + 1) as u64;
    m | s << 16 | e << 32 | d << 48 | bound_bits(bound) << 56 | ((age as u64) & 63) << 58
}

fn unpack(data: u64) -> (TtHit, u8) {
    let bound = match data >> 56 & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let hit = TtHit {
        mv: Move::from_raw((data & 0xffff) as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: (data >> 48 & 0xff) as i32 - 1,
        bound,
    };
    (hit, (data >> 58) as u8)
}

/// `data` with its age replaced.
fn with_age(data: u64, age: u8) -> u64 {
    data & !(63 << 58) | ((age as u64) & 63) << 58
}

/// The clusters of an `mb` megabyte table, zeroed, or an error if the
/// allocator refuses (a failed allocation must not abort the engine).
fn allocate(mb: usize) -> Result<Vec<Cluster>, String> {
    let bytes = mb
        .max(1)
        .checked_mul(1024 * 1024)
        .ok_or_else(|| format!("a hash table of {mb} MB is too large"))?;
    let n = (bytes / std::mem::size_of::<Cluster>()).max(1);
    let mut clusters = Vec::new();
    clusters
        .try_reserve_exact(n)
        .map_err(|_| format!("cannot allocate a hash table of {mb} MB"))?;
    clusters.resize_with(n, Cluster::default);
    Ok(clusters)
}

pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mb` megabytes, or the largest power-of-two fraction of
    /// it that can be allocated (at least one cluster): never aborts.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            clusters: Vec::new(),
            age: AtomicU8::new(0),
        };
        let _ = tt.resize(mb);
        tt
    }

    /// A table of exactly `mb` megabytes, or an error if it cannot be had.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        Ok(TranspositionTable {
            clusters: allocate(mb)?,
            age: AtomicU8::new(0),
        })
    }

    /// Replaces the table by one of `mb` megabytes. The old table is freed
    /// first, so that a change of size needs memory for one table, not two.
    /// If `mb` cannot be had, the largest of `mb / 2`, `mb / 4`, ... that
    /// can is kept, and the error says which.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        self.clusters = Vec::new();
        let first = match allocate(mb) {
            Ok(c) => {
                self.clusters = c;
                return Ok(());
            }
            Err(e) => e,
        };
        let mut smaller = mb / 2;
        while smaller >= 1 {
            if let Ok(c) = allocate(smaller) {
                self.clusters = c;
                return Err(format!("{first}; using {smaller} MB"));
            }
            smaller /= 2;
        }
        self.clusters = vec![Cluster::default()];
        Err(format!("{first}; using a table of one entry cluster"))
    }

    /// The size in megabytes (rounded down).
    pub fn size_mb(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    pub fn clear(&mut self) {
        for e in self.clusters.iter_mut().flat_map(|c| c.0.iter_mut()) {
            *e.check.get_mut() = 0;
            *e.data.get_mut() = 0;
        }
        *self.age.get_mut() = 0;
    }

    /// A new search starts: older entries become cheaper to replace.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn cluster(&self, key: u64) -> &[Entry; CLUSTER] {
        let i = (((key as u128) * (self.clusters.len() as u128)) >> 64) as usize;
        &self.clusters[i].0
    }

    /// Asks the CPU to start loading `key`'s cluster, so that the probe a
    /// few hundred instructions later finds it in cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.cluster(key) as *const [Entry; CLUSTER] as *const i8;
            // SAFETY: prefetching is a hint that never faults, and `p`
            // points into this table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if the table has one. A hit makes the entry
    /// current again, so that entries that keep cutting are not replaced
    /// as stale on the next move.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let age = self.age.load(Ordering::Relaxed);
        for e in self.cluster(key) {
            let data = e.data.load(Ordering::Relaxed);
            if data != 0 && e.check.load(Ordering::Relaxed) ^ data == key {
                let (hit, old_age) = unpack(data);
                if old_age != age {
                    // Only if no other thread wrote the entry since the
                    // load: a plain store would put the older data back
                    // over its deeper result. A reader between the two
                    // stores sees a mismatch, a miss.
                    let fresh = with_age(data, age);
                    if e.data
                        .compare_exchange(data, fresh, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                    {
                        e.check.store(key ^ fresh, Ordering::Relaxed);
                    }
                }
                return Some(hit);
            }
        }
        None
    }

    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in cluster.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            if data == 0 || e.check.load(Ordering::Relaxed) ^ data == key {
                // Same position: keep the old move if the new store has none,
                // and don't let a shallow bound overwrite a deep exact score.
                if data != 0 {
                    let (old, _) = unpack(data);
                    let mv = mv.or(old.mv);
                    // A much shallower bound keeps the old score; the move
                    // found now (if any) is still the one to try first.
                    let new = if bound != Bound::Exact && depth + KEEP_DEEPER <= old.depth {
                        pack(mv, old.score, old.eval, old.depth, old.bound, age)
                    } else {
                        pack(mv, score, eval, depth, bound, age)
                    };
                    e.check.store(key ^ new, Ordering::Relaxed);
                    e.data.store(new, Ordering::Relaxed);
                    return;
                }
                victim = i;
                break;
            }
            let (old, old_age) = unpack(data);
            let stale = (age.wrapping_sub(old_age) & 63) as i32;
            let value = old.depth - 8 * stale;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let new = pack(mv, score, eval, depth, bound, age);
        let e = &cluster[victim];
        e.check.store(key ^ new, Ordering::Relaxed);
        e.data.store(new, Ordering::Relaxed);
    }

    /// Per mille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = (self.clusters.len() * CLUSTER).min(1000);
        let used = self
            .clusters
            .iter()
            .flat_map(|c| c.0.iter())
            .take(n)
            .filter(|e| {
                let d = e.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn store_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square::new(3), Square::new(12));
        tt.store(0xDEAD_BEEF_1234, Some(m), -1234, 56, 7, Bound::Lower);
        let h = tt.probe(0xDEAD_BEEF_1234).expect("stored");
        assert_eq!(h.mv, Some(m));
        assert_eq!(
            (h.score, h.eval, h.depth, h.bound),
            (-1234, 56, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEF_1235).is_none());
    }

    #[test]
    fn a_shallow_bound_keeps_a_deep_one() {
        let tt = TranspositionTable::new(1);
        let a = Move::new(Square::new(3), Square::new(12));
        let b = Move::new(Square::new(4), Square::new(13));
        tt.store(7, Some(a), 300, 10, 8, Bound::Lower);
        // A quiescence store (depth 0): the depth-8 bound stays, the move
        // found now replaces the old one.
        tt.store(7, Some(b), -50, 10, 0, Bound::Upper);
        let h = tt.probe(7).unwrap();
        assert_eq!(
            (h.score, h.depth, h.bound, h.mv),
            (300, 8, Bound::Lower, Some(b))
        );
        // Without a move the old one stays.
        tt.store(7, None, -50, 10, 1, Bound::Upper);
        assert_eq!(tt.probe(7).unwrap().mv, Some(b));
        // Within four plies, or exact, the new store replaces.
        tt.store(7, None, 120, 10, 5, Bound::Upper);
        assert_eq!(tt.probe(7).unwrap().depth, 5);
        tt.store(7, None, 40, 10, 0, Bound::Exact);
        let h = tt.probe(7).unwrap();
        assert_eq!((h.score, h.depth, h.bound), (40, 0, Bound::Exact));
    }

    #[test]
    fn a_hit_keeps_an_entry_current() {
        let tt = TranspositionTable::new(1);
        // Four positions of one cluster, all deep; searches go by.
        let keys: Vec<u64> = (0..4u64).collect();
        for &k in &keys {
            tt.store(k, None, 0, 0, 20, Bound::Exact);
        }
        for _ in 0..3 {
            tt.new_search();
            // Only the first keeps being found.
            assert!(tt.probe(keys[0]).is_some());
        }
        // A shallow newcomer replaces one of the stale entries, not the
        // entry probed in every search.
        tt.store(99, None, 0, 0, 1, Bound::Upper);
        assert!(tt.probe(keys[0]).is_some());
        assert!(tt.probe(99).is_some());
    }

    #[test]
    fn an_evaluation_alone_is_no_score() {
        let tt = TranspositionTable::new(1);
        tt.store(5, None, 0, 77, EVAL_ONLY, Bound::Upper);
        let h = tt.probe(5).unwrap();
        assert_eq!(h.eval, 77);
        assert!(!h.scored());
        tt.store(5, None, 10, 77, 0, Bound::Lower);
        assert!(tt.probe(5).unwrap().scored());
    }

    #[test]
    fn torn_entry_is_rejected() {
        let tt = TranspositionTable::new(1);
        tt.store(42, None, 10, 0, 3, Bound::Exact);
        let e = &tt.cluster(42)[0];
        // Simulate a torn write: data from another store, check from this one.
        e.data
            .store(pack(None, 99, 0, 9, Bound::Exact, 0), Ordering::Relaxed);
        assert!(tt.probe(42).is_none());
    }
}
