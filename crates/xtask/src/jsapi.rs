//! `cargo xtask js-api [--into DIR]`: the JS API for course pages, built into
//! `DIR/pkg/`: `reconcile.js`, `reconcile.d.ts` and `controller.js`
//! (hand-written, in `crates/reconcile-wasm/js/`) over generated modules: `reconcile_core`
//! (reconcile, plan), and `reconcile_sim` (simulate), `reconcile_check`
//! (check) and `reconcile_yaml` (YAML and manifests), each loaded on first use.
//!
//! Trunk runs it as a `post_build` hook (see Trunk.toml), so `trunk serve` and
//! `trunk build --release` both ship `dist/pkg/`. Trunk starts hooks without a
//! shell and passes its staging folder in `TRUNK_STAGING_DIR`, which is the
//! default `DIR` when set; otherwise `DIR` is `dist`.

use std::path::{Path, PathBuf};

use crate::tools::Env;

const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The wasm features rustc's wasm32 target enables by default and
/// wasm-bindgen's output relies on (its externref table uses `table.fill`,
/// which needs reference types and bulk memory).
const WASM_FEATURES: [&str; 6] = [
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-reference-types",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-multivalue",
];

/// Parses `[--into DIR]` and builds.
pub fn run(args: &[String]) -> Result<(), String> {
    let env = Env::new();
    let into = match args {
        [] => crate::tools::staging_dir(&env),
        [flag, dir] if flag == "--into" => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask js-api [--into DIR]".to_owned()),
    };
    build(&env, &into.join("pkg"))
}

/// The wasm modules behind `reconcile.js`: each is `reconcile-wasm` built
/// with one cargo feature, named after the module wasm-bindgen writes, and
/// tuned for size, or for speed: the YAML module, which the playground runs
/// on every edit of a YAML document, loads on demand, so its bytes matter
/// less than the edit's latency (docs/SIZE.md has both sizes).
const MODULES: [(&str, &str, Tuning); 5] = [
    ("plan", "reconcile_core", Tuning::Size),
    ("simulate", "reconcile_sim", Tuning::Size),
    ("check", "reconcile_check", Tuning::Size),
    ("loop", "reconcile_loop", Tuning::Size),
    ("yaml", "reconcile_yaml", Tuning::Speed),
];

/// What a module's build optimizes for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tuning {
    /// The `release` profile (`opt-level = "z"`), then `wasm-opt -Oz`.
    Size,
    /// The `release-speed` profile (`opt-level = 3`), then `wasm-opt -O3`.
    Speed,
}

impl Tuning {
    fn profile(self) -> &'static str {
        match self {
            Tuning::Size => "release",
            Tuning::Speed => "release-speed",
        }
    }

    fn wasm_opt_level(self) -> &'static str {
        match self {
            Tuning::Size => "-Oz",
            Tuning::Speed => "-O3",
        }
    }

    /// wasm-opt's flags beside the level: [`SIZE_FLAGS`] for size.
    fn wasm_opt_flags(self) -> &'static [&'static str] {
        match self {
            Tuning::Size => &SIZE_FLAGS,
            Tuning::Speed => &[],
        }
    }
}

/// wasm-opt flags that make a size-tuned module smaller once gzipped without
/// changing what it does (docs/SIZE.md, "The simulation module under its
/// budget again"). The page's `data-wasm-opt-params` in `index.html` are the
/// same (a test below checks).
///
/// - `--one-caller-inline-max-function-size=10`: `-Oz` alone inlines a
///   function of any size into its only caller, and the merged functions
///   compress worse than the same code kept apart (the simulation module:
///   10.7 KB less gzipped, 7.8 KB more raw). Functions of up to 10 bytes
///   still are inlined. It costs some speed (more calls): see docs/SIZE.md.
/// - `--low-memory-unused`: lets wasm-opt fold an added constant into a load's
///   or store's offset (binaryen's `OptimizeAddedConstants`), which differs
///   from the add only where `pointer + constant` wraps past 2^32 into the
///   first 1 KB; Rust's pointers never wrap, so no access changes.
/// - `--converge`: runs the passes again until the module stops shrinking.
pub const SIZE_FLAGS: [&str; 3] = [
    "--one-caller-inline-max-function-size=10",
    "--low-memory-unused",
    "--converge",
];

/// Release builds of `reconcile-wasm`'s modules (`wasm-bindgen --target
/// web`, then `wasm-opt -Oz`) into `target/js-api/pkg/`, beside the
/// hand-written `reconcile.js` and `reconcile.d.ts` that join them; then a copy
/// into `pkg`. The bindgen and wasm-opt steps only rerun when cargo produced a
/// new wasm, so the hook costs a few seconds on a `trunk serve` rebuild that
/// didn't touch it.
pub fn build(env: &Env, pkg: &Path) -> Result<(), String> {
    let cache = cache_dir(env, JS_API);
    for (feature, module, tuning) in MODULES {
        WasmModule {
            package: "reconcile-wasm",
            features: &["--no-default-features", "--features", feature],
            module,
            folder: JS_API,
            tuning,
        }
        .build(env)?;
    }
    copy_files(&env.root.join("crates/reconcile-wasm/js"), &cache)?;
    copy_files(&cache, pkg)
}

/// The JS API's folder in the target folder.
const JS_API: &str = "js-api";

/// Where a [`WasmModule`] with this `folder` is built: `target/FOLDER/pkg/`.
pub fn cache_dir(env: &Env, folder: &str) -> PathBuf {
    target_dir(env).join(folder).join("pkg")
}

pub fn target_dir(env: &Env) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| env.root.join("target"), PathBuf::from)
}

/// A wasm module for the browser, made from a cdylib crate.
pub struct WasmModule<'a> {
    pub package: &'a str,
    /// Cargo's feature arguments.
    pub features: &'a [&'a str],
    /// The name wasm-bindgen gives its files: `MODULE.js`, `MODULE_bg.wasm`.
    pub module: &'a str,
    /// Its folder in the target folder.
    pub folder: &'a str,
    pub tuning: Tuning,
}

impl WasmModule<'_> {
    /// A build with its tuning, through wasm-bindgen and wasm-opt, into
    /// [`cache_dir`]; its inline JavaScript goes beside it, in `snippets/`.
    pub fn build(&self, env: &Env) -> Result<(), String> {
        let profile = self.tuning.profile();
        env.step(
            "cargo",
            &[
                "build",
                "--profile",
                profile,
                "--target",
                WASM_TARGET,
                "-p",
                self.package,
            ],
        )
        .args(self.features)
        .run()?;
        // Cargo keeps each feature set's artifact and links the requested one
        // here, with that artifact's own modification time.
        let artifact = self.package.replace('-', "_");
        let wasm = target_dir(env).join(format!("{WASM_TARGET}/{profile}/{artifact}.wasm"));
        let folder = target_dir(env).join(self.folder);
        bind_and_optimize(
            env,
            &wasm,
            &cache_dir(env, self.folder),
            &folder,
            (self.module, self.tuning),
        )
    }
}

/// wasm-bindgen and wasm-opt on `wasm`, into `cache` as `module`, unless it
/// is there already from that same `wasm`.
fn bind_and_optimize(
    env: &Env,
    wasm: &Path,
    cache: &Path,
    folder: &Path,
    (module, tuning): (&str, Tuning),
) -> Result<(), String> {
    // Written once wasm-opt succeeded, so a failed run never counts as done.
    let stamp = folder.join(format!("{module}.done"));
    let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let fresh =
        matches!((modified(wasm), modified(&stamp)), (Some(built), Some(done)) if done > built);
    if fresh && cache.join(format!("{module}_bg.wasm")).is_file() {
        return Ok(());
    }
    // Built beside the cache and moved in, so that a concurrent run (say,
    // `trunk serve` and `trunk build` at once) never copies a half-built module.
    let partial = folder.join(format!("{module}.{}", std::process::id()));
    env.step(
        "wasm-bindgen",
        &["--target", "web", "--out-name", module, "--out-dir"],
    )
    .arg(&partial.to_string_lossy())
    .arg(&wasm.to_string_lossy())
    .run()?;
    let optimized = partial
        .join(format!("{module}_bg.wasm"))
        .to_string_lossy()
        .into_owned();
    env.step("wasm-opt", &[tuning.wasm_opt_level()])
        .args(tuning.wasm_opt_flags())
        .args(&WASM_FEATURES)
        .args(&["-o", &optimized, &optimized])
        .run()?;
    copy_files(&partial, cache)
        .and_then(|()| std::fs::remove_dir_all(&partial).map_err(|e| e.to_string()))
        .and_then(|()| std::fs::write(&stamp, "").map_err(|e| format!("{}: {e}", stamp.display())))
}

/// Copies the files in `from` into `to`, and its folders' (`snippets/`) likewise.
pub fn copy_files(from: &Path, to: &Path) -> Result<(), String> {
    let error = |e: std::io::Error| format!("copying {} to {}: {e}", from.display(), to.display());
    std::fs::create_dir_all(to).map_err(error)?;
    for entry in std::fs::read_dir(from).map_err(error)? {
        let entry = entry.map_err(error)?;
        if entry.file_type().map_err(error)?.is_dir() {
            copy_files(&entry.path(), &to.join(entry.file_name()))?;
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).map_err(error)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::SIZE_FLAGS;

    /// Trunk runs wasm-opt on the page with `index.html`'s
    /// `data-wasm-opt-params`: the page's wasm is tuned as the modules are.
    #[test]
    fn the_page_gets_the_same_wasm_opt_flags_as_the_modules() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let html = std::fs::read_to_string(root.join("index.html")).expect("index.html");
        let params = html
            .split("data-wasm-opt-params=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("index.html's rust link has data-wasm-opt-params");
        assert_eq!(params.split_whitespace().collect::<Vec<_>>(), SIZE_FLAGS);
    }
}
