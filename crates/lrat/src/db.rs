//! The live clauses: one flat arena of literals and a map from clause id to
//! the clause's place in it. Deleted clauses leave garbage that is
//! compacted away once it is half the arena, so memory follows the live
//! clauses, not the proof.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Hashes a clause id with one multiplication: ids are sequential numbers
/// from the proof, not attacker-chosen keys that need SipHash.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        // Fold the high bits, which the multiplication mixes best, into
        // the low bits that pick the bucket.
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, id: u64) {
        self.0 = id.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Where a clause lives in the arena.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    len: usize,
}

/// Live clauses by id.
pub(crate) struct Db {
    arena: Vec<i32>,
    index: HashMap<u64, Span, BuildHasherDefault<IdHasher>>,
    garbage: usize,
}

impl Db {
    pub(crate) fn new() -> Self {
        Db {
            arena: Vec::new(),
            index: HashMap::default(),
            garbage: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.index.len()
    }

    pub(crate) fn contains(&self, id: u64) -> bool {
        self.index.contains_key(&id)
    }

    /// Stores `lits` under `id`, which must not be live.
    pub(crate) fn insert(&mut self, id: u64, lits: &[i32]) {
        let span = Span {
            start: self.arena.len(),
            len: lits.len(),
        };
        self.arena.extend_from_slice(lits);
        if let Some(old) = self.index.insert(id, span) {
            // Callers check liveness first; keep the arena honest anyway.
            self.garbage += old.len;
        }
    }

    #[inline]
    pub(crate) fn get(&self, id: u64) -> Option<&[i32]> {
        let span = self.index.get(&id)?;
        self.arena.get(span.start..span.start + span.len)
    }

    /// Removes `id`; false when it was not live.
    pub(crate) fn remove(&mut self, id: u64) -> bool {
        match self.index.remove(&id) {
            Some(span) => {
                self.garbage += span.len;
                if self.garbage > (1 << 16) && self.garbage * 2 > self.arena.len() {
                    self.compact();
                }
                true
            }
            None => false,
        }
    }

    fn compact(&mut self) {
        let mut arena = Vec::with_capacity(self.arena.len() - self.garbage);
        // Clauses keep their arena order, so what was read together stays
        // together.
        let mut spans: Vec<&mut Span> = self.index.values_mut().collect();
        spans.sort_unstable_by_key(|s| s.start);
        for span in spans {
            let start = arena.len();
            arena.extend_from_slice(&self.arena[span.start..span.start + span.len]);
            span.start = start;
        }
        self.arena = arena;
        self.garbage = 0;
        if self.index.capacity() > 4 * self.index.len() + 1024 {
            self.index.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Db;

    #[test]
    fn deleted_clauses_are_compacted_and_live_ones_kept() {
        let mut db = Db::new();
        for id in 1..=100_000u64 {
            let lit = i32::try_from(id).unwrap();
            db.insert(id, &[lit, -lit, 1]);
        }
        for id in (1..=100_000u64).filter(|id| id % 10 != 0) {
            assert!(db.remove(id));
        }
        assert!(!db.remove(1));
        assert_eq!(db.len(), 10_000);
        assert!(db.arena.len() < 3 * 100_000 / 2, "compaction ran");
        for id in (10..=100_000u64).step_by(10) {
            let lit = i32::try_from(id).unwrap();
            assert_eq!(db.get(id), Some(&[lit, -lit, 1][..]));
        }
        assert_eq!(db.get(5), None);
    }
}
