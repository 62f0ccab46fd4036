//! Start at the exports below, then `js/reconcile.js`, which joins the modules.
//!
//! The JS API for course pages: `reconcile`, `plan`, `simulate` and
//! `simulateVerdict`, shipped as
//! the ES module `/pkg/reconcile.js` of the built site.
//!
//! ```js
//! import init, { reconcile } from "/pkg/reconcile.js";
//! await init();
//! reconcile({ a: { replicas: 1 } }, {}); // [["CREATE", "a", { replicas: 1 }]]
//! ```
//!
//! Invariant: a thin adapter with no logic. Each export turns its JS inputs into
//! JSON text, parses it with the same reconcile-core parsers the playground's
//! editors use, calls the same core function, and returns core's serialized
//! result. So results are exactly the playground's, and a bad input throws an
//! `Error` whose message is core's `InputError` text, e.g.
//! `Desired state: line 1, column 5 at $.a: expected ...`.
//!
//! Inputs may be JS values (converted with `JSON.stringify`) or JSON strings.
//!
//! The crate is built five times for the site (see `js/reconcile.js`): with
//! the `plan` feature as `reconcile_core`, with `simulate` as `reconcile_sim`,
//! which the public module loads only when a page first simulates, with
//! `check` as `reconcile_check` (the `Check` class), loaded when a learner's
//! reconcile is first checked, with `loop` as `reconcile_loop` (the
//! `LoopCheck` class, and `DrivenRun`, a learner's controller driven one
//! client call at a time), loaded when a learner's reconcile first runs in
//! the loop or a controller first runs, and with `yaml` as `reconcile_yaml` (`reconcileYaml`, `planYaml`,
//! `readDocuments`, `toYaml`, `toYamlStream`: YAML and Kubernetes
//! manifests), loaded on the first YAML call.
//!
//! The hand-written `js/reconcile.js` holds no logic either. It loads the
//! simulation module on the first simulate call, the YAML module on the first
//! YAML call, and the `check` and `loop` modules on the first `check()` and
//! `checkLoop()`, which run the learner's code in the sandbox batch by batch
//! and answer the `Check` or `LoopCheck` with what it returned. The loop check
//! is a module of its own, so the simulation module a course page fetches for
//! `simulate` carries nothing for it (docs/SIZE.md). The checker and the loop
//! check decide; this crate does not.
//!
//! Its TypeScript declarations (`src/types.d.ts`) are generated from the
//! serialized types of core, sim and this adapter by ts-rs, which reads their
//! serde attributes. The derives sit behind core's and sim's `ts` features,
//! turned on only by the generator: a native test that fails when the file is
//! stale (`UPDATE_TS=1 cargo test -p reconcile-wasm --lib` rewrites it).
//! `web/e2e/types.spec.mjs` type-checks what the built module returns.

#[cfg(feature = "check")]
mod check;
#[cfg(feature = "check")]
pub use check::Check;
mod convert;
#[cfg(feature = "loop")]
mod driven;
#[cfg(feature = "loop")]
pub use driven::DrivenRun;
#[cfg(feature = "loop")]
mod loop_check;
#[cfg(feature = "loop")]
pub use loop_check::LoopCheck;
mod types;
#[cfg(feature = "yaml")]
mod yaml;
#[cfg(feature = "yaml")]
mod yaml_page;

#[cfg(feature = "simulate")]
use convert::sim_config;
#[cfg(feature = "plan")]
use convert::{finalizers_text, parse_documents};
#[cfg(any(feature = "plan", feature = "simulate"))]
use convert::{text, to_js};
#[cfg(any(feature = "plan", feature = "simulate"))]
use reconcile_core::Document;
#[cfg(any(feature = "plan", feature = "simulate"))]
use wasm_bindgen::prelude::*;

/// The actions that make `observed` match `desired`: CREATE/UPDATE for desired
/// names, then FINALIZE/DELETE for names only observed, each group sorted by
/// Unicode code point (not JavaScript's UTF-16 order). Throws an `Error` with
/// the playground's message when an input is not valid.
#[cfg(feature = "plan")]
#[wasm_bindgen(unchecked_return_type = "Action[]")]
pub fn reconcile(
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] desired: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] observed: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Finalizers | string | null")]
    finalizers: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let (desired, observed, finalizers) = parse_documents(&desired, &observed, finalizers)?;
    to_js(&reconcile_core::reconcile(
        &desired,
        &observed,
        finalizers.as_ref(),
    ))
}

/// The explained plan: every action with the rule that chose it and, for
/// UPDATE, the field-level drift; the counts; and the summary sentence.
#[cfg(feature = "plan")]
#[wasm_bindgen(unchecked_return_type = "Plan")]
pub fn plan(
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] desired: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] observed: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Finalizers | string | null")]
    finalizers: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let desired = text(Document::Desired, &desired)?;
    let observed = text(Document::Observed, &observed)?;
    to_js(&reconcile_core::plan_texts(
        &desired,
        &observed,
        &finalizers_text(finalizers)?,
    )?)
}

/// Runs the deterministic "apply, then reconcile again" simulation on a
/// scenario `{desired, observed, finalizers?}`, or on several custom
/// resources `{customResources: [...]}`. `options` overrides any of the
/// simulation settings (seed, faults, stuck finalizers, ...); the rest keep
/// their defaults. The same scenario and options always give the same timeline.
#[cfg(feature = "simulate")]
#[wasm_bindgen(unchecked_return_type = "Timeline")]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "Scenario | CustomResourcesScenario | string")]
    scenario: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SimOptions | string | null")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsError> {
    to_js(&types::Timeline::of(&run_simulation(&scenario, options)?))
}

/// Runs the same simulation as `simulate` and returns only how it ended:
/// `{ passes, verdict, verdictText }`, where `passes` is the number of passes.
/// No per-pass records cross into JavaScript, so a large run costs the
/// simulation alone: for auto-graders and for timing.
#[cfg(feature = "simulate")]
#[wasm_bindgen(js_name = simulateVerdict, unchecked_return_type = "SimVerdict")]
pub fn simulate_verdict(
    #[wasm_bindgen(unchecked_param_type = "Scenario | CustomResourcesScenario | string")]
    scenario: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SimOptions | string | null")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsError> {
    to_js(&types::SimVerdict::of(&run_simulation(&scenario, options)?))
}

/// Parses a scenario and options as the other functions do, then simulates.
#[cfg(feature = "simulate")]
fn run_simulation(
    scenario: &JsValue,
    options: Option<JsValue>,
) -> Result<reconcile_sim::Timeline, JsError> {
    let scenario = reconcile_sim::parse_sim_scenario(&text(Document::Scenario, scenario)?)?;
    Ok(reconcile_sim::simulate_custom_resources(
        &scenario,
        &sim_config(options)?,
    ))
}
