//! One of the disjoint parts of a long run that several machines (or processes) share: a match, a
//! self-play run, a tuning run, a labelling run (`--shard K/N`). Each part is the same on every
//! machine, and the parts together are the whole run.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One of `count` disjoint parts of a match (`--shard index/count`, `index` from 1): game k of every
/// pairing belongs to shard (k / 2 mod count) + 1, so the two games of an opening (its colours
/// swapped) stay together and every shard has the pairings interleaved as the whole run has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` with 1 <= K <= N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not K/N with 1 <= K <= N (as 2/5)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let shard = Shard {
            index: k.trim().parse().map_err(|_| bad())?,
            count: n.trim().parse().map_err(|_| bad())?,
        };
        shard.check().map_err(|_| bad())?;
        Ok(shard)
    }

    /// Whether its number is one of its count's.
    pub fn check(&self) -> Result<(), String> {
        if (1..=self.count).contains(&self.index) {
            Ok(())
        } else {
            Err(format!("shard {self}: its number must be from 1 to {}", self.count))
        }
    }

    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// Whether game `k` of a pairing (from 0) is this shard's.
    pub fn owns(&self, k: usize) -> bool {
        self.takes(k / 2)
    }

    /// Whether item `n` of a run cut into `count` interleaved parts (a batch of games, a game to
    /// label) is this shard's.
    pub fn takes(&self, n: usize) -> bool {
        n % self.count == self.index - 1
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
