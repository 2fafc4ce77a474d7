//! Who says what a position is worth: our search ([`Search`]) or another Gomocup brain ([`Brain`]),
//! each asked one position at a time for its move and, when it tells one, its score.
//!
//! Scores are from the side to move's view, on the judge's own scale (ours is `eval::score`'s). Our
//! search answers some positions without evaluating them (a forced reply, the only move that does not
//! lose at once): such an [`Opinion`] is marked `forced` and carries no score, and the analysis finds
//! the position's worth past the reply.

use std::sync::atomic::AtomicBool;

use crate::eval::score::{WIN, WIN_THRESHOLD};
use crate::game::board::{Board, Pos};
use crate::game::rules::Rules;
use crate::player::timeman::Budget;
use crate::player::{DEFAULT_MEMORY, Limits, Player, Shortcut, TOOL_MEMORY};
use crate::search::SearchPlayer;
use crate::tools::client::process::StderrMode;
use crate::tools::client::referee::{GameSettings, Seat};

/// What a judge says of one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Opinion {
    /// The move it prefers.
    pub best: Option<Pos>,
    /// Its score of the position, from the side to move's view; `None` when it told none.
    pub score: Option<i32>,
    /// A forced reply, answered without an evaluation.
    pub forced: bool,
    /// A proven win it found by threats: the kind (`VCF` or `VCT`) and the line, both sides' moves.
    pub proof: Option<(&'static str, Vec<Pos>)>,
}

/// A way of judging positions, one game at a time.
pub trait Judge {
    /// Readies the judge for a game of `rules` on a `width` x `height` board.
    fn new_game(&mut self, rules: &Rules, width: usize, height: usize) -> Result<(), String>;
    /// Its opinion of `board`, with the side to move to play.
    fn judge(&mut self, board: &Board, rules: &Rules) -> Result<Opinion, String>;
    /// Whether it tells scores at all (a judge that does not is not asked twice for one).
    fn scores(&self) -> bool;
}

/// Our search with a time per position.
pub struct Search {
    player: SearchPlayer,
    time_ms: u64,
    threads: usize,
}

impl Search {
    pub fn new(time_ms: u64, threads: usize) -> Search {
        Search { player: SearchPlayer::default(), time_ms, threads }
    }
}

impl Judge for Search {
    fn new_game(&mut self, rules: &Rules, _: usize, _: usize) -> Result<(), String> {
        // The table's keys know the stones, not the rules or the board: a new game may be of another
        // kind, so it starts with an empty table.
        self.player.clear();
        self.player.prepare(rules);
        Ok(())
    }

    fn judge(&mut self, board: &Board, rules: &Rules) -> Result<Opinion, String> {
        // A position's time is a move's time as a manager would give it, safety margin and all.
        let budget = Budget::per_move(self.time_ms, board.empty_count());
        let limits = Limits::new(budget, self.threads, TOOL_MEMORY);
        let thought = self.player.think(board, rules, &limits, &AtomicBool::new(false));
        let proof = match thought.shortcut {
            Some(Shortcut::Vcf(line)) => Some(("VCF", line)),
            Some(Shortcut::Vct(line)) => Some(("VCT", line)),
            _ => None,
        };
        // Depth 0 is an answer without a search: a solver's proof or a five is a score; the block of
        // a five or the only move left is not.
        let proven = thought.score.is_some_and(|s| s.abs() >= WIN_THRESHOLD);
        let forced = thought.depth == 0 && !proven && proof.is_none() && thought.mv.is_some();
        Ok(Opinion { best: thought.mv, score: thought.score.filter(|_| !forced), forced, proof })
    }

    fn scores(&self) -> bool {
        true
    }
}

/// Another brain, spoken to as `match` speaks to it: START and INFO for each game, then for each
/// position `INFO timeout_turn` and BOARD; its score comes from the MESSAGE lines it prints, when any
/// can be read (see [`message_score`]).
pub struct Brain {
    seat: Seat,
    settings: GameSettings,
    /// It has told a score at least once.
    told: bool,
}

impl Brain {
    pub fn new(command: Vec<String>, time_ms: u64, threads: usize) -> Brain {
        let settings = GameSettings {
            rules: Rules::default(),
            width: 15,
            height: 15,
            turn_ms: time_ms,
            game_ms: 0,
            tolerance_ms: 500,
            start_timeout_ms: 10_000,
            max_memory: DEFAULT_MEMORY,
            threads,
            max_nodes: 0,
            max_stones: 0,
            // `match`'s default pause after an answer (see `GameSettings::pause_ms`).
            pause_ms: 3,
            stderr: StderrMode::Ignore,
        };
        // Named by its whole command: `bash fault.sh` says more than `bash`.
        Brain { seat: Seat::new(command.join(" "), command), settings, told: false }
    }

    /// The `n` best moves of `board` by `YXNBEST` (for brains that have it), best first: each with its
    /// score when told, its depth and its line, as the brain's `(k) score | depth | line` MESSAGE
    /// lines give them (ours and Rapfi's write them so).
    pub fn best_lines(&mut self, board: &Board, n: usize) -> Result<Vec<BestLine>, String> {
        let (mv, said) = self
            .seat
            .consult_nbest(&self.settings, board, n)
            .map_err(|(fault, detail)| fault_text(&self.seat.name, fault, &detail))?;
        let mut lines = best_lines(&said);
        if lines.is_empty() {
            lines.push(BestLine { score: message_score(&said), depth: 0, pv: vec![mv] });
        }
        Ok(lines)
    }

    /// The time for each position from now on.
    pub fn set_time(&mut self, time_ms: u64) {
        self.settings.turn_ms = time_ms;
    }
}

impl Judge for Brain {
    fn new_game(&mut self, rules: &Rules, width: usize, height: usize) -> Result<(), String> {
        (self.settings.rules, self.settings.width, self.settings.height) = (*rules, width, height);
        self.seat.start(&self.settings).map_err(|(fault, detail)| fault_text(&self.seat.name, fault, &detail))
    }

    fn judge(&mut self, board: &Board, _: &Rules) -> Result<Opinion, String> {
        let (mv, said) = self
            .seat
            .consult(&self.settings, board)
            .map_err(|(fault, detail)| fault_text(&self.seat.name, fault, &detail))?;
        let score = message_score(&said);
        self.told |= score.is_some();
        Ok(Opinion { best: Some(mv), score, forced: false, proof: None })
    }

    fn scores(&self) -> bool {
        self.told
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        self.seat.close();
    }
}

fn fault_text(name: &str, fault: impl std::fmt::Display, detail: &str) -> String {
    if detail.is_empty() { format!("{name}: {fault}") } else { format!("{name}: {fault} ({detail})") }
}

/// The last score a brain's MESSAGE lines tell: a number after `eval` or `ev` (any case, after blanks,
/// `:`, `=` or `|`), as Rapfi (`Eval 35`, `ev 35`) and we (`eval 35`, `eval +W7`) print it. A proven
/// result is `+W7`/`-W7` (ours) or `+M7`/`-M7`: a win or loss in 7 plies.
pub fn message_score(lines: &[String]) -> Option<i32> {
    lines.iter().rev().find_map(|line| {
        let words: Vec<&str> =
            line.split(|c: char| c.is_whitespace() || "|:=,".contains(c)).filter(|w| !w.is_empty()).collect();
        words.windows(2).rev().find_map(|w| {
            let key = w[0].to_ascii_lowercase();
            (key == "eval" || key == "ev").then(|| score_word(w[1]))?
        })
    })
}

/// The last depth a brain's MESSAGE lines tell: the first number after `depth` (any case), as we
/// (`depth 9`) and Rapfi (`Depth 12-20`: the depth, then the deepest ply) print it.
pub fn message_depth(lines: &[String]) -> Option<i32> {
    lines.iter().rev().find_map(|line| {
        let words: Vec<&str> =
            line.split(|c: char| c.is_whitespace() || "|:=,".contains(c)).filter(|w| !w.is_empty()).collect();
        words.windows(2).rev().find_map(|w| {
            let digits = w[1].split(|c: char| !c.is_ascii_digit()).next().unwrap_or("");
            w[0].eq_ignore_ascii_case("depth").then(|| digits.parse().ok())?
        })
    })
}

/// One of a brain's N best lines.
#[derive(Clone, Debug, PartialEq)]
pub struct BestLine {
    pub score: Option<i32>,
    pub depth: i32,
    /// The move first.
    pub pv: Vec<Pos>,
}

/// The last complete set of `(k) score | depth | line` MESSAGE lines (a set starts at `(1)`; a brain
/// cut short by its time may leave the last set with fewer lines than those before), best first. The depth is the field's first number: `depth 14` (ours), `14-19` (Rapfi's: the depth and the
/// deepest ply).
pub fn best_lines(lines: &[String]) -> Vec<BestLine> {
    let mut sets: Vec<Vec<BestLine>> = vec![];
    for line in lines {
        let text = line.trim_start_matches("MESSAGE").trim();
        let Some(rest) = text.strip_prefix('(') else { continue };
        let Some((k, rest)) = rest.split_once(')') else { continue };
        let Ok(k) = k.trim().parse::<usize>() else { continue };
        let fields: Vec<&str> = rest.split('|').map(str::trim).collect();
        let [score, depth, pv] = fields[..] else { continue };
        let depth =
            depth.split(|c: char| !c.is_ascii_digit()).find(|d| !d.is_empty()).and_then(|d| d.parse().ok());
        let pv: Option<Vec<Pos>> =
            pv.split_whitespace().map(|m| Pos::from_notation(&m.to_ascii_lowercase())).collect();
        let Some(pv) = pv.filter(|pv| !pv.is_empty()) else { continue };
        let best = BestLine { score: score_word(score), depth: depth.unwrap_or(0), pv };
        if k == 1 {
            sets.push(vec![best]);
        } else if let Some(set) = sets.last_mut().filter(|s| s.len() + 1 == k) {
            set.push(best);
        }
    }
    let most = sets.iter().map(Vec::len).max().unwrap_or(0);
    sets.into_iter().rev().find(|s| s.len() == most).unwrap_or_default()
}

/// A score as brains write it: `35`, `-12`, `+W7`, `-M7`, `M7` (a proven result in 7 plies).
pub fn score_word(w: &str) -> Option<i32> {
    if let Ok(v) = w.parse::<i32>() {
        return Some(v.clamp(-(WIN_THRESHOLD - 1), WIN_THRESHOLD - 1));
    }
    let (sign, rest) = match w.as_bytes().first()? {
        b'-' => (-1, &w[1..]),
        b'+' => (1, &w[1..]),
        _ => (1, w),
    };
    let plies: i32 = rest.strip_prefix(['W', 'M', 'w', 'm'])?.parse().ok()?;
    (0..1000).contains(&plies).then_some(sign * (WIN - plies))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(lines: &[&str]) -> Option<i32> {
        message_score(&lines.iter().map(|l| l.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn scores_are_read_from_rapfi_and_from_us() {
        assert_eq!(said(&["MESSAGE Depth 12-20 | Eval 35 | Time 120ms"]), Some(35));
        assert_eq!(said(&["MESSAGE depth 5 ev -40 n 1000"]), Some(-40));
        assert_eq!(
            said(&["MESSAGE depth 3 eval 10 nodes 5", "MESSAGE best h8 eval +W7 depth 9"]),
            Some(WIN - 7)
        );
        assert_eq!(said(&["MESSAGE Eval -M4"]), Some(-(WIN - 4)));
        // The last line that tells one counts; weights and words are not scores.
        assert_eq!(said(&["MESSAGE eval 3", "MESSAGE weights: h8 weight 120"]), Some(3));
        assert_eq!(said(&["MESSAGE evaluation pending", "MESSAGE eval soon"]), None);
    }

    #[test]
    fn depths_are_read_from_rapfi_and_from_us() {
        let depth = |lines: &[&str]| message_depth(&lines.iter().map(|l| l.to_string()).collect::<Vec<_>>());
        assert_eq!(depth(&["MESSAGE Depth 12-20 | Eval 35 | Time 120ms"]), Some(12));
        assert_eq!(depth(&["MESSAGE depth 7 eval 3 nodes 90", "MESSAGE best h8 eval 3 depth 9"]), Some(9));
        assert_eq!(depth(&["MESSAGE depth 1 (partial) best i7"]), Some(1));
        assert_eq!(depth(&["MESSAGE opening move", "MESSAGE depth soon"]), None);
    }

    #[test]
    fn best_lines_are_read_from_rapfi_and_from_us() {
        let lines: Vec<String> = [
            "MESSAGE (1) 257 | 14-19 | H7 I7 I10",
            "MESSAGE (2) 246 | 14-23 | J9 H7",
            "MESSAGE Depth 14-19 | Eval 257 | Time 280ms | H7 I7",
            "MESSAGE (1) 289 | 16-41 | J9 G8",
            "MESSAGE (2) -W5 | depth 9 | h7",
            "MESSAGE (1) 290 | 17-40 | J9 G8",
        ]
        .map(String::from)
        .to_vec();
        let got = best_lines(&lines);
        let pos = |m: &str| Pos::from_notation(m).unwrap();
        assert_eq!(
            got,
            vec![
                BestLine { score: Some(289), depth: 16, pv: vec![pos("j9"), pos("g8")] },
                BestLine { score: Some(-(WIN - 5)), depth: 9, pv: vec![pos("h7")] },
            ]
        );
    }

    #[test]
    fn our_search_gives_its_move_and_a_score_and_marks_forced_replies() {
        let mut judge = Search::new(200, 1);
        let rules = Rules::default();
        judge.new_game(&rules, 15, 15).unwrap();
        // White must block black's four at l8: a forced reply, with no score of its own.
        let four = Board::from_moves(15, 15, "h8h9i8g8j8i9k8").unwrap();
        let o = judge.judge(&four, &rules).unwrap();
        assert_eq!((o.best, o.score, o.forced), (Pos::from_notation("l8"), None, true));
        // Black, to move with the four, has its five.
        let five = Board::from_moves(15, 15, "h8h9i8g8j8i9k8j9").unwrap();
        let o = judge.judge(&five, &rules).unwrap();
        assert_eq!((o.best, o.score, o.forced), (Pos::from_notation("l8"), Some(WIN - 1), false));
    }
}
