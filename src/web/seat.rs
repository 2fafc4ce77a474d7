//! The engine behind the board: our search in this process, or any Gomocup brain spoken to through the
//! process code `match` and `analyze` use. Either runs one [`Job`] at a time on the caller's thread and
//! tells what it finds as values ([`Heard`]); the page never learns which kind it has.
//!
//! Invariants: a job returns soon after its stop flag is set (our search at once; another brain when
//! its current position's time is up, as the protocol cannot interrupt a plain BOARD); nothing here
//! prints.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::brain::analysis::{self, Task};
use crate::game::board::{Board, Pos};
use crate::game::rules::Rules;
use crate::player::timeman::Budget;
use crate::player::{Limits, Player, Progress, TOOL_MEMORY, Watch};
use crate::search::SearchPlayer;
use crate::tools::client::judge::{self, Judge};

/// How long a job may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A move in a game: ms for the move, as a manager's `timeout_turn`.
    Move(u64),
    /// Analysis: until stopped.
    UntilStopped,
}

/// One thought: a position, its rules, how long, and how many best moves to list.
#[derive(Clone, Debug)]
pub struct Job {
    pub board: Board,
    pub rules: Rules,
    pub limit: Limit,
    pub nbest: usize,
}

/// A scored line: the move, its score from the side to move's view, the depth and the line itself.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub mv: Pos,
    pub score: Option<i32>,
    pub depth: i32,
    pub pv: Vec<Pos>,
}

/// What a job tells as it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// The best line so far (an iteration of our search, or another brain's answer).
    Best(Line),
    /// The N best moves of a completed round, best first.
    Lines(Vec<Line>),
    /// The job's move (a game's job only), `None` when the engine had none.
    Move(Option<Pos>),
    /// The engine failed: the reason, for the page.
    Failed(String),
}

/// Who is told what a job finds (called on the job's threads).
pub type Tell = Arc<dyn Fn(Heard) + Send + Sync>;

/// An engine for the board.
pub trait Engine: Send + Sync {
    fn name(&self) -> String;
    /// Runs `job` on this thread until it is done or `stop` is set, telling `tell` what it finds.
    fn run(&self, job: &Job, stop: &AtomicBool, tell: Tell);
    /// A judge for the analysis chart, at `time_ms` a position.
    fn judge(&self, time_ms: u64) -> Box<dyn Judge + Send>;
}

/// Our search.
pub struct Own {
    player: SearchPlayer,
    threads: usize,
}

impl Own {
    pub fn new(threads: usize) -> Own {
        Own { player: SearchPlayer::default(), threads: threads.max(1) }
    }
}

/// The deepest round of analysis.
const MAX_DEPTH: u64 = 60;

impl Engine for Own {
    fn name(&self) -> String {
        format!("Quincunx {}", env!("CARGO_PKG_VERSION"))
    }

    fn run(&self, job: &Job, stop: &AtomicBool, tell: Tell) {
        let (board, rules) = (&job.board, &job.rules);
        self.player.prepare(rules);
        let told = Arc::clone(&tell);
        let watch = Watch(Arc::new(move |p: &Progress| {
            if let Progress::Iteration(it) = p
                && !it.partial
            {
                told(Heard::Best(Line {
                    mv: it.best,
                    score: Some(it.score),
                    depth: it.depth,
                    pv: it.pv.clone(),
                }));
            }
        }));
        let limits = |budget: Budget, max_depth: Option<u64>| Limits {
            max_depth,
            watch: Some(watch.clone()),
            ..Limits::new(budget, self.threads, TOOL_MEMORY)
        };
        let lines = |answer: &analysis::Answer| -> Vec<Line> {
            answer
                .lines
                .iter()
                .map(|l| Line { mv: l.mv, score: Some(l.score), depth: l.depth, pv: l.pv.clone() })
                .collect()
        };
        match job.limit {
            Limit::Move(ms) => {
                let budget = Budget::per_move(ms, board.empty_count());
                let task = if job.nbest > 1 { Task::NBest(job.nbest) } else { Task::Move };
                let answer = analysis::run(&self.player, board, rules, &limits(budget, None), stop, task);
                if !answer.lines.is_empty() {
                    tell(Heard::Lines(lines(&answer)));
                }
                tell(Heard::Move(answer.thought.mv));
            }
            Limit::UntilStopped => {
                // Rounds of the N best, each a ply deeper: every finished round is shown.
                for depth in 2..=MAX_DEPTH {
                    let l = limits(Budget::unlimited(), Some(depth));
                    let answer =
                        analysis::run(&self.player, board, rules, &l, stop, Task::NBest(job.nbest.max(1)));
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    tell(Heard::Lines(lines(&answer)));
                    if answer.lines.is_empty() {
                        break;
                    }
                }
            }
        }
    }

    fn judge(&self, time_ms: u64) -> Box<dyn Judge + Send> {
        Box::new(judge::Search::new(time_ms, self.threads))
    }
}

/// The kind of game a brain was started for: the rules and the board's width and height.
type Kind = (Rules, usize, usize);

/// Another brain, as a command line.
pub struct Other {
    command: Vec<String>,
    threads: usize,
    /// The process, started for the first job, with the kind of game it was last told of.
    brain: Mutex<Option<(judge::Brain, Kind)>>,
    /// It failed `YXNBEST` once: it is asked for its move alone from then on.
    no_nbest: AtomicBool,
}

impl Other {
    pub fn new(command: Vec<String>, threads: usize) -> Other {
        Other { command, threads: threads.max(1), brain: Mutex::new(None), no_nbest: AtomicBool::new(false) }
    }
}

/// Analysis with another brain: a position's time starts here and doubles up to the last.
const FIRST_LOOK_MS: u64 = 250;
const LAST_LOOK_MS: u64 = 64_000;

impl Engine for Other {
    fn name(&self) -> String {
        self.command.join(" ")
    }

    fn run(&self, job: &Job, stop: &AtomicBool, tell: Tell) {
        let Ok(mut slot) = self.brain.lock() else { return tell(Heard::Failed("the brain is gone".into())) };
        let kind = (job.rules, job.board.width(), job.board.height());
        if slot.as_ref().is_none_or(|(_, k)| *k != kind) {
            let mut b = judge::Brain::new(self.command.clone(), FIRST_LOOK_MS, self.threads);
            if let Err(e) = b.new_game(&job.rules, kind.1, kind.2) {
                *slot = None;
                return tell(Heard::Failed(e));
            }
            *slot = Some((b, kind));
        }
        let Some((brain, _)) = slot.as_mut() else { return };
        let failed = std::cell::Cell::new(false);
        let ask = |brain: &mut judge::Brain, ms: u64| -> Option<Line> {
            brain.set_time(ms);
            match brain.judge(&job.board, &job.rules) {
                Ok(o) => o.best.map(|mv| Line { mv, score: o.score, depth: 0, pv: vec![mv] }),
                Err(e) => {
                    failed.set(true);
                    tell(Heard::Failed(e));
                    None
                }
            }
        };
        match job.limit {
            Limit::Move(ms) => {
                let line = ask(brain, ms);
                if let Some(l) = &line {
                    tell(Heard::Best(l.clone()));
                }
                tell(Heard::Move(line.map(|l| l.mv)));
            }
            Limit::UntilStopped => {
                let mut ms = FIRST_LOOK_MS;
                while !stop.load(Ordering::Relaxed) && ms <= LAST_LOOK_MS {
                    let mut lines = None;
                    if job.nbest > 1 && !self.no_nbest.load(Ordering::Relaxed) {
                        brain.set_time(ms);
                        match brain.best_lines(&job.board, job.nbest) {
                            Ok(found) => {
                                lines = Some(
                                    found
                                        .into_iter()
                                        .map(|b| Line {
                                            mv: b.pv[0],
                                            score: b.score,
                                            depth: b.depth,
                                            pv: b.pv,
                                        })
                                        .collect::<Vec<_>>(),
                                );
                            }
                            // No YXNBEST (or a bad answer to it): its move alone from now on, in a fresh
                            // process, as the fault ended this one.
                            Err(_) => {
                                self.no_nbest.store(true, Ordering::Relaxed);
                                if let Err(e) = brain.new_game(&job.rules, kind.1, kind.2) {
                                    failed.set(true);
                                    tell(Heard::Failed(e));
                                    break;
                                }
                            }
                        }
                    }
                    let lines = match lines {
                        Some(lines) => lines,
                        None => match ask(brain, ms) {
                            Some(line) => vec![line],
                            None => break,
                        },
                    };
                    tell(Heard::Best(lines[0].clone()));
                    tell(Heard::Lines(lines));
                    ms *= 2;
                }
            }
        }
        // A brain that failed is started afresh for the next job.
        if failed.get() {
            *slot = None;
        }
    }

    fn judge(&self, time_ms: u64) -> Box<dyn Judge + Send> {
        Box::new(judge::Brain::new(self.command.clone(), time_ms, self.threads))
    }
}
