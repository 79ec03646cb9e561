//! A sharded, thread-safe transposition table keyed by Zobrist game keys.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

/// Passes a Zobrist key through unchanged (it is already uniformly random).
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Shard<V> = Mutex<HashMap<u64, V, BuildHasherDefault<KeyHasher>>>;

const SHARDS: usize = 64;

/// Key -> value map split into shards so rayon workers rarely wait on one lock.
pub struct Table<V> {
    shards: Vec<Shard<V>>,
}

impl<V: Copy> Default for Table<V> {
    fn default() -> Self {
        Table {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
        }
    }
}

impl<V: Copy> Table<V> {
    fn shard(
        &self,
        key: u64,
    ) -> std::sync::MutexGuard<'_, HashMap<u64, V, BuildHasherDefault<KeyHasher>>> {
        // A poisoned shard only means another worker panicked; the map itself is consistent.
        self.shards[(key >> 58) as usize % SHARDS]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The stored value, if any.
    pub fn get(&self, key: u64) -> Option<V> {
        self.shard(key).get(&key).copied()
    }

    /// Store a value, merging with an existing one.
    pub fn merge(&self, key: u64, value: V, combine: impl FnOnce(V, V) -> V) {
        let mut shard = self.shard(key);
        let entry = shard.entry(key).or_insert(value);
        *entry = combine(*entry, value);
    }

    /// Number of stored entries.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).len())
            .sum()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
