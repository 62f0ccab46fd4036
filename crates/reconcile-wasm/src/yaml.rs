//! The YAML module of the JS API (`reconcile_yaml`, which `reconcile.js`
//! loads on the first YAML call): the same reconcile and plan, with each
//! document in JSON or YAML, Kubernetes manifests included, and YAML out.
//!
//! A thin adapter like the others: `reconcile_yaml` reads the documents (the
//! reader the command line uses), core decides. It is its own module because
//! the YAML parser would take the `init()` set past its budget (docs/SIZE.md).

use reconcile_core::{plan, reconcile, Document};
use reconcile_yaml::{
    read_documents, read_value, to_yaml, to_yaml_stream, ManifestOptions, ReadScenario,
};
use wasm_bindgen::prelude::*;

use crate::convert::{finalizers_text, text, to_js};
use crate::types::yaml::{ReadDocuments, YamlOptions};

/// `reconcile`, with each document JSON or YAML (a string that does not
/// start with `{` or `[` is YAML); desired and observed may be Kubernetes
/// manifests, whose objects are named `Kind/namespace/name`.
#[wasm_bindgen(js_name = reconcileYaml, unchecked_return_type = "Action[]")]
pub fn reconcile_yaml(
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] desired: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] observed: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Finalizers | string | null")]
    finalizers: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "YamlOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let read = read(&desired, &observed, finalizers, options)?;
    let scenario = &read.scenario;
    to_js(&reconcile(
        &scenario.desired,
        &scenario.observed,
        scenario.finalizers.as_ref(),
    ))
}

/// `plan`, with each document JSON or YAML, as `reconcileYaml` reads them.
#[wasm_bindgen(js_name = planYaml, unchecked_return_type = "Plan")]
pub fn plan_yaml(
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] desired: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] observed: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Finalizers | string | null")]
    finalizers: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "YamlOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let read = read(&desired, &observed, finalizers, options)?;
    let scenario = &read.scenario;
    to_js(&plan(
        &scenario.desired,
        &scenario.observed,
        scenario.finalizers.as_ref(),
    ))
}

/// The documents as `reconcileYaml` reads them: the scenario (finalizers
/// filled from the manifests), each document's format, and the manifests'
/// objects with what was set aside.
#[wasm_bindgen(js_name = readDocuments, unchecked_return_type = "ReadDocuments")]
pub fn read_documents_js(
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] desired: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Resources | string")] observed: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Finalizers | string | null")]
    finalizers: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "YamlOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsError> {
    to_js(&ReadDocuments::of(&read(
        &desired, &observed, finalizers, options,
    )?))
}

/// A value (a JS value, or JSON or YAML text) as YAML text that reads back
/// as the same value, here and in kubectl.
#[wasm_bindgen(js_name = toYaml)]
pub fn to_yaml_js(
    #[wasm_bindgen(unchecked_param_type = "Json | string")] value: JsValue,
) -> Result<String, JsError> {
    let value = read_value(Document::Desired, &text(Document::Desired, &value)?)?;
    Ok(to_yaml(&value))
}

/// Values as a YAML stream (`---` between documents), for `kubectl apply -f`.
#[wasm_bindgen(js_name = toYamlStream)]
pub fn to_yaml_stream_js(
    #[wasm_bindgen(unchecked_param_type = "Json[]")] values: JsValue,
) -> Result<String, JsError> {
    let values = read_value(Document::Desired, &text(Document::Desired, &values)?)?;
    let Some(items) = values.as_array() else {
        return Err(JsError::new(&format!(
            "toYamlStream: expected an array of values, found {}",
            values.type_name()
        )));
    };
    Ok(to_yaml_stream(items))
}

fn read(
    desired: &JsValue,
    observed: &JsValue,
    finalizers: Option<JsValue>,
    options: Option<JsValue>,
) -> Result<ReadScenario, JsError> {
    let options: YamlOptions = match options.filter(|o| !o.is_undefined() && !o.is_null()) {
        None => YamlOptions::default(),
        Some(options) => serde_json::from_str(&text(Document::Scenario, &options)?)
            .map_err(|e| JsError::new(&format!("YAML options at $: {e}")))?,
    };
    let manifests = ManifestOptions {
        cluster_scoped: options.cluster_scoped,
    };
    let desired = text(Document::Desired, desired)?;
    let observed = text(Document::Observed, observed)?;
    let finalizers = finalizers_text(finalizers)?;
    read_documents(&desired, &observed, &finalizers, &manifests).map_err(|errors| {
        // The first error, in the order desired, observed, finalizers, as `plan` reports.
        errors
            .into_iter()
            .next()
            .map_or_else(|| JsError::new("no error"), JsError::from)
    })
}
