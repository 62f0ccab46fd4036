//! A learner's controller driven one call at a time, as a JS class.
//!
//! `reconcile_sim::learner::DrivenRun` runs the exercise and validates each
//! call; this class only converts. A call's refusal becomes a thrown JS
//! `Error` whose own properties say what it was (`kind`, and `status` and
//! `reason` for the API server's), so `js/controller.js` can turn it into
//! the learner's `ApiError`. It is in the `loop` module, which links the
//! simulation already: a module of its own would cost a second copy of it.

use js_sys::{Reflect, JSON};
use reconcile_sim::learner::RunEnd;
use reconcile_sim::learner::{self, CallError, ClientCall, Finish};
use reconcile_sim::{Millis, Verdict};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::convert::to_js;

/// A run of a controller exercise, driven by the caller: `nextReconcile()`,
/// then the reconcile's `call()`s, then `finish()`, until `nextReconcile()`
/// answers `null`; then `end()` and `properties()` say how it went.
#[wasm_bindgen]
#[derive(Debug)]
pub struct DrivenRun(learner::DrivenRun);

#[wasm_bindgen]
impl DrivenRun {
    /// A run of the exercise named `exercise` (`"owned-configmap"`), its
    /// settings overridden by `options` (as `simulate` takes them).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] exercise: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SimOptions | string | null")]
        options: Option<JsValue>,
    ) -> Result<DrivenRun, JsError> {
        Ok(DrivenRun(learner::DrivenRun::new(exercise_with(
            &exercise,
            options.as_ref(),
        )?)))
    }

    /// Runs the control plane until a worker takes a key: `{ name,
    /// namespace }`, or `null` once the run has ended.
    #[wasm_bindgen(js_name = nextReconcile, unchecked_return_type = "ReconcileRequest | null")]
    pub fn next_reconcile(&mut self) -> Result<JsValue, JsError> {
        self.0
            .next_reconcile()
            .map_or(Ok(JsValue::NULL), |request| to_js(&request))
    }

    /// One client call, `{ method: "get", kind, name, ... }`: its answer, a
    /// deep copy. Throws an `Error` with `kind` ("api", "misuse", "crashed",
    /// "notReconciling"), and `status` and `reason` for the API server's.
    #[wasm_bindgen(unchecked_return_type = "Json")]
    pub fn call(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "object")] call: JsValue,
    ) -> Result<JsValue, JsValue> {
        match call_of(&call).and_then(|call| self.0.call(call)) {
            Ok(answer) => to_js(&answer).map_err(JsValue::from),
            Err(error) => Err(thrown(&error)),
        }
    }

    /// The reconcile in progress returned `result`: `undefined`, `null` or
    /// `{}` (done), `{ requeueAfter: ms }`, `{ error: message }` (retried
    /// with backoff), `{ terminalError: message }` (not retried), or an
    /// `Error` (a `TerminalError` by its name).
    pub fn finish(
        &mut self,
        #[wasm_bindgen(
            unchecked_param_type = "{ requeueAfter?: number } | { error: string } | { terminalError: string } | Error | null | undefined"
        )]
        result: JsValue,
    ) -> Result<(), JsError> {
        let finish = finish_from(&result).map_err(|e| JsError::new(&e))?;
        self.0.finish(finish);
        Ok(())
    }

    /// Each reconcile so far: its request, calls, answers and result.
    #[wasm_bindgen(unchecked_return_type = "ReconcileRecord[]")]
    pub fn record(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.record())
    }

    /// How the run ended, or `null` while it runs.
    #[wasm_bindgen(unchecked_return_type = "ControllerRunEnd | null")]
    pub fn end(&self) -> Result<JsValue, JsError> {
        self.0
            .end()
            .map_or(Ok(JsValue::NULL), |end| to_js(&ControllerRunEnd::of(end)))
    }

    /// The exercise's properties: eventually stable, safe, idempotent once
    /// converged; each with whether it held and, if not, why.
    #[wasm_bindgen(unchecked_return_type = "Property[]")]
    pub fn properties(&self) -> Result<JsValue, JsError> {
        to_js(&learner::check(&self.0))
    }

    /// The exercise's goal, in plain words.
    #[wasm_bindgen(getter)]
    pub fn goal(&self) -> String {
        self.0.exercise().goal_text.to_owned()
    }

    /// The simulated time now, in milliseconds.
    #[wasm_bindgen(getter)]
    pub fn now(&self) -> f64 {
        // Exact in a JS number: simulated runs last far less than 2^53 ms.
        self.0.now() as f64
    }
}

/// How a run of a controller exercise ended: quiet at the goal, idle
/// (nothing more could happen), or at a limit (the pass limit, a hot
/// loop), with the engine's verdict in words.
#[derive(Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ControllerRunEnd<'a> {
    /// The goal held and the controller wrote nothing for three resync periods.
    Quiet { at: Millis },
    Idle {
        verdict: &'a Verdict,
        verdict_text: String,
    },
    Limit {
        verdict: &'a Verdict,
        verdict_text: String,
    },
}

impl<'a> ControllerRunEnd<'a> {
    pub fn of(end: &'a RunEnd) -> Self {
        match end {
            RunEnd::Quiet { at } => Self::Quiet { at: *at },
            RunEnd::Idle(verdict) => Self::Idle {
                verdict,
                verdict_text: verdict.to_string(),
            },
            RunEnd::Limit(verdict) => Self::Limit {
                verdict,
                verdict_text: verdict.to_string(),
            },
        }
    }
}

/// The exercise named `exercise` (`"owned-configmap"`), its settings
/// overridden by `options` (as `simulate` takes them).
pub(crate) fn exercise_with(
    exercise: &JsValue,
    options: Option<&JsValue>,
) -> Result<learner::Exercise, JsError> {
    let Some(name) = exercise.as_string() else {
        let known = learner::EXERCISES.join(", ");
        return Err(JsError::new(&format!(
            "no exercise named; there are {known}"
        )));
    };
    let text = options_text(options);
    learner::exercise_with(&name, text.as_deref()).map_err(|e| JsError::new(&e))
}

/// The options as JSON text: a string as it is, another value through
/// `JSON.stringify`; `None` for `undefined` and `null`.
pub(crate) fn options_text(options: Option<&JsValue>) -> Option<String> {
    let options = options.filter(|o| !o.is_undefined() && !o.is_null())?;
    Some(options.as_string().unwrap_or_else(|| json_text(options)))
}

/// A client call from JS: `{ method: "get", kind, name, ... }`.
pub(crate) fn call_of(call: &JsValue) -> Result<ClientCall, CallError> {
    serde_json::from_str::<Value>(&json_text(call))
        .map_err(|_| CallError::Misuse {
            method: "call",
            message: "a client call is a JSON object".to_owned(),
        })
        .and_then(ClientCall::from_json)
}

/// What a reconcile returned: `undefined`, `null` or `{}` (done),
/// `{ requeueAfter: ms }`, `{ error: message }`, `{ terminalError: message }`,
/// or an `Error` (a `TerminalError` by its name).
pub(crate) fn finish_from(result: &JsValue) -> Result<Finish, String> {
    if let Some(error) = result.dyn_ref::<js_sys::Error>() {
        let name = String::from(error.name());
        let text = format!("{name}: {}", String::from(error.message()));
        return Ok(if name == "TerminalError" {
            Finish::Terminal(text)
        } else {
            Finish::Error(text)
        });
    }
    if result.is_undefined() || result.is_null() {
        return Ok(Finish::Ok(None));
    }
    finish_of(&json_text(result))
}

/// A JS value as JSON text; `undefined`, a function or a cycle gives text
/// no JSON parser takes, so the caller's own error follows.
pub(crate) fn json_text(value: &JsValue) -> String {
    JSON::stringify(value)
        .ok()
        .and_then(|text| JsValue::from(text).as_string())
        .unwrap_or_default()
}

/// A call's refusal as a thrown `Error`: its message, and its fields.
pub(crate) fn thrown(error: &CallError) -> JsValue {
    let text = match error {
        CallError::Api(failure) => failure.message.clone(),
        other => other.to_string(),
    };
    let thrown = js_sys::Error::new(&text);
    if let Ok(fields) = to_js(error) {
        let keys = js_sys::Object::keys(fields.unchecked_ref::<js_sys::Object>());
        for key in keys.iter() {
            if key.as_string().as_deref() == Some("message") {
                continue;
            }
            let value = Reflect::get(&fields, &key).unwrap_or(JsValue::UNDEFINED);
            // Setting a property of a fresh Error cannot fail.
            let _ = Reflect::set(&thrown, &key, &value);
        }
    }
    thrown.into()
}

/// What a reconcile returned, from its JSON text.
fn finish_of(text: &str) -> Result<Finish, String> {
    let expected = "finish: expected nothing, { requeueAfter: ms }, { error: message } or { terminalError: message }";
    let value: Value = serde_json::from_str(text).map_err(|_| format!("{expected}; got {text}"))?;
    let Value::Object(fields) = &value else {
        return Err(format!("{expected}; got {value}"));
    };
    let mut entries = fields.iter();
    let finish = match (entries.next(), entries.next()) {
        (None, _) => Finish::Ok(None),
        (Some((key, Value::Number(ms))), None) if key == "requeueAfter" => match ms.as_u64() {
            Some(ms) => Finish::Ok(Some(ms)),
            None => {
                return Err(format!(
                "finish: requeueAfter is {ms}; expected a whole number of milliseconds, 0 or more"
            ))
            }
        },
        (Some((key, Value::String(message))), None) if key == "error" => {
            Finish::Error(message.clone())
        }
        (Some((key, Value::String(message))), None) if key == "terminalError" => {
            Finish::Terminal(message.clone())
        }
        _ => return Err(format!("{expected}; got {value}")),
    };
    Ok(finish)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn a_reconcile_result_reads_as_a_finish_or_a_clear_error() {
        assert_eq!(finish_of("{}"), Ok(Finish::Ok(None)));
        assert_eq!(
            finish_of(r#"{"requeueAfter": 250}"#),
            Ok(Finish::Ok(Some(250)))
        );
        assert_eq!(
            finish_of(r#"{"terminalError": "no"}"#),
            Ok(Finish::Terminal("no".to_owned()))
        );
        let error = finish_of(r#"{"requeueAfter": -1}"#).expect_err("negative");
        assert!(error.contains("whole number"), "{error}");
        let error = finish_of(r#"{"requeue": true}"#).expect_err("not a result");
        assert!(error.starts_with("finish: expected"), "{error}");
        let error = finish_of("5").expect_err("a number");
        assert!(error.ends_with("got 5"), "{error}");
    }
}
