//! The YAML module's worker (`yaml-worker.js`, which runs the JS API's
//! `pkg/reconcile_yaml.js`), started the first time a document is YAML,
//! never with the page. This only starts it and passes calls; what each call
//! means is in `crates/reconcile-wasm/src/yaml_page.rs`.

mod reads;

use reconcile_core::{Document, Format, InputError};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::state::Converted;

pub use reads::{read, splice};

#[wasm_bindgen(inline_js = r#"
let ready = null;
let worker = null;
let failures = 0;
let next = 0;
const waiting = new Map();
function start(url) {
  ready ??= new Promise((resolve, reject) => {
    // A new worker fetches its module again; the query keeps a cache from answering.
    const address = failures ? `${url}?retry=${failures}` : url;
    const started = new Worker(address, { type: "module" });
    const fail = (message) => {
      started.terminate();
      ready = null;
      worker = null;
      failures += 1;
      for (const answer of waiting.values()) answer({ failed: message });
      waiting.clear();
      reject(new Error(message));
    };
    started.onerror = (event) => {
      event.preventDefault();
      fail(event.message || "the YAML reader could not be downloaded");
    };
    started.onmessage = ({ data }) => {
      if (data.id === undefined) {
        if (data.ready) {
          worker = started;
          // The files it loaded, for the service worker (web/static/sw-register.js).
          performance.mark("playground:used", { detail: [address, ...(data.used ?? [])] });
          resolve();
        } else { fail(data.failed); }
        return;
      }
      const answer = waiting.get(data.id);
      waiting.delete(data.id);
      answer?.(data);
    };
  });
  return ready;
}
function send(op, args) {
  return new Promise((answer) => {
    next += 1;
    waiting.set(next, answer);
    worker.postMessage({ id: next, op, args });
  });
}
export function yaml_call(url, op, args) {
  return start(url).then(
    () => send(op, args),
    (error) => ({ failed: error.message }),
  );
}
"#)]
extern "C" {
    /// Starts the worker once (again after a failure) and makes one call:
    /// resolves to `{ ok }`, `{ errors }` or `{ failed }`, never rejects.
    fn yaml_call(url: &str, op: &str, args: js_sys::Array) -> js_sys::Promise;
}

/// Why a call got no answer: the module could not be loaded or started, or
/// the call failed (never the input's fault), with the browser's words.
#[derive(Debug, Clone, PartialEq)]
pub struct Unavailable(pub String);

enum Answer {
    Ok(JsValue),
    Errors(Vec<InputError>),
}

async fn call(op: &str, args: &[JsValue]) -> Result<Answer, Unavailable> {
    let url = crate::browser::beside_page("yaml-worker.js");
    let args: js_sys::Array = args.iter().collect();
    let answer = JsFuture::from(yaml_call(&url, op, args))
        .await
        .map_err(|error| Unavailable(crate::browser::message_of(&error)))?;
    let field = |name: &str| js_sys::Reflect::get(&answer, &name.into()).unwrap_or_default();
    if let Some(message) = field("failed").as_string() {
        return Err(Unavailable(message));
    }
    if let Some(errors) = field("errors").as_string() {
        return reconcile_protocol::yaml::input_errors_from_json(&errors)
            .map(Answer::Errors)
            .map_err(|error| Unavailable(error.to_string()));
    }
    Ok(Answer::Ok(field("ok")))
}

/// A unit variant's serialized name (its JSON is the quoted name).
fn name(quoted: serde_json::Result<String>) -> JsValue {
    JsValue::from_str(quoted.unwrap_or_default().trim_matches('"'))
}

/// One document's text read as `from`, written as `to`.
pub async fn convert(
    document: Document,
    text: &str,
    from: Format,
    to: Format,
) -> Result<Result<Converted, InputError>, Unavailable> {
    let args = [
        name(serde_json::to_string(&document)),
        text.into(),
        name(serde_json::to_string(&from)),
        name(serde_json::to_string(&to)),
    ];
    match call("convert", &args).await? {
        Answer::Ok(reply) => {
            let field = |name: &str| js_sys::Reflect::get(&reply, &name.into()).unwrap_or_default();
            Ok(Ok(Converted {
                text: field("text").as_string().unwrap_or_default(),
                dropped_comments: field("droppedComments").is_truthy(),
            }))
        }
        Answer::Errors(errors) => match errors.into_iter().next() {
            Some(error) => Ok(Err(error)),
            None => Err(no_answer()),
        },
    }
}

/// The desired document as a YAML manifest stream for `kubectl apply -f`.
pub async fn desired_stream(format: Format, text: &str) -> Result<String, Unavailable> {
    let args = [name(serde_json::to_string(&format)), text.into()];
    match call("desiredStream", &args).await? {
        Answer::Ok(text) => Ok(text.as_string().unwrap_or_default()),
        Answer::Errors(_) => Err(Unavailable(
            "the YAML writer refused the desired state".to_owned(),
        )),
    }
}

/// An imported YAML file as the three editors' texts when it is a scenario
/// file; `None` when it is a desired state; its error when it is a scenario
/// file that does not read.
pub async fn scenario_documents(
    text: &str,
) -> Result<Result<Option<[String; 3]>, InputError>, Unavailable> {
    match call("scenario", &[text.into()]).await? {
        Answer::Ok(texts) if texts.is_null() => Ok(Ok(None)),
        Answer::Ok(texts) => {
            let text = |at: u32| {
                js_sys::Reflect::get_u32(&texts, at)
                    .ok()
                    .and_then(|t| t.as_string())
            };
            match [0, 1, 2].map(text) {
                [Some(desired), Some(observed), Some(finalizers)] => {
                    Ok(Ok(Some([desired, observed, finalizers])))
                }
                _ => Err(no_answer()),
            }
        }
        Answer::Errors(errors) => errors.into_iter().next().map(Err).ok_or_else(no_answer),
    }
}

fn no_answer() -> Unavailable {
    Unavailable("the YAML reader gave no answer".to_owned())
}
