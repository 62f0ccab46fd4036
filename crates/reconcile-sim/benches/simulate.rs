//! The simulation's budget case: 1,000 passes over 1,000 resources.
//!
//! 1,000 desired pods, nothing observed, half of all actions failing
//! transiently, at most 1,000 passes. The browser budget for this run (in
//! wasm, in headless Chromium) is 100 ms; `web/bench/simulate.mjs` measures
//! that one, this one measures native code.
//!
//! `custom-resources-100x10` is issue 29's case of several custom
//! resources: `web/bench/custom-resources-100x10.json` with 4 workers, to
//! convergence (browser budget 200 ms, through the JS API's `simulate`).
//!
//! Run: `cargo bench -p reconcile-sim --profile bench-speed --bench simulate`.

use std::fmt::Write as _;

use criterion::{criterion_group, criterion_main, Criterion};
use reconcile_core::{parse_resources, Document, Resources};
use reconcile_sim::{
    parse_sim_scenario, simulate, simulate_custom_resources, SimConfig, SimScenario, Verdict,
};

fn pods(n: usize) -> Resources {
    let mut text = String::from("{");
    for i in 0..n {
        let sep = if i == 0 { "" } else { "," };
        let _ = write!(
            text,
            r#"{sep}"pod-{i:04}":{{"image":"app:2","replicas":0}}"#
        );
    }
    text.push('}');
    parse_resources(Document::Desired, &text).expect("generated resources parse")
}

fn benches(c: &mut Criterion) {
    let scenario = SimScenario {
        desired: pods(1_000),
        observed: Resources::new(),
        finalizers: None,
    };
    let config = SimConfig {
        failure_rate: 0.5,
        max_passes: 1_000,
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert!(
        timeline.passes.len() >= 500,
        "the case runs hundreds of passes"
    );
    let mut group = c.benchmark_group("simulate");
    group.sample_size(10);
    group.bench_function("1000-resources-flaky", |b| {
        b.iter(|| simulate(&scenario, &config));
    });
    let text = include_str!("../../../web/bench/custom-resources-100x10.json");
    let several = parse_sim_scenario(text).expect("the committed scenario reads");
    let config = SimConfig {
        workers: 4,
        max_passes: 10_000,
        ..SimConfig::default()
    };
    let timeline = simulate_custom_resources(&several, &config);
    assert!(matches!(timeline.verdict, Verdict::Converged { .. }));
    group.bench_function("custom-resources-100x10", |b| {
        b.iter(|| simulate_custom_resources(&several, &config));
    });
    group.finish();
}

criterion_group!(simulate_benches, benches);
criterion_main!(simulate_benches);
