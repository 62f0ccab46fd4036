//! `cargo xtask exercise-ui [--into DIR]`: the "Your reconcile" pane
//! (`crates/reconcile-exercise-ui`), a wasm module of its own that the page
//! imports the first time the pane opens, built into
//! `DIR/pkg/reconcile_exercise_ui{.js,_bg.wasm}` and its `snippets/`, with
//! the pane's stylesheet beside it (`reconcile_exercise_ui.css`).
//!
//! Trunk runs it as a `post_build` hook (see Trunk.toml), like the JS API,
//! which it is built like; `DIR` is trunk's staging folder then, else `dist`.

use std::path::PathBuf;

use crate::jsapi::{cache_dir, copy_files, Tuning, WasmModule};
use crate::tools::Env;

/// The module's name: the page imports `pkg/MODULE.js`.
pub const MODULE: &str = "reconcile_exercise_ui";
const FOLDER: &str = "exercise-ui";

/// Parses `[--into DIR]` and builds.
pub fn run(args: &[String]) -> Result<(), String> {
    let env = Env::new();
    let into = match args {
        [] => crate::tools::staging_dir(&env),
        [flag, dir] if flag == "--into" => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask exercise-ui [--into DIR]".to_owned()),
    };
    WasmModule {
        package: "reconcile-exercise-ui",
        features: &[],
        module: MODULE,
        folder: FOLDER,
        tuning: Tuning::Size,
    }
    .build(&env)?;
    let cache = cache_dir(&env, FOLDER);
    let style = env.root.join("crates/reconcile-exercise-ui/style/pane.css");
    let css = cache.join(format!("{MODULE}.css"));
    std::fs::copy(&style, &css).map_err(|e| format!("copying {}: {e}", style.display()))?;
    copy_files(&cache, &into.join("pkg"))
}
