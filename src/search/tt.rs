//! The transposition table, shared by all search threads without locks.
//!
//! Each slot is two atomic words: `check = key ^ data` and `data`. A reader accepts a slot only when
//! `check ^ data` equals its key, so a slot torn by two writers racing is simply a miss (the lockless
//! scheme of Hyatt and Mann). Racy overwrites are allowed on purpose: a lost entry costs a little
//! search, a lock on every node would cost much more.
//!
//! `data` packs: move index (16 bits), score (16), depth (8), bound (2), generation (6).
//! Replacement: a slot is overwritten by a deeper or equal search, or by any entry of a newer search.
//! A store without a move (a node that failed low) keeps the move the slot holds for the same position.
//!
//! Invariant: the size is a power of two and at least one slot; memory = 16 bytes a slot.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Option<usize>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct Tt {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
    generation: AtomicU64,
}

const NO_MOVE: u64 = 0xFFFF;

impl Tt {
    /// A table of at most `bytes` bytes (rounded down to a power of two slots, at least 1024).
    ///
    /// Ordinary pages: huge pages (`madvise(MADV_HUGEPAGE)`, as Rapfi has it) ran `bench 12` no faster
    /// on 2 cores, too little to pay for the `libc` dependency.
    pub fn new(bytes: u64) -> Tt {
        let want = (bytes / 16).max(1024);
        let n = 1usize << (63 - want.leading_zeros()) as usize;
        let slots = (0..n).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
        Tt { slots, mask: n - 1, generation: AtomicU64::new(0) }
    }

    pub fn bytes(&self) -> usize {
        self.slots.len() * 16
    }

    /// Forgets everything (YXHASHCLEAR, new rules or a new board size: see `player::Player::clear`).
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become replaceable.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & 63
    }

    /// Asks the processor to bring `key`'s slot into the cache. A hint only: the search calls it
    /// before making the move whose node will probe the key, so the line arrives while the move's
    /// line shapes are recomputed instead of stalling the probe (a probe missed the cache most of
    /// the time: a table of 64 MB against a 2 MB second-level cache).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = &self.slots[key as usize & self.mask];
            // SAFETY: SSE is part of every x86_64 target, and a prefetch reads nothing (the
            // address is a slot of this table anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.as_ptr() as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let check = slot[0].load(Ordering::Relaxed);
        let data = slot[1].load(Ordering::Relaxed);
        if check ^ data != key || data == 0 {
            return None;
        }
        let mv = data & 0xFFFF;
        let bound = match (data >> 40) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            mv: (mv != NO_MOVE).then_some(mv as usize),
            score: ((data >> 16) & 0xFFFF) as u16 as i16 as i32,
            depth: ((data >> 32) & 0xFF) as u8 as i8 as i32,
            bound,
        })
    }

    pub fn store(&self, key: u64, mv: Option<usize>, score: i32, depth: i32, bound: Bound) {
        let slot = &self.slots[key as usize & self.mask];
        let old = slot[1].load(Ordering::Relaxed);
        let generation = self.generation();
        let mut kept = NO_MOVE;
        if old != 0 {
            let old_depth = ((old >> 32) & 0xFF) as u8 as i8 as i32;
            let old_gen = (old >> 42) & 63;
            let same_key = slot[0].load(Ordering::Relaxed) ^ old == key;
            // The same position always takes the newer result, however shallow: Rapfi's rule of
            // keeping a deeper entry played worse (docs/search.md, "Transposition table").
            if old_gen == generation && !same_key && depth < old_depth {
                return;
            }
            if same_key {
                kept = old & 0xFFFF;
            }
        }
        let mv = mv.map_or(kept, |m| m as u64 & 0xFFFF);
        let data = mv
            | ((score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64) << 16)
            | ((depth.clamp(-128, 127) as i8 as u8 as u64) << 32)
            | ((bound as u64) << 40)
            | (generation << 42);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let tt = Tt::new(1 << 20);
        assert_eq!(tt.bytes(), 1 << 20);
        tt.store(0xABCDEF, Some(300), -1234, 7, Bound::Lower);
        let e = tt.probe(0xABCDEF).unwrap();
        assert_eq!(e, Entry { mv: Some(300), score: -1234, depth: 7, bound: Bound::Lower });
        assert!(tt.probe(0xABCDEE).is_none());
        tt.store(0x12, None, 5, -1, Bound::Exact);
        assert_eq!(tt.probe(0x12).unwrap().mv, None);
    }

    #[test]
    fn a_store_without_a_move_keeps_the_positions_move() {
        let tt = Tt::new(1 << 20);
        tt.store(0xABCDEF, Some(112), 40, 6, Bound::Lower);
        // The same position failed low later: its score and bound change, its move stays.
        tt.store(0xABCDEF, None, -30, 7, Bound::Upper);
        let e = tt.probe(0xABCDEF).unwrap();
        assert_eq!(e, Entry { mv: Some(112), score: -30, depth: 7, bound: Bound::Upper });
        // Another position in the same slot gets no move from it.
        let other = 0xABCDEF + (1 << 40);
        tt.store(other, None, 0, 8, Bound::Upper);
        assert_eq!(tt.probe(other).unwrap().mv, None);
    }
}
