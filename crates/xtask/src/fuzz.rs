//! `cargo xtask fuzz`: runs the cargo-fuzz targets of `crates/reconcile-fuzz`,
//! each for a bounded time, and reports libFuzzer's figures.
//!
//! Targets build without a sanitizer by default: the core forbids `unsafe`,
//! so AddressSanitizer has little to find there and costs 6-9× the executions
//! per second. `--asan` turns it on (for the dependencies' unsafe code).
//!
//! Everything a run writes stays under `target/fuzz/`, so the checked-in seed
//! corpus never changes and the workspace's own build is never locked:
//! - `build/`, `build-asan/`: cargo-fuzz's target dirs (nightly, coverage flags);
//! - `corpus/<target>/`: a fresh copy of the seeds, which the run grows;
//! - `artifacts/<target>/`: the input of a crash, if one happens;
//! - `logs/<target>.log`: libFuzzer's output.

use std::fs;
use std::path::{Path, PathBuf};

use crate::tools::{Env, Tally, CARGO_FUZZ_VERSION};

pub const TARGETS: [&str; 4] = ["parse_scenario", "reconcile", "simulate", "share_decode"];
/// How long `cargo xtask test` runs each target.
pub const TEST_SECONDS: u64 = 30;
const FUZZ_DIR: &str = "crates/reconcile-fuzz";
/// An input running this long counts as a hang (libFuzzer's default is 20 minutes).
const INPUT_TIMEOUT_SECONDS: u64 = 10;

/// What to run: `cargo xtask fuzz [--seconds N] [--asan] [target...]`.
#[derive(Debug, PartialEq)]
struct Plan {
    seconds: u64,
    targets: Vec<&'static str>,
    address_sanitizer: bool,
}

impl Plan {
    /// cargo-fuzz's `--sanitizer` value and target dir: the two builds differ in every flag.
    fn build_args(&self) -> [&'static str; 4] {
        if self.address_sanitizer {
            [
                "--sanitizer",
                "address",
                "--target-dir",
                "target/fuzz/build-asan",
            ]
        } else {
            ["--sanitizer", "none", "--target-dir", "target/fuzz/build"]
        }
    }
}

/// `cargo xtask fuzz [--seconds N] [--asan] [target...]`
pub fn command(args: &[String]) -> Result<(), String> {
    let plan = parse_args(args)?;
    let mut tally = Tally::default();
    run(&Env::new(), &plan, &mut tally)
}

/// The step of `cargo xtask test`: every target for [`TEST_SECONDS`].
pub fn test_step(env: &Env, tally: &mut Tally) -> Result<(), String> {
    let plan = Plan {
        seconds: TEST_SECONDS,
        targets: TARGETS.to_vec(),
        address_sanitizer: false,
    };
    run(env, &plan, tally)
}

fn parse_args(args: &[String]) -> Result<Plan, String> {
    let mut plan = Plan {
        seconds: TEST_SECONDS,
        targets: Vec::new(),
        address_sanitizer: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--seconds" {
            plan.seconds = args
                .next()
                .and_then(|n| n.parse().ok())
                .filter(|n| *n > 0)
                .ok_or("--seconds needs a whole number of seconds above 0")?;
        } else if arg == "--asan" {
            plan.address_sanitizer = true;
        } else if let Some(target) = TARGETS.iter().find(|t| *t == arg) {
            plan.targets.push(*target);
        } else {
            return Err(format!(
                "unknown fuzz target or option `{arg}`; targets: {}",
                TARGETS.join(", ")
            ));
        }
    }
    if plan.targets.is_empty() {
        plan.targets = TARGETS.to_vec();
    }
    Ok(plan)
}

fn run(env: &Env, plan: &Plan, tally: &mut Tally) -> Result<(), String> {
    ensure_tools(env)?;
    // One build of every target first, so the timed runs only fuzz.
    env.step(
        "cargo",
        &["+nightly", "fuzz", "build", "--fuzz-dir", FUZZ_DIR],
    )
    .args(&plan.build_args())
    .run()?;
    let mut outcomes = Vec::new();
    for outcome in run_targets(env, plan)? {
        if outcome.passed() {
            tally.passed += 1;
        } else {
            tally.failed += 1;
            print_log_tail(&outcome.log);
        }
        outcomes.push(outcome);
    }
    print!("{}", table(&outcomes));
    let failures: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.passed())
        .map(|o| o.failure(plan))
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        tally.failed_steps += 1;
        Err(failures.join("\n"))
    }
}

/// The nightly toolchain (cargo-fuzz needs `-Z` flags) and cargo-fuzz itself.
fn ensure_tools(env: &Env) -> Result<(), String> {
    env.step("cargo", &["+nightly", "--version"])
        .output()
        .map_err(|_| {
            "fuzzing needs the nightly toolchain (cargo-fuzz builds with -Z sanitizer flags); \
             install it with `rustup toolchain install nightly`"
                .to_owned()
        })?;
    let installed = env
        .version_of("cargo-fuzz")
        .is_some_and(|v| v.contains(CARGO_FUZZ_VERSION));
    if !installed {
        println!("xtask: installing cargo-fuzz {CARGO_FUZZ_VERSION} into .tools (about 1 minute)");
        env.step(
            "cargo",
            &[
                "install",
                "cargo-fuzz",
                "--locked",
                "--version",
                CARGO_FUZZ_VERSION,
            ],
        )
        .args(&["--root", ".tools"])
        .run()?;
    }
    Ok(())
}

/// What one bounded run did, read from libFuzzer's final statistics.
#[derive(Debug, Default, PartialEq)]
struct Outcome {
    target: String,
    seconds: u64,
    exited_cleanly: bool,
    executions: Option<u64>,
    executions_per_second: Option<u64>,
    coverage: Option<u64>,
    seed_files: usize,
    corpus_files: usize,
    artifacts: Vec<PathBuf>,
    log: PathBuf,
}

impl Outcome {
    fn passed(&self) -> bool {
        self.exited_cleanly && self.artifacts.is_empty()
    }

    fn failure(&self, plan: &Plan) -> String {
        let target = &self.target;
        let build = plan.build_args().join(" ");
        let mut message = format!(
            "fuzz target {target} failed; its log is {}",
            self.log.display()
        );
        for artifact in &self.artifacts {
            message.push_str(&format!(
                "\n  input saved as {0}; replay it with \
                 `cargo +nightly fuzz run --fuzz-dir {FUZZ_DIR} {build} {target} {0}`",
                artifact.display()
            ));
        }
        message
    }
}

/// Runs the targets one per core at a time: each still fuzzes for its
/// seconds on a core of its own, and the test step waits less (one libFuzzer
/// process uses one core).
fn run_targets(env: &Env, plan: &Plan) -> Result<Vec<Outcome>, String> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut outcomes = Vec::new();
    for batch in plan.targets.chunks(cores) {
        let batch: Vec<Result<Outcome, String>> = std::thread::scope(|scope| {
            let runs: Vec<_> = batch
                .iter()
                .map(|target| scope.spawn(move || run_target(env, plan, target)))
                .collect();
            runs.into_iter()
                .map(|run| {
                    run.join()
                        .unwrap_or_else(|_| Err("a fuzz run's thread panicked".to_owned()))
                })
                .collect()
        });
        for outcome in batch {
            outcomes.push(outcome?);
        }
    }
    Ok(outcomes)
}

fn run_target(env: &Env, plan: &Plan, target: &str) -> Result<Outcome, String> {
    let seconds = plan.seconds;
    let scratch = env.root.join("target/fuzz");
    let corpus = scratch.join("corpus").join(target);
    let artifacts = scratch.join("artifacts").join(target);
    let logs = scratch.join("logs");
    for dir in [&corpus, &artifacts] {
        if dir.exists() {
            fs::remove_dir_all(dir).map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
        }
    }
    for dir in [&corpus, &artifacts, &logs] {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let seeds = env.root.join(FUZZ_DIR).join("corpus").join(target);
    let seed_files = copy_files(&seeds, &corpus)?;
    let log = logs.join(format!("{target}.log"));

    // libFuzzer wants the trailing slash: it prepends the prefix to file names.
    let artifact_prefix = format!("-artifact_prefix={}/", artifacts.display());
    let corpus_arg = corpus.display().to_string();
    let exited_cleanly = env
        .step(
            "cargo",
            &["+nightly", "fuzz", "run", "--fuzz-dir", FUZZ_DIR],
        )
        .args(&plan.build_args())
        .args(&[target, &corpus_arg, "--"])
        .args(&[
            &format!("-max_total_time={seconds}"),
            &format!("-timeout={INPUT_TIMEOUT_SECONDS}"),
            "-print_final_stats=1",
            // Later flags win: this overrides cargo-fuzz's own artifact folder.
            &artifact_prefix,
        ])
        .run_logged(&log)?;

    let text = fs::read_to_string(&log).unwrap_or_default();
    let mut outcome = read_stats(&text);
    outcome.target = target.to_owned();
    outcome.seconds = seconds;
    outcome.exited_cleanly = exited_cleanly;
    outcome.seed_files = seed_files;
    outcome.corpus_files = count_files(&corpus);
    outcome.artifacts = list_files(&artifacts);
    outcome.log = log.strip_prefix(&env.root).unwrap_or(&log).to_path_buf();
    outcome.artifacts = outcome
        .artifacts
        .iter()
        .map(|a| a.strip_prefix(&env.root).unwrap_or(a).to_path_buf())
        .collect();
    Ok(outcome)
}

/// The figures of libFuzzer's closing lines:
/// `#42591 DONE cov: 2960 ft: 9158 corp: 966/106Kb ...`, `Done 42591 runs in 11 second(s)`,
/// `stat::number_of_executed_units: 42591` (`..._runs` in older releases), `stat::average_exec_per_sec: 3871`.
fn read_stats(log: &str) -> Outcome {
    let mut outcome = Outcome::default();
    for line in log.lines() {
        let line = line.trim();
        let number_after = |prefix: &str| {
            line.strip_prefix(prefix)?
                .split_whitespace()
                .next()?
                .parse::<u64>()
                .ok()
        };
        if line.starts_with("stat::number_of_executed_") {
            outcome.executions = line
                .split(':')
                .next_back()
                .and_then(|n| n.trim().parse().ok());
        } else if let Some(rate) = number_after("stat::average_exec_per_sec:") {
            outcome.executions_per_second = Some(rate);
        } else if let Some(runs) = number_after("Done ") {
            outcome.executions = outcome.executions.or(Some(runs));
        } else if line.split_whitespace().nth(1) == Some("DONE") {
            let mut words = line.split_whitespace();
            while let Some(word) = words.next() {
                if word == "cov:" {
                    outcome.coverage = words.next().and_then(|n| n.parse().ok());
                }
            }
        }
    }
    outcome
}

fn table(outcomes: &[Outcome]) -> String {
    let shown = |n: Option<u64>| n.map_or_else(|| "?".to_owned(), group_thousands);
    let mut out = String::from(
        "| target | seconds | executions | exec/s | coverage (edges) | corpus files (seeds → end) | result |\n\
         |---|---:|---:|---:|---:|---:|---|\n",
    );
    for o in outcomes {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} → {} | {} |\n",
            o.target,
            o.seconds,
            shown(o.executions),
            shown(o.executions_per_second),
            shown(o.coverage),
            o.seed_files,
            o.corpus_files,
            if o.passed() { "no crashes" } else { "FAILED" }
        ));
    }
    let total: u64 = outcomes.iter().filter_map(|o| o.executions).sum();
    out.push_str(&format!("| all | | {} | | | | |\n", group_thousands(total)));
    out
}

/// 12345678 → "12,345,678".
fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn print_log_tail(log: &Path) {
    let text = fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.len().saturating_sub(40);
    eprintln!("xtask: the end of {}:", log.display());
    for line in &lines[from..] {
        eprintln!("  {line}");
    }
}

fn copy_files(from: &Path, to: &Path) -> Result<usize, String> {
    let files = list_files(from);
    for file in &files {
        let name = file.file_name().unwrap_or_default();
        fs::copy(file, to.join(name))
            .map_err(|e| format!("cannot copy {}: {e}", file.display()))?;
    }
    Ok(files.len())
}

fn list_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

fn count_files(dir: &Path) -> usize {
    list_files(dir).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_libfuzzer_final_stats() {
        let log = "\
#42591\tDONE   cov: 2960 ft: 9158 corp: 966/106Kb lim: 276 exec/s: 3871 rss: 510Mb
Done 42591 runs in 11 second(s)
stat::number_of_executed_units: 42591
stat::average_exec_per_sec:     3871
stat::new_units_added:          1848
";
        let outcome = read_stats(log);
        assert_eq!(outcome.executions, Some(42_591));
        assert_eq!(outcome.executions_per_second, Some(3_871));
        assert_eq!(outcome.coverage, Some(2_960));
        // Older libFuzzer names the count `runs`; a log cut short still has `Done`.
        assert_eq!(
            read_stats("stat::number_of_executed_runs: 7\n").executions,
            Some(7)
        );
        assert_eq!(
            read_stats("Done 9 runs in 1 second(s)\n").executions,
            Some(9)
        );
    }

    #[test]
    fn arguments_pick_seconds_and_targets() {
        let args = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            parse_args(&[]),
            Ok(Plan {
                seconds: TEST_SECONDS,
                targets: TARGETS.to_vec(),
                address_sanitizer: false
            })
        );
        assert_eq!(
            parse_args(&args(&["--seconds", "300", "--asan", "simulate"])),
            Ok(Plan {
                seconds: 300,
                targets: vec!["simulate"],
                address_sanitizer: true
            })
        );
        assert!(parse_args(&args(&["--seconds", "0"])).is_err());
        assert!(parse_args(&args(&["parse"])).is_err());
    }

    #[test]
    fn table_totals_executions() {
        let outcome = Outcome {
            target: "reconcile".into(),
            seconds: 30,
            exited_cleanly: true,
            executions: Some(1_234_567),
            ..Outcome::default()
        };
        let table = table(&[outcome]);
        assert!(table.contains("| reconcile | 30 | 1,234,567 | ? | ? | 0 → 0 | no crashes |"));
        assert!(table.contains("| all | | 1,234,567 |"));
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1_000), "1,000");
    }
}
