//! The checker of a learner's reconcile, as a JS class: the page (or a course
//! page's `check`) asks it for the next case, runs the learner's function on
//! it in the sandbox, and hands the answer back. The checker decides
//! everything; this class only converts.

use reconcile_check::{Answer, Language};
use reconcile_core::Document;
use wasm_bindgen::prelude::*;

use crate::convert::{text, to_js, CallTexts};
use crate::types::CheckOutcome;

/// A check in progress. `case()` gives the next call's arguments, as JSON
/// text `{"desired":…,"observed":…,"finalizers"?:…}` (a missing
/// `finalizers` means the argument is left out), until the check is over.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Check(reconcile_check::Check);

#[wasm_bindgen]
impl Check {
    /// A check of `cases` generated cases (at least 500, the default; `seed`
    /// chooses them), after `scenario` `{desired, observed, finalizers?}`
    /// when given.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "\"python\" | \"javascript\"")] language: &str,
        seed: u32,
        #[wasm_bindgen(unchecked_optional_param_type = "Scenario | string | null")]
        scenario: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] cases: Option<u32>,
    ) -> Result<Check, JsError> {
        let Some(language) = Language::from_id(language) else {
            return Err(JsError::new(&format!(
                "unknown language {language:?}; expected \"python\" or \"javascript\""
            )));
        };
        let scenario = match scenario.filter(|s| !s.is_null() && !s.is_undefined()) {
            Some(value) => Some(reconcile_core::parse_scenario(&text(
                Document::Scenario,
                &value,
            )?)?),
            None => None,
        };
        Ok(Check(reconcile_check::Check::new(
            language,
            u64::from(seed),
            cases.map_or(reconcile_check::MIN_GENERATED, |n| n as usize),
            scenario.as_ref(),
        )))
    }

    /// The next call's arguments as JSON text, or `undefined` once the check is over.
    pub fn case(&self) -> Option<String> {
        self.0.case().map(reconcile_check::Case::arguments_json)
    }

    /// The cases the check will ask for next, in order, as the texts of
    /// their arguments (`finalizers` missing when the argument is left out),
    /// to run in one batch: answer them in order while `case()` is the next
    /// of them.
    #[wasm_bindgen(
        unchecked_return_type = "{ desired: string, observed: string, finalizers?: string }[]"
    )]
    pub fn upcoming(&self) -> Result<JsValue, JsError> {
        let calls: Vec<CallTexts> = self
            .0
            .upcoming()
            .iter()
            .map(|case| {
                let [desired, observed, finalizers] = case.argument_texts();
                CallTexts {
                    desired: desired.unwrap_or_default(),
                    observed: observed.unwrap_or_default(),
                    finalizers,
                    process: None,
                }
            })
            .collect();
        to_js(&calls)
    }

    /// Changes whenever the check changes course: while it stays the same,
    /// the batch `upcoming()` gave is still the one to answer, in order.
    pub fn course(&self) -> u32 {
        self.0.course()
    }

    /// The learner's function returned this list, as JSON text.
    pub fn answer(&mut self, actions: &str) {
        self.0.answer_json(actions);
    }

    /// The learner's function raised: its message, with the traceback.
    pub fn raised(&mut self, message: String) {
        self.0.answer(Answer::Raised(message));
    }

    /// How the check ended, or `undefined` while it runs.
    #[wasm_bindgen(unchecked_return_type = "CheckOutcome | undefined")]
    pub fn outcome(&self) -> Result<JsValue, JsError> {
        self.0.outcome().map_or(Ok(JsValue::UNDEFINED), |outcome| {
            to_js(&CheckOutcome::of(outcome))
        })
    }
}
