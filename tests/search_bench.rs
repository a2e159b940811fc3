//! The bench signature is deterministic with one thread.

#[test]
fn bench_is_deterministic() {
    let a = janggun::tools::bench::run_with(5, 1, 4, |_, _| {}).expect("bench runs");
    let b = janggun::tools::bench::run_with(5, 1, 4, |_, _| {}).expect("bench runs");
    assert!(a.nodes > 10_000);
    assert_eq!(a.nodes, b.nodes);
    let per_a: Vec<u64> = a.lines.iter().map(|l| l.nodes).collect();
    let per_b: Vec<u64> = b.lines.iter().map(|l| l.nodes).collect();
    assert_eq!(per_a, per_b);
    assert_eq!(a.lines.len(), janggun::tools::bench::fens().len());
}
