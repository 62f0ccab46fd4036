//! `cargo xtask lexer [DIR]`: copies npm `es-module-lexer`'s module (pinned in
//! web/package.json) to `DIR/sandbox-lexer.js`. The sandbox's worker reads a
//! learner's controller with it, to point its `from "reconcile"` at the API
//! (web/static/sandbox/README.md). Nothing on the page's first view loads it.
//!
//! A step of `cargo xtask post-build` (Trunk's hook), with `TRUNK_STAGING_DIR`,
//! the default `DIR` when set; otherwise `DIR` is `dist`.

use std::path::{Path, PathBuf};

use crate::tools::{self, Env};

/// The module in the npm package: ESM, no imports, its wasm inline.
pub const SOURCE: &str = "es-module-lexer/dist/lexer.js";
/// Its name in the build, beside the sandbox's other files.
pub const FILE: &str = "sandbox-lexer.js";

/// Parses `[DIR]` and copies.
pub fn run(args: &[String]) -> Result<(), String> {
    let env = Env::new();
    let dir = match args {
        [] => tools::staging_dir(&env),
        [dir] => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask lexer [DIR]".to_owned()),
    };
    copy(&env.root.join("web/node_modules"), &dir)
}

/// Copies [`SOURCE`] from `node_modules` to `dir`/[`FILE`].
pub fn copy(node_modules: &Path, dir: &Path) -> Result<(), String> {
    let from = node_modules.join(SOURCE);
    if !from.is_file() {
        return Err(format!(
            "{} is missing; `cargo xtask build` installs it (npm ci in web/)",
            from.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::copy(&from, dir.join(FILE))
        .map(|_| ())
        .map_err(|e| format!("copying {}: {e}", from.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_the_lexer_beside_the_sandbox() {
        let base = std::env::temp_dir().join(format!("xtask-lexer-{}", std::process::id()));
        let (modules, dist) = (base.join("node_modules"), base.join("dist"));
        let source = modules.join(SOURCE);
        std::fs::create_dir_all(source.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&source, "export function parse() {}").expect("write");
        copy(&modules, &dist).expect("copies");
        assert_eq!(
            std::fs::read_to_string(dist.join(FILE)).expect("copied"),
            "export function parse() {}"
        );
        let missing = copy(&base.join("nowhere"), &dist).expect_err("missing package");
        assert!(missing.contains("cargo xtask build"), "{missing}");
        std::fs::remove_dir_all(&base).expect("clean up");
    }
}
