//! `reconcile` alone, and scenario text → action-list text, at 1k, 10k and 100k resources.
//!
//! Inputs are generated deterministically: every desired name is observed
//! except about 1% (CREATE), about 1% of observed specs have drifted (UPDATE),
//! and about 1% of observed names are no longer desired (half of them with a
//! pending finalizer: FINALIZE, the others DELETE). Desired and observed are
//! parsed from separate texts, so equal specs are compared in full.
//!
//! Run: `cargo bench -p reconcile-core --profile bench-speed --bench reconcile`.

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use reconcile_core::{parse_scenario, reconcile, reconcile_scenario_json};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn spec(i: usize, replicas: usize) -> String {
    format!(
        r#"{{"image":"app:1","replicas":{replicas},"labels":{{"app":"res-{i:06}","tier":"web"}},"ports":[80,443]}}"#
    )
}

/// `{"desired":{…},"observed":{…},"finalizers":{…}}` with `n` desired resources.
fn scenario_text(n: usize) -> String {
    let (mut desired, mut observed, mut finalizers) = (String::new(), String::new(), String::new());
    let sep = |s: &String| if s.is_empty() { "" } else { "," };
    for i in 0..n {
        let _ = write!(
            desired,
            "{}\"res-{i:06}\":{}",
            sep(&desired),
            spec(i, i % 5)
        );
        match i % 100 {
            // Desired only: CREATE.
            1 => {}
            // Drifted: UPDATE.
            2 => {
                let _ = write!(observed, "{}\"res-{i:06}\":{}", sep(&observed), spec(i, 9));
            }
            _ => {
                let _ = write!(
                    observed,
                    "{}\"res-{i:06}\":{}",
                    sep(&observed),
                    spec(i, i % 5)
                );
            }
        }
        // Observed only, sorted among the others: FINALIZE or DELETE.
        if i % 100 == 3 {
            let _ = write!(observed, ",\"res-{i:06}-old\":{}", spec(i, 1));
            if i % 200 == 3 {
                let _ = write!(
                    finalizers,
                    "{}\"res-{i:06}-old\":[\"example.com/cleanup\"]",
                    sep(&finalizers)
                );
            }
        }
    }
    format!(
        r#"{{"desired":{{{desired}}},"observed":{{{observed}}},"finalizers":{{{finalizers}}}}}"#
    )
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("reconcile");
    for n in SIZES {
        let scenario = parse_scenario(&scenario_text(n)).expect("generated scenario parses");
        let actions = reconcile(
            &scenario.desired,
            &scenario.observed,
            scenario.finalizers.as_ref(),
        );
        // 1% CREATE + 1% UPDATE + 1% FINALIZE/DELETE.
        assert_eq!(actions.len(), 3 * n / 100);
        group.throughput(Throughput::Elements(n as u64));
        if n >= 100_000 {
            group.sample_size(20);
        }
        group.bench_with_input(BenchmarkId::from_parameter(n), &scenario, |b, s| {
            b.iter(|| reconcile(&s.desired, &s.observed, s.finalizers.as_ref()));
        });
    }
    group.finish();

    let mut group = c.benchmark_group("scenario-text-to-actions");
    for n in SIZES {
        let text = scenario_text(n);
        group.throughput(Throughput::Elements(n as u64));
        if n >= 100_000 {
            group.sample_size(10);
        }
        group.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
            b.iter(|| reconcile_scenario_json(black_box(text)).expect("valid"));
        });
    }
    group.finish();
}

criterion_group!(reconcile_benches, benches);
criterion_main!(reconcile_benches);
