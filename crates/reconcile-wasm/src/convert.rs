//! JS values in, JS values out: the only work the adapters share.

use js_sys::JSON;
use reconcile_core::Document;
#[cfg(feature = "plan")]
use reconcile_core::{parse_finalizers, parse_resources, Finalizers, Resources};
#[cfg(any(feature = "simulate", feature = "loop"))]
use reconcile_sim::{parse_options, SimConfig};
use serde::Serialize;
use wasm_bindgen::{JsCast, JsError, JsValue};

/// A document as JSON text: a string is the text itself; any other value goes
/// through `JSON.stringify`, so that core's parser reports its errors exactly
/// as it does for the playground's editors. `undefined` (and anything else
/// `JSON.stringify` skips, such as a function) becomes the empty text.
pub fn text(document: Document, value: &JsValue) -> Result<String, JsError> {
    if let Some(text) = value.as_string() {
        return Ok(text);
    }
    match JSON::stringify(value) {
        Ok(text) => Ok(JsValue::from(text).as_string().unwrap_or_default()),
        Err(error) => Err(JsError::new(&format!(
            "{document}: cannot be converted to JSON: {}",
            message(&error)
        ))),
    }
}

#[cfg(any(feature = "plan", feature = "yaml"))]
/// The finalizers text: `undefined` and `null` both mean "no finalizers".
pub fn finalizers_text(value: Option<JsValue>) -> Result<String, JsError> {
    value.map_or(Ok(String::new()), |value| {
        text(Document::Finalizers, &value)
    })
}

#[cfg(feature = "plan")]
/// Parses the three documents, reporting the first error in the order
/// desired, observed, finalizers (as `reconcile_core::plan_texts` does).
pub fn parse_documents(
    desired: &JsValue,
    observed: &JsValue,
    finalizers: Option<JsValue>,
) -> Result<(Resources, Resources, Option<Finalizers>), JsError> {
    let desired = parse_resources(Document::Desired, &text(Document::Desired, desired)?)?;
    let observed = parse_resources(Document::Observed, &text(Document::Observed, observed)?)?;
    let finalizers = parse_finalizers(&finalizers_text(finalizers)?)?;
    Ok((desired, observed, finalizers))
}

/// Turns a result into plain JS objects and arrays (never `Map`s), with `null`
/// for absent values: exactly what `JSON.parse` makes of the CLI's output.
///
/// Why JSON text rather than serde-wasm-bindgen's `json_compatible`
/// serializer: that one throws on integers beyond 2^53, which a spec may hold
/// (`JSON.parse` gives the nearest number), and it links a second serializer
/// for every output type, about 8 KB more gzipped than reusing serde_json,
/// which core links anyway.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    JSON::parse(&serde_json::to_string(value)?).map_err(|error| JsError::new(&message(&error)))
}

#[cfg(any(feature = "simulate", feature = "loop"))]
/// Simulation options: a partial `SimConfig` as a JS object or JSON text,
/// read by the simulation's own options parser. `undefined` and `null` mean
/// the defaults.
pub fn sim_config(options: Option<JsValue>) -> Result<SimConfig, JsError> {
    let Some(options) = options.filter(|options| !options.is_undefined()) else {
        return Ok(SimConfig::default());
    };
    let text = match options.as_string() {
        Some(text) => text,
        None => JSON::stringify(&options)
            .map(|text| JsValue::from(text).as_string().unwrap_or_default())
            .map_err(|error| {
                JsError::new(&format!("Simulation options at $: {}", message(&error)))
            })?,
    };
    Ok(parse_options(&text)?)
}

/// The message of a thrown JS value: an `Error`'s `message`, a string, or
/// the value as JSON. Not `{:?}`: `JsValue`'s `Debug` links wasm-bindgen's
/// `debugString` into every module (docs/SIZE.md).
pub(crate) fn message(error: &JsValue) -> String {
    match error.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => error
            .as_string()
            .or_else(|| {
                JSON::stringify(error)
                    .ok()
                    .and_then(|text| text.as_string())
            })
            .unwrap_or_else(|| "a thrown value that is not an Error".to_owned()),
    }
}

/// One call of a learner's reconcile, as the sandbox takes its arguments:
/// each as JSON text (`finalizers` missing when the argument is left out),
/// and, in the loop, the controller process that calls.
#[cfg(any(feature = "check", feature = "loop"))]
#[derive(Serialize)]
pub struct CallTexts {
    pub desired: String,
    pub observed: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finalizers: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process: Option<f64>,
}
