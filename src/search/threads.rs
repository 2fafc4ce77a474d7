//! The helper threads of a search (Lazy SMP): each deepens alongside the main thread, and all of
//! them share the table, the deepest completed iteration and the moves under search. The main
//! thread's deepening is `driver`'s.

use super::*;

/// A root move an iteration chose: the move, its score, and the depth it was searched to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Best {
    pub mv: usize,
    pub score: i32,
    pub depth: i32,
}

/// The deepest completed iteration of any thread: its best move and principal variation.
#[derive(Clone)]
pub(super) struct Published {
    pub best: Best,
    pub pv: Vec<usize>,
}

/// What the threads of one search share besides the table.
pub(super) struct Shared {
    /// Nodes counted by every thread (for the node limit and the rate).
    pub nodes: AtomicU64,
    /// The main thread has finished: helpers stop deepening.
    pub done: AtomicBool,
    /// The helpers' stop flag (the manager's stop flag is the main thread's alone).
    pub helper_stop: AtomicBool,
    /// The deepest iteration completed by any thread, and its result: the others abandon that depth
    /// and search past it (a depth rarely takes two threads to the end), and the move played is the
    /// deepest one found.
    pub completed: AtomicI32,
    published: Mutex<Option<Published>>,
    /// The moves the threads are searching (see `busy`).
    pub busy: Busy,
}

impl Shared {
    pub fn new() -> Shared {
        Shared {
            nodes: AtomicU64::new(0),
            done: AtomicBool::new(false),
            helper_stop: AtomicBool::new(false),
            completed: AtomicI32::new(0),
            published: Mutex::new(None),
            busy: Busy::default(),
        }
    }

    /// Offers a completed iteration; it is kept when it is the deepest yet.
    pub fn publish(&self, best: Best, pv: &[usize]) {
        let mut p = self.published.lock().unwrap_or_else(PoisonError::into_inner);
        if p.as_ref().is_none_or(|p| best.depth > p.best.depth) {
            *p = Some(Published { best, pv: pv.to_vec() });
            self.completed.store(best.depth, Ordering::Relaxed);
        }
    }

    /// The deepest completed iteration, or depth 0 with `first` before any.
    pub fn deepest(&self, first: usize) -> Published {
        let p = self.published.lock().unwrap_or_else(PoisonError::into_inner);
        p.clone().unwrap_or(Published { best: Best { mv: first, score: 0, depth: 0 }, pv: vec![] })
    }
}

/// A helper thread's deepening: alongside the main thread, past the deepest depth any thread has
/// completed. At the same depth the threads split the moves through `busy`, which makes two threads
/// reach a depth sooner than a helper a ply ahead does (docs/search.md, "Threads").
pub(super) fn help(pos: Position, mut moves: Vec<usize>, setup: &Setup, shared: &Shared) {
    let mut w = Worker::new(pos, setup, &shared.helper_stop, &shared.nodes, false);
    w.busy = Some(&shared.busy);
    w.completed = Some(&shared.completed);
    let mut pv = vec![];
    let mut depth = 1;
    let mut last = None;
    while depth <= setup.max_depth && !shared.done.load(Ordering::Relaxed) {
        let score = w.root(&mut moves, depth, &mut pv, last);
        if shared.helper_stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(score) = score
            && !w.aborted
        {
            shared.publish(Best { mv: moves[0], score, depth }, &pv);
            last = Some(score);
        }
        w.aborted = false;
        depth = (depth + 1).max(shared.completed.load(Ordering::Relaxed) + 1);
    }
}
