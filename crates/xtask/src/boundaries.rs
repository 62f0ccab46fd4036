//! `cargo xtask boundaries`: the crate boundaries of ARCHITECTURE.md, checked
//! from what cargo really resolves (`cargo tree`), not from a sentence.
//!
//! Each rule names a crate (with the features a build of it uses), whether its
//! direct dependencies are limited to a list, and crates that must not appear
//! anywhere in its normal (non-dev) dependency tree.

use crate::tools::{Env, Tally};

/// Crates that mean "the browser": none may reach a core crate.
const WEB: [&str; 5] = ["yew", "gloo", "web-sys", "js-sys", "wasm-bindgen"];

struct Rule {
    /// What the rule protects, as the failure message says it.
    what: &'static str,
    package: &'static str,
    /// `cargo tree` feature flags for the build the rule is about.
    features: &'static [&'static str],
    /// When set, the only direct dependencies allowed.
    direct_only: Option<&'static [&'static str]>,
    /// Crates that must not appear in the dependency tree at all.
    forbidden: &'static [&'static str],
}

const RULES: [Rule; 16] = [
    Rule {
        what: "the contract depends on serde and serde_json only",
        package: "reconcile-core",
        features: &[],
        direct_only: Some(&["serde", "serde_json"]),
        forbidden: &["reconcile-sim", "reconcile-content"],
    },
    Rule {
        what: "the simulation builds on the contract, and json-patch for PATCH",
        package: "reconcile-sim",
        features: &[],
        direct_only: Some(&["reconcile-core", "serde", "serde_json", "json-patch"]),
        forbidden: &["reconcile-content"],
    },
    Rule {
        what: "the checker of a learner's reconcile builds on the contract alone",
        package: "reconcile-check",
        features: &[],
        direct_only: Some(&["reconcile-core", "serde", "serde_json"]),
        forbidden: &["reconcile-sim", "reconcile-content"],
    },
    Rule {
        what: "the YAML reader builds on the contract and one YAML parser alone",
        package: "reconcile-yaml",
        features: &[],
        direct_only: Some(&["reconcile-core", "saphyr-parser", "serde"]),
        forbidden: &["reconcile-sim", "reconcile-content", "reconcile-check"],
    },
    Rule {
        what: "the content crate knows neither the browser nor the messages that carry it",
        package: "reconcile-content",
        features: &[],
        direct_only: None,
        forbidden: &[PROTOCOL],
    },
    Rule {
        what: "the messages between the page and its modules know nothing about the browser",
        package: PROTOCOL,
        features: &[],
        direct_only: None,
        forbidden: &[],
    },
    Rule {
        what: "the JS API's plan module does not link the simulation",
        package: "reconcile-wasm",
        features: &["--no-default-features", "--features", "plan"],
        direct_only: None,
        forbidden: &[
            "reconcile-sim",
            "reconcile-check",
            "reconcile-content",
            "reconcile-yaml",
            TS_GENERATOR,
        ],
    },
    Rule {
        what: "the JS API's simulate module does not link the content",
        package: "reconcile-wasm",
        features: &["--no-default-features", "--features", "simulate"],
        direct_only: None,
        forbidden: &["reconcile-content", TS_GENERATOR],
    },
    Rule {
        what: "the JS API's loop module links neither the checker nor the content",
        package: "reconcile-wasm",
        features: &["--no-default-features", "--features", "loop"],
        direct_only: None,
        forbidden: &["reconcile-check", "reconcile-content", TS_GENERATOR],
    },
    Rule {
        what: "the JS API's check module links neither the simulation nor the content",
        package: "reconcile-wasm",
        features: &["--no-default-features", "--features", "check"],
        direct_only: None,
        forbidden: &["reconcile-sim", "reconcile-content", TS_GENERATOR],
    },
    Rule {
        what: "the JS API's YAML module links neither the simulation, the checker nor the content",
        package: "reconcile-wasm",
        features: &["--no-default-features", "--features", "yaml"],
        direct_only: None,
        forbidden: &[
            "reconcile-sim",
            "reconcile-check",
            "reconcile-content",
            TS_GENERATOR,
        ],
    },
    Rule {
        what: "the page links neither the TypeScript generator, the pane, the simulation section nor the YAML reader it loads on demand",
        package: "reconcile-web",
        features: &[],
        direct_only: None,
        forbidden: &[
            TS_GENERATOR,
            PANE,
            SIMULATION_UI,
            "reconcile-yaml",
            "saphyr-parser",
        ],
    },
    Rule {
        what: "the Your reconcile pane links neither the page nor the JS API, which it calls through pkg/reconcile.js",
        package: PANE,
        features: &[],
        direct_only: None,
        forbidden: &["reconcile-web", "reconcile-wasm", TS_GENERATOR],
    },
    Rule {
        what: "the simulation section links neither the page, the JS API nor the pane: it simulates the run with reconcile-sim itself",
        package: SIMULATION_UI,
        features: &[],
        direct_only: None,
        forbidden: &["reconcile-web", "reconcile-wasm", PANE, TS_GENERATOR],
    },
    Rule {
        what: "what the page and its on-demand apps share holds no page, app, content or JS API",
        package: UI_SHARED,
        features: &[],
        direct_only: Some(&["reconcile-sim", "yew", "gloo", "js-sys", "web-sys"]),
        forbidden: &[
            "reconcile-web",
            PANE,
            SIMULATION_UI,
            "reconcile-content",
            PROTOCOL,
            "reconcile-wasm",
            TS_GENERATOR,
        ],
    },
    Rule {
        what: "the mdBook preprocessor reads fences with the playground's own readers, through mdBook's light protocol crate, not mdBook itself",
        package: "mdbook-reconcile",
        features: &[],
        direct_only: Some(&[
            "reconcile-core",
            "reconcile-yaml",
            "reconcile-content",
            "reconcile-check",
            "serde_json",
            "mdbook-preprocessor",
        ]),
        forbidden: &["mdbook", "mdbook-driver", "mdbook-html", "reconcile-web", "wasm-bindgen"],
    },
];

/// A feature of a dependency that a build must not turn on: `(what, package,
/// dependency, feature)`.
const FEATURES_OFF: [(&str, &str, &str, &str); 2] = [
    (
        "the page compiles in the lessons' index, not their texts, which it fetches when a lesson opens",
        "reconcile-web",
        "reconcile-content",
        "lesson-texts",
    ),
    (
        "the page leaves level vs edge (compare_level_edge) to the simulation section's module",
        "reconcile-web",
        "reconcile-sim",
        "level-edge",
    ),
];

/// Whether `cargo tree -e features` output turns `feature` of `dependency` on.
fn turns_on(tree: &str, dependency: &str, feature: &str) -> bool {
    let node = format!("{dependency} feature \"{feature}\"");
    tree.lines().any(|line| line.trim() == node)
}

/// The violations of [`FEATURES_OFF`]'s rules: `(what, sentence)`.
fn features_turned_on(env: &Env) -> Result<Vec<(&'static str, Option<String>)>, String> {
    let mut checked = Vec::new();
    for (what, package, dependency, feature) in FEATURES_OFF {
        let tree = env
            .step(
                "cargo",
                &["tree", "-q", "-p", package, "-e", "normal,features"],
            )
            .args(&["-i", dependency, "--prefix", "none"])
            .output()?;
        let found = turns_on(&tree, dependency, feature)
            .then(|| format!("{package} turns on {dependency}'s feature {feature}"));
        checked.push((what, found));
    }
    Ok(checked)
}

/// "Your reconcile", a wasm module of its own that the page imports when the
/// pane first opens: linked into the page, it would be in its first load again.
const PANE: &str = "reconcile-exercise-ui";

/// The simulation section, a wasm module of its own that the page imports
/// once its first view has painted: linked into the page, it would be in its
/// first load again.
const SIMULATION_UI: &str = "reconcile-simulation-ui";

/// The messages between the page and the apps it loads on demand.
const PROTOCOL: &str = "reconcile-protocol";

/// What the page and the apps it loads on demand share.
const UI_SHARED: &str = "reconcile-ui-shared";

/// Generates the JS API's declarations in a test (the `ts` features of core
/// and sim); no module a browser loads may link it.
const TS_GENERATOR: &str = "ts-rs";

/// Package names in `cargo tree --prefix none --format {p}` output ("name vX (path)").
fn package_names(tree: &str) -> Vec<&str> {
    let mut names: Vec<&str> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

fn tree(env: &Env, rule: &Rule, depth: Option<&str>) -> Result<String, String> {
    let mut step = env
        .step("cargo", &["tree", "-q", "-p", rule.package, "-e", "normal"])
        .args(&["--prefix", "none", "--format", "{p}"])
        .args(rule.features);
    if let Some(depth) = depth {
        step = step.args(&["--depth", depth]);
    }
    step.output()
}

/// The violations of one rule, as sentences.
fn violations(env: &Env, rule: &Rule) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    if let Some(allowed) = rule.direct_only {
        let direct = tree(env, rule, Some("1"))?;
        for name in package_names(&direct) {
            if name != rule.package && !allowed.contains(&name) {
                found.push(format!("{} depends directly on {name}", rule.package));
            }
        }
    }
    let whole = tree(env, rule, None)?;
    let forbidden = rule.forbidden.iter().chain(
        // The JS API, the page, the apps it loads on demand and what they share
        // are the crates here that are made of wasm-bindgen.
        (!matches!(
            rule.package,
            "reconcile-wasm" | "reconcile-web" | PANE | SIMULATION_UI | UI_SHARED
        ))
        .then_some(WEB.iter())
        .into_iter()
        .flatten(),
    );
    let names = package_names(&whole);
    for name in forbidden {
        if names.contains(name) {
            found.push(format!(
                "{} {} links {name}",
                rule.package,
                rule.features.join(" ")
            ));
        }
    }
    Ok(found)
}

/// Checks every rule; one passed or failed test per rule, for the test tally.
pub fn check(env: &Env, tally: &mut Tally) -> Result<(), String> {
    let mut checked = Vec::new();
    for rule in &RULES {
        let found = violations(env, rule)?;
        checked.push((rule.what, (!found.is_empty()).then(|| found.join("; "))));
    }
    checked.extend(features_turned_on(env)?);
    let mut failures = Vec::new();
    for (what, found) in checked {
        if let Some(found) = found {
            println!("boundary BROKEN: {what}: {found}");
            tally.failed += 1;
            failures.push(what);
        } else {
            println!("boundary ok: {what}");
            tally.passed += 1;
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "crate boundaries broken (see ARCHITECTURE.md): {}",
            failures.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feature_is_on_when_cargo_tree_lists_its_node() {
        let on = "reconcile-content v0.1.0 (/w/crates/reconcile-content)\nreconcile-content feature \"lesson-texts\"\nreconcile-sim v0.1.0 (/w/crates/reconcile-sim)\n";
        assert!(turns_on(on, "reconcile-content", "lesson-texts"));
        let off = "reconcile-content v0.1.0 (/w/crates/reconcile-content)\nreconcile-web v0.1.0 (/w/web)\nreconcile-web feature \"default\" (command-line)\n";
        assert!(!turns_on(off, "reconcile-content", "lesson-texts"));
    }

    #[test]
    fn package_names_reads_cargo_tree_lines() {
        let tree = "reconcile-core v0.1.0 (/w/crates/reconcile-core)\nserde v1.0.228\nserde_json v1.0.145\nserde v1.0.228\n";
        assert_eq!(
            package_names(tree),
            ["reconcile-core", "serde", "serde_json"]
        );
    }
}
