//! The moves other threads are searching right now (Kerrigan's simplified ABDADA): a thread that meets
//! a move another thread is in the middle of searching puts it off to the end of its list, so that the
//! threads split a node's moves instead of searching the same ones side by side. The table is a hint
//! and lossy by design: two (node, move) pairs may share a slot, and a slot marked by one thread may be
//! cleared by another; a wrong answer only changes the order in which a move is searched.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots for the (node, move) pairs under search; a power of two.
const SLOTS: usize = 1 << 13;

pub struct Busy {
    slots: Vec<AtomicU64>,
}

impl Default for Busy {
    fn default() -> Busy {
        Busy { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }
}

impl Busy {
    /// The tag of move `mv` at the node of hash `key` (never 0, the empty slot).
    #[inline]
    fn tag(key: u64, mv: usize) -> u64 {
        (key ^ (mv as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    #[inline]
    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag >> 40) as usize & (SLOTS - 1)]
    }

    /// Is another thread searching `mv` at this node?
    #[inline]
    pub fn is_busy(&self, key: u64, mv: usize) -> bool {
        let tag = Busy::tag(key, mv);
        self.slot(tag).load(Ordering::Relaxed) == tag
    }

    /// Marks `mv` at this node as under search; returns the tag for `done`.
    #[inline]
    pub fn start(&self, key: u64, mv: usize) -> u64 {
        let tag = Busy::tag(key, mv);
        self.slot(tag).store(tag, Ordering::Relaxed);
        tag
    }

    /// The search of the move marked with `tag` is over.
    #[inline]
    pub fn done(&self, tag: u64) {
        let _ = self.slot(tag).compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_busy_from_start_to_done_and_only_at_its_node() {
        let busy = Busy::default();
        let (node, other_node) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        assert!(!busy.is_busy(node, 112));
        let tag = busy.start(node, 112);
        assert!(busy.is_busy(node, 112));
        assert!(!busy.is_busy(node, 113));
        assert!(!busy.is_busy(other_node, 112));
        busy.done(tag);
        assert!(!busy.is_busy(node, 112));
    }

    #[test]
    fn done_leaves_a_slot_that_another_move_has_taken_since() {
        let busy = Busy::default();
        let first = busy.start(7, 40);
        // Another pair that lands in the same slot (same high bits of the tag).
        let (key, mv) = (1..u64::MAX)
            .map(|k| (k.wrapping_mul(0xD6E8_FEB8_6659_FD93), 41usize))
            .find(|&(k, m)| {
                let t = Busy::tag(k, m);
                t != first && (t >> 40) & (SLOTS as u64 - 1) == (first >> 40) & (SLOTS as u64 - 1)
            })
            .expect("a colliding pair");
        busy.start(key, mv);
        busy.done(first);
        assert!(busy.is_busy(key, mv));
    }
}
