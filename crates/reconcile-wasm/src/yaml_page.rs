//! The playground page's calls into the YAML module (not part of the JS
//! API for course pages): the page never links the YAML reader, and asks
//! this module, run in a worker (`web/static/yaml-worker.js`), instead.
//!
//! Texts and formats go in; out comes JSON text the page reads with core:
//! the scenario as read (which the page parses with core's own reader and
//! plans as it does JSON), or the documents' located errors, thrown as a
//! string holding a JSON array of `InputError`s. An `Error` thrown is a
//! fault of the call itself, never of the input.

use reconcile_core::{Document, Format, InputError};
use reconcile_yaml::{convert, read_documents_in, ManifestOptions};
use wasm_bindgen::prelude::*;

/// The three editors' texts in their formats (a JSON array such as
/// `["yaml","json","json"]`, in the order desired, observed, finalizers),
/// read as the JS API's `readDocuments` reads them: the scenario as JSON
/// text, or the errors of every document that has one.
#[wasm_bindgen(js_name = pageRead)]
pub fn page_read(
    formats: &str,
    desired: &str,
    observed: &str,
    finalizers: &str,
) -> Result<String, JsValue> {
    let formats: [Format; 3] = serde_json::from_str(formats).map_err(fault)?;
    let read = read_documents_in(
        formats,
        desired,
        observed,
        finalizers,
        &ManifestOptions::default(),
    )
    .map_err(|errors| errors_value(&errors))?;
    serde_json::to_string(&read.scenario).map_err(fault)
}

/// One editor's text (`document`: `desired`, `observed` or `finalizers`)
/// read as `from` and written as `to` (`json` or `yaml`; the same format
/// pretty-prints): `{ text, droppedComments }`.
#[wasm_bindgen(js_name = pageConvert)]
pub fn page_convert(document: &str, text: &str, from: &str, to: &str) -> Result<JsValue, JsValue> {
    let [document, from, to] = [document, from, to].map(|name| format!("\"{name}\""));
    let document: Document = serde_json::from_str(&document).map_err(fault)?;
    let (from, to): (Format, Format) = (
        serde_json::from_str(&from).map_err(fault)?,
        serde_json::from_str(&to).map_err(fault)?,
    );
    let converted = convert(document, text, from, to).map_err(|e| errors_value(&[e]))?;
    let reply = js_sys::Object::new();
    js_sys::Reflect::set(&reply, &"text".into(), &converted.text.into())?;
    js_sys::Reflect::set(
        &reply,
        &"droppedComments".into(),
        &converted.dropped_comments.into(),
    )?;
    Ok(reply.into())
}

/// The errors, as the string the page reads them from.
fn errors_value(errors: &[InputError]) -> JsValue {
    JsValue::from_str(&serde_json::to_string(errors).unwrap_or_default())
}

fn fault(error: serde_json::Error) -> JsValue {
    JsError::new(&error.to_string()).into()
}
