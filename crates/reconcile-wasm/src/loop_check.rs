//! The learner's reconcile run in the loop, as a JS class: the simulation
//! names each call, the learner's function answers it in the sandbox, and
//! `reconcile_sim::own_reconcile::LoopCheck` decides the three verdicts.
//! This class only converts.

use reconcile_core::{parse_actions, parse_scenario, Document};
use reconcile_sim::own_reconcile;
use wasm_bindgen::prelude::*;

use crate::convert::{sim_config, text, to_js, CallTexts};
use crate::types::LoopOutcome;

/// A loop check in progress: `call()` gives the next call's arguments as
/// JSON texts, and `process`, which changes whenever a new controller
/// process calls (a run, or a restart); answer with `answer` or `raised`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct LoopCheck(own_reconcile::LoopCheck);

#[wasm_bindgen]
impl LoopCheck {
    /// A check of the loop on `scenario` `{desired, observed, finalizers?}`
    /// under `options` (as `simulate` takes them).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SimOptions | string | null")]
        options: Option<JsValue>,
    ) -> Result<LoopCheck, JsError> {
        let scenario = parse_scenario(&text(Document::Scenario, &scenario)?)?;
        Ok(LoopCheck(own_reconcile::LoopCheck::new(
            &scenario,
            sim_config(options)?,
        )))
    }

    /// The next call, or `undefined` once the check is over.
    #[wasm_bindgen(
        unchecked_return_type = "{ desired: string, observed: string, finalizers?: string, process: number } | undefined"
    )]
    pub fn call(&mut self) -> Result<JsValue, JsError> {
        let Some(call) = self.0.call() else {
            return Ok(JsValue::UNDEFINED);
        };
        let texts = CallTexts {
            desired: serde_json::to_string(call.desired)?,
            observed: serde_json::to_string(call.observed)?,
            finalizers: call.finalizers.map(serde_json::to_string).transpose()?,
            // Exact in a JS number: a run count and a restart count, each small.
            process: Some(call.process as f64),
        };
        to_js(&texts)
    }

    /// The learner's function returned this list, as JSON text. A list that
    /// is not an action list ends the check with core's message.
    pub fn answer(&mut self, actions: &str) {
        self.0
            .answer(parse_actions(actions).map_err(|error| error.to_string()));
    }

    /// The learner's function raised: its message, with the traceback.
    pub fn raised(&mut self, message: String) {
        self.0
            .answer(Err(format!("reconcile raised an error: {message}")));
    }

    /// How the check ended, or `undefined` while it runs.
    #[wasm_bindgen(unchecked_return_type = "LoopOutcome | undefined")]
    pub fn outcome(&self) -> Result<JsValue, JsError> {
        self.0.outcome().map_or(Ok(JsValue::UNDEFINED), |outcome| {
            to_js(&LoopOutcome::of(outcome))
        })
    }
}
