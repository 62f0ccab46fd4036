//! `cargo xtask bench`: the performance report, docs/PERFORMANCE.md.
//!
//! Every comparison is measured side by side in one run, on the same input
//! files (`bench_inputs`, written to `target/bench-inputs/`):
//! - native: the `reconcile` command line (`bench-speed` profile) as a whole
//!   process on each scenario file, against the Python reference
//!   (`bench/python/reference.py --print`) as a whole process, whose action
//!   lists must be byte-identical (and agree on `bench/python/corner_cases.py`),
//!   or the run fails; and reconcile alone on parsed input (criterion) against
//!   the reference's reconcile on its dicts;
//! - in headless Chromium: the release JS API against plain JavaScript in the
//!   same page (`web/bench/reconcile-vs-js.mjs`), outputs compared too;
//! - the page: edit → render latency, long tasks, time to the first action
//!   list, transfer size, the simulation budget, long tasks while Play runs.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::bench_inputs::{self, SIZES};
use crate::size;
use crate::tools::Env;

/// The budgets the issue sets; the ratios are measured at this size.
const BUDGET_SIZE: usize = 100_000;
const END_TO_END_BUDGET: f64 = 10.0;
const RECONCILE_BUDGET: f64 = 5.0;
const WASM_BUDGET: f64 = 1.0;
const EDIT_RENDER_BUDGET_MS: f64 = 100.0;
const LONG_TASK_BUDGET_MS: f64 = 200.0;
const FIRST_ACTION_LIST_BUDGET_MS: f64 = 300.0;
/// A second visit with no network, from the service worker's cache (issue 17).
const OFFLINE_SECOND_VISIT_BUDGET_MS: f64 = 300.0;
/// A first visit over emulated slow links (issue 17): (profile, what it is, budget).
const SLOW_LINKS: [(&str, &str, f64); 2] = [
    ("4g", "4G (9 Mbps, 170 ms)", 800.0),
    ("3g", "3G (1.6 Mbps, 300 ms)", 2200.0),
];
/// How the slow-link benchmark's server compresses: the budget is set for gzip.
const SLOW_LINK_ENCODINGS: [&str; 2] = ["gzip", "br"];
const SIMULATE_BUDGET_MS: f64 = 100.0;
/// 100 custom resources of 10 objects, 4 workers, to convergence (issue 29).
const CUSTOM_RESOURCES_BUDGET_MS: f64 = 200.0;
/// No main-thread task longer than this while the pane checks a learner's code.
const CHECK_LONG_TASK_BUDGET_MS: f64 = 200.0;
/// A correct JavaScript reconcile checked on 1,000 cases, in the sandbox.
const CHECK_BUDGET_MS: f64 = 300.0;
/// A correct Python reconcile checked on 1,000 cases, Python (Pyodide) already running.
const CHECK_PYTHON_BUDGET_MS: f64 = 2000.0;
/// A course page with the component, cold on 4G, to the frame's first action list (issue 33).
const COMPONENT_4G_BUDGET_MS: f64 = 800.0;
/// A correct JavaScript controller of `external-finalizer`: the fault-free run and
/// 1,000 fault schedules (issue 30).
const CHECK_CONTROLLER_BUDGET_MS: f64 = 10_000.0;
/// The same in Python, after Pyodide has started (issue 30).
const CHECK_CONTROLLER_PYTHON_BUDGET_MS: f64 = 20_000.0;
/// The exercise both controller budgets name.
const CHECK_CONTROLLER_EXERCISE: &str = "external-finalizer";
/// From the first Python `check()` to its first answered case, Pyodide not yet fetched.
const PYTHON_COLD_START_BUDGET_MS: f64 = 5000.0;

/// Python runs per size, and whole-process runs of each side: fewer for the
/// big inputs, which take seconds each in Python.
fn python_runs(n: usize) -> usize {
    match n {
        0..=1_000 => 21,
        1_001..=10_000 => 11,
        10_001..=100_000 => 7,
        _ => 3,
    }
}

/// The sizes the browser takes: a 1M scenario is 280 MB of text, past what a page holds comfortably.
const BROWSER_SIZES: [&str; 3] = ["1000", "10000", "100000"];
/// Edit → render sizes, and the big paste whose long tasks are reported.
const EDIT_SIZES: [&str; 2] = ["1000", "10000"];
const BIG_PASTE: &str = "100000";
const SIMULATE_RUNS: &str = "15";
const CHECK_RUNS: &str = "7";
const CHECK_PYTHON_RUNS: &str = "5";
const FIRST_ACTION_LIST_RUNS: &str = "21";
const OFFLINE_RUNS: &str = "15";
const SLOW_LINK_RUNS: &str = "7";

/// Measures everything on the release build in `dist` and returns the report.
pub fn report(env: &Env, dist: &Path) -> Result<String, String> {
    let inputs = env.root.join("target/bench-inputs");
    write_inputs(&inputs)?;
    let inputs_arg = inputs.to_string_lossy().into_owned();

    // Native: reconcile alone (criterion), the Python reference's timings, then
    // the command line and the reference as whole processes, side by side.
    let sizes = SIZES.map(|n| n.to_string()).join(",");
    let criterion = env
        .step(
            "cargo",
            &[
                "bench",
                "-q",
                "-p",
                "reconcile-core",
                "-p",
                "reconcile-sim",
                "--profile",
                "bench-speed",
            ],
        )
        // A short run: enough for stable figures at these sizes.
        .args(&[
            "--",
            "--warm-up-time",
            "1",
            "--measurement-time",
            "3",
            "--output-format",
            "bencher",
        ])
        .env("BENCH_INPUTS", &inputs_arg)
        .env("BENCH_SIZES", &sizes)
        .output()?;
    let rust = criterion_medians(&criterion);
    env.step(
        "cargo",
        &[
            "build",
            "-q",
            "--profile",
            "bench-speed",
            "-p",
            "reconcile-cli",
        ],
    )
    .run()?;
    // The interpreter `python3` starts, started directly: a version manager's
    // shim in front of it (pyenv's is a shell script) would add its own start.
    let python3 = env
        .step("python3", &["-c", "import sys; print(sys.executable)"])
        .output()?
        .trim()
        .to_owned();
    let mut python = BTreeMap::new();
    let mut processes = BTreeMap::new();
    for n in SIZES {
        let file = inputs.join(bench_inputs::file_name(n));
        let line = env
            .step("python3", &["bench/python/reference.py", "--runs"])
            .arg(&python_runs(n).to_string())
            .arg(&file.to_string_lossy())
            .output()?;
        python.insert(n, line.trim().to_owned());
        processes.insert(n, whole_processes(env, &inputs, n, &python3)?);
        compare_outputs(&inputs, n)?;
    }
    let corner_cases = env
        .step(
            "python3",
            &["bench/python/corner_cases.py", &cli_path(env), "300"],
        )
        .output()?;

    // In the browser.
    let web = env.root.join("web");
    let node = |script: &str, args: &[&str]| {
        env.step("node", &[script])
            .args(args)
            .dir(&web)
            .env("BENCH_INPUTS", &inputs_arg)
            .env("DIST", &dist.to_string_lossy())
            .output()
    };
    let versus_js = node("bench/reconcile-vs-js.mjs", &BROWSER_SIZES)?;
    if versus_js.contains("\"sameOutput\":false") {
        return Err("wasm and plain JS gave different action lists; see the output above".into());
    }
    let edit_compact = node("bench/edit-render.mjs", &EDIT_SIZES)?;
    let edit_pretty = node(
        "bench/edit-render.mjs",
        &[
            "--format",
            "pretty",
            "--edits",
            "5",
            EDIT_SIZES[0],
            EDIT_SIZES[1],
        ],
    )?;
    // Pretty YAML, read by the page's YAML module in its worker.
    let edit_yaml = node(
        "bench/edit-render.mjs",
        &["--format", "yaml", "--edits", "7", EDIT_SIZES[1]],
    )?;
    let big_paste = node("bench/edit-render.mjs", &["--edits", "1", BIG_PASTE])?;
    let first_action_list = node("bench/first-action-list.mjs", &[FIRST_ACTION_LIST_RUNS])?;
    let offline = node("bench/offline-second-visit.mjs", &[OFFLINE_RUNS])?;
    let slow_links = node("bench/slow-links.mjs", &[SLOW_LINK_RUNS])?;
    let component = node("bench/component-4g.mjs", &[SLOW_LINK_RUNS])?;
    let simulate = node("bench/simulate.mjs", &[SIMULATE_RUNS])?;
    let check = node("bench/check.mjs", &[CHECK_RUNS])?;
    let check_python = node("bench/check-python.mjs", &[CHECK_PYTHON_RUNS])?;
    let reference = |file: &str| {
        format!("../../crates/reconcile-content/exercises/controllers/{CHECK_CONTROLLER_EXERCISE}/{file}")
    };
    let check_controller = [reference("reference.mjs"), reference("reference.py")]
        .iter()
        .map(|file| {
            node(
                "bench/check-controller.mjs",
                &["3", CHECK_CONTROLLER_EXERCISE, file.as_str()],
            )
        })
        .collect::<Result<Vec<_>, _>>()?
        .join("");
    // The seed's exercise in each language, then a controller's reference
    // through the pane (checkController's 1,000 schedules).
    let check_tasks = [
        &["javascript", "reconcile"][..],
        &["python", "reconcile"],
        // Each run a cold page; the median of three, as one run is noisy.
        &["javascript", "external-finalizer", "3"],
    ]
    .iter()
    .map(|args| node("bench/check-long-tasks.mjs", args))
    .collect::<Result<Vec<_>, _>>()?;
    let play = ["200", "1000"]
        .iter()
        .map(|pods| node("bench/play-long-tasks.mjs", &[pods]))
        .collect::<Result<Vec<_>, _>>()?;
    let control_plane = [("50", 16.0), ("500", 50.0)]
        .iter()
        .map(|(pods, budget)| Ok((node("bench/control-plane-steps.mjs", &[pods])?, *budget)))
        .collect::<Result<Vec<_>, String>>()?;
    let sizes_table = size::report(dist)?;

    let measured = Measured {
        rust: &rust,
        python: &python,
        processes: &processes,
        versus_js: &versus_js,
        edit_compact: &edit_compact,
        edit_pretty: &edit_pretty,
        edit_yaml: &edit_yaml,
        big_paste: &big_paste,
        first_action_list: &first_action_list,
        offline: &offline,
        slow_links: &slow_links,
        component: &component,
        simulate: &simulate,
        check: &check,
        check_python: &check_python,
        check_controller: &check_controller,
        check_tasks: &check_tasks.join(""),
        play: &play.join(""),
        control_plane: &control_plane,
    };
    Ok(measured.markdown(&inputs, &criterion, &corner_cases, &sizes_table))
}

/// Writes the scenario files (always anew: they are cheap, and never stale).
fn write_inputs(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for n in SIZES {
        let path = dir.join(bench_inputs::file_name(n));
        println!("xtask: writing {}", path.display());
        std::fs::write(&path, bench_inputs::scenario_text(n))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The command line the whole-process figures time (built by the report first).
const CLI: &str = "target/bench-speed/reconcile";

/// Where the `bench-speed` build put the command line: under
/// `CARGO_TARGET_DIR` when it is set, as cargo does ([`CLI`] otherwise).
fn cli_path(env: &Env) -> String {
    crate::jsapi::target_dir(env)
        .join("bench-speed")
        .join("reconcile")
        .to_string_lossy()
        .into_owned()
}

/// Wall times of whole processes on one scenario file, in milliseconds.
struct WholeProcesses {
    /// `reconcile scenario-N.json`.
    cli: Vec<f64>,
    /// `python3 bench/python/reference.py --print scenario-N.json`.
    python: Vec<f64>,
}

/// Runs the command line and the Python reference on the scenario file of `n`
/// resources as whole processes, alternating (after one untimed run of each),
/// and writes each one's output beside the input for [`compare_outputs`].
fn whole_processes(
    env: &Env,
    inputs: &Path,
    n: usize,
    python3: &str,
) -> Result<WholeProcesses, String> {
    let file = inputs.join(bench_inputs::file_name(n));
    let file = file.to_string_lossy();
    let cli_path = cli_path(env);
    let cli = [cli_path.as_str(), &file];
    let python = [python3, "bench/python/reference.py", "--print", &file];
    let runs = python_runs(n);
    println!(
        "xtask: {runs} whole-process runs each of `{}` and `{}`",
        cli.join(" "),
        python.join(" ")
    );
    let mut times = WholeProcesses {
        cli: Vec::new(),
        python: Vec::new(),
    };
    for run in 0..=runs {
        let (cli_ms, cli_out) = timed_process(env, &cli)?;
        let (python_ms, python_out) = timed_process(env, &python)?;
        if run == 0 {
            // The untimed first runs, whose outputs are compared.
            for (name, out) in [("rust", &cli_out), ("python", &python_out)] {
                let path = inputs.join(format!("actions-{n}.{name}.json"));
                std::fs::write(&path, out)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
        } else {
            times.cli.push(cli_ms);
            times.python.push(python_ms);
        }
    }
    Ok(times)
}

/// Runs `command` (program first) in the repository root with its standard
/// output captured: the wall time from start to exit, in milliseconds, and the output.
fn timed_process(env: &Env, command: &[&str]) -> Result<(f64, Vec<u8>), String> {
    let shown = command.join(" ");
    let (program, args) = command.split_first().ok_or("no command")?;
    let start = Instant::now();
    let output = Command::new(program)
        .args(args)
        .current_dir(&env.root)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not start `{shown}`: {e}"))?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if output.status.success() {
        Ok((ms, output.stdout))
    } else {
        Err(format!("`{shown}` failed ({})", output.status))
    }
}

/// The median of some times (the upper one of an even count).
fn median(times: &[f64]) -> Option<f64> {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied()
}

/// The Python and Rust action lists of one size must be the same bytes.
fn compare_outputs(dir: &Path, n: usize) -> Result<(), String> {
    let read = |name: String| {
        std::fs::read(dir.join(&name)).map_err(|e| format!("cannot read {name}: {e}"))
    };
    let rust = read(format!("actions-{n}.rust.json"))?;
    let python = read(format!("actions-{n}.python.json"))?;
    if rust == python {
        Ok(())
    } else {
        Err(format!(
            "the Python reference and the Rust core disagree at {n} resources: \
             compare target/bench-inputs/actions-{n}.python.json and actions-{n}.rust.json"
        ))
    }
}

/// Everything measured, as the text each tool printed.
struct Measured<'a> {
    /// Criterion medians in nanoseconds, by benchmark name.
    rust: &'a BTreeMap<String, f64>,
    /// The Python reference's JSON line, by size.
    python: &'a BTreeMap<usize, String>,
    /// The command line and the reference as whole processes, by size.
    processes: &'a BTreeMap<usize, WholeProcesses>,
    versus_js: &'a str,
    edit_compact: &'a str,
    edit_pretty: &'a str,
    edit_yaml: &'a str,
    big_paste: &'a str,
    first_action_list: &'a str,
    /// `bench/offline-second-visit.mjs`: the JSON line.
    offline: &'a str,
    /// `bench/slow-links.mjs`: one JSON line per link profile and compression.
    slow_links: &'a str,
    /// `bench/component-4g.mjs`: the JSON line.
    component: &'a str,
    simulate: &'a str,
    /// `bench/check.mjs`: the JSON line.
    check: &'a str,
    /// `bench/check-python.mjs`: the JSON line.
    check_python: &'a str,
    /// `bench/check-controller.mjs`: the JSON line.
    check_controller: &'a str,
    /// `bench/check-long-tasks.mjs`, one JSON line per language.
    check_tasks: &'a str,
    play: &'a str,
    /// `bench/control-plane-steps.mjs` at 50 and 500 pods, each with its budget in ms.
    control_plane: &'a [(String, f64)],
}

/// A JSON line's line for `resources` = `n`.
fn line_for(lines: &str, n: &str) -> Option<String> {
    let needle = format!("\"resources\":{n},");
    lines
        .lines()
        .find(|line| line.contains(&needle))
        .map(str::to_owned)
}

/// The slow-link benchmark's line for a link profile and a compression.
fn slow_link_line(lines: &str, profile: &str, encoding: &str) -> Option<String> {
    let needle = format!("\"profile\":\"{profile}\",\"encoding\":\"{encoding}\",");
    lines
        .lines()
        .find(|line| line.contains(&needle))
        .map(str::to_owned)
}

/// The budget rows of a first visit over slow links: one per link profile and
/// compression, with the bytes the page downloaded by its first action list.
fn slow_link_rows(rows: &mut String, lines: &str) {
    for (profile, link, budget_ms) in SLOW_LINKS {
        for encoding in SLOW_LINK_ENCODINGS {
            let Some(line) = slow_link_line(lines, profile, encoding) else {
                continue;
            };
            let (Some(median), Some(bytes)) = (
                number_after(&line, "\"firstActionListMs\":{\"median\":"),
                number_after(&line, "\"bytesAtFirstActionList\":"),
            ) else {
                continue;
            };
            let _ = writeln!(
                rows,
                "| first visit, {link}, served with {encoding}: first action list | ≤ {budget_ms:.0} ms | \
                 median {} ({:.1} KB downloaded) | {} |",
                ms(median),
                bytes / 1024.0,
                verdict(median <= budget_ms)
            );
        }
    }
}

/// The number after `key` (a quoted key and what follows it, e.g. `"wasmMs":{"median":`).
fn number_after(json: &str, key: &str) -> Option<f64> {
    let rest = json[json.find(key)? + key.len()..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | 'e' | 'E' | '+')))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// The Python check's two budget rows: its cold start and 1,000 cases.
fn python_rows(rows: &mut String, json: &str) {
    if let Some(first) = number_after(json, "\"coldStart\":{\"firstAnswerMs\":") {
        let _ = writeln!(
            rows,
            "| Python's cold start: first `check()` to its first answered cases, nothing cached | ≤ {PYTHON_COLD_START_BUDGET_MS:.0} ms | {} | {} |",
            ms(first),
            verdict(first <= PYTHON_COLD_START_BUDGET_MS)
        );
    }
    check_row(
        rows,
        json,
        "a correct Python reconcile checked on 1,000 cases, Pyodide in the sandbox",
        CHECK_PYTHON_BUDGET_MS,
    );
}

/// The budget row of a median in a benchmark's JSON line, found after `key`.
fn median_row(rows: &mut String, json: &str, key: &str, what: &str, budget_ms: f64) {
    if let Some(median) = number_after(json, key) {
        let _ = writeln!(
            rows,
            "| {what} | ≤ {budget_ms:.0} ms | median {} | {} |",
            ms(median),
            verdict(median <= budget_ms)
        );
    }
}

/// The budget row of a check benchmark's JSON line (`bench/check*.mjs`): its median
/// over 1,000 cases, which must all pass.
fn check_row(rows: &mut String, json: &str, what: &str, budget_ms: f64) {
    if let Some(median) = number_after(json, "\"checkMs\":{\"median\":") {
        let passed = json.contains("\"passed\":true,\"total\":1000");
        let _ = writeln!(
            rows,
            "| {what} | ≤ {budget_ms:.0} ms | median {}{} | {} |",
            ms(median),
            if passed {
                ""
            } else {
                " (it did not pass all 1,000)"
            },
            verdict(passed && median <= budget_ms)
        );
    }
}

fn verdict(pass: bool) -> &'static str {
    if pass {
        "**pass**"
    } else {
        "**FAIL**"
    }
}

/// `1234.5` ms as `1234.5 ms`, `0.42` as `0.42 ms`.
fn ms(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0} ms")
    } else if value >= 1.0 {
        format!("{value:.1} ms")
    } else {
        format!("{value:.3} ms")
    }
}

impl Measured<'_> {
    fn rust_ms(&self, benchmark: &str) -> Option<f64> {
        self.rust.get(benchmark).map(|ns| ns / 1e6)
    }

    fn python_ms(&self, n: usize, key: &str) -> Option<f64> {
        number_after(self.python.get(&n)?, &format!("\"{key}\":"))
    }

    /// Rust time, Python time and Python ÷ Rust, for one criterion group and Python key.
    fn ratio(&self, n: usize, group: &str, python_key: &str) -> Option<(f64, f64, f64)> {
        let rust = self.rust_ms(&format!("{group}/{n}"))?;
        let python = self.python_ms(n, python_key)?;
        Some((rust, python, python / rust))
    }

    /// The command line's and the reference's median whole-process times, and Python ÷ CLI.
    fn process_ratio(&self, n: usize) -> Option<(f64, f64, f64)> {
        let times = self.processes.get(&n)?;
        let (cli, python) = (median(&times.cli)?, median(&times.python)?);
        Some((cli, python, python / cli))
    }

    fn markdown(&self, inputs: &Path, criterion: &str, corner_cases: &str, sizes: &str) -> String {
        let mut doc = String::from(
            "# Performance\n\n\
             Generated by `cargo xtask bench`. Machine: the project's 2-core builder (shared with other \
             builds while this ran, so single figures are noisy; each ratio is measured side by side \
             in one run, on the same input files), headless Debian Chromium, pages served from localhost. \
             Browser figures are the release build (opt-level z, LTO, wasm-opt -Oz); native Rust figures \
             are the `bench-speed` profile (opt-level 3).\n\n",
        );
        doc.push_str(&self.budgets());
        doc.push_str(&inputs_section(inputs));
        doc.push_str(&self.native_section(corner_cases));
        doc.push_str(&self.browser_section());
        doc.push_str(&self.edit_section());
        let _ = write!(
            doc,
            "## Time to the first action list\n\n\
             Navigation start to the `first-action-list` performance mark: the first action list on screen. \
             On a first visit to a preset (`?preset=`), or to the page with nothing saved, that is the plan \
             `index.html` holds for it, computed at build time by the core (`cargo xtask prerender`), shown \
             and marked by its inline script once the stylesheet is in; otherwise, the page's first render, \
             which already holds the plan. `pageMounted` is the `page-mounted` mark, the page's first render, \
             which replaces the prerendered plan in the same task. \
             {FIRST_ACTION_LIST_RUNS} fresh browser contexts, no cache. Budget: {FIRST_ACTION_LIST_BUDGET_MS:.0} ms.\n\n\
             ```json\n{}\n```\n\n\
             ## A second visit, offline\n\n\
             `web/bench/offline-second-visit.mjs`: a first visit to the release build, served with gzip under \
             Chromium's emulation of 4G (`firstVisit4gMs`), until the service worker serves the page; then \
             {OFFLINE_RUNS} new tabs in that browser with no network (Chromium's network emulation offline, and the \
             context offline), each from navigation to the `first-action-list` mark, everything from the \
             worker's cache (docs/offline.md). Budget: {OFFLINE_SECOND_VISIT_BUDGET_MS:.0} ms.\n\n\
             ```json\n{}\n```\n\n\
             ## A first visit over slow links\n\n\
             `web/bench/slow-links.mjs`: {SLOW_LINK_RUNS} first visits per line, each in a fresh browser context \
             (nothing cached, no service worker), under Chromium's network emulation of 4G (9 Mbps, 170 ms) \
             and 3G (1.6 Mbps, 300 ms), from a static server that sends gzip, then brotli, as a host \
             serving precompressed files does: the build's copies (`cargo xtask precompress`: gzip by \
             zopfli, brotli quality 11), else each file compressed once (gzip level 9, brotli quality 11). \
             Navigation to the \
             `first-action-list` mark; `bytesAtFirstActionList` is what the page downloaded by then, as sent \
             (compressed, with headers), `bytesWhenIdle` once its network has been idle for a second; \
             `pageMountedMs` to the page's first render (the `page-mounted` mark). \
             Budgets (gzip): 800 ms on 4G, 2,200 ms on 3G.\n\n\
             ```json\n{}\n```\n\n\
             ## Transfer size\n\n{sizes}\n\
             What the page's wasm is made of, and what each part costs: `docs/SIZE.md`.\n\n\
             ## Simulation budget in the browser\n\n\
             1,000 desired pods (`{{\"image\": \"app:2\", \"replicas\": 0}}`), nothing observed, \
             `failureRate: 0.5`, `maxPasses: 1000`: the run uses all 1,000 passes. \
             Timed in the page with `performance.now()` around the JS API's `simulateVerdict` \
             (the whole simulation, without sending per-pass worlds to JavaScript), \
             {SIMULATE_RUNS} runs after 2 warm-up runs, on the release JS API. \
             Budget: {SIMULATE_BUDGET_MS:.0} ms.\n\n\
             `customResources` is the same for several custom resources: `web/bench/custom-resources-100x10.json` \
             (100 custom resources of 10 desired objects: 3 to create, 3 to update, 1 extra to delete), \
             `workers: 4`, to convergence, through `simulate` (the whole timeline crosses into JavaScript). \
             Budget: {CUSTOM_RESOURCES_BUDGET_MS:.0} ms.\n\n\
             ```json\n{}\n```\n\n\
             ## Checking a learner's reconcile\n\n\
             The JS API's `check()` of a correct JavaScript reconcile (`web/bench/learner-reconcile.mjs`) \
             on 1,000 generated cases: the checker module, and the learner's code in the sandbox \
             (an opaque-origin frame's worker), as a course page or the playground runs them; \
             {CHECK_RUNS} runs after 2 warm-up runs (`web/bench/check.mjs`). Budget: {CHECK_BUDGET_MS:.0} ms.\n\n\
             ```json\n{}\n```\n\n\
             The same for a correct Python reconcile (`web/bench/learner-reconcile.py`), run by Pyodide in \
             the sandbox's worker (`web/bench/check-python.mjs`): `coldStart` is the first Python `check()` \
             in a fresh browser context, from the call to its first answered batch (the page fetches \
             Pyodide's 13.5 MB, hands it to the frame, which starts Python); `coldStartNewPage` the same \
             on a second page (the test server sends no caching headers, so the files are fetched again); \
             `checkMs` {CHECK_PYTHON_RUNS} checks of 1,000 cases after a warm-up check, Python running. \
             Budgets: {PYTHON_COLD_START_BUDGET_MS:.0} ms to the first answer, {CHECK_PYTHON_BUDGET_MS:.0} ms \
             for 1,000 cases.\n\n\
             ```json\n{}\n```\n\n\
             ## A course page with the component on 4G\n\n\
             `web/bench/component-4g.mjs`: `web/e2e/pages/component-host.html` (one script tag, one \
             `<reconcile-playground>`), the component and its frame from the playground's origin, each visit in a \
             fresh context (nothing cached, no service worker) under emulated 4G with gzip; from the host page's \
             navigation start to the frame's `first-action-list` mark, which is the prerendered plan the frame's \
             `index.html` holds for the preset. `requestsBeforeMark`, `bytesBeforeMark` (as sent: compressed, \
             with headers) and `chainBeforeMark` (the longest run of requests each started after the one before \
             ended) are the last visit's, from Resource Timing in the host page and the frame. \
             Budget: {COMPONENT_4G_BUDGET_MS:.0} ms.\n\n\
             ```json\n{}\n```\n\n\
             ## Trying to break a controller\n\n\
             The JS API's `checkController(source)` of `{CHECK_CONTROLLER_EXERCISE}`'s reference solution, \
             in JavaScript then Python: the fault-free run and 1,000 fault schedules, timed from the page. The source \
             runs in the sandbox's worker next to the simulation, each process a module imported afresh; 3 runs \
             after a warm-up (`web/bench/check-controller.mjs`). A Python check starts Pyodide in its worker, and \
             that start counts. Long tasks (over 50 ms) of the page's thread recorded with a `PerformanceObserver`. \
             Budgets: JavaScript {CHECK_CONTROLLER_BUDGET_MS:.0} ms, Python {CHECK_CONTROLLER_PYTHON_BUDGET_MS:.0} ms; \
             no task over {CHECK_LONG_TASK_BUDGET_MS:.0} ms.\n\n\
             ```json\n{}\n```\n\n\
             ## Main-thread long tasks during a Check\n\n\
             \"Your reconcile\" as a learner uses it (`web/bench/check-long-tasks.mjs`): the correct reconcile \
             typed into the pane, Check pressed, until the verdict shows; long tasks (over 50 ms) \
             recorded with a `PerformanceObserver`. Python's run includes Pyodide's download and first \
             start in a fresh browser. The third line is `external-finalizer`'s JavaScript reference, \
             checked with `checkController` (1,000 schedules) three times, each from a fresh page in a fresh \
             browser context; `checkMs` is the median time to the result, `checkRunsMs` each run's (budget {CHECK_CONTROLLER_BUDGET_MS:.0} ms). Budget: no task over {CHECK_LONG_TASK_BUDGET_MS:.0} ms.\n\n\
             ```json\n{}\n```\n\n\
             ## Main-thread long tasks while Play runs\n\n\
             N pods pasted into Desired state (one input event), the Flaky API preset's settings \
             (50% failures, pass limit 100), Play at 8 passes/s until the verdict; long tasks \
             (over 50 ms) recorded with a `PerformanceObserver`. Budget: no task over {LONG_TASK_BUDGET_MS:.0} ms.\n\n\
             ```json\n{}\n```\n\n\
             ## All criterion benchmarks (native)\n\n\
             `cargo bench -p reconcile-core -p reconcile-sim --profile bench-speed` (opt-level 3; a short run: 1 s warm-up, \
             3 s measurement; median ± standard deviation). `reconcile/N` is the \"Rust reconcile\" column above \
             (reconcile alone, on parsed input); `simulate/1000-resources-flaky` is the simulation budget case, natively.\n\n\
             | benchmark | median | ± |\n|---|---:|---:|\n{}\n",
            self.first_action_list.trim(),
            self.offline.trim(),
            self.slow_links.trim(),
            self.simulate.trim(),
            self.check.trim(),
            self.check_python.trim(),
            self.component.trim(),
            self.check_controller.trim(),
            self.check_tasks.trim(),
            self.play.trim(),
            criterion_table(criterion),
        );
        doc
    }

    fn budgets(&self) -> String {
        let mut rows = String::new();
        let n = BUDGET_SIZE;
        if let Some((cli, python, ratio)) = self.process_ratio(n) {
            let _ = writeln!(
                rows,
                "| scenario file → action list at 100k: the `reconcile` command line as a whole process, \
                 against the Python reference as a whole process | ≥ {END_TO_END_BUDGET:.0}× | \
                 {ratio:.1}× (CLI {}, Python {}) | {} |",
                ms(cli),
                ms(python),
                verdict(ratio >= END_TO_END_BUDGET)
            );
        }
        if let Some((rust, python, ratio)) = self.ratio(n, "reconcile", "reconcileMedianMs") {
            let _ = writeln!(
                rows,
                "| `reconcile` alone on parsed input at 100k, against Python's on its dicts | ≥ {RECONCILE_BUDGET:.0}× | \
                 {ratio:.1}× (Rust {}, Python {}) | {} |",
                ms(rust),
                ms(python),
                verdict(ratio >= RECONCILE_BUDGET)
            );
        }
        let speedups: Vec<(String, f64)> = BROWSER_SIZES
            .iter()
            .filter_map(|n| {
                let line = line_for(self.versus_js, n)?;
                Some((thousands(n), number_after(&line, "\"speedup\":")?))
            })
            .collect();
        if !speedups.is_empty() {
            let shown: Vec<String> = speedups
                .iter()
                .map(|(n, s)| format!("{s:.2}× at {n}"))
                .collect();
            let _ = writeln!(
                rows,
                "| the JS API's `reconcile` (three JSON texts in, JS values out) in Chromium, against plain JS | ≥ {WASM_BUDGET:.1}× | {} | {} |",
                shown.join(", "),
                verdict(speedups.iter().all(|(_, s)| *s >= WASM_BUDGET))
            );
        }
        for (format, lines) in [
            ("compact", self.edit_compact),
            ("pretty-printed", self.edit_pretty),
            ("pretty YAML", self.edit_yaml),
        ] {
            let Some(line) = line_for(lines, EDIT_SIZES[1]) else {
                continue;
            };
            let (Some(paste), Some(keystroke), Some(bare)) = (
                number_after(&line, "\"pasteEditToRenderMs\":{\"median\":"),
                number_after(&line, "\"keystrokeEditToRenderMs\":{\"median\":"),
                number_after(&line, "\"bareTextareaPasteMs\":{\"median\":"),
            ) else {
                continue;
            };
            let _ = writeln!(
                rows,
                "| edit → render at 10k in the page, {format} documents | ≤ {EDIT_RENDER_BUDGET_MS:.0} ms | \
                 paste {}, keystroke {} (a bare textarea takes {} for the same paste) | {} |",
                ms(paste),
                ms(keystroke),
                ms(bare),
                verdict(paste.max(keystroke) <= EDIT_RENDER_BUDGET_MS)
            );
        }
        let long_tasks: Vec<(String, f64)> = [
            ("editing 1k and 10k (compact)", self.edit_compact),
            ("editing 1k and 10k (pretty-printed)", self.edit_pretty),
            ("editing 10k (pretty YAML)", self.edit_yaml),
            ("pasting 100k", self.big_paste),
            ("Play at 200 and 1,000 pods", self.play),
        ]
        .iter()
        .filter_map(|(what, lines)| {
            let worst = lines
                .lines()
                .filter_map(|line| number_after(line, "\"maxLongTaskMs\":"))
                .reduce(f64::max)?;
            Some(((*what).to_owned(), worst))
        })
        .collect();
        if !long_tasks.is_empty() {
            let shown: Vec<String> = long_tasks
                .iter()
                .map(|(what, worst)| {
                    // The browser reports tasks over 50 ms only.
                    if *worst > 0.0 {
                        format!("{what}: {}", ms(*worst))
                    } else {
                        format!("{what}: none over 50 ms")
                    }
                })
                .collect();
            let _ = writeln!(
                rows,
                "| longest main-thread task | ≤ {LONG_TASK_BUDGET_MS:.0} ms | {} | {} |",
                shown.join("; "),
                verdict(long_tasks.iter().all(|(_, w)| *w <= LONG_TASK_BUDGET_MS))
            );
        }
        for (line, budget) in self.control_plane {
            let (Some(pods), Some(median), Some(worst)) = (
                number_after(line, "\"pods\":"),
                number_after(line, "\"medianStepMs\":"),
                number_after(line, "\"maxStepMs\":"),
            ) else {
                continue;
            };
            let _ = writeln!(
                rows,
                "| a step by event with the control-plane picture open, {pods:.0} pods \
                 (`web/bench/control-plane-steps.mjs`) | ≤ {budget:.0} ms | median {}, worst {} | {} |",
                ms(median),
                ms(worst),
                verdict(worst <= *budget)
            );
        }
        median_row(
            &mut rows,
            self.first_action_list,
            "\"firstActionList\":{\"median\":",
            "first action list after navigation",
            FIRST_ACTION_LIST_BUDGET_MS,
        );
        median_row(
            &mut rows,
            self.offline,
            "\"secondVisitOffline\":{\"median\":",
            "a second visit, offline: first action list from the service worker's cache",
            OFFLINE_SECOND_VISIT_BUDGET_MS,
        );
        slow_link_rows(&mut rows, self.slow_links);
        median_row(
            &mut rows,
            self.component,
            "\"firstActionListMs\":{\"median\":",
            "a course page with the component, cold, 4G, gzip: the frame's first action list from the host's navigation",
            COMPONENT_4G_BUDGET_MS,
        );
        median_row(
            &mut rows,
            self.simulate,
            "\"simulateVerdictMs\":{\"median\":",
            "1,000 passes over 1,000 resources, wasm",
            SIMULATE_BUDGET_MS,
        );
        median_row(
            &mut rows,
            self.simulate,
            "\"customResourcesMs\":{\"median\":",
            "100 custom resources of 10 objects, 4 workers, to convergence, wasm",
            CUSTOM_RESOURCES_BUDGET_MS,
        );
        check_row(
            &mut rows,
            self.check,
            "a correct JavaScript reconcile checked on 1,000 cases, in the sandbox",
            CHECK_BUDGET_MS,
        );
        python_rows(&mut rows, self.check_python);
        let languages = [
            ("JavaScript", CHECK_CONTROLLER_BUDGET_MS),
            ("Python", CHECK_CONTROLLER_PYTHON_BUDGET_MS),
        ];
        for (line, (language, budget)) in self.check_controller.lines().zip(languages) {
            median_row(
                &mut rows,
                line,
                "\"checkControllerMs\":{\"median\":",
                &format!(
                    "a correct {language} controller of `{CHECK_CONTROLLER_EXERCISE}`: the fault-free run and 1,000 fault schedules, Chromium"
                ),
                budget,
            );
            if let Some(worst) = number_after(line, "\"maxLongTaskMs\":") {
                let _ = writeln!(
                    rows,
                    "| longest main-thread task during its `checkController` | ≤ {CHECK_LONG_TASK_BUDGET_MS:.0} ms | {} | {} |",
                    ms(worst),
                    verdict(worst <= CHECK_LONG_TASK_BUDGET_MS)
                );
            }
        }
        let worst = self
            .check_tasks
            .lines()
            .map(|line| number_after(line, "\"maxLongTaskMs\":"))
            .collect::<Option<Vec<f64>>>()
            .and_then(|all| all.into_iter().reduce(f64::max));
        if let Some(worst) = worst {
            let shown = if worst > 0.0 {
                ms(worst)
            } else {
                "none over 50 ms".to_owned()
            };
            let _ = writeln!(
                rows,
                "| longest main-thread task during a Check in the pane (JavaScript, and Python with Pyodide's first start; \
                 a controller's 1,000 schedules) | ≤ {CHECK_LONG_TASK_BUDGET_MS:.0} ms | {shown} | {} |",
                verdict(worst <= CHECK_LONG_TASK_BUDGET_MS)
            );
        }
        let pane_controller = self
            .check_tasks
            .lines()
            .find(|line| line.contains("\"exercise\":\"external-finalizer\""))
            .and_then(|line| number_after(line, "\"checkMs\":"));
        if let Some(took) = pane_controller {
            let _ = writeln!(
                rows,
                "| a correct JavaScript controller checked through the pane, 1,000 schedules, to its result \
                 (a cold page each run) | ≤ {CHECK_CONTROLLER_BUDGET_MS:.0} ms | median {} of 3 | {} |",
                ms(took),
                verdict(took <= CHECK_CONTROLLER_BUDGET_MS)
            );
        }
        format!(
            "## Budgets\n\n\
             Ratios are the other implementation's median time divided by ours (above 1: ours is faster).\n\n\
             | budget | target | measured | verdict |\n|---|---|---|---|\n{rows}\n"
        )
    }

    fn native_section(&self, corner_cases: &str) -> String {
        let mut rows = String::new();
        for n in SIZES {
            let (Some(whole), Some(alone)) = (
                self.process_ratio(n),
                self.ratio(n, "reconcile", "reconcileMedianMs"),
            ) else {
                continue;
            };
            let _ = writeln!(
                rows,
                "| {} | {} | {} | **{:.1}×** | {} | {} | **{:.1}×** |",
                thousands(&n.to_string()),
                ms(whole.0),
                ms(whole.1),
                whole.2,
                ms(alone.0),
                ms(alone.1),
                alone.2
            );
        }
        let runs: Vec<String> = self
            .processes
            .iter()
            .map(|(n, times)| format!("{} at {}", times.cli.len(), thousands(&n.to_string())))
            .collect();
        let python_lines: Vec<&str> = self.python.values().map(String::as_str).collect();
        format!(
            "## Native: the Rust core against a Python reference\n\n\
             - **Scenario file → action list, whole processes**: what a script or an auto-grader runs. \
             Rust: the `reconcile` command line (`{CLI}` scenario-N.json, the `bench-speed` profile): \
             reading the file, `parse_scenario_owned` (the scan, handing over to the precise parser on any \
             error), `reconcile`, serde_json, writing standard output, and the process's start and exit. \
             Python: `python3 bench/python/reference.py --print` scenario-N.json: start, `json.loads`, \
             reconcile on the dicts, `json.dumps`, print; the interpreter `python3` names is started \
             directly (its `sys.executable`), so a version manager's shim in front of it does not count. \
             Wall time from spawn to exit, standard output \
             captured, the two alternating after an untimed run of each; medians of {} runs each.\n\
             - **Reconcile alone**: on already-parsed input. Rust: `reconcile` on a `Scenario` parsed \
             (`parse_scenario`) for each run outside the timing (criterion `reconcile/N`), so parsing the \
             specs it needs on first use (those that go into actions, and those written differently on the \
             two sides) counts. Python: its reconcile on the dicts `json.loads` made, in one process \
             (`reference.py --runs`; median of its runs).\n\
             - Python runs with the cyclic garbage collector off. Ratio = Python ÷ Rust.\n\n\
             | resources | CLI, whole process | Python, whole process | ratio | Rust reconcile | Python reconcile | ratio |\n\
             |---:|---:|---:|---:|---:|---:|---:|\n{rows}\n\
             Both produce the same action list, byte for byte, at every size (the run fails otherwise), \
             and on random scenarios full of the contract's corner cases: {}\n\n\
             How the Rust core gets there: a valid document is read in one validating pass that records \
             where each spec's text is, without building values (`crates/reconcile-core/src/scan.rs`); \
             the resources keep the text (the command line hands its buffer over, so nothing is copied), \
             a name desired and observed is one shared allocation, specs are parsed one at a time on first \
             use, and two specs with the same text are equal without being parsed. The precise parser, \
             which tracks JSON paths for error messages, only runs when that pass gives up (on any error, \
             or on input it leaves to it), so results and error messages are unchanged. This is the one \
             read path: the command line, the page, the JS API and the lessons all read documents through it.\n\n\
             Python reference in one process (`reference.py --runs`; `endToEndMedianMs` is text → action-list \
             text without the start, the file read and the print), one line per size:\n\n```json\n{}\n```\n\n",
            runs.join(", "),
            corner_cases.trim(),
            python_lines.join("\n")
        )
    }

    fn browser_section(&self) -> String {
        let mut rows = String::new();
        for n in BROWSER_SIZES {
            let Some(line) = line_for(self.versus_js, n) else {
                continue;
            };
            let field = |key: &str| number_after(&line, key).map_or_else(|| "?".to_owned(), ms);
            let _ = writeln!(
                rows,
                "| {} | {} | {} | **{}×** | {} |",
                thousands(n),
                field("\"wasmMs\":{\"median\":"),
                field("\"plainJsMs\":{\"median\":"),
                number_after(&line, "\"speedup\":")
                    .map_or_else(|| "?".to_owned(), |s| format!("{s:.2}")),
                if line.contains("\"sameOutput\":true") {
                    "yes"
                } else {
                    "**no**"
                }
            );
        }
        format!(
            "## In headless Chromium: the JS API against plain JavaScript\n\n\
             The same page runs both on the same three JSON texts (desired, observed, finalizers, split \
             from the scenario file), alternating runs: the JS API's `reconcile`, as a course page calls \
             it (`import init, {{ reconcile }} from \"/pkg/reconcile.js\"`, `await init()`, then \
             `reconcile(desired, observed, finalizers)` on the texts; the release build in `dist/pkg`, \
             opt-level z, wasm-opt -Oz): core's `parse_resources` for desired and observed and \
             `parse_finalizers` (the read path the page and the command line use), `reconcile`, then \
             serde_json's text through `JSON.parse` into JS values. Against it, \
             `web/bench/plain-reconcile.js` (`JSON.parse`, the contract's deep equality, code-point sort; \
             `web/bench/reconcile-vs-js.mjs`). The 1M scenario is not run in the browser: its 280 MB of \
             text is past what a page holds comfortably.\n\n\
             | resources | wasm | plain JS | ratio (JS ÷ wasm) | same action list |\n|---:|---:|---:|---:|---|\n{rows}\n\
             ```json\n{}\n```\n\n",
            self.versus_js.trim()
        )
    }

    fn edit_section(&self) -> String {
        format!(
            "## Edit → render\n\n\
             `web/bench/edit-render.mjs`: the scenario file's desired and observed documents pasted into \
             their editors, then edits of the desired document, 200 ms apart, alternating so that the \
             plan gains or loses one UPDATE: *paste* is Select All then a paste event carrying the whole \
             new text (what Ctrl+A, Ctrl+V sends), *keystroke* replaces only the changed number in place \
             (one input event, as typing sends). Timed from just before the event to the first frame \
             after the plan summary changed, so the debounce, parsing, planning, rendering and the \
             browser's layout all count: the page's own flow, from the editor's input event through the \
             reducer's `check_scenario` (core's read path, as everywhere) and `plan` to the rendered \
             action list, on the release build in `dist/`. `bareTextareaPasteMs` is the same text put into a bare \
             `<textarea>` of the same size on the same page: what the browser alone takes to lay out \
             that much text, which is why the editor does not hold it. Long tasks are recorded from the \
             first paste on. Budgets: {EDIT_RENDER_BUDGET_MS:.0} ms at 10k resources; no task over \
             {LONG_TASK_BUDGET_MS:.0} ms.\n\n\
             How the editor stays within them (`web/src/editor_window.rs`): a document over 64 KB is \
             shown through a window of 240 lines (at most 32 KB) around the screen and the caret, \
             with spacers for the lines above and below; scrolling or moving the caret near an edge \
             moves the window, and edits are spliced back into the whole document. A paste over 16 KB \
             goes straight into the document without passing through the textarea. A change after a \
             pause is checked in the next task, so a large paste's render and its check are two tasks; \
             a burst of typing is checked 120 ms after its last key (`web/src/hooks/use_debounce.rs`). \
             The action list is patched in place (unkeyed): with keys, yew moved all 200 listed items \
             whenever one was inserted at the top. Off-screen actions skip layout and paint \
             (`content-visibility: auto`), and the editor texts are shared, not copied, between the \
             reducer, renders and the autosave.\n\n\
             Compact documents (one line each):\n\n```json\n{}\n```\n\n\
             Pretty-printed documents (two-space indent):\n\n```json\n{}\n```\n\n\
             Pretty YAML documents (block style, two-space indent), read by the YAML module in its \
             worker, which reads an edited text again only around the change \
             (`crates/reconcile-yaml/src/incremental.rs`):\n\n```json\n{}\n```\n\n\
             A 100k-resource paste (compact), for the long-task budget:\n\n```json\n{}\n```\n\n",
            self.edit_compact.trim(),
            self.edit_pretty.trim(),
            self.edit_yaml.trim(),
            self.big_paste.trim()
        )
    }
}

fn inputs_section(inputs: &Path) -> String {
    let mut rows = String::new();
    for n in SIZES {
        let bytes = std::fs::metadata(inputs.join(bench_inputs::file_name(n)))
            .map(|m| m.len())
            .unwrap_or(0);
        let _ = writeln!(
            rows,
            "| {} | `{}` | {:.1} MB |",
            thousands(&n.to_string()),
            bench_inputs::file_name(n),
            bytes as f64 / 1e6
        );
    }
    format!(
        "## Inputs\n\n\
         One generator, written once in Rust (`crates/xtask/src/bench_inputs.rs`), writes the scenario \
         files into `target/bench-inputs/`, and every implementation reads those files. A scenario of N \
         resources is deterministic (fixed seed) and sorted by name, as the API server lists objects: \
         about 1% of desired names are not observed (CREATE), about 1% of observed specs have drifted \
         (UPDATE), about 1% of resources have an observed-only neighbour (FINALIZE for half of them, \
         DELETE for the rest), and about 1% of in-sync observed specs list their members in another order. \
         Specs look like `{{\"image\":\"registry.example/app-98:1.12\",\"replicas\":7,\"labels\":{{\"app\":\
         \"app-98\",\"tier\":\"api\"}},\"ports\":[8080,9090]}}`, a quarter of them with an `env` list.\n\n\
         | resources | file | size |\n|---:|---|---:|\n{rows}\n"
    )
}

/// `100000` as `100k`, `1000000` as `1M`.
fn thousands(n: &str) -> String {
    match n.parse::<u64>() {
        Ok(n) if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
        Ok(n) if n >= 1_000 && n % 1_000 == 0 => format!("{}k", n / 1_000),
        _ => n.to_owned(),
    }
}

/// Criterion's `--output-format bencher` lines as median nanoseconds by benchmark name:
/// `test reconcile/1000 ... bench:      68,027 ns/iter (+/- 1,234)`.
fn criterion_medians(output: &str) -> BTreeMap<String, f64> {
    bencher_lines(output)
        .filter_map(|(name, median, _)| Some((name.to_owned(), nanos(median)?)))
        .collect()
}

/// `(name, median, spread)` of each bencher line.
fn bencher_lines(output: &str) -> impl Iterator<Item = (&str, &str, &str)> {
    output.lines().filter_map(|line| {
        let rest = line.trim().strip_prefix("test ")?;
        let (name, rest) = rest.split_once(" ... bench:")?;
        let (time, rest) = rest.trim().split_once(" ns/iter")?;
        let spread = rest.trim().strip_prefix("(+/- ")?.strip_suffix(')')?;
        Some((name, time, spread))
    })
}

/// Rows of a Markdown table from criterion's bencher lines.
fn criterion_table(output: &str) -> String {
    bencher_lines(output)
        .filter_map(|(name, time, spread)| {
            Some(format!(
                "| `{name}` | {} | {} |",
                human_time(time)?,
                human_time(spread)?
            ))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `68,027` as 68027.0.
fn nanos(text: &str) -> Option<f64> {
    text.replace(',', "").parse().ok()
}

/// `68,027` (nanoseconds) as `68.0 µs`.
fn human_time(nanos_text: &str) -> Option<String> {
    let nanos = nanos(nanos_text)?;
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
    use super::*;

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
        assert_eq!(
            criterion_medians(output).get("reconcile/1000"),
            Some(&68_027.0)
        );
    }

    #[test]
    fn reads_numbers_from_json_lines() {
        let lines =
            "{\"resources\":1000,\"wasmMs\":{\"median\":1.5,\"min\":1.2},\"speedup\":2.6}\n\
                     {\"resources\":10000,\"wasmMs\":{\"median\":18.5},\"speedup\":3.13}";
        let line = line_for(lines, "10000").expect("a line for 10000");
        assert_eq!(number_after(&line, "\"wasmMs\":{\"median\":"), Some(18.5));
        assert_eq!(number_after(&line, "\"speedup\":"), Some(3.13));
        assert_eq!(number_after(&line, "\"missing\":"), None);
        assert_eq!(number_after("{\"a\": 2.5}", "\"a\":"), Some(2.5));
        assert_eq!(thousands("100000"), "100k");
        assert_eq!(thousands("1000000"), "1M");
    }

    #[test]
    fn the_python_check_gives_its_cold_start_and_check_rows() {
        let line = r#"{"coldStart":{"firstAnswerMs":3493,"passed":true},"passed":true,"total":1000,"checkMs":{"median":123.7,"min":116.5}}"#;
        let mut rows = String::new();
        python_rows(&mut rows, line);
        let rows: Vec<&str> = rows.lines().collect();
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert!(rows[0].starts_with("| Python's cold start"), "{}", rows[0]);
        assert!(rows[0].contains("| ≤ 5000 ms |"), "{}", rows[0]);
        assert!(rows[1].contains("| ≤ 2000 ms | median "), "{}", rows[1]);
        assert!(!rows[1].contains("did not pass"), "{}", rows[1]);
        let mut failed = String::new();
        python_rows(
            &mut failed,
            &line.replace(r#""passed":true,"total""#, r#""passed":false,"total""#),
        );
        assert!(failed.contains("(it did not pass all 1,000)"), "{failed}");
    }

    #[test]
    fn a_median_row_says_pass_or_fail_against_its_budget() {
        let line = r#"{"runs":15,"firstVisit4gMs":812.4,"secondVisitOffline":{"median":142.5,"min":120.1}}"#;
        let key = "\"secondVisitOffline\":{\"median\":";
        let mut rows = String::new();
        median_row(&mut rows, line, key, "offline", 300.0);
        assert_eq!(rows, "| offline | ≤ 300 ms | median 142 ms | **pass** |\n");
        rows.clear();
        median_row(&mut rows, line, key, "offline", 100.0);
        assert!(rows.ends_with("| **FAIL** |\n"), "{rows}");
        rows.clear();
        median_row(&mut rows, "{}", key, "offline", 300.0);
        assert_eq!(rows, "", "no figure, no row");
    }

    #[test]
    fn slow_link_rows_have_a_verdict_per_profile_and_compression() {
        let lines = "\
{\"profile\":\"4g\",\"encoding\":\"gzip\",\"runs\":7,\"firstActionListMs\":{\"median\":974.8,\"min\":873.1},\"bytesAtFirstActionList\":400288}
{\"profile\":\"3g\",\"encoding\":\"gzip\",\"runs\":7,\"firstActionListMs\":{\"median\":2100,\"min\":2000},\"bytesAtFirstActionList\":262144}
{\"profile\":\"4g\",\"encoding\":\"br\",\"runs\":7,\"firstActionListMs\":{\"median\":700.1,\"min\":690},\"bytesAtFirstActionList\":325009}";
        let mut rows = String::new();
        slow_link_rows(&mut rows, lines);
        let rows: Vec<&str> = rows.lines().collect();
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert!(
            rows[0].contains("4G (9 Mbps, 170 ms), served with gzip"),
            "{}",
            rows[0]
        );
        assert!(
            rows[0].contains("| ≤ 800 ms | median 975 ms (390.9 KB downloaded) | **FAIL** |"),
            "{}",
            rows[0]
        );
        assert!(
            rows[1].contains("served with br") && rows[1].ends_with("**pass** |"),
            "{}",
            rows[1]
        );
        assert!(
            rows[2].contains("3G (1.6 Mbps, 300 ms), served with gzip"),
            "{}",
            rows[2]
        );
        assert!(
            rows[2].contains("| ≤ 2200 ms | median 2100 ms (256.0 KB downloaded) | **pass** |"),
            "{}",
            rows[2]
        );
    }

    #[test]
    fn generated_scenarios_have_the_promised_mix() {
        let text = bench_inputs::scenario_text(10_000);
        assert_eq!(text, bench_inputs::scenario_text(10_000), "deterministic");
        let count = |needle: &str| text.matches(needle).count();
        // Observed-only names end in -old; about 1% of 10,000.
        assert!(
            (50..=150).contains(&count("-old\":{")),
            "{}",
            count("-old\":{")
        );
    }
}
