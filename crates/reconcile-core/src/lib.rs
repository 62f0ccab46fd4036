//! Start at `reconcile::reconcile`, then `parse` and `explain::plan`.
//!
//! The reconcile contract: reading the three input documents (fast when they
//! are valid, with located errors when they are not), `reconcile` itself, and
//! its explanation (`plan`: reasons, field-level drift, a summary).
//!
//! Invariant: this crate knows nothing about browsers, the simulation or the
//! playground's content. It depends on `serde` and `serde_json` only, reads no
//! clock and uses no global randomness, so every result is a pure function of
//! its inputs.
//!
//! The modules are layered, each using only those below it (a test checks):
//! `stable`, `path` → `json` → `scan` → `model` → `parse` → `reconcile` →
//! `actions` → `explain`. There is one read path: `scan`'s validating pass feeds `model`'s
//! [`Resources`], and on any error `parse`'s precise parser reads the text
//! again and locates the problem.
//!
//! # Modules
//!
//! - `stable`: `StableHasher` (FNV-1a), `SplitMix64`, `mix64`: the same
//!   numbers on every platform and build. The one copy every crate uses.
//! - `path`: `JsonPath` (`$`, `$.web.replicas`, `$["my app"][0]`), the one
//!   path grammar, printed and parsed.
//! - `json`: the `Json` value. It keeps member order for display, compares
//!   objects unordered and numbers by value. Strings, arrays and objects are
//!   shared (`Arc`), so copying a spec is O(1), and a spec the controller
//!   copied compares by pointer. Also the one value reader: a serde visitor
//!   that rejects duplicate member names and notes the path of a failure.
//! - `scan`: the fast read of a valid document, one validating pass that
//!   records where each name and spec is without building values. In a
//!   scenario, an observed spec written exactly as its desired spec is
//!   compared byte for byte. On any error or unusual input it gives up and
//!   `parse` runs, so it changes speed, never a result or a message (property
//!   tests check that the two agree).
//! - `model`: `Resources` (sorted, unique, shared `Arc<str>` names; a scanned
//!   document keeps its text, and each spec is parsed on first use; equal text
//!   means equal spec) and `Finalizers`; `sort_unique_keep_last`, the one
//!   sort-and-dedup of sorted sets.
//! - `parse`: `parse_resources`, `parse_finalizers`, `parse_scenario`
//!   (`parse_scenario_owned` keeps a handed-over text): the scan first, else
//!   the precise parser, which turns errors into
//!   `InputError { document, kind, line, column, path, message }`.
//! - `reconcile`: one merge walk over two name-sorted `Resources`; `Action`
//!   serializes as `["KIND", name, spec|null]`.
//! - `actions`: `parse_actions`, the one reader of an action list from
//!   outside (a learner's reconcile, a course page), with `InputError`s of
//!   `Document::Actions`.
//! - `explain`: `plan()`: a `Reason` per action, field-level `Drift`, the
//!   `Summary` line.
//!
//! The `ts` feature (off by default) derives the JS API's TypeScript
//! declarations with ts-rs; only the generator in `reconcile-wasm` turns it on.

pub mod actions;
pub mod explain;
pub mod json;
pub mod model;
pub mod parse;
pub mod path;
pub mod reconcile;
mod scan;
pub mod stable;

pub use actions::parse_actions;
pub use explain::{diff, plan, Drift, ExplainedAction, Plan, Reason, Summary};
pub use json::{Json, Number};
pub use model::{Finalizers, Resources, Scenario};
pub use parse::{
    detect_format, finalizer_list_from_value, finalizers_from_value, format_document,
    json_from_value, parse_finalizers, parse_json, parse_resources, parse_scenario,
    parse_scenario_owned, resources_from_value, scenario_from_value, Document, ErrorKind, Format,
    InputError, UnlocatedError,
};
pub use path::JsonPath;
pub use reconcile::{count_out_of_sync, reconcile, Action, ActionKind};

/// Parses the three editor texts and plans. The first error found is returned,
/// checked in the order desired, observed, finalizers.
pub fn plan_texts(desired: &str, observed: &str, finalizers: &str) -> Result<Plan, InputError> {
    let desired = parse_resources(Document::Desired, desired)?;
    let observed = parse_resources(Document::Observed, observed)?;
    let finalizers = parse_finalizers(finalizers)?;
    Ok(plan(&desired, &observed, finalizers.as_ref()))
}

/// Scenario JSON text in, action-list JSON text out: what the CLI prints
/// (without its newline). [`parse_scenario`], then [`reconcile()`].
pub fn reconcile_scenario_json(text: &str) -> Result<String, InputError> {
    let scenario = parse_scenario(text)?;
    let actions = reconcile(
        &scenario.desired,
        &scenario.observed,
        scenario.finalizers.as_ref(),
    );
    Ok(serde_json::to_string(&actions).unwrap_or_default())
}

/// Parses the three editor texts, reporting every document's error rather than
/// only the first, so each editor can mark its own problem.
pub fn check_scenario(
    desired: &str,
    observed: &str,
    finalizers: &str,
) -> Result<Scenario, Vec<InputError>> {
    scenario_from_reads(
        parse_resources(Document::Desired, desired),
        parse_resources(Document::Observed, observed),
        parse_finalizers(finalizers),
    )
}

/// The scenario of three documents read one by one, or every document's error.
pub fn scenario_from_reads(
    desired: Result<Resources, InputError>,
    observed: Result<Resources, InputError>,
    finalizers: Result<Option<Finalizers>, InputError>,
) -> Result<Scenario, Vec<InputError>> {
    match (desired, observed, finalizers) {
        (Ok(desired), Ok(observed), Ok(finalizers)) => Ok(Scenario {
            desired,
            observed,
            finalizers,
        }),
        (desired, observed, finalizers) => Err([desired.err(), observed.err(), finalizers.err()]
            .into_iter()
            .flatten()
            .collect()),
    }
}

/// [`check_scenario`], then [`plan`].
pub fn check_texts(
    desired: &str,
    observed: &str,
    finalizers: &str,
) -> Result<Plan, Vec<InputError>> {
    check_scenario(desired, observed, finalizers)
        .map(|s| plan(&s.desired, &s.observed, s.finalizers.as_ref()))
}

/// Checks a scenario file and returns the three editor texts, pretty-printed in
/// the file's own member order: `[desired, observed, finalizers]`.
pub fn import_scenario(text: &str) -> Result<[String; 3], InputError> {
    parse_scenario(text)?;
    let value = parse_json(Document::Scenario, text)?;
    let text_of = |key: &str| {
        let mut pretty = value
            .get(key)
            .map_or_else(|| "null".to_owned(), Json::to_pretty_string);
        pretty.push('\n');
        pretty
    };
    Ok([
        text_of("desired"),
        text_of("observed"),
        text_of("finalizers"),
    ])
}

/// The three documents as one scenario file, the format [`import_scenario`] and the CLI read.
pub fn export_scenario(scenario: &Scenario) -> String {
    let mut text = serde_json::to_string_pretty(scenario).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod layering {
    /// The modules from the bottom up, with their source.
    const LAYERS: [(&str, &str); 9] = [
        ("stable", include_str!("stable.rs")),
        ("path", include_str!("path.rs")),
        ("json", include_str!("json.rs")),
        ("scan", include_str!("scan.rs")),
        ("model", include_str!("model.rs")),
        ("parse", include_str!("parse.rs")),
        ("reconcile", include_str!("reconcile.rs")),
        ("actions", include_str!("actions.rs")),
        ("explain", include_str!("explain.rs")),
    ];

    #[test]
    fn no_module_uses_a_higher_one() {
        for (at, (name, source)) in LAYERS.iter().enumerate() {
            // Tests may use anything, and comments may name anything.
            let code = source.split("#[cfg(test)]").next().unwrap_or_default();
            for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for (higher, _) in &LAYERS[at + 1..] {
                    assert!(
                        !line.contains(&format!("crate::{higher}")),
                        "{name} uses {higher}, which is above it: {line}"
                    );
                }
            }
        }
    }
}
