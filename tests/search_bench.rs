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

#[test]
fn bench_margins_are_checked_by_name_and_bounds() {
    use janggun::search::margins::{Margins, CORR_WEIGHT, RFP, TUNABLES};
    use janggun::tools::bench::parse_margins;
    let m = parse_margins(&["corrweight=100".into(), " RfpMargin = 90".into()]).expect("valid");
    assert_eq!(m.get(CORR_WEIGHT), 100);
    assert_eq!(m.get(RFP), 90);
    assert_eq!(parse_margins(&[]).expect("none"), Margins::default());
    let over = format!("RfpMargin={}", TUNABLES[RFP].max + 1);
    for bad in ["RfpMargin", "Nope=3", "RfpMargin=ten", over.as_str()] {
        let e = parse_margins(&[bad.to_string()]).expect_err(bad);
        assert!(!e.is_empty(), "{bad}");
    }
}
