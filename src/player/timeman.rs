//! The time manager: how long one move may take, computed in one place ([`Budget::new`]) from what the
//! manager said (`timeout_turn`, `timeout_match`, `time_left`) and how the player shares a match clock
//! ([`TimeShares`]); our own tools give a move its time in ms through [`Budget::per_move`].
//!
//! It gives two limits, both measured from the moment the move command was read:
//! - `soft`: do not start new work after it (checked between iterations);
//! - `hard`: stop at once (checked inside the search, through the one stop flag).
//!
//! Invariant: `soft <= hard <= min(timeout_turn, time_left) - margin` whenever those are limited; the
//! margin covers the answer's way back through the pipes and a loaded machine, because every manager
//! forfeits a late answer and none promises its tolerance.
//!
//! `timeout_turn 0` follows protocol.md, "Time rules": with a match clock it means "use the match clock
//! only"; with no match clock either, the search is unlimited (analysis) and ends on YXSTOP/STOP or its own
//! depth and node limits. `time_left` may be negative (over time: answer at once) or 2147483647
//! (unlimited).

use std::time::{Duration, Instant};

/// Nodes between two looks at the clock and the stop flag, in the search and the threat solvers
/// alike: a node can cost tens of microseconds (threat defences are tried move by move, renju's
/// forbidden test recurses), so this stays small: at 64 a renju answer took 296 ms of a 300 ms turn.
pub const CHECK_EVERY: u64 = 16;

/// Whether a thought that has counted `nodes` nodes looks at the clock and the stop flag now: the one
/// rhythm of every search that a clock limits.
pub fn time_to_check(nodes: u64) -> bool {
    nodes.is_multiple_of(CHECK_EVERY)
}

/// `time_left` value that managers send for "no match limit".
pub const UNLIMITED_LEFT: i64 = 2_147_483_647;

/// The longest time the manager's numbers are taken to say, in ms (about 35 years): beyond it a
/// limit is as good as none, and the arithmetic below cannot overflow whatever was sent.
const LONGEST_MS: i64 = 1 << 40;

/// What the manager told us about time, in milliseconds as sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub timeout_turn: i64,
    pub timeout_match: i64,
    /// The last `time_left`, if any was sent since the game started.
    pub time_left: Option<i64>,
    /// What the manager's clock loses a move beyond our own thought, ms: its pipes, its window, a
    /// loaded machine (see [`Clock::observe`]). A match clock keeps this much for every move to come.
    pub overhead: i64,
}

/// The overhead assumed until a move has shown it.
const DEFAULT_OVERHEAD_MS: i64 = 20;

impl Default for Clock {
    /// No INFO at all: 5 s a move, no match limit (the spec asks brains to cope with silent managers).
    fn default() -> Clock {
        Clock { timeout_turn: 5_000, timeout_match: 0, time_left: None, overhead: DEFAULT_OVERHEAD_MS }
    }
}

/// How a match clock is shared among the moves to come: the numbers a tuner may move (the search's
/// `Params` carry them, and a player tells its own through `Player::time_shares`). The safety margin
/// is not among them: a tuner's games against ourselves never see the late answers a thinner one
/// would cost under a real manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeShares {
    /// The most moves the clock is spread over (the game lasts at most half the empty cells more of
    /// our moves, and never fewer than one is planned on).
    pub moves_max: i64,
    /// The hard limit is the clock over at most this many moves to come: a move that needs more may
    /// take up to this share.
    pub hard_moves: i64,
    /// No new iteration past the clock over at most this many moves to come.
    pub soft_moves: i64,
    /// With a match clock, no new iteration past this percentage of the turn limit either.
    pub soft_turn_percent: i64,
}

impl TimeShares {
    pub const DEFAULT: TimeShares =
        TimeShares { moves_max: 30, hard_moves: 6, soft_moves: 20, soft_turn_percent: 80 };
}

/// The limits of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub start: Instant,
    /// `None`: no limit.
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// Safety margin kept from a limit of `ms` milliseconds: 25 ms plus 8%. With two games on two cores
/// answers ran past a smaller margin, and at 100 ms a move a scheduler time slice can still eat a
/// 15 ms base. The few more milliseconds of a smaller margin are worth too little to risk a late
/// answer (docs/search.md, "Time").
fn margin(ms: i64) -> i64 {
    25 + ms * 2 / 25
}

impl Clock {
    /// Learns what the manager's clock lost on our last move beyond the `spent` ms we thought: the
    /// match clock fell from `left_before` to `left_now`. Averaged over moves (a quarter the newest, a
    /// single stall counted at most a second), so the clock keeps enough for the moves to come. Under
    /// Piskvork and Wine a move cost about 75 ms more than its thought, and 85 moves of 5 s/120 s
    /// went a second over the match clock.
    pub fn observe(&mut self, left_before: i64, left_now: i64, spent: i64) {
        let lost = left_before.saturating_sub(left_now).saturating_sub(spent).clamp(0, 1000);
        self.overhead = (3 * self.overhead + lost) / 4;
    }

    /// The turn limit and the time left in the match, each `None` when there is none.
    fn limits(&self) -> (Option<i64>, Option<i64>) {
        let clamp = |ms: i64| ms.clamp(-LONGEST_MS, LONGEST_MS);
        let turn = (self.timeout_turn > 0).then_some(clamp(self.timeout_turn));
        let left = match self.time_left {
            Some(UNLIMITED_LEFT) => None,
            Some(t) => Some(clamp(t)),
            None if self.timeout_match > 0 => Some(clamp(self.timeout_match)),
            None => None,
        };
        (turn, left)
    }

    /// Whether a move may think until it is stopped (no turn limit and no match clock).
    pub fn is_unlimited(&self) -> bool {
        self.limits() == (None, None)
    }
}

impl Budget {
    /// The budget of a move whose command was read at `start`, with `empty` empty cells left (the game
    /// cannot last more than half of them more of our moves), a match clock shared by `shares`.
    pub fn new(clock: &Clock, start: Instant, empty: usize, shares: &TimeShares) -> Budget {
        let (turn, left) = clock.limits();
        if turn.is_none() && left.is_none() {
            return Budget { start, soft: None, hard: None };
        }
        // The match clock pays the manager's overhead on every move to come, ours at most half the
        // empty points: that much is not ours to think with.
        let left = left.map(|l| l - clock.overhead.clamp(0, 1000) * (empty as i64 / 2 + 1));
        // Spread the match clock over the moves that may still come, but never plan on fewer than a few.
        let moves_to_go = (empty as i64 / 2).clamp(1, shares.moves_max);
        let hard_share = left.map(|l| l / moves_to_go.min(shares.hard_moves));
        let soft_share = left.map(|l| l / moves_to_go.min(shares.soft_moves));
        let cap = |share: Option<i64>, turn: Option<i64>| -> i64 {
            let raw = match (share, turn) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => unreachable!("one limit at least"),
            };
            (raw - margin(raw.max(0))).max(0)
        };
        let hard = cap(hard_share, turn);
        // Soft, with no match clock: the hard limit itself. Time not spent on this move is not saved
        // for a later one, so the search starts iterations until the hard limit stops it (its last,
        // partial iteration counts when it found a better move). A match clock makes time saved worth
        // something: no new iteration past the soft share of the clock, nor past four fifths of the
        // turn limit (`soft_turn_percent`, less the margin). An iteration takes about twice as long as
        // all before it, so a late one is mostly cut short, but a partial iteration still gives its best
        // move when it beat the previous one: stopping sooner leaves most of the time unused
        // (docs/search.md, "Time").
        let soft = if left.is_none() {
            hard
        } else {
            cap(soft_share, turn.map(|t| t * shares.soft_turn_percent / 100)).min(hard)
        };
        Budget {
            start,
            soft: Some(Duration::from_millis(soft as u64)),
            hard: Some(Duration::from_millis(hard as u64)),
        }
    }

    /// The budget of a move given `ms` alone (0: no limit), from now: how our own tools time a move,
    /// safety margin and all, as a manager's turn limit would (with no match clock, no share applies).
    pub fn per_move(ms: u64, empty: usize) -> Budget {
        let clock =
            Clock { timeout_turn: ms.min(LONGEST_MS as u64) as i64, timeout_match: 0, ..Clock::default() };
        Budget::new(&clock, Instant::now(), empty, &TimeShares::DEFAULT)
    }

    /// No limit at all (analysis, tests).
    pub fn unlimited() -> Budget {
        Budget { start: Instant::now(), soft: None, hard: None }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn past_soft(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s)
    }

    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(turn: i64, matchtime: i64, left: Option<i64>) -> Budget {
        let clock = Clock { timeout_turn: turn, timeout_match: matchtime, time_left: left, overhead: 0 };
        Budget::new(&clock, Instant::now(), 200, &TimeShares::DEFAULT)
    }

    fn ms(d: Option<Duration>) -> i64 {
        d.map_or(-1, |d| d.as_millis() as i64)
    }

    #[test]
    fn turn_limit_with_margin() {
        let b = budget(1000, 0, None);
        assert_eq!(ms(b.hard), 1000 - 105);
        assert!(ms(b.soft) <= ms(b.hard));
    }

    #[test]
    fn turn_only_time_is_spent_to_the_hard_limit() {
        // Nothing saved on this move helps a later one without a match clock.
        let b = budget(300, 0, None);
        assert_eq!(b.soft, b.hard);
        let b = budget(300, 0, Some(UNLIMITED_LEFT));
        assert_eq!(b.soft, b.hard);
        // With one, new iterations stop earlier.
        let b = budget(300, 180_000, Some(180_000));
        assert!(ms(b.soft) < ms(b.hard));
    }

    #[test]
    fn never_past_the_match_clock() {
        let b = budget(30_000, 180_000, Some(200));
        assert!(ms(b.hard) < 200);
        let b = budget(30_000, 180_000, Some(-50));
        assert_eq!(ms(b.hard), 0, "over time: answer at once");
    }

    #[test]
    fn unlimited_left_means_turn_only() {
        let b = budget(1000, 0, Some(UNLIMITED_LEFT));
        assert_eq!(ms(b.hard), 895);
    }

    #[test]
    fn the_extremes_a_manager_may_send_give_limits_without_overflow() {
        let extremes = [i64::MIN, i64::MIN + 1, -1, 0, 1, 2_147_483_647, i64::MAX - 1, i64::MAX];
        for turn in extremes {
            for matchtime in extremes {
                for left in extremes.iter().map(|&l| Some(l)).chain([None]) {
                    let b = budget(turn, matchtime, left);
                    assert!(b.soft <= b.hard, "{turn} {matchtime} {left:?}");
                }
            }
        }
        // A huge turn limit with a short match clock: the clock bounds the move.
        let b = budget(i64::MAX, i64::MAX, Some(2000));
        assert!(ms(b.hard) < 2000 && ms(b.hard) > 0, "{b:?}");
        let b = budget(i64::MAX, 0, None);
        assert!(ms(b.hard) >= 1 << 39, "a huge turn limit is a long one: {b:?}");
    }

    #[test]
    fn the_manager_s_overhead_on_every_move_to_come_is_kept_from_the_match_clock() {
        let clock =
            |overhead| Clock { timeout_turn: 5000, timeout_match: 120_000, time_left: Some(2000), overhead };
        let hard = |c: Clock, empty| ms(Budget::new(&c, Instant::now(), empty, &TimeShares::DEFAULT).hard);
        assert!(hard(clock(0), 100) > 200, "no overhead: a share of the 2 s");
        assert_eq!(hard(clock(40), 100), 0, "51 moves to come at 40 ms each take the 2 s: answer at once");
        assert!(hard(clock(10), 100) < hard(clock(0), 100));
        // Learnt from the clock: a move that cost 75 ms more than its thought, again and again.
        let mut c = Clock::default();
        for _ in 0..20 {
            c.observe(10_000, 10_000 - 175, 100);
        }
        assert!((70..=75).contains(&c.overhead), "{}", c.overhead);
        c.observe(10_000, 0, 0);
        assert!(c.overhead <= 75 + 250, "a stall counts a second at most: {}", c.overhead);
    }

    #[test]
    fn zero_turn_uses_the_match_clock_or_nothing() {
        let b = budget(0, 100_000, Some(100_000));
        assert!(b.hard.is_some() && ms(b.hard) < 100_000 / 6);
        let b = budget(0, 0, None);
        assert_eq!(b.hard, None);
        assert_eq!(b.soft, None);
    }
}
