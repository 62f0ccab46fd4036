//! The YAML module's worker (`yaml-worker.js`, which runs the JS API's
//! `pkg/reconcile_yaml.js`), started the first time a document is YAML,
//! never with the page. This only starts it and passes calls; what each call
//! means is in `crates/reconcile-wasm/src/yaml_page.rs`.

use std::cell::RefCell;
use std::rc::Rc;

use reconcile_core::{Document, Format, InputError};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::state::{Converted, ReadDocuments, YamlReply};

#[wasm_bindgen(inline_js = r#"
let ready = null;
let worker = null;
let failures = 0;
let next = 0;
const waiting = new Map();
function start(url) {
  ready ??= new Promise((resolve, reject) => {
    // A new worker fetches its module again; the query keeps a cache from answering.
    const started = new Worker(failures ? `${url}?retry=${failures}` : url, { type: "module" });
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
        if (data.ready) { worker = started; resolve(); } else { fail(data.failed); }
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
// One read at a time: a read asked for while one is out waits, and a newer
// one replaces it (it answers { superseded }), so typing never queues reads.
let reading = null;
let queued = null;
function read() {
  const { args, answer } = queued;
  queued = null;
  reading = send("read", args).then((reply) => {
    answer(reply);
    reading = null;
    if (queued) read();
  });
}
export function yaml_call(url, op, args) {
  return start(url).then(
    () => {
      if (op !== "read") return send(op, args);
      return new Promise((answer) => {
        queued?.answer({ superseded: true });
        queued = { args, answer };
        if (!reading) read();
      });
    },
    (error) => ({ failed: error.message }),
  );
}
"#)]
extern "C" {
    /// Starts the worker once (again after a failure) and makes one call:
    /// resolves to `{ ok }`, `{ errors }`, `{ failed }` or (a read replaced
    /// by a newer one before it was sent) `{ superseded }`, never rejects.
    fn yaml_call(url: &str, op: &str, args: js_sys::Array) -> js_sys::Promise;
}

/// Why a call got no answer: the module could not be loaded or started, or
/// the call failed (never the input's fault), with the browser's words.
#[derive(Debug, Clone, PartialEq)]
pub struct Unavailable(pub String);

enum Answer {
    Ok(JsValue),
    Errors(Vec<InputError>),
    /// A newer read took this one's place.
    Superseded,
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
    if field("superseded").is_truthy() {
        return Ok(Answer::Superseded);
    }
    if let Some(errors) = field("errors").as_string() {
        return serde_json::from_str(&errors)
            .map(Answer::Errors)
            .map_err(|error| Unavailable(error.to_string()));
    }
    Ok(Answer::Ok(field("ok")))
}

/// A unit variant's serialized name (its JSON is the quoted name).
fn name(quoted: serde_json::Result<String>) -> JsValue {
    JsValue::from_str(quoted.unwrap_or_default().trim_matches('"'))
}

thread_local! {
    /// The desired and observed JSON texts of the worker's last answer: it
    /// answers `null` for a document that reads as it did then.
    static ANSWERED: RefCell<[Option<Rc<str>>; 2]> = RefCell::default();
}

/// The three documents read in their formats; `None` when a newer read
/// took this one's place before it was sent.
pub async fn read(
    formats: [Format; 3],
    texts: [&str; 3],
) -> Result<Option<YamlReply>, Unavailable> {
    let formats = serde_json::to_string(&formats).unwrap_or_default();
    let [desired, observed, finalizers] = texts.map(JsValue::from_str);
    Ok(
        match call("read", &[formats.into(), desired, observed, finalizers]).await? {
            Answer::Ok(read) => {
                let field = |name: &str| js_sys::Reflect::get(&read, &name.into()).ok();
                let text = |name: &str| field(name).and_then(|v| v.as_string()).unwrap_or_default();
                // Taken first, whatever follows: the worker counts on it.
                let resources = remember_answer(["desired", "observed"].map(|name| {
                    field(name)
                        .and_then(|value| value.as_string())
                        .map(Rc::from)
                }))?;
                let terminating = serde_json::from_str(&text("terminating"))
                    .map_err(|error| Unavailable(error.to_string()))?;
                Some(YamlReply::Scenario(ReadDocuments {
                    resources,
                    finalizers: text("finalizers"),
                    terminating,
                }))
            }
            Answer::Errors(errors) => Some(YamlReply::Errors(errors)),
            Answer::Superseded => None,
        },
    )
}

/// The answer's desired and observed texts, a `None` ("as before") taken
/// from the last answer, which the answer then becomes.
fn remember_answer(texts: [Option<Rc<str>>; 2]) -> Result<[Rc<str>; 2], Unavailable> {
    ANSWERED.with_borrow_mut(|answered| {
        for (slot, text) in answered.iter_mut().zip(texts) {
            if let Some(text) = text {
                *slot = Some(text);
            }
        }
        match answered {
            [Some(desired), Some(observed)] => Ok([Rc::clone(desired), Rc::clone(observed)]),
            _ => Err(no_answer()),
        }
    })
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
        Answer::Superseded => Err(no_answer()),
    }
}

/// Values (a JSON array's text) as a YAML stream, `---` between documents.
pub async fn yaml_stream(values: String) -> Result<String, Unavailable> {
    match call("stream", &[values.into()]).await? {
        Answer::Ok(text) => Ok(text.as_string().unwrap_or_default()),
        Answer::Errors(_) => Err(Unavailable("the YAML writer refused the values".to_owned())),
        Answer::Superseded => Err(no_answer()),
    }
}

fn no_answer() -> Unavailable {
    Unavailable("the YAML reader gave no answer".to_owned())
}
