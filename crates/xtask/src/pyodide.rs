//! `cargo xtask pyodide [DIR]`: copies the Pyodide files the sandbox's Python worker
//! needs from npm `pyodide` (web/node_modules/pyodide, pinned in web/package.json)
//! into `DIR/pyodide/`. Nothing on the page's first view loads them: the sandbox
//! host fetches them on a learner's first Python run (web/static/sandbox/README.md).
//!
//! Trunk runs it as a `post_build` hook (see Trunk.toml) with `TRUNK_STAGING_DIR`,
//! the default `DIR` when set; otherwise `DIR` is `dist`.

use std::path::{Path, PathBuf};

use crate::tools::{self, Env};

/// The core distribution: the loader, the Emscripten module and its wasm, the
/// standard library, and the lock file `loadPyodide` reads. No packages.
pub const FILES: [&str; 5] = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
];

/// The folder of `dist` (or trunk's staging folder) that holds them.
pub const DIR: &str = "pyodide";

/// Parses `[DIR]` and copies.
pub fn run(args: &[String]) -> Result<(), String> {
    let env = Env::new();
    let dir = match args {
        [] => tools::staging_dir(&env),
        [dir] => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask pyodide [DIR]".to_owned()),
    };
    copy(&env.root.join("web/node_modules/pyodide"), &dir.join(DIR))
}

/// Copies [`FILES`] from the npm package `from` into `to`.
pub fn copy(from: &Path, to: &Path) -> Result<(), String> {
    if !from.is_dir() {
        return Err(format!(
            "{} is missing; `cargo xtask build` installs it (npm ci in web/)",
            from.display()
        ));
    }
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for name in FILES {
        std::fs::copy(from.join(name), to.join(name))
            .map_err(|e| format!("copying {name} from {}: {e}", from.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_the_core_files_and_nothing_else() {
        let base = std::env::temp_dir().join(format!("xtask-pyodide-{}", std::process::id()));
        let (from, to) = (base.join("package"), base.join("dist/pyodide"));
        std::fs::create_dir_all(&from).expect("mkdir");
        for name in FILES.iter().chain(&["console.html", "pyodide.js.map"]) {
            std::fs::write(from.join(name), name).expect("write");
        }
        copy(&from, &to).expect("copies");
        let mut copied: Vec<String> = std::fs::read_dir(&to)
            .expect("read")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        copied.sort();
        let mut expected = FILES.map(str::to_owned).to_vec();
        expected.sort();
        assert_eq!(copied, expected);
        let missing = copy(&base.join("nowhere"), &to).expect_err("missing package");
        assert!(missing.contains("cargo xtask build"), "{missing}");
        std::fs::remove_dir_all(&base).expect("clean up");
    }
}
