//! `cargo xtask book`: the example book of `mdbook-reconcile`, built with the
//! pinned mdBook and the preprocessor built from this checkout.
//!
//! `cargo xtask test` builds it before the Playwright step, which opens it
//! (`web/e2e/mdbook.spec.mjs`). The book points at the playground that step
//! serves: `http://127.0.0.1:$PORT/` (4173 by default, as in the Playwright config).

use std::path::PathBuf;

use crate::tools::{Env, MDBOOK_VERSION};

/// The example book; mdBook writes it into its `book/`, which git ignores.
pub const EXAMPLE: &str = "web/e2e/mdbook-example";
const PREPROCESSOR: &str = "mdbook-reconcile";

/// Installs mdBook if missing, builds the preprocessor, then the book.
pub fn build(env: &Env) -> Result<(), String> {
    env.ensure_mdbook()?;
    env.step("cargo", &["build", "--quiet", "-p", PREPROCESSOR])
        .run()?;
    let preprocessor = target_dir(env)?.join("debug").join(PREPROCESSOR);
    let port = std::env::var("PORT").unwrap_or_else(|_| "4173".to_owned());
    // mdBook reads `MDBOOK_<TABLE>__<KEY>` as book.toml's `table.key`.
    env.step("mdbook", &["build", EXAMPLE])
        .env(
            "MDBOOK_PREPROCESSOR__RECONCILE__COMMAND",
            &preprocessor.to_string_lossy(),
        )
        .env(
            "MDBOOK_PREPROCESSOR__RECONCILE__PLAYGROUND",
            &format!("http://127.0.0.1:{port}/"),
        )
        .run()
        .map_err(|e| format!("{e}: the example book did not build with mdBook {MDBOOK_VERSION}"))
}

/// Cargo's target directory, wherever `CARGO_TARGET_DIR` or a config puts it.
fn target_dir(env: &Env) -> Result<PathBuf, String> {
    let metadata = env
        .step(
            "cargo",
            &["metadata", "--format-version", "1", "--no-deps", "--quiet"],
        )
        .output()?;
    let value: serde_json::Value = serde_json::from_str(&metadata)
        .map_err(|e| format!("cannot read `cargo metadata`: {e}"))?;
    value["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "`cargo metadata` names no target_directory".to_owned())
}

#[cfg(test)]
mod tests {
    use crate::tools::MDBOOK_VERSION;

    /// The preprocessor speaks the protocol of the mdBook that xtask installs.
    #[test]
    fn the_preprocessor_crate_is_pinned_to_the_installed_mdbook() {
        let manifest = include_str!("../../mdbook-reconcile/Cargo.toml");
        let pin = format!("mdbook-preprocessor = \"={MDBOOK_VERSION}\"");
        assert!(
            manifest.contains(&pin),
            "expected {pin} in crates/mdbook-reconcile/Cargo.toml"
        );
    }
}
