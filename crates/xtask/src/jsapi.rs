//! `cargo xtask js-api [--into DIR]`: the JS API for course pages, built into
//! `DIR/pkg/` as `reconcile.js`, `reconcile_bg.wasm` and `reconcile.d.ts`.
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
        [] => std::env::var_os("TRUNK_STAGING_DIR")
            .map_or_else(|| env.root.join("dist"), PathBuf::from),
        [flag, dir] if flag == "--into" => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask js-api [--into DIR]".to_owned()),
    };
    build(&env, &into.join("pkg"))
}

/// Release build of `reconcile-wasm`, `wasm-bindgen --target web`, then
/// `wasm-opt -Oz`, into `target/js-api/pkg/`; then a copy into `pkg`. The
/// bindgen and wasm-opt steps only rerun when cargo produced a new wasm, so the
/// hook costs about a second on a `trunk serve` rebuild that didn't touch it.
pub fn build(env: &Env, pkg: &Path) -> Result<(), String> {
    env.step(
        "cargo",
        &[
            "build",
            "--release",
            "--target",
            WASM_TARGET,
            "-p",
            "reconcile-wasm",
        ],
    )
    .run()?;
    let target_dir =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| env.root.join("target"), PathBuf::from);
    let wasm = target_dir.join(format!("{WASM_TARGET}/release/reconcile_wasm.wasm"));
    let cache = target_dir.join("js-api/pkg");
    // Written once wasm-opt succeeded, so a failed run never counts as done.
    let stamp = target_dir.join("js-api/done");
    let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let fresh =
        matches!((modified(&wasm), modified(&stamp)), (Some(built), Some(done)) if done > built);
    if !fresh {
        // Built beside the cache and moved in, so that a concurrent run (say,
        // `trunk serve` and `trunk build` at once) never copies a half-built pkg.
        let partial = target_dir.join(format!("js-api/pkg.{}", std::process::id()));
        env.step(
            "wasm-bindgen",
            &["--target", "web", "--out-name", "reconcile", "--out-dir"],
        )
        .arg(&partial.to_string_lossy())
        .arg(&wasm.to_string_lossy())
        .run()?;
        let optimized = partial
            .join("reconcile_bg.wasm")
            .to_string_lossy()
            .into_owned();
        env.step("wasm-opt", &["-Oz"])
            .args(&WASM_FEATURES)
            .args(&["-o", &optimized, &optimized])
            .run()?;
        let _ = std::fs::remove_dir_all(&cache);
        std::fs::rename(&partial, &cache)
            .and_then(|()| std::fs::write(&stamp, ""))
            .map_err(|e| format!("{}: {e}", cache.display()))?;
    }
    copy_files(&cache, pkg)
}

fn copy_files(from: &Path, to: &Path) -> Result<(), String> {
    let error = |e: std::io::Error| format!("copying {} to {}: {e}", from.display(), to.display());
    std::fs::create_dir_all(to).map_err(error)?;
    for entry in std::fs::read_dir(from).map_err(error)? {
        let entry = entry.map_err(error)?;
        std::fs::copy(entry.path(), to.join(entry.file_name())).map_err(error)?;
    }
    Ok(())
}
