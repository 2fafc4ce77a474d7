//! The `bench` node count is the search's signature: README.md's strength table quotes the one its
//! figures were measured with. A change that moves the count must say so there (and re-measure, or
//! mark the table as measured with an older search), so this test fails until it does.

use quincunx::search::bench;

/// The number after "`bench` signature is " in README.md.
fn quoted_signature() -> u64 {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md");
    let marker = "`bench` signature is ";
    let at = readme.find(marker).expect("README.md quotes the bench signature") + marker.len();
    let digits: String = readme[at..].chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().expect("a node count")
}

#[test]
fn bench_prints_the_signature_the_readme_quotes() {
    let report = bench::run(bench::DEFAULT_DEPTH);
    assert_eq!(
        report.nodes,
        quoted_signature(),
        "bench's node count differs from README.md's strength table"
    );
}
