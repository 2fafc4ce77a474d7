//! The code's own words: a comment says why the code is as it is, at most with a compact worth; the
//! match results themselves (scores of so many games, runs against an engine) live in
//! docs/ideas.tsv (summarised in docs/strength.md), not in a second copy in the source.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A comment line that reports a match: `W-L of N`, `N% of N`, `of N games`, `against Rapfi`.
fn quotes_a_match(comment: &str) -> bool {
    let words: Vec<&str> = comment.split_whitespace().collect();
    let number = |w: &str| w.trim_end_matches([',', ')', ';', ':']).parse::<f64>().is_ok();
    let score = |w: &str| w.split_once('-').is_some_and(|(a, b)| number(a) && number(b));
    let percent = |w: &str| w.strip_suffix('%').is_some_and(number);
    words.windows(3).any(|w| (score(w[0]) || percent(w[0])) && w[1] == "of" && number(w[2]))
        || words.windows(2).any(|w| number(w[0]) && w[1].starts_with("games"))
        || comment.contains("against Rapfi")
}

#[test]
fn no_comment_quotes_a_match_result() {
    let mut files = vec![];
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    let mut found = vec![];
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (i, line) in text.lines().enumerate() {
            let Some((_, comment)) = line.split_once("//") else { continue };
            if quotes_a_match(comment) {
                found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "comments that quote match results (move them to docs/strength.md):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_knows_a_match_result_when_it_sees_one() {
    assert!(quotes_a_match(" (38.8% of 320 against Rapfi at 300 ms)"));
    assert!(quotes_a_match(" S1 226-174 of 400"));
    assert!(quotes_a_match(" scored the same in 640 games"));
    assert!(!quotes_a_match(" the refresh is about 40% of the search's time"));
    assert!(!quotes_a_match(" 25 ms plus 8%"));
}
