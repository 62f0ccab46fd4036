//! `cargo xtask <command>`: the project's automation, in Rust so it runs wherever cargo does.
//!
//! Commands install what they need when it is missing (pinned versions only):
//! the wasm32 target, wasm-bindgen-cli, trunk, wasm-opt (npm binaryen), Debian
//! Chromium and the npm packages of `web/`.

mod size;
mod tools;

use std::process::ExitCode;

use tools::{Env, Step};

const USAGE: &str = "\
usage: cargo xtask <command>

  serve [--release]  install missing tools, build, serve at http://127.0.0.1:8080
  build              install missing tools, release build into dist/
  test               everything CI runs: fmt, clippy (native + wasm32), native tests,
                     wasm-bindgen tests in headless Chromium, Playwright e2e on the release build
  size               gzipped size of each file in dist/ (run `build` first)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(args.iter().any(|a| a == "--release")),
        Some("build") => build(),
        Some("test") => test(),
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
    let steps: Vec<Step> = vec![
        env.step("cargo", &["fmt", "--all", "--check"]),
        env.step(
            "cargo",
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        ),
        env.step(
            "cargo",
            &[
                "clippy",
                "--target",
                wasm,
                "-p",
                "reconcile-core",
                "-p",
                "reconcile-web",
                "--all-targets",
            ],
        )
        .args(&["--", "-D", "warnings"]),
        env.step(
            "cargo",
            &["test", "--workspace", "--exclude", "reconcile-web"],
        ),
        env.step("cargo", &["test", "--target", wasm, "-p", "reconcile-web"])
            .env(
                "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
                "wasm-bindgen-test-runner",
            )
            .env("CHROMEDRIVER", tools::CHROMEDRIVER)
            .env("WASM_BINDGEN_TEST_TIMEOUT", "120"),
    ];
    for step in steps {
        step.run()?;
    }
    env.trunk_release_build()?;
    let table = size::report(&env.root.join("dist"))?;
    print!("{table}");
    env.step("npx", &["playwright", "test"])
        .dir(&env.root.join("web"))
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .run()?;
    println!("xtask: all checks passed");
    Ok(())
}
