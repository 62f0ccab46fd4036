//! The playground page's calls into the YAML module (not part of the JS
//! API for course pages): the page never links the YAML reader, and asks
//! this module, run in a worker (`web/static/yaml-worker.js`), instead.
//!
//! Texts and formats go in; out come JSON texts the page reads with core:
//! the scenario as read, one text per document (which the page parses with
//! core's own reader and plans as it does JSON), or the documents' located
//! errors, thrown as a string holding a JSON array of `InputError`s. An
//! `Error` thrown is a fault of the call itself, never of the input.
//!
//! A desired or observed document whose read has not changed since the
//! last answer is answered `null` ("as before"): typing in one large
//! document does not read, write and send the other one again, and the page
//! does not parse it again.

use std::cell::RefCell;

use reconcile_core::{Document, Format, InputError};
use reconcile_yaml::manifest::objects_to_apply;
use reconcile_yaml::{
    convert, read_documents_cached, read_resources_in, scenario_documents, to_yaml_stream,
    ManifestOptions, ReadCache,
};
use wasm_bindgen::prelude::*;

thread_local! {
    /// The last read of the editors' documents: an edit of a large YAML
    /// document is read again only around the change.
    static LAST_READ: RefCell<ReadCache> = RefCell::default();
    /// The read revisions of desired and observed the page has last been
    /// given a text of ([`ReadCache::revisions`]).
    static ANSWERED: RefCell<[Option<u64>; 2]> = RefCell::default();
    /// The texts of the last read (desired, observed, finalizers), which
    /// the page sends only the changes of.
    static TEXTS: RefCell<[String; 3]> = RefCell::default();
}

/// The three editors' texts in their formats (a JSON array such as
/// `["yaml","json","json"]`, in the order desired, observed, finalizers),
/// each given as its whole text, as `null` (the last read's text) or as
/// `[from, to, insert]` (the last read's text with bytes `from..to`
/// replaced by `insert`),
/// read as the JS API's `readDocuments` reads them: `{ desired, observed,
/// finalizers, terminating }`, the scenario's documents as JSON texts (desired
/// or observed `null` when it reads as it did at the last answer) and the
/// names of the observed manifests' objects that have a
/// `metadata.deletionTimestamp` (a JSON array); or the errors of every
/// document that has one.
#[wasm_bindgen(js_name = pageRead)]
pub fn page_read(
    formats: &str,
    desired: JsValue,
    observed: JsValue,
    finalizers: JsValue,
) -> Result<JsValue, JsValue> {
    let formats: [Format; 3] = serde_json::from_str(formats).map_err(fault)?;
    let (read, revisions) = TEXTS.with_borrow_mut(|texts| {
        for (text, change) in texts.iter_mut().zip([desired, observed, finalizers]) {
            take_change(text, change)?;
        }
        let [desired, observed, finalizers] = texts;
        Ok::<_, JsValue>(LAST_READ.with_borrow_mut(|cache| {
            let read = read_documents_cached(
                cache,
                formats,
                desired,
                observed,
                finalizers,
                &ManifestOptions::default(),
            );
            (read, cache.revisions())
        }))
    })?;
    let read = read.map_err(|errors| errors_value(&errors))?;
    let unchanged =
        ANSWERED.with_borrow(|answered| [0, 1].map(|at| answered[at] == Some(revisions[at])));
    let terminating: Vec<&str> = read
        .observed
        .manifests
        .iter()
        .filter(|object| object.deletion_timestamp.is_some())
        .map(|object| object.name.as_str())
        .collect();
    let scenario = &read.scenario;
    let reply = js_sys::Object::new();
    let resources = [
        ("desired", &scenario.desired, unchanged[0]),
        ("observed", &scenario.observed, unchanged[1]),
    ];
    for (name, resources, unchanged) in resources {
        let text = match unchanged {
            true => JsValue::NULL,
            false => serde_json::to_string(resources).map_err(fault)?.into(),
        };
        js_sys::Reflect::set(&reply, &name.into(), &text)?;
    }
    let texts = [
        ("finalizers", serde_json::to_string(&scenario.finalizers)),
        ("terminating", serde_json::to_string(&terminating)),
    ];
    for (name, text) in texts {
        js_sys::Reflect::set(&reply, &name.into(), &text.map_err(fault)?.into())?;
    }
    ANSWERED.set(revisions.map(Some));
    Ok(reply.into())
}

/// Applies one of [`page_read`]'s changes to the last text.
fn take_change(text: &mut String, change: JsValue) -> Result<(), JsValue> {
    if change.is_null() {
        return Ok(());
    }
    if let Some(whole) = change.as_string() {
        *text = whole;
        return Ok(());
    }
    let part = |at: u32| js_sys::Reflect::get_u32(&change, at).unwrap_or_default();
    let offset = |at: u32| part(at).as_f64().map(|offset| offset as usize);
    match (offset(0), offset(1), part(2).as_string()) {
        (Some(from), Some(to), Some(insert))
            if from <= to && text.is_char_boundary(from) && text.is_char_boundary(to) =>
        {
            text.replace_range(from..to, &insert);
            Ok(())
        }
        _ => Err(JsError::new("a change that does not fit the last text").into()),
    }
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

/// The desired document (`text`, read as `format`) as a YAML manifest
/// stream for `kubectl apply -f`: each object as it is, a manifest's
/// `metadata.finalizers` put back ([`objects_to_apply`]).
#[wasm_bindgen(js_name = pageDesiredStream)]
pub fn page_desired_stream(format: &str, text: &str) -> Result<String, JsValue> {
    let format: Format = serde_json::from_str(&format!("\"{format}\"")).map_err(fault)?;
    let read = read_resources_in(format, Document::Desired, text, &ManifestOptions::default())
        .map_err(|error| errors_value(&[error]))?;
    Ok(to_yaml_stream(&objects_to_apply(&read)))
}

/// An imported YAML file as the three editors' texts when it is a scenario
/// file (an array of three strings), else `null` (it is a desired state).
#[wasm_bindgen(js_name = pageScenarioDocuments)]
pub fn page_scenario_documents(text: &str) -> Result<JsValue, JsValue> {
    let documents = scenario_documents(text).map_err(|error| errors_value(&[error]))?;
    Ok(documents.map_or(JsValue::NULL, |texts| {
        js_sys::Array::from_iter(texts.map(JsValue::from)).into()
    }))
}

/// The errors, as the string the page reads them from.
fn errors_value(errors: &[InputError]) -> JsValue {
    JsValue::from_str(&serde_json::to_string(errors).unwrap_or_default())
}

fn fault(error: serde_json::Error) -> JsValue {
    JsError::new(&error.to_string()).into()
}
