//! The one seeded generator (splitmix64): the `play` coin, the match's opening shuffle and the opening
//! generator all draw from it, so a seed names the same choices on every machine. Its output function
//! ([`scramble`]) also makes the position's hash keys, from the cell's index instead of a state.
//!
//! Invariant: the whole state is one `u64` ([`Rng::state`]); a generator rebuilt from a saved state
//! with [`Rng::new`] goes on exactly where the saved one stopped. It is not for cryptography.

/// splitmix64's step: 2^64 divided by the golden ratio, odd, so the states run through every `u64`.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output function: a bijection of `u64` that spreads every input bit over the output, so
/// consecutive inputs give unrelated outputs.
#[inline]
pub fn scramble(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose state is `seed` (any value, 0 included, is a good seed for splitmix64).
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The state to save: `Rng::new(state)` continues the same sequence.
    pub fn state(&self) -> u64 {
        self.state
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        scramble(self.state)
    }

    /// A number in `0..n` (0 when `n` is 0): the high word of a 64x64-bit product (Lemire's
    /// multiply-shift), as even as `%` for the small ranges drawn here and without a division.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A number in `lo..=hi` (`lo` when the range is empty).
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    /// Puts `items` in a random order (Fisher-Yates: every order is as likely).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// A seed when none is given: the clock's nanoseconds (the caller tells the user, so a run can be
/// repeated).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_splitmix64_and_resumes_from_its_state() {
        // splitmix64 from state 0: the reference implementation's first outputs.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut copy = Rng::new(r.state());
        assert_eq!(copy.next_u64(), r.next_u64());
    }

    #[test]
    fn ranges_stay_in_bounds_and_cover_them() {
        let mut r = Rng::new(42);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let v = r.between(3, 9);
            assert!((3..=9).contains(&v));
            seen[v - 3] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.between(5, 5), 5);
    }

    #[test]
    fn a_shuffle_is_a_permutation_fixed_by_the_seed() {
        let shuffled = |seed| {
            let mut v: Vec<usize> = (0..41).collect();
            Rng::new(seed).shuffle(&mut v);
            v
        };
        let a = shuffled(7);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..41).collect::<Vec<_>>());
        assert_eq!(a, shuffled(7));
        assert_ne!(a, shuffled(8));
    }
}
