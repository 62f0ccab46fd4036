//! The speed sections of `cargo xtask bench`: core's criterion benchmarks
//! (native, `bench-speed` profile) and the simulation budget in wasm, in
//! headless Chromium (`web/bench/simulate.mjs`).

use crate::tools::Env;

/// The simulation budget: 1,000 passes over 1,000 resources, in wasm, in headless Chromium.
const SIMULATE_RUNS: &str = "15";

/// Runs both and returns their Markdown sections for docs/PERFORMANCE.md.
pub fn sections(env: &Env) -> Result<String, String> {
    let simulate = env
        .step("node", &["bench/simulate.mjs", SIMULATE_RUNS])
        .dir(&env.root.join("web"))
        .output()?;
    let play = ["200", "1000"]
        .iter()
        .map(|pods| {
            env.step("node", &["bench/play-long-tasks.mjs", pods])
                .dir(&env.root.join("web"))
                .output()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let criterion = env
        .step(
            "cargo",
            &[
                "bench",
                "-q",
                "-p",
                "reconcile-core",
                "--profile",
                "bench-speed",
            ],
        )
        // A short run: enough for stable figures at these sizes, about a minute in all.
        .args(&[
            "--",
            "--warm-up-time",
            "1",
            "--measurement-time",
            "3",
            "--output-format",
            "bencher",
        ])
        .output()?;
    Ok(format!(
        "## Simulation budget in the browser\n\n\
         1,000 desired pods (`{{\"image\": \"app:2\", \"replicas\": 0}}`), nothing observed, \
         `failureRate: 0.5`, `maxPasses: 1000`: the run uses all 1,000 passes. \
         Timed in the page with `performance.now()` around the JS API's `simulateVerdict` \
         (the whole simulation, without sending per-pass worlds to JavaScript), \
         {SIMULATE_RUNS} runs after 2 warm-up runs, on the release JS API (`dist/pkg`, opt-level z, wasm-opt -Oz). \
         Budget: 100 ms.\n\n\
         ```json\n{}\n```\n\n\
         ## Core benchmarks (native)\n\n\
         `cargo bench -p reconcile-core --profile bench-speed` (criterion, opt-level 3; \
         here a short run: 1 s warm-up, 3 s measurement). \
         `reconcile/N` is `reconcile` alone on N desired resources (about 1% drifted, 1% desired only, \
         1% observed only); `scenario-text-to-actions/N` is scenario JSON text to action-list JSON text \
         (parse, reconcile, serialize); `simulate/1000-resources-flaky` is the budget case above.\n\n\
         | benchmark | time per run | ± |\n|---|---:|---:|\n{}\n\n\
         ## Main-thread long tasks while Play runs\n\n\
         N pods pasted into Desired state (one input event), the Flaky API preset's settings \
         (50% failures, pass limit 100), Play at 8 passes/s until the verdict; long tasks \
         (over 50 ms) recorded with a `PerformanceObserver`. Budget: no task over 200 ms.\n\n\
         ```json\n{}\n```\n",
        simulate.trim(),
        criterion_table(&criterion),
        play.iter().map(|line| line.trim()).collect::<Vec<_>>().join("\n")
    ))
}

/// Rows of a Markdown table from criterion's `--output-format bencher` lines:
/// `test reconcile/1000 ... bench:      68,027 ns/iter (+/- 1,234)`.
fn criterion_table(output: &str) -> String {
    output
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("test ")?;
            let (name, rest) = rest.split_once(" ... bench:")?;
            let (time, rest) = rest.trim().split_once(" ns/iter")?;
            let spread = rest.trim().strip_prefix("(+/- ")?.strip_suffix(')')?;
            Some(format!(
                "| `{name}` | {} | {} |",
                human_time(time)?,
                human_time(spread)?
            ))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `68,027` (nanoseconds) as `68.0 µs`.
fn human_time(nanos: &str) -> Option<String> {
    let nanos: f64 = nanos.replace(',', "").parse().ok()?;
    Some(if nanos >= 1e6 {
        format!("{:.1} ms", nanos / 1e6)
    } else if nanos >= 1e3 {
        format!("{:.1} µs", nanos / 1e3)
    } else {
        format!("{nanos:.0} ns")
    })
}

#[cfg(test)]
mod tests {
    use super::criterion_table;

    #[test]
    fn reads_bencher_lines() {
        let output = "\
test reconcile/1000 ... bench:      68,027 ns/iter (+/- 1,234)
test simulate/1000-resources-flaky ... bench:  35,685,420 ns/iter (+/- 1,080,619)

test other ... ignored";
        assert_eq!(
            criterion_table(output),
            "| `reconcile/1000` | 68.0 µs | 1.2 µs |\n\
             | `simulate/1000-resources-flaky` | 35.7 ms | 1.1 ms |"
        );
    }
}
