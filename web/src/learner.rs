//! The bridge to the JS API's `check` (`pkg/reconcile.js`), for the "Your
//! reconcile" pane. The API, its checker module and the sandbox load on the
//! first Check, never with the page. This module only converts: the checker
//! decides, and core's reader reads the action lists it reports.

use std::rc::Rc;

use reconcile_check::{EqualityNote, Mark};
use reconcile_content::exercise::LearnerCode;
use reconcile_core::json::Json;
use reconcile_core::parse_actions;
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::state::{CheckReport, CounterexampleReport, Job, LogLine, LoopReport, Report, RunPhase};

#[wasm_bindgen(inline_js = r#"
let api = null;
export function load_api(url) {
  api ??= import(url).catch((error) => { api = null; throw error; });
  return api;
}
"#)]
extern "C" {
    /// Imports the JS API once; a failed download is retried by the next call.
    fn load_api(url: &str) -> js_sys::Promise;
}

/// Where the JS API is, beside the page.
fn api_url() -> String {
    let base = gloo::utils::document()
        .base_uri()
        .ok()
        .flatten()
        .unwrap_or_default();
    web_sys::Url::new_with_base("pkg/reconcile.js", &base)
        .map(|url| url.href())
        .unwrap_or_else(|_| "pkg/reconcile.js".to_owned())
}

/// A finished run: the report for the pane, and the JS API's own result
/// for an embedding page.
pub struct Finished {
    pub report: Report,
    pub outcome: JsValue,
}

/// What a run needs besides the code.
pub struct RunInput {
    /// The editors' documents as a scenario's JSON text, when they are valid.
    pub scenario: Option<String>,
    /// The simulation's settings as JSON text (for the loop).
    pub options: String,
}

/// Runs `code` for `job`: a Check against the contract (`check`), or the
/// loop (`checkLoop`). `progress` hears what it is doing. Errs with a
/// sentence when the code cannot be run at all.
pub async fn run(
    job: Job,
    code: &LearnerCode,
    input: RunInput,
    progress: Rc<dyn Fn(RunPhase)>,
) -> Result<Finished, String> {
    let api = JsFuture::from(load_api(&api_url()))
        .await
        .map_err(|error| format!("the checker could not be loaded: {}", message_of(&error)))?;
    let name = match job {
        Job::Check => "check",
        Job::Loop => "checkLoop",
    };
    let function: js_sys::Function = js_sys::Reflect::get(&api, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| {
            format!("the checker could not be loaded: pkg/reconcile.js has no {name}()")
        })?;
    let on_progress = Closure::<dyn Fn(JsValue)>::new(move |report: JsValue| {
        if let Some(phase) = phase_of(&report) {
            progress(phase);
        }
    });
    let options = js_sys::Object::new();
    let set = |key: &str, value: &JsValue| js_sys::Reflect::set(&options, &key.into(), value);
    let _ = set("language", &code.language.id().into());
    let _ = set(
        "scenario",
        &input.scenario.map_or(JsValue::NULL, JsValue::from),
    );
    let _ = set("options", &input.options.into());
    let _ = set("onProgress", on_progress.as_ref());
    let promise = function
        .call2(&JsValue::NULL, &code.source.as_str().into(), &options)
        .map_err(|error| message_of(&error))?;
    let outcome = JsFuture::from(js_sys::Promise::resolve(&promise))
        .await
        .map_err(|error| message_of(&error))?;
    drop(on_progress);
    let text = js_sys::JSON::stringify(&outcome)
        .ok()
        .and_then(|t| t.as_string())
        .unwrap_or_default();
    let source = code.source.clone();
    let report = match job {
        Job::Check => Report::Check(Rc::new(check_report(&text, source)?)),
        Job::Loop => Report::Loop(Rc::new(loop_report(&text, source)?)),
    };
    Ok(Finished { report, outcome })
}

/// `{phase: "loading", percent}`, or `{phase: "checking" | "running", done}`.
fn phase_of(report: &JsValue) -> Option<RunPhase> {
    let field = |name: &str| js_sys::Reflect::get(report, &name.into()).ok();
    let number = |name: &str| field(name).and_then(|v| v.as_f64()).unwrap_or(0.0);
    match field("phase")?.as_string()?.as_str() {
        "loading" => Some(RunPhase::Loading {
            percent: number("percent").clamp(0.0, 100.0) as u8,
        }),
        "checking" | "running" => Some(RunPhase::Calling {
            done: number("done").max(0.0) as usize,
        }),
        _ => None,
    }
}

/// An error's message, or the value as text.
fn message_of(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the check failed".to_owned())
}

/// The JS API's `CheckResult`, as it serializes (reconcile.d.ts).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Outcome {
    passed: bool,
    total: usize,
    counterexample: Option<Counterexample>,
    #[serde(default)]
    logs: Vec<Log>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Counterexample {
    desired: Json,
    observed: Json,
    finalizers: Option<Json>,
    finalizers_omitted: bool,
    expected: Json,
    actual: Option<Json>,
    error: Option<String>,
    expected_marks: Vec<Mark>,
    actual_marks: Vec<Mark>,
    rule: String,
    notes: Vec<Note>,
}

#[derive(Deserialize)]
struct Note {
    note: EqualityNote,
    text: String,
}

#[derive(Deserialize)]
struct Log {
    index: i64,
    level: String,
    text: String,
}

fn read<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, String> {
    serde_json::from_str(text)
        .map_err(|error| format!("the checker's answer could not be read: {error}"))
}

fn check_report(text: &str, source: String) -> Result<CheckReport, String> {
    let outcome: Outcome = read(text)?;
    let counterexample = outcome.counterexample.map(counterexample_of).transpose()?;
    Ok(CheckReport {
        passed: outcome.passed,
        total: outcome.total,
        counterexample,
        logs: log_lines(outcome.logs),
        source,
    })
}

/// The JS API's `LoopResult` (reconcile.d.ts).
#[derive(Deserialize)]
struct LoopOutcome {
    texts: Option<LoopTexts>,
    error: Option<String>,
    #[serde(default)]
    logs: Vec<Log>,
}

#[derive(Deserialize)]
struct LoopTexts {
    converges: VerdictText,
    idempotence: VerdictText,
    restart: VerdictText,
}

#[derive(Deserialize)]
struct VerdictText {
    holds: bool,
    text: String,
}

fn loop_report(text: &str, source: String) -> Result<LoopReport, String> {
    let outcome: LoopOutcome = read(text)?;
    Ok(LoopReport {
        verdicts: outcome.texts.map_or_else(Vec::new, |texts| {
            [texts.converges, texts.idempotence, texts.restart]
                .into_iter()
                .map(|verdict| (verdict.holds, verdict.text))
                .collect()
        }),
        error: outcome.error,
        logs: log_lines(outcome.logs),
        source,
    })
}

fn log_lines(logs: Vec<Log>) -> Vec<LogLine> {
    logs.into_iter()
        .map(|log| LogLine {
            case: usize::try_from(log.index).ok(),
            level: log.level,
            text: log.text,
        })
        .collect()
}

fn counterexample_of(found: Counterexample) -> Result<CounterexampleReport, String> {
    let actions =
        |list: &Json| parse_actions(&list.to_compact_string()).map_err(|error| error.to_string());
    let finalizers = found
        .finalizers
        .as_ref()
        .map_or_else(|| "null".to_owned(), Json::to_pretty_string);
    Ok(CounterexampleReport {
        documents: [
            found.desired.to_pretty_string(),
            found.observed.to_pretty_string(),
            finalizers,
        ],
        finalizers_omitted: found.finalizers_omitted,
        expected: actions(&found.expected)?,
        actual: found.actual.as_ref().map(actions).transpose()?,
        error: found.error,
        expected_marks: found.expected_marks,
        actual_marks: found.actual_marks,
        rule: found.rule,
        notes: found.notes.into_iter().map(|n| (n.note, n.text)).collect(),
    })
}
