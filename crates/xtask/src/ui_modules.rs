//! `cargo xtask ui-modules [--into DIR]`: the yew apps the page loads on
//! demand, each a wasm module of its own built into
//! `DIR/pkg/MODULE{.js,_bg.wasm}` and its `snippets/`, with its stylesheet
//! beside it (`MODULE.css`): "Your reconcile" (`crates/reconcile-exercise-ui`),
//! imported the first time the pane opens, and the simulation section
//! (`crates/reconcile-simulation-ui`), imported once the first view has
//! painted (web/src/on_demand.rs).
//!
//! Trunk runs it as a `post_build` hook (see Trunk.toml), like the JS API,
//! which they are built like; `DIR` is trunk's staging folder then, else `dist`.

use std::path::PathBuf;

use crate::jsapi::{cache_dir, copy_files, Tuning, WasmModule};
use crate::tools::Env;

/// One app the page loads on demand.
pub struct UiModule {
    /// Its crate, in `crates/PACKAGE`.
    pub package: &'static str,
    /// The module's name: the page imports `pkg/MODULE.js`.
    pub module: &'static str,
    /// Cargo's feature arguments.
    features: &'static [&'static str],
    /// Its folder in the target folder.
    folder: &'static str,
    /// Its stylesheet, in the crate's folder.
    pub style: &'static str,
    /// What `cargo xtask size` calls it.
    pub title: &'static str,
}

/// "Your reconcile".
pub const EXERCISE_UI: UiModule = UiModule {
    package: "reconcile-exercise-ui",
    module: "reconcile_exercise_ui",
    features: &[],
    folder: "exercise-ui",
    style: "style/pane.css",
    title: "\"Your reconcile\", the page's pane, loaded the first time it opens",
};

/// The simulation section: the engine and every view of the run.
pub const SIMULATION_UI: UiModule = UiModule {
    package: "reconcile-simulation-ui",
    module: "reconcile_simulation_ui",
    // Without the replay of a learner's controller, which has a build of its own.
    features: &["--no-default-features"],
    folder: "simulation-ui",
    style: "style/view.css",
    title:
        "The simulation section (the engine and every view of the run), loaded once the first view has painted",
};

/// The simulation section able to replay a learner's controller from a
/// `#v4/` link (its `replay` feature): loaded instead of [`SIMULATION_UI`]
/// when the page opens such a link, so that the usual one stays small.
pub const SIMULATION_REPLAY_UI: UiModule = UiModule {
    package: "reconcile-simulation-ui",
    module: "reconcile_simulation_replay",
    features: &[],
    folder: "simulation-replay",
    style: "style/view.css",
    title: "The simulation section with the replay of a learner's controller, loaded instead for a `#v4/` link",
};

pub const MODULES: [UiModule; 3] = [EXERCISE_UI, SIMULATION_UI, SIMULATION_REPLAY_UI];

/// Parses `[--into DIR]` and builds every module.
pub fn run(args: &[String]) -> Result<(), String> {
    let env = Env::new();
    let into = match args {
        [] => crate::tools::staging_dir(&env),
        [flag, dir] if flag == "--into" => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask ui-modules [--into DIR]".to_owned()),
    };
    for module in &MODULES {
        module.build(&env, &into)?;
    }
    Ok(())
}

impl UiModule {
    fn build(&self, env: &Env, into: &std::path::Path) -> Result<(), String> {
        WasmModule {
            package: self.package,
            features: self.features,
            module: self.module,
            folder: self.folder,
            tuning: Tuning::Size,
        }
        .build(env)?;
        let cache = cache_dir(env, self.folder);
        let style = env.root.join("crates").join(self.package).join(self.style);
        let css = cache.join(format!("{}.css", self.module));
        std::fs::copy(&style, &css).map_err(|e| format!("copying {}: {e}", style.display()))?;
        copy_files(&cache, &into.join("pkg"))
    }
}

#[cfg(test)]
mod tests {
    use super::MODULES;

    /// The page names each module it loads in `web/src/on_demand.rs`, and this file
    /// names each module it builds: the two lists must be the same.
    #[test]
    fn the_page_loads_exactly_the_modules_built() {
        let page = include_str!("../../../web/src/on_demand.rs");
        // Each string literal that names a module: `"reconcile_…"`.
        let mut loaded: Vec<&str> = page
            .match_indices("\"reconcile_")
            .filter_map(|(at, _)| page[at + 1..].split('"').next())
            .collect();
        loaded.sort_unstable();
        let mut built: Vec<&str> = MODULES.iter().map(|module| module.module).collect();
        built.sort_unstable();
        assert_eq!(
            loaded, built,
            "web/src/on_demand.rs and MODULES name other modules"
        );
    }
}
