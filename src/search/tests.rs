//! The search's own tests: quiescence, root and four-three answers on small diagrams.

use super::*;

fn position(diagram: &str) -> Position {
    let pats = Arc::new(Patterns::new(&Rules::from_mask(0, 5).0).expect("freestyle tables"));
    Position::new(&Board::from_diagram(diagram).expect("diagram"), pats)
}

/// The quiescence's value of a position for the side to move, with an open window.
fn quiesce(pos: Position) -> (i32, i32) {
    with_worker(pos, |w| {
        let mut budget = w.params.leaf_vcf_nodes;
        let v = w.quiesce(-INF, INF, 0, None, w.params.leaf_vcf_fours, &mut budget);
        (v, w.evaluate())
    })
}

/// Runs `f` on a main-thread worker for `pos` with a fresh table and no limits.
fn with_worker<R>(pos: Position, f: impl FnOnce(&mut Worker) -> R) -> R {
    let tt = Tt::new(1 << 20);
    let stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let pats = Arc::clone(pos.patterns());
    let setup = Setup::fixed_depth(&pats, &tt, 1, &stop);
    let mut w = Worker::new(pos, &setup, &stop, &nodes, true);
    f(&mut w)
}

#[test]
fn two_open_threes_lose_in_four_plies_counted_from_the_search_root() {
    // Black to move, no four to make, and white's open threes on rows 2 and 6 share no
    // defence point: lost in four plies from here, however many stones the game holds.
    let pos = position(
        "
        x . . . . . . . . . x
        . . . . . . . . . . .
        . . . o o o . . . . .
        . . . . . . . . . . .
        x . . . . . . . . . x
        . . . . . . . . . . .
        . . . . . o o o . . .
        . . . . . . . . . . .
        x . . . . . . . . . x
        . . . . . . . . . . .
        . . . . . . . . . . .
        ",
    );
    with_worker(pos, |w| {
        assert_eq!(w.generate(0, None, &mut false, usize::MAX), Err(-(WIN - 4)));
        assert_eq!(w.generate(3, None, &mut false, usize::MAX), Err(-(WIN - 7)));
    });
}

#[test]
fn the_quiescence_looks_around_a_four_on_the_edge_row_with_four_in_a_row() {
    // Four in a row wins: black's move on the fourth cell of the top row makes a four there
    // (white's corner stone closes it) and a closed three down its column. The quiescence plays
    // it, white blocks, and the next four is looked for up to four cells around it, past the
    // edge: with the three-cell margin of four in a row that read outside the board and panicked.
    let pats = Arc::new(Patterns::new(&Rules::from_mask(0, 4).0).expect("four-in-a-row tables"));
    let board = Board::from_diagram(
        "
        o x x . . . . . .
        . . . . . . . . .
        . . . x . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        o . . . . . . . o
        ",
    )
    .expect("diagram");
    let (v, eval) = quiesce(Position::new(&board, pats));
    assert!(v >= eval);
}

#[test]
fn the_quiescence_plays_a_four_three_to_the_win() {
    // Black to move: g5 is a four on row 5 (c5 blocks its other end) and an open three on
    // column g. Four, block, open four, block, five: a win in five plies.
    let (v, _) = quiesce(position(
        "
        o . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . x . . . .
        . . o x x x . . . . .
        . . . . . . x . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        o . . . . . . . . o o
        ",
    ));
    assert_eq!(v, WIN - 5);
}

#[test]
fn the_quiescence_stands_on_the_evaluation_without_a_four_worth_playing() {
    // Black to move: its only fours are plain ones (nothing else on their cells' lines), so it
    // stands pat.
    let pos = position(
        "
        o . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . o x x x . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . x .
        . . . . . . . . . . .
        . x . . . . . . . . .
        o . . . . . . . . o o
        ",
    );
    assert_eq!(pos.side(), Color::Black);
    assert!(pos.count(Color::Black, Class::B4) > 0);
    let (v, eval) = quiesce(pos);
    assert_eq!(v, eval);
}

/// The root's score and first move at `depth`, with an aspiration window around `prev` (none:
/// the full window), on a fresh table.
fn root(pos: Position, depth: i32, prev: Option<i32>) -> (i32, usize) {
    with_worker(pos, |w| {
        let mut moves = w.generate(0, None, &mut false, usize::MAX).expect("moves");
        let v = w.root(&mut moves, depth, &mut vec![], prev).expect("a complete search");
        (v, moves[0])
    })
}

#[test]
fn a_quiet_move_answers_a_vcf_threat_when_it_wins_first() {
    // From a game lost to Rapfi, rows numbered from the bottom: our i10 (black) lost to e7 d6 e8.
    // Here black must block white's four at d6; then black has a VCF if it could move again (on
    // column i), and white's winning answer, e8 (a closed three and a two), is none of its fours,
    // threes or the points of that line. The search must try it: it finds the win by depth 6;
    // without e8 among white's answers, not even at depth 16.
    let pos = position(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . x . . . . . .
        . . . . . x x o x . . . . . .
        . . . . . x o o . . . . . . .
        . . . . . o o x . . . . . . .
        . . . . o . o . x . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    assert_eq!(pos.side(), Color::Black);
    let v = with_worker(pos, |w| (1..=8).map(|d| w.search(-INF, INF, d, 0, false)).last().expect("a depth"));
    assert!(v <= -WIN_THRESHOLD, "black should be lost: {v}");
}

#[test]
fn a_wrong_aspiration_guess_widens_to_a_score_near_the_full_windows() {
    // A quiet middle game: the window starts far above or far below the true score, fails, and
    // widens until the score lies inside it: a score close to the full window's, not a bound.
    let pos = || {
        position(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . o x . . . . .
            . . . . x o . . . . .
            . . . o . x . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            ",
        )
    };
    let (v, _) = root(pos(), 6, None);
    assert!(v.abs() < WIN_THRESHOLD, "a quiet position: {v}");
    for guess in [v + 900, v - 900, v + 40, v - 40] {
        let (w, _) = root(pos(), 6, Some(guess));
        // (Not always the very same score: the pruning depends on the window.)
        assert!((w - v).abs() <= 50, "from {guess}: {w} against {v}");
    }
}

#[test]
fn the_principal_variation_goes_on_through_the_block_of_a_four() {
    // Black (x, to move) wins with a four-three: the empty cell right of its closed three on the
    // row makes a four there and an open three on the column. The search proves it without
    // storing the forced block in the table, and the line shown must not stop at the four.
    let pos = position(
        "
        o . . . . . . . . . o
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . x . . .
        . . . . . . . x . . .
        . . o . x x x . o . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        o . . . . . . . . . .
        ",
    );
    let pv = with_worker(pos, |w| {
        let mut moves = w.generate(0, None, &mut false, usize::MAX).expect("moves");
        let mut pv = vec![];
        let v = w.root(&mut moves, 4, &mut pv, None).expect("a complete search");
        assert!(v >= WIN_THRESHOLD, "a win: {v}");
        pv.iter().map(|&i| w.pos.pos_of(i).notation()).collect::<Vec<_>>()
    });
    assert!(pv.starts_with(&["h7".to_string(), "d7".to_string()]), "the block follows the four: {pv:?}");
}

/// `four_three_defences` of black (to move) in `diagram`, as sorted notations.
fn four_three_answers(diagram: &str) -> Vec<String> {
    let pos = position(diagram);
    assert_eq!(pos.side(), Color::Black);
    let set = four_three_defences(&pos, Color::Black).expect("a four-three point to answer");
    let mut v: Vec<String> = set.iter().map(|&i| pos.pos_of(i).notation()).collect();
    v.sort();
    v
}

#[test]
fn a_four_three_point_is_answered_on_its_lines() {
    // White's f6 makes the row a closed four (five point g6) and the column an open three. Black
    // answers on f6, on g6, or at either end of the three (f3 and f7: a stone one further out
    // leaves the three room for an open four).
    let answers = four_three_answers(
        "
        x . . . . . . . . . x
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . o . . . . .
        . . . . . o . . . . .
        . x o o o . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        x . . . . . . . . . x
        ",
    );
    assert_eq!(answers, ["f3", "f6", "f7", "g6"]);
}

#[test]
fn a_four_three_point_is_also_answered_by_making_the_forced_block_a_four() {
    // As above, with black's g8 and g9 below the five point: a stone on g5, g7 or g10 makes black's
    // block on g6 a four of its own, which wins the tempo back.
    let answers = four_three_answers(
        "
        x . . . . . . . . . x
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . o . . . . .
        . . . . . o . . . . .
        . x o o o . . . . . .
        . . . . . . . . . . .
        . . . . . . x . . . .
        . . . . . . x . . . o
        . . . . . . . . . . .
        x . . . . . . . o . x
        ",
    );
    assert_eq!(answers, ["f3", "f6", "f7", "g10", "g5", "g6", "g7"]);
}

#[test]
fn a_four_three_wins_past_the_opponents_fours_when_its_block_makes_no_four() {
    // White to move: f6 makes the row a four (b6 closes it, g6 is its five point) and the column an
    // open three. Black's closed three on row 9 gives it four points, yet black's forced block on
    // g6 makes nothing there, and white's open four comes next.
    let pos = position(
        "
        x . . . . . . . . . x
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . o . . . . .
        . . . . . o . . . . .
        . x o o o . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . o x x x . . . .
        . . . . . . . . . . .
        x . . . . . . . . . .
        ",
    );
    assert_eq!(pos.side(), Color::White);
    assert!(pos.count(Color::Black, Class::B4) > 0, "black has fours to play");
    assert!(four_three_wins(&pos, Color::White));
    assert!(with_worker(pos, |w| w.threes_win()));
}

#[test]
fn a_four_three_does_not_win_when_its_forced_block_makes_a_four() {
    // As above, but black's three on row 6 turns the block on g6 into a four of black's, which
    // takes the tempo back.
    let pos = position(
        "
        x . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . o . . . . .
        . . . . . o . . . . .
        . x o o o . . x x x .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        x . . . . . . . . . .
        ",
    );
    assert_eq!(pos.side(), Color::White);
    assert!(!four_three_wins(&pos, Color::White));
    assert!(!with_worker(pos, |w| w.threes_win()));
}

#[test]
fn the_first_move_of_a_game_is_the_opening_not_a_forced_answer() {
    let pats = Arc::new(Patterns::new(&Rules::default()).expect("freestyle tables"));
    let (tt, stop) = (Tt::new(1 << 20), AtomicBool::new(false));
    let empty = Board::new(15, 15).expect("a board");
    let out = run(&empty, &Setup::fixed_depth(&pats, &tt, 4, &stop));
    assert_eq!(out.shortcut, Some(Shortcut::Opening));
    let one = Board::from_moves(15, 15, "h8").expect("a game");
    assert_ne!(run(&one, &Setup::fixed_depth(&pats, &tt, 4, &stop)).shortcut, Some(Shortcut::Forced));
}
