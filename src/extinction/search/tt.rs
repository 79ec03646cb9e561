//! Transposition table: a fixed-size array of 4-entry buckets sized by the `Hash` option.
//!
//! Each entry is two atomics, the key stored XOR-ed with the data, so that several search
//! threads may read and write without locks: a torn write shows up as a key mismatch and is
//! simply treated as a miss.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Entries per bucket (one 64-byte cache line).
const BUCKET_SIZE: usize = 4;

/// Kind of bound a stored score represents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No usable bound (entry only carries a move/eval).
    None = 0,
    /// Score is an upper bound (fail low).
    Upper = 1,
    /// Score is a lower bound (fail high).
    Lower = 2,
    /// Score is exact (PV node).
    Exact = 3,
}

impl Bound {
    /// What a node's best score says about its true value, searched with window
    /// (`alpha`, `beta`).
    pub fn of_result(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// What a probe returns: a packed move (0 = none), score, static eval, depth and bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Packed move, see `movepick::pack_move`; 0 when none.
    pub packed_move: u16,
    /// Search score, mate scores relative to the probing node (see `search::score_from_tt`).
    pub score: i16,
    /// Static evaluation of the position.
    pub eval: i16,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    /// Bound type of `score`.
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

fn pack(hit: &TtHit, generation: u8) -> u64 {
    (hit.packed_move as u64)
        | ((hit.score as u16 as u64) << 16)
        | ((hit.eval as u16 as u64) << 32)
        | ((hit.depth as u64) << 48)
        | ((hit.bound as u64) << 56)
        | (((generation & 63) as u64) << 58)
}

fn unpack(data: u64) -> (TtHit, u8) {
    let hit = TtHit {
        packed_move: data as u16,
        score: (data >> 16) as u16 as i16,
        eval: (data >> 32) as u16 as i16,
        depth: (data >> 48) as u8,
        bound: Bound::from_bits(data >> 56),
    };
    (hit, ((data >> 58) & 63) as u8)
}

/// The shared transposition table.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    buckets: usize,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table using about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1).saturating_mul(1024 * 1024);
        let buckets = (bytes / (BUCKET_SIZE * std::mem::size_of::<Entry>())).max(1);
        let mut entries = Vec::new();
        entries.resize_with(buckets * BUCKET_SIZE, Entry::default);
        TranspositionTable {
            entries,
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in MiB this table was built for (rounded down).
    pub fn size_mb(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>() / (1024 * 1024)
    }

    /// Forget everything (used by `ucinewgame` / `new`).
    pub fn clear(&self) {
        for e in &self.entries {
            e.key_xor_data.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Start a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & 63
    }

    fn bucket(&self, key: u64) -> &[Entry] {
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.entries[index * BUCKET_SIZE..(index + 1) * BUCKET_SIZE]
    }

    /// Look `key` up.
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in self.bucket(key) {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Store a result for `key`, replacing the same position or the least valuable entry.
    pub fn store(&self, key: u64, hit: TtHit) {
        let generation = self.generation();
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for e in bucket {
            let data = e.data.load(Ordering::Relaxed);
            let stored_key = e.key_xor_data.load(Ordering::Relaxed) ^ data;
            if data == 0 || stored_key == key {
                victim = e;
                if stored_key == key && data != 0 {
                    let (old, _) = unpack(data);
                    // Keep a deeper result for the same position unless the new one is exact.
                    if hit.bound != Bound::Exact && old.depth as i32 > hit.depth as i32 + 3 {
                        return;
                    }
                    let mut hit = hit;
                    if hit.packed_move == 0 {
                        hit.packed_move = old.packed_move;
                    }
                    let new = pack(&hit, generation);
                    e.data.store(new, Ordering::Relaxed);
                    e.key_xor_data.store(key ^ new, Ordering::Relaxed);
                    return;
                }
                break;
            }
            let (old, old_gen) = unpack(data);
            let age = (generation.wrapping_sub(old_gen) & 63) as i32;
            let worth = old.depth as i32 - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let new = pack(&hit, generation);
        victim.data.store(new, Ordering::Relaxed);
        victim.key_xor_data.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                data != 0 && unpack(data).1 == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(depth: u8, score: i16) -> TtHit {
        TtHit {
            packed_move: 0x1234,
            score,
            eval: -77,
            depth,
            bound: Bound::Lower,
        }
    }

    #[test]
    fn store_then_probe_round_trips_negative_values() {
        let tt = TranspositionTable::new(1);
        tt.store(0xdead_beef_0000_0001, hit(9, -31000));
        assert_eq!(tt.probe(0xdead_beef_0000_0001), Some(hit(9, -31000)));
        assert_eq!(tt.probe(0xdead_beef_0000_0002), None);
    }

    #[test]
    fn clear_forgets() {
        let tt = TranspositionTable::new(1);
        tt.store(42, hit(1, 5));
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn full_bucket_keeps_working() {
        let tt = TranspositionTable::new(1);
        // Many keys colliding into few buckets must never break probing of the newest.
        for k in 1..10_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.store(key, hit((k % 30) as u8, k as i16));
            assert_eq!(tt.probe(key).map(|h| h.score), Some(k as i16));
        }
        assert!(tt.hashfull() > 0);
    }

    #[test]
    fn size_follows_megabytes() {
        assert_eq!(TranspositionTable::new(4).size_mb(), 4);
    }
}
