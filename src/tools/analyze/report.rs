//! One game's analysis: each move's worth before and after it from the mover's view, the move the judge
//! preferred, the marks (`mistake`, `let go`, `forced win`), and the table and summary that tell them.
//!
//! The value of a position is what the judge scores it for the side to move. A move's *before* is the
//! value of the position it was played in; its *after* is minus the value of the position it left to
//! the opponent (for the last move: the game's end, or one more search). A position our search
//! answered without evaluating (a forced reply) is worth what the position past the reply is worth.
//!
//! Marks compare values clipped to ±[`CLIP`] (a proven win or loss at the ends), so that a loss that
//! grows longer or a win that comes later is no mistake, and they are only given to a move other than
//! the one preferred: the difference between two searches of the same line is not the player's.

use std::fmt::Write as _;

use crate::eval::score::{WIN, WIN_THRESHOLD, score_text};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{Rules, Verdict};
use crate::tools::client::judge::{Judge, Opinion};
use crate::tools::record::read::Replayed;

/// Values are clipped to ±`CLIP` for the marks and the picture: past it the game is as good as decided
/// (a position's evaluation spreads about 260 either way), and proven results sit at the ends.
pub const CLIP: i32 = 1000;

/// The forced replies followed in a row to find what a position is worth (each one ply).
const MAX_FORCED: usize = 16;

/// One move of the game as the analysis saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// From 1: the first move after any set-up stones.
    pub number: usize,
    pub color: Color,
    pub played: Pos,
    /// The move the judge preferred.
    pub best: Option<Pos>,
    /// The value before and after the move, from the mover's view.
    pub before: Option<i32>,
    pub after: Option<i32>,
    /// A forced win the judge proved before the move: its kind and line.
    pub proof: Option<(&'static str, Vec<Pos>)>,
    /// What the move lost against the best, when more than the margin.
    pub mistake: Option<i32>,
    /// The mover had a win and the move gave it up.
    pub let_go: bool,
}

/// A game's analysis.
#[derive(Clone, Debug)]
pub struct Report {
    pub rows: Vec<Row>,
    /// The winner, by the last move or as the record says.
    pub winner: Option<Color>,
}

/// Analyses `game`: asks `judge` about every position (calling `progress` with the move's index from
/// 1 and the number of moves before each), then marks the moves against `margin`.
pub fn analyse(
    game: &Replayed,
    recorded_winner: Option<Color>,
    judge: &mut dyn Judge,
    margin: i32,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Report, String> {
    let rules = game.rules;
    let (w, h) = (game.start.width(), game.start.height());
    judge.new_game(&rules, w, h)?;
    let n = game.moves.len();
    let mut boards = Vec::with_capacity(n + 1);
    let mut opinions = Vec::with_capacity(n);
    let mut board = game.start.clone();
    for (i, &p) in game.moves.iter().enumerate() {
        progress(i + 1, n);
        opinions.push(judge.judge(&board, &rules)?);
        boards.push(board.clone());
        board.try_play(p.x as i64, p.y as i64).map_err(|e| e.to_string())?;
    }
    // The last move's after: the game's end, a full board's draw, or one more look.
    let last_after = match (game.decided, n) {
        (_, 0) => None,
        (Some(winner), _) => Some(if winner == boards[n - 1].side_to_move() { WIN } else { -WIN }),
        (None, _) if board.is_full() => Some(0),
        (None, _) => {
            let opinion = judge.judge(&board, &rules)?;
            worth(judge, &board, &rules, &opinion)?.map(|v| -v)
        }
    };
    // From the last move back: each position's value is the next move's after.
    let mut rows: Vec<Row> = Vec::with_capacity(n);
    let mut after = last_after;
    for i in (0..n).rev() {
        let (opinion, played) = (&opinions[i], game.moves[i]);
        let before = if !opinion.forced {
            opinion.score
        } else if opinion.best == Some(played) {
            after
        } else {
            worth(judge, &boards[i], &rules, opinion)?
        };
        rows.push(mark(i + 1, boards[i].side_to_move(), played, opinion, before, after, margin));
        after = before.map(|v| -v);
    }
    rows.reverse();
    Ok(Report { rows, winner: game.decided.or(recorded_winner) })
}

/// What `board` is worth to its side to move when `opinion` gave no score: the value past the forced
/// replies, followed one after another (`None` when the judge tells no scores, or past
/// [`MAX_FORCED`]).
fn worth(
    judge: &mut dyn Judge,
    board: &Board,
    rules: &Rules,
    opinion: &Opinion,
) -> Result<Option<i32>, String> {
    let (mut board, mut opinion, mut sign) = (board.clone(), opinion.clone(), 1);
    for _ in 0..MAX_FORCED {
        if !opinion.forced || !judge.scores() {
            return Ok(opinion.score.map(|v| sign * v));
        }
        let Some(p) = opinion.best.filter(|&p| board.is_empty(p)) else { return Ok(None) };
        match rules.verdict(&board, p) {
            Verdict::Win => return Ok(Some(sign * WIN)),
            Verdict::Foul(_) | Verdict::Illegal(_) => return Ok(Some(-sign * WIN)),
            Verdict::Continue => {}
        }
        board.play_unchecked(p);
        if board.is_full() {
            return Ok(Some(0));
        }
        opinion = judge.judge(&board, rules)?;
        sign = -sign;
    }
    Ok(None)
}

/// `v` on the marks' and the picture's scale: within ±[`CLIP`], proven results at the ends.
pub fn on_chart(v: i32) -> i32 {
    if v >= WIN_THRESHOLD {
        CLIP
    } else if v <= -WIN_THRESHOLD {
        -CLIP
    } else {
        v.clamp(-CLIP, CLIP)
    }
}

fn mark(
    number: usize,
    color: Color,
    played: Pos,
    opinion: &Opinion,
    before: Option<i32>,
    after: Option<i32>,
    margin: i32,
) -> Row {
    let other = opinion.best.is_some_and(|b| b != played);
    let (mut mistake, mut let_go) = (None, false);
    if let (Some(b), Some(a), true) = (before, after, other) {
        let lost = on_chart(b) - on_chart(a);
        mistake = (lost > margin).then_some(lost);
        let won = b >= WIN_THRESHOLD || opinion.proof.is_some();
        let_go = won && a < WIN_THRESHOLD;
    }
    Row {
        number,
        color,
        played,
        best: opinion.best,
        before,
        after,
        proof: opinion.proof.clone(),
        mistake,
        let_go,
    }
}

/// A value for the table: `-` when unknown.
fn value(v: Option<i32>) -> String {
    v.map_or("-".into(), score_text)
}

/// The table's rows under a line that names the columns.
pub fn table(report: &Report) -> String {
    let mut s = format!(
        "{:>4}  {:<5}  {:<6} {:>7} {:>7}  {:<6} {}\n",
        "move", "side", "played", "before", "after", "best", "marks"
    );
    for r in &report.rows {
        let mut marks = vec![];
        if let Some(lost) = r.mistake {
            marks.push(format!("mistake (-{lost})"));
        }
        if r.let_go {
            marks.push("let go".to_string());
        }
        if let Some((kind, line)) = &r.proof {
            let line: Vec<String> = line.iter().map(|p| p.notation()).collect();
            marks.push(format!("forced win ({kind} {})", line.join(" ")));
        }
        let best = r.best.map_or("-".into(), |p| p.notation());
        let _ = writeln!(
            s,
            "{:>4}  {:<5}  {:<6} {:>7} {:>7}  {:<6} {}",
            r.number,
            r.color.name(),
            r.played.notation(),
            value(r.before),
            value(r.after),
            best,
            marks.join(", ")
        );
    }
    s
}

/// Where the game turned for its winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// At this row (its place in the rows, from 1): after its move the winner stayed ahead to the end.
    At(usize),
    /// The winner was ahead from the first position on.
    Throughout,
    /// No winner, or it was not ahead at the end.
    Unknown,
}

/// Where the game turned, by the values from the winner's view (unknown values skipped).
pub fn turn(report: &Report) -> Turn {
    let (Some(winner), Some(first)) = (report.winner, report.rows.first()) else { return Turn::Unknown };
    let view = |v: i32, c: Color| if c == winner { v } else { -v };
    // Its view of each position: before the first move, then after each move.
    let values = std::iter::once(first.before.map(|v| view(v, first.color)))
        .chain(report.rows.iter().map(|r| r.after.map(|v| view(v, r.color))));
    let values: Vec<Option<i32>> = values.collect();
    match values.iter().rposition(|v| v.is_some_and(|v| v <= 0)) {
        None if values.iter().any(Option::is_some) => Turn::Throughout,
        Some(behind) if behind < report.rows.len() => Turn::At(behind + 1),
        _ => Turn::Unknown,
    }
}

/// One line: mistakes and moves that let a win go, per colour, and where the game turned.
pub fn summary(report: &Report) -> String {
    let count = |c: Color, f: fn(&Row) -> bool| report.rows.iter().filter(|r| r.color == c && f(r)).count();
    let evaluated = report.rows.iter().any(|r| r.before.is_some());
    let mut s = String::from("summary: ");
    if evaluated {
        let mistakes: fn(&Row) -> bool = |r| r.mistake.is_some();
        let let_go: fn(&Row) -> bool = |r| r.let_go;
        let _ = write!(
            s,
            "mistakes black {}, white {}; let go black {}, white {}",
            count(Color::Black, mistakes),
            count(Color::White, mistakes),
            count(Color::Black, let_go),
            count(Color::White, let_go)
        );
    } else {
        s.push_str("no evaluations, no marks");
    }
    let preferred: fn(&Row) -> bool = |r| r.best == Some(r.played);
    let _ = write!(
        s,
        "; preferred move played black {}, white {}",
        count(Color::Black, preferred),
        count(Color::White, preferred)
    );
    match (turn(report), report.winner) {
        (Turn::At(i), _) => {
            let r = &report.rows[i - 1];
            let _ = write!(s, "; turned at move {} ({} {})", r.number, r.color.name(), r.played.notation());
        }
        (Turn::Throughout, Some(c)) => {
            let _ = write!(s, "; {} ahead throughout", c.name());
        }
        _ => s.push_str("; turned at move -"),
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(number: usize, before: i32, after: i32) -> Row {
        let color = if number % 2 == 1 { Color::Black } else { Color::White };
        let played = Pos::new(number, 0);
        Row {
            number,
            color,
            played,
            best: None,
            before: Some(before),
            after: Some(after),
            proof: None,
            mistake: None,
            let_go: false,
        }
    }

    #[test]
    fn a_move_is_marked_by_what_it_lost_against_the_best() {
        let best = Opinion { best: Some(Pos::new(7, 7)), score: Some(40), ..Opinion::default() };
        let played = Pos::new(0, 0);
        assert_eq!(mark(1, Color::Black, played, &best, Some(40), Some(-200), 150).mistake, Some(240));
        assert_eq!(mark(1, Color::Black, played, &best, Some(40), Some(-100), 150).mistake, None);
        // The preferred move is never marked, a lost game lost longer neither.
        assert_eq!(mark(1, Color::Black, Pos::new(7, 7), &best, Some(40), Some(-900), 150).mistake, None);
        assert_eq!(
            mark(1, Color::Black, played, &best, Some(-(WIN - 5)), Some(-(WIN - 3)), 150).mistake,
            None
        );
        // A win given up is let go, and a mistake when it was more than the margin.
        let r = mark(1, Color::Black, played, &best, Some(WIN - 5), Some(300), 150);
        assert_eq!((r.mistake, r.let_go), (Some(CLIP - 300), true));
    }

    #[test]
    fn the_game_turns_where_the_winner_goes_ahead_for_good() {
        // From black's view after each move: 30, -40, 60 (black goes ahead at move 3), 400, win.
        let rows =
            vec![row(1, 10, 30), row(2, -30, 40), row(3, -40, 60), row(4, -60, -400), row(5, 400, WIN)];
        let report = Report { rows, winner: Some(Color::Black) };
        assert_eq!(turn(&report), Turn::At(3));
        let white = Report { winner: Some(Color::White), ..report.clone() };
        assert_eq!(turn(&white), Turn::Unknown, "white was not ahead at the end");
        let from_three = Report { rows: report.rows[2..].to_vec(), ..report.clone() };
        assert_eq!(turn(&from_three), Turn::At(1), "the first position is black's -40");
        let from_four = Report { rows: report.rows[3..].to_vec(), ..report };
        assert_eq!(turn(&from_four), Turn::Throughout);
    }
}
