//! `cargo xtask <command>`: the project's automation, in Rust so it runs wherever cargo does.
//!
//! Commands install what they need when it is missing (pinned versions only):
//! the wasm32 target, wasm-bindgen-cli, trunk, wasm-opt (npm binaryen), Debian
//! Chromium and the npm packages of `web/`.

mod bench;
mod jsapi;
mod size;
mod tools;

use std::process::ExitCode;

use tools::{Env, Step, Tally};

const USAGE: &str = "\
usage: cargo xtask <command>

  serve [--release]  install missing tools, build, serve at http://127.0.0.1:8080
  build              install missing tools, release build into dist/
  test               everything CI runs: fmt, clippy (native + wasm32), native tests,
                     wasm-bindgen tests in headless Chromium, Playwright e2e on the release build
  size               gzipped size of each file in dist/ and dist/pkg/ (run `build` first)
  js-api [--into D]  build the JS API for course pages into D/pkg/ (default: trunk's
                     staging dir when run as its hook, else dist/)
  bench              release build, then measure size, time-to-first-action-list and the
                     simulation budget in headless Chromium, and run core's criterion
                     benchmarks (bench-speed profile); writes docs/PERFORMANCE.md";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(args.iter().any(|a| a == "--release")),
        Some("build") => build(),
        Some("test") => test(),
        Some("bench") => bench(),
        Some("js-api") => jsapi::run(&args[1..]),
        Some("size") => size::report(&Env::new().root.join("dist")).map(|table| print!("{table}")),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn serve(release: bool) -> Result<(), String> {
    let env = Env::new();
    env.ensure_build_tools()?;
    let mut serve = env.step("trunk", &["serve"]);
    if release {
        serve = serve.arg("--release");
    }
    serve.run()
}

fn build() -> Result<(), String> {
    let env = Env::new();
    env.ensure_build_tools()?;
    env.trunk_release_build()
}

fn test() -> Result<(), String> {
    let env = Env::new();
    env.ensure_build_tools()?;
    env.ensure_browser()?;
    env.ensure_npm_packages()?;

    let wasm = "wasm32-unknown-unknown";
    let deny = ["--", "-D", "warnings"];
    let steps: Vec<Step> = vec![
        env.step("cargo", &["fmt", "--all", "--check"]),
        env.step("cargo", &["clippy", "--workspace", "--all-targets"])
            .args(&deny),
        // Core's tests use proptest (native only), so only its library is linted for wasm.
        env.step(
            "cargo",
            &["clippy", "--target", wasm, "-p", "reconcile-core"],
        )
        .args(&deny),
        env.step(
            "cargo",
            &[
                "clippy",
                "--target",
                wasm,
                "-p",
                "reconcile-web",
                "-p",
                "reconcile-wasm",
                "--all-targets",
            ],
        )
        .args(&deny),
    ];
    for step in steps {
        step.run()?;
    }
    let mut tally = Tally::default();
    let result = run_test_steps(&env, &mut tally);
    // One plain closing line, so CI can read the totals of every runner.
    println!(
        "xtask: {} passed, {} failed, {} skipped",
        tally.passed, tally.failed, tally.skipped
    );
    result
}

fn run_test_steps(env: &Env, tally: &mut Tally) -> Result<(), String> {
    let wasm = "wasm32-unknown-unknown";
    env.step(
        "cargo",
        &["test", "--workspace", "--exclude", "reconcile-web"],
    )
    .run_tests(tally)?;
    env.step("cargo", &["test", "--target", wasm, "-p", "reconcile-web"])
        .args(&["-p", "reconcile-wasm"])
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            "wasm-bindgen-test-runner",
        )
        .env("CHROMEDRIVER", tools::CHROMEDRIVER)
        .env("WASM_BINDGEN_TEST_TIMEOUT", "120")
        .run_tests(tally)?;
    env.trunk_release_build()?;
    let table = size::report(&env.root.join("dist"))?;
    print!("{table}");
    env.step("npx", &["playwright", "test"])
        .dir(&env.root.join("web"))
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .run_tests(tally)?;
    if tally.passed == 0 {
        return Err("no tests ran".to_owned());
    }
    Ok(())
}

fn bench() -> Result<(), String> {
    let env = Env::new();
    env.ensure_build_tools()?;
    env.ensure_browser()?;
    env.ensure_npm_packages()?;
    env.trunk_release_build()?;
    let sizes = size::report(&env.root.join("dist"))?;
    let timing = env
        .step("node", &["bench/first-action-list.mjs", "21"])
        .dir(&env.root.join("web"))
        .output()?;
    let report = format!(
        "# Performance\n\n\
         Generated by `cargo xtask bench` on the release build (opt-level z, LTO, wasm-opt -Oz).\n\
         Machine: the project's 2-core builder, headless Debian Chromium, pages served from localhost.\n\n\
         ## Transfer size (gzip -9)\n\n{sizes}\n\
         ## Time to the first action list\n\n\
         Navigation start to the `first-action-list` performance mark, which the page sets right after \
         its first render (that render already holds the default preset's action list). \
         21 fresh browser contexts, no cache. Budget: 300 ms.\n\n\
         ```json\n{}\n```\n\n{}",
        timing.trim(),
        bench::sections(&env)?
    );
    std::fs::write(env.root.join("docs/PERFORMANCE.md"), &report).map_err(|e| e.to_string())?;
    print!("{report}");
    Ok(())
}
