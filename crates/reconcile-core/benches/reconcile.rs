//! `reconcile` alone, on parsed input, on the generated scenario files that
//! every implementation of the performance report reads (`cargo xtask bench`;
//! see `crates/xtask/src/bench_inputs.rs`).
//!
//! - `reconcile/N`: `reconcile` on a scenario parsed (`parse_scenario`) for
//!   each run, outside the timing, and never reconciled before, so the specs
//!   it parses on first use are part of the time.
//!
//! Scenario text → action-list text is not timed here but as users run it:
//! `cargo xtask bench` times the `reconcile` command line as a whole process.
//!
//! Inputs come from `$BENCH_INPUTS` (default `target/bench-inputs`); a missing
//! file is generated and written there. Sizes come from `$BENCH_SIZES`
//! (comma-separated; default 1000,10000,100000).
//!
//! Run: `cargo bench -p reconcile-core --profile bench-speed --bench reconcile`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use reconcile_core::{parse_scenario, reconcile};

#[path = "../../xtask/src/bench_inputs.rs"]
mod bench_inputs;

fn inputs_dir() -> PathBuf {
    std::env::var_os("BENCH_INPUTS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-inputs"),
        PathBuf::from,
    )
}

/// `$BENCH_SIZES`, else the report's sizes up to 100k (1M takes a while).
fn sizes() -> Vec<usize> {
    match std::env::var("BENCH_SIZES") {
        Ok(list) => list
            .split(',')
            .map(|n| n.trim().parse().expect("BENCH_SIZES lists numbers"))
            .collect(),
        Err(_) => bench_inputs::SIZES
            .into_iter()
            .filter(|&n| n <= 100_000)
            .collect(),
    }
}

/// The scenario text of `n` resources, from its file (written first if missing).
fn scenario_text(n: usize) -> String {
    let dir = inputs_dir();
    let path = dir.join(bench_inputs::file_name(n));
    if let Ok(text) = std::fs::read_to_string(&path) {
        return text;
    }
    let text = bench_inputs::scenario_text(n);
    std::fs::create_dir_all(&dir).expect("create the inputs folder");
    std::fs::write(&path, &text).expect("write the input file");
    text
}

fn benches(c: &mut Criterion) {
    let texts: Vec<(usize, String)> = sizes().into_iter().map(|n| (n, scenario_text(n))).collect();

    let mut group = c.benchmark_group("reconcile");
    for (n, text) in &texts {
        group.throughput(Throughput::Elements(*n as u64));
        if *n >= 100_000 {
            group.sample_size(10);
        }
        group.bench_with_input(BenchmarkId::from_parameter(n), text, |b, text| {
            // Each run gets a scenario parsed for it, outside the timing: a parsed
            // scenario keeps the specs reconcile parsed on first use, so reusing one
            // would leave that work out of every run but the first.
            b.iter_custom(|runs| {
                let mut timed = Duration::ZERO;
                for _ in 0..runs {
                    let s = parse_scenario(text).expect("generated scenario parses");
                    let start = Instant::now();
                    let actions = reconcile(&s.desired, &s.observed, s.finalizers.as_ref());
                    timed += start.elapsed();
                    drop(black_box(actions));
                }
                timed
            });
        });
    }
    group.finish();
}

criterion_group!(reconcile_benches, benches);
criterion_main!(reconcile_benches);
