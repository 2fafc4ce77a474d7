//! The picture of a game's analysis: an SVG line chart of the value after each move from black's view
//! (x: the move number, y: the value clipped to ±`report::CLIP`, black's win at the top, white's at
//! the bottom), written by hand.
//!
//! Invariants: the document is well-formed XML (every text from a record is escaped) and has exactly
//! one `<circle>` per move, whatever the values: a move without a value is a hollow point on the zero
//! line, and the legend uses squares, not circles. Each point's `class` names its marks (`move`,
//! `mistake`, `let-go`, both, or `no-value`); a move both a mistake and a let-go is filled as a let-go
//! and ringed as a mistake. The move numbers under the axis are every 5th, 10th, ... move (and the
//! first), never closer than five moves apart.

use std::fmt::Write as _;

use crate::game::board::Color;
use crate::tools::analyze::report::{CLIP, Report, Row, on_chart};

pub const WIDTH: f64 = 820.0;
const HEIGHT: f64 = 400.0;
pub const LEFT: f64 = 85.0;
pub const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;

const LINE: &str = "#4a6fa5";
const PLAIN: &str = "#1f4e8c";
const MISTAKE: &str = "#d62728";
const LET_GO: &str = "#ff7f0e";
const UNKNOWN: &str = "#999999";

/// Text for XML: the five characters with a meaning there escaped, control characters dropped (XML
/// 1.0 has no way to write them).
pub fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() && !matches!(c, '\t' | '\n') => {}
            c => out.push(c),
        }
    }
    out
}

/// The value after `r` from black's view, if known.
fn black_view(r: &Row) -> Option<i32> {
    r.after.map(|v| if r.color == Color::Black { v } else { -v })
}

/// The moves between two numbers under the move axis for a game of `n` moves: 5, 10, 20, 50, ...
/// whichever leaves at most 15 numbers.
fn label_step(n: usize) -> usize {
    let mut scale = 1;
    loop {
        if let Some(step) = [5, 10, 20].map(|k| k * scale).into_iter().find(|&step| n / step <= 15) {
            return step;
        }
        scale *= 10;
    }
}

/// The chart of `report`, headed `title`, with the game's `result` under it.
pub fn chart(report: &Report, title: &str, result: &str) -> String {
    let n = report.rows.len();
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let x = |number: usize| LEFT + plot_w * (number as f64 - 0.5) / n.max(1) as f64;
    let y = |v: i32| TOP + plot_h * f64::from(CLIP - on_chart(v)) / f64::from(2 * CLIP);
    let title = escape_xml(title);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>{title}</title>\n\
         <rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>\n\
         <text x=\"{LEFT}\" y=\"22\" font-size=\"15\">{title}</text>\n\
         <text class=\"result\" x=\"{LEFT}\" y=\"40\">{}</text>\n",
        escape_xml(result)
    );
    // The value axis: gridlines, the zero line dashed, labels on the left.
    for (v, label) in [
        (CLIP, "black wins".to_string()),
        (CLIP / 2, format!("+{}", CLIP / 2)),
        (0, "0".to_string()),
        (-CLIP / 2, format!("-{}", CLIP / 2)),
        (-CLIP, "white wins".to_string()),
    ] {
        let (yv, dash) = (y(v), if v == 0 { " stroke-dasharray=\"6 4\"" } else { "" });
        let stroke = if v == 0 { "#555555" } else { "#dddddd" };
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{yv:.1}\" x2=\"{:.1}\" y2=\"{yv:.1}\" stroke=\"{stroke}\"{dash}/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
            LEFT + plot_w,
            LEFT - 6.0,
            yv + 4.0
        );
    }
    // The move axis: the frame's bottom, and a move number every few moves.
    let bottom = TOP + plot_h;
    let _ = writeln!(
        s,
        "<line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{bottom}\" stroke=\"black\"/>\n\
         <line x1=\"{LEFT}\" y1=\"{bottom}\" x2=\"{:.1}\" y2=\"{bottom}\" stroke=\"black\"/>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">move</text>",
        LEFT + plot_w,
        LEFT + plot_w,
        HEIGHT - 12.0
    );
    let step = label_step(n);
    for number in (1..=n).filter(|m| *m == 1 || m % step == 0) {
        let xm = x(number);
        let _ = writeln!(
            s,
            "<line x1=\"{xm:.1}\" y1=\"{bottom}\" x2=\"{xm:.1}\" y2=\"{:.1}\" stroke=\"black\"/>\n\
             <text class=\"move-number\" x=\"{xm:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{number}</text>",
            bottom + 5.0,
            bottom + 18.0
        );
    }
    // The line through the known values, broken where a value is unknown.
    for run in report.rows.split(|r| r.after.is_none()).filter(|run| run.len() > 1) {
        let points: Vec<String> = run
            .iter()
            .filter_map(|r| black_view(r).map(|v| format!("{:.1},{:.1}", x(r.number), y(v))))
            .collect();
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"1.5\"/>",
            points.join(" ")
        );
    }
    // One point a move.
    for r in &report.rows {
        let mistake = r.mistake.is_some();
        let (cy, fill, class) = match black_view(r) {
            Some(v) if r.let_go && mistake => (y(v), LET_GO, "mistake let-go"),
            Some(v) if r.let_go => (y(v), LET_GO, "let-go"),
            Some(v) if mistake => (y(v), MISTAKE, "mistake"),
            Some(v) => (y(v), PLAIN, "move"),
            None => (y(0), "none", "no-value"),
        };
        // Both marks: the let-go's fill in the mistake's ring.
        let (stroke, width) = match fill {
            "none" => (UNKNOWN, 1.0),
            LET_GO if mistake => (MISTAKE, 2.5),
            _ => (fill, 1.0),
        };
        let radius = if fill == PLAIN { 3.0 } else { 5.0 };
        let _ = writeln!(
            s,
            "<circle class=\"{class}\" cx=\"{:.1}\" cy=\"{cy:.1}\" r=\"{radius}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"><title>{}</title></circle>",
            x(r.number),
            escape_xml(&point_title(r))
        );
    }
    // The legend, in squares.
    for (i, (colour, ring, label)) in [
        (PLAIN, PLAIN, "move"),
        (MISTAKE, MISTAKE, "mistake"),
        (LET_GO, LET_GO, "let go"),
        (LET_GO, MISTAKE, "both"),
        (UNKNOWN, UNKNOWN, "no value"),
    ]
    .into_iter()
    .enumerate()
    {
        let lx = LEFT + 85.0 * i as f64;
        let _ = writeln!(
            s,
            "<rect x=\"{lx:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{colour}\" stroke=\"{ring}\" stroke-width=\"2\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\">{label}</text>",
            HEIGHT - 22.0,
            lx + 14.0,
            HEIGHT - 13.0
        );
    }
    s.push_str("</svg>\n");
    s
}

/// What a point says when pointed at: the move, its values and the preferred move.
fn point_title(r: &Row) -> String {
    let value = |v: Option<i32>| v.map_or("-".into(), crate::eval::score::score_text);
    let best = r.best.map_or("-".into(), |p| p.notation());
    let mut t = format!(
        "{}. {} {}: {} -> {} (best {best})",
        r.number,
        r.color.name(),
        r.played.notation(),
        value(r.before),
        value(r.after)
    );
    if r.mistake.is_some() {
        t.push_str(", mistake");
    }
    if r.let_go {
        t.push_str(", let go");
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Pos;

    #[test]
    fn names_are_escaped_and_every_move_has_its_point() {
        assert_eq!(escape_xml("a<b> & \"c\" 'd'\u{1}"), "a&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;");
        let row = |number: usize, after: Option<i32>| Row {
            number,
            color: if number % 2 == 1 { Color::Black } else { Color::White },
            played: Pos::new(number, 1),
            best: None,
            before: None,
            after,
            proof: None,
            mistake: None,
            let_go: false,
        };
        let rows = vec![row(1, Some(20)), row(2, None), row(3, Some(-50)), row(4, Some(30))];
        let svg = chart(&Report { rows, winner: None }, "<x> & y", "result B+ & more");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(!svg.contains("<x>"));
        assert!(svg.contains("<text class=\"result\" x=\"85\" y=\"40\">result B+ &amp; more</text>"));
    }

    #[test]
    fn move_numbers_come_every_fifth_or_tenth_move_or_sparser() {
        assert_eq!((label_step(10), label_step(79), label_step(80), label_step(150)), (5, 5, 10, 10));
        assert_eq!((label_step(160), label_step(320), label_step(800), label_step(1600)), (20, 50, 100, 200));
        for n in 1..2000 {
            assert!(n / label_step(n) <= 15, "{n}");
        }
    }
}
