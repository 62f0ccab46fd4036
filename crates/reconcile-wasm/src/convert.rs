//! JS values in, JS values out: the only work the adapters share.

use js_sys::JSON;
use reconcile_core::Document;
#[cfg(feature = "plan")]
use reconcile_core::{parse_finalizers, parse_resources, Finalizers, Resources};
#[cfg(feature = "simulate")]
use reconcile_core::{parse_json, Json};
#[cfg(feature = "simulate")]
use reconcile_sim::SimConfig;
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

#[cfg(feature = "plan")]
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

#[cfg(feature = "simulate")]
/// Simulation options: a partial `SimConfig` as a JS object or JSON text.
/// `undefined` and `null` mean the defaults. Unknown option names are errors,
/// so a misspelt option never silently does nothing.
pub fn sim_config(options: Option<JsValue>) -> Result<SimConfig, JsError> {
    let Some(options) = options.filter(|options| !options.is_undefined()) else {
        return Ok(SimConfig::default());
    };
    let text = match options.as_string() {
        Some(text) => text,
        None => JSON::stringify(&options)
            .map(|text| JsValue::from(text).as_string().unwrap_or_default())
            .map_err(|error| options_error("$", &message(&error)))?,
    };
    // Core's parser, for precise syntax errors; its paths are the options' paths.
    let members = match parse_json(Document::Scenario, &text) {
        Ok(Json::Null) => return Ok(SimConfig::default()),
        Ok(Json::Object(members)) => members,
        Ok(_) => return Err(options_error("$", "expected an object of options")),
        Err(error) => {
            return Err(options_error(
                &error.path.to_string(),
                &format!("{} ({})", error.message, error.location()),
            ))
        }
    };
    let known = option_names();
    if let Some((unknown, _)) = members
        .iter()
        .find(|(name, _)| !known.iter().any(|known| **known == **name))
    {
        return Err(options_error(
            "$",
            &format!(
                "unknown option {unknown:?}; expected one of {}",
                known.join(", ")
            ),
        ));
    }
    serde_json::from_str(&text).map_err(|error| {
        // serde's message says what, not where: the first option that fails alone is where.
        let culprit = members.iter().find(|(name, value)| {
            let alone = format!("{{{:?}:{}}}", name, value.to_compact_string());
            serde_json::from_str::<SimConfig>(&alone).is_err()
        });
        let path = culprit.map_or_else(|| "$".to_owned(), |(name, _)| format!("$.{name}"));
        let message = error.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(&*message, |(what, _)| what);
        options_error(&path, message)
    })
}

#[cfg(feature = "simulate")]
/// The option names, taken from the defaults so they never drift from `SimConfig`.
fn option_names() -> Vec<String> {
    let defaults = serde_json::to_string(&SimConfig::default()).unwrap_or_default();
    match parse_json(Document::Scenario, &defaults) {
        Ok(Json::Object(members)) => members.iter().map(|(name, _)| name.to_string()).collect(),
        _ => Vec::new(),
    }
}

#[cfg(feature = "simulate")]
fn options_error(path: &str, message: &str) -> JsError {
    JsError::new(&format!("Simulation options at {path}: {message}"))
}

/// The message of a thrown JS value (an `Error`'s `message`, or the value as text).
fn message(error: &JsValue) -> String {
    match error.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => error.as_string().unwrap_or_else(|| format!("{error:?}")),
    }
}
