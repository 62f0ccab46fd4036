//! The bridge to the JS API's `check`, `checkLoop` and `checkController`
//! (`pkg/reconcile.js`), for the "Your reconcile" pane. The API, its checker
//! module and the sandbox load on the first Check, never with the page. This
//! module only converts: the checker decides, and core's reader reads what
//! it reports.

use std::rc::Rc;

use reconcile_check::{EqualityNote, Mark};
use reconcile_content::exercise::LearnerCode;
use reconcile_core::json::Json;
use reconcile_core::{parse_json, Document};
use serde::de::value::StrDeserializer;
use serde::de::{DeserializeOwned, IntoDeserializer};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::state::{
    ActionText, CheckReport, ControllerCounterexample, ControllerReport, CounterexampleReport, Job,
    LogLine, LoopReport, PropertyLine, Report, RunPhase,
};

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

/// Why a run ended without a report, and what the code printed until then.
pub struct RunError {
    pub ended: Ended,
    pub logs: Vec<LogLine>,
}

/// How a run ended without a report.
pub enum Ended {
    /// It could not be run, or was stopped by a time limit: a sentence.
    Failed(String),
    /// The learner stopped it: the JS API rejected with an "AbortError".
    Stopped,
}

impl From<String> for RunError {
    fn from(message: String) -> Self {
        Self {
            ended: Ended::Failed(message),
            logs: Vec::new(),
        }
    }
}

/// What a run needs besides the code.
pub struct RunInput {
    /// The editors' documents as a scenario's JSON text, when they are valid.
    pub scenario: Option<String>,
    /// The simulation's settings as JSON text (for the loop).
    pub options: String,
}

/// Runs `code` for `job`: a Check against the contract (`check`), the loop
/// (`checkLoop`), or a controller exercise's check (`checkController`).
/// `progress` hears what it is doing; aborting `signal` stops it. Errs with
/// a sentence, and what the code printed, when the code cannot be run at
/// all, and with [`Ended::Stopped`] when `signal` stopped it.
pub async fn run(
    job: Job,
    code: &LearnerCode,
    input: RunInput,
    progress: Rc<dyn Fn(RunPhase)>,
    signal: web_sys::AbortSignal,
) -> Result<Finished, RunError> {
    let api = JsFuture::from(load_api(&api_url()))
        .await
        .map_err(|error| format!("the checker could not be loaded: {}", message_of(&error)))?;
    let name = match job {
        Job::Check => "check",
        Job::Loop => "checkLoop",
        Job::CheckController => "checkController",
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
    if job == Job::CheckController {
        // The exercise's own settings: the page's simulation settings are not its.
        let _ = set("exercise", &code.exercise.as_str().into());
    } else {
        let _ = set(
            "scenario",
            &input.scenario.map_or(JsValue::NULL, JsValue::from),
        );
        let _ = set("options", &input.options.into());
    }
    let _ = set("onProgress", on_progress.as_ref());
    let _ = set("signal", &signal);
    let promise = function
        .call2(&JsValue::NULL, &code.source.as_str().into(), &options)
        .map_err(|error| run_error(&error, job))?;
    let outcome = JsFuture::from(js_sys::Promise::resolve(&promise))
        .await
        .map_err(|error| run_error(&error, job))?;
    drop(on_progress);
    let text = js_sys::JSON::stringify(&outcome)
        .ok()
        .and_then(|t| t.as_string())
        .unwrap_or_default();
    // Core's JSON reader, which the page links anyway, rather than serde
    // derives: those would add a reader per struct to the page's first load.
    let source = code.source.clone();
    let report = match job {
        Job::Check => Report::Check(Rc::new(check_report(&text, source)?)),
        Job::Loop => Report::Loop(Rc::new(loop_report(&text, source)?)),
        Job::CheckController => Report::Controller(Rc::new(controller_report(&text, source)?)),
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
            done: number("done").max(number("explored")).max(0.0) as usize,
        }),
        _ => None,
    }
}

/// A rejection's message, or that the learner stopped it (an
/// "AbortError"), and the `logs` it carries, in `job`'s shape.
fn run_error(error: &JsValue, job: Job) -> RunError {
    let logs = js_sys::Reflect::get(error, &"logs".into())
        .ok()
        .filter(|logs| logs.is_object())
        .and_then(|logs| js_sys::JSON::stringify(&logs).ok()?.as_string())
        .and_then(|text| read(&text).ok())
        .map(|logs| {
            let logs = logs.as_array().unwrap_or_default();
            match job {
                Job::CheckController => controller_logs(logs),
                Job::Check | Job::Loop => log_lines(logs),
            }
        })
        .unwrap_or_default();
    let name = js_sys::Reflect::get(error, &"name".into()).ok();
    let ended = if name.and_then(|name| name.as_string()).as_deref() == Some("AbortError") {
        Ended::Stopped
    } else {
        Ended::Failed(message_of(error))
    };
    RunError { ended, logs }
}

/// An error's message, or the value as text.
fn message_of(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the check failed".to_owned())
}

fn read(text: &str) -> Result<Json, String> {
    parse_json(Document::Scenario, text)
        .map_err(|error| format!("the checker's answer could not be read: {error}"))
}

/// A member that is there and not `null`.
fn member<'a>(value: &'a Json, name: &str) -> Option<&'a Json> {
    value.get(name).filter(|member| **member != Json::Null)
}

fn text_of(value: &Json, name: &str) -> Option<String> {
    member(value, name)
        .and_then(Json::as_str)
        .map(str::to_owned)
}

fn number_of(value: &Json, name: &str) -> f64 {
    match member(value, name) {
        Some(Json::Number(number)) => number.as_f64(),
        _ => 0.0,
    }
}

fn items<'a>(value: &'a Json, name: &str) -> &'a [Json] {
    member(value, name)
        .and_then(Json::as_array)
        .unwrap_or_default()
}

/// A string naming a variant of `T` (`"missing"` for [`Mark::Missing`]), read
/// by `T`'s own serde names.
fn named<T: DeserializeOwned>(value: &Json) -> Option<T> {
    let name: StrDeserializer<'_, serde::de::value::Error> = value.as_str()?.into_deserializer();
    T::deserialize(name).ok()
}

fn check_report(text: &str, source: String) -> Result<CheckReport, String> {
    let outcome = read(text)?;
    let counterexample = member(&outcome, "counterexample")
        .map(counterexample_of)
        .transpose()?;
    Ok(CheckReport {
        passed: member(&outcome, "passed") == Some(&Json::Bool(true)),
        total: number_of(&outcome, "total") as usize,
        counterexample,
        logs: log_lines(items(&outcome, "logs")),
        source,
    })
}

fn loop_report(text: &str, source: String) -> Result<LoopReport, String> {
    let outcome = read(text)?;
    let verdicts = member(&outcome, "texts").map_or_else(Vec::new, |texts| {
        ["converges", "idempotence", "restart"]
            .iter()
            .filter_map(|name| member(texts, name))
            .map(|verdict| {
                let holds = member(verdict, "holds") == Some(&Json::Bool(true));
                (holds, text_of(verdict, "text").unwrap_or_default())
            })
            .collect()
    });
    Ok(LoopReport {
        verdicts,
        error: text_of(&outcome, "error"),
        logs: log_lines(items(&outcome, "logs")),
        source,
    })
}

/// `check`'s and `checkLoop`'s logs, `{index, level, text}`.
fn log_lines(logs: &[Json]) -> Vec<LogLine> {
    logs.iter()
        .map(|log| LogLine {
            case: usize::try_from(number_of(log, "index") as i64).ok(),
            level: text_of(log, "level").unwrap_or_default(),
            text: text_of(log, "text").unwrap_or_default(),
        })
        .collect()
}

fn controller_report(text: &str, source: String) -> Result<ControllerReport, String> {
    let outcome = read(text)?;
    let properties = items(&outcome, "properties")
        .iter()
        .map(|property| PropertyLine {
            name: text_of(property, "name").unwrap_or_default(),
            held: member(property, "held") == Some(&Json::Bool(true)),
            detail: text_of(property, "detail").unwrap_or_default(),
        })
        .collect();
    let counterexample = member(&outcome, "counterexample").map(|found| ControllerCounterexample {
        property: text_of(found, "property").unwrap_or_default(),
        detail: text_of(found, "detail").unwrap_or_default(),
        schedule: items(found, "schedule")
            .iter()
            .map(|placed| {
                let at = number_of(placed, "at").max(0.0) as usize;
                (at, text_of(placed, "fault").unwrap_or_default())
            })
            .collect(),
        story: items(found, "story")
            .iter()
            .filter_map(|line| line.as_str().map(str::to_owned))
            .collect(),
        link: text_of(found, "link"),
    });
    Ok(ControllerReport {
        passed: member(&outcome, "passed") == Some(&Json::Bool(true)),
        schedules_explored: number_of(&outcome, "schedulesExplored") as usize,
        properties,
        counterexample,
        logs: controller_logs(items(&outcome, "logs")),
        source,
    })
}

/// `checkController`'s logs, `{schedule, level, text}`, each line saying
/// its schedule (0 is the fault-free run, -1 the module's first import).
fn controller_logs(logs: &[Json]) -> Vec<LogLine> {
    logs.iter()
        .map(|log| {
            let text = text_of(log, "text").unwrap_or_default();
            let text = match number_of(log, "schedule") as i64 {
                ..0 => format!("[import] {text}"),
                0 => format!("[fault-free run] {text}"),
                schedule => format!("[schedule {schedule}] {text}"),
            };
            LogLine {
                case: None,
                level: text_of(log, "level").unwrap_or_default(),
                text,
            }
        })
        .collect()
}

fn counterexample_of(found: &Json) -> Result<CounterexampleReport, String> {
    // The checker's lists are `[kind, name, spec]` triples; they are shown as
    // written (`CREATE a {"x":1}`), so no second reading of them is needed.
    let actions = |name: &str| {
        member(found, name).map(|list| {
            list.as_array()
                .unwrap_or_default()
                .iter()
                .map(|action| {
                    let parts: Vec<String> = action
                        .as_array()
                        .unwrap_or_default()
                        .iter()
                        .map(|part| {
                            part.as_str()
                                .map_or_else(|| part.to_compact_string(), str::to_owned)
                        })
                        .collect();
                    ActionText(parts.join(" "))
                })
                .collect::<Vec<_>>()
        })
    };
    let document =
        |name: &str| member(found, name).map_or_else(|| "null".to_owned(), Json::to_pretty_string);
    let marks = |name: &str| {
        items(found, name)
            .iter()
            .filter_map(named::<Mark>)
            .collect()
    };
    Ok(CounterexampleReport {
        documents: [
            document("desired"),
            document("observed"),
            document("finalizers"),
        ],
        finalizers_omitted: member(found, "finalizersOmitted") == Some(&Json::Bool(true)),
        expected: actions("expected").unwrap_or_default(),
        actual: actions("actual"),
        error: text_of(found, "error"),
        expected_marks: marks("expectedMarks"),
        actual_marks: marks("actualMarks"),
        rule: text_of(found, "rule").unwrap_or_default(),
        notes: items(found, "notes")
            .iter()
            .filter_map(|note| {
                let kind = named::<EqualityNote>(member(note, "note")?)?;
                Some((kind, text_of(note, "text").unwrap_or_default()))
            })
            .collect(),
    })
}
