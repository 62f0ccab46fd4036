use std::cell::Cell;
use std::rc::Rc;

use reconcile_content::exercise::LearnerCode;
use wasm_bindgen::JsValue;
use web_sys::AbortController;
use yew::prelude::*;

use crate::learner::{self, Ended, RunInput};
use crate::state::{ExerciseAction, Job};

/// What the pane runs the learner's code with.
pub struct LearnerRun {
    /// Starts a run for a job, with the code and what it needs besides.
    pub run: Callback<(Job, LearnerCode, RunInput)>,
    /// Stops the run under way (the JS API's `signal`), if any.
    pub stop: Callback<()>,
}

/// Runs the learner's code for a job (Check, the loop, a controller's
/// Check) when called, reporting progress and the result to the reducer. A
/// Check's result also goes to `on_checked`, as the JSON text of the JS
/// API's `{passed, total, counterexample}`, and a controller's to
/// `on_controller_checked`: the page sends it on to a course page that
/// embeds it. `stop` aborts the latest run's signal.
#[hook]
pub fn use_learner_run(
    dispatch: Callback<ExerciseAction>,
    on_checked: Callback<String>,
    on_controller_checked: Callback<String>,
) -> LearnerRun {
    let counter = use_mut_ref(|| Cell::new(0u32));
    // The latest run's abort controller: Stop aborts it.
    let latest = use_mut_ref(|| None::<AbortController>);
    let stop = {
        let latest = Rc::clone(&latest);
        use_callback((), move |(), ()| {
            if let Some(controller) = latest.borrow().as_ref() {
                controller.abort();
            }
        })
    };
    let run = use_callback(
        (dispatch, on_checked, on_controller_checked),
        move |(job, code, input): (Job, LearnerCode, RunInput),
              (exercise, on_checked, on_controller_checked)| {
            let Ok(controller) = AbortController::new() else {
                return;
            };
            let signal = controller.signal();
            *latest.borrow_mut() = Some(controller);
            let id = counter.borrow().get() + 1;
            counter.borrow().set(id);
            exercise.emit(ExerciseAction::Started { job, id });
            let progress = {
                let exercise = exercise.clone();
                Rc::new(move |phase| exercise.emit(ExerciseAction::Progress { id, phase }))
            };
            let (exercise, on_checked) = (exercise.clone(), on_checked.clone());
            let on_controller_checked = on_controller_checked.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match learner::run(job, &code, input, progress, signal).await {
                    Ok(finished) => {
                        match job {
                            Job::Check => on_checked.emit(host_report(&finished.outcome)),
                            Job::CheckController => on_controller_checked
                                .emit(controller_host_report(&finished.outcome)),
                            Job::Loop => {}
                        }
                        exercise.emit(ExerciseAction::Finished {
                            id,
                            report: finished.report,
                        });
                    }
                    Err(error) => exercise.emit(match error.ended {
                        Ended::Failed(message) => ExerciseAction::Failed {
                            id,
                            message,
                            logs: error.logs,
                        },
                        Ended::Stopped => ExerciseAction::Stopped {
                            id,
                            logs: error.logs,
                        },
                    }),
                }
            });
        },
    );
    LearnerRun { run, stop }
}

/// The fields of a Check's result an embedding page is sent (not the
/// learner's printed output), as JSON text.
fn host_report(outcome: &JsValue) -> String {
    json_of(&picked(outcome, &["passed", "total", "counterexample"]))
}

/// The fields of a controller check's result an embedding page is sent
/// (`ControllerCheckedMessage` in reconcile.d.ts): not the learner's printed
/// output, nor the record the link already carries.
fn controller_host_report(outcome: &JsValue) -> String {
    let report = picked(
        outcome,
        &[
            "passed",
            "exercise",
            "goal",
            "schedulesExplored",
            "properties",
        ],
    );
    let found = js_sys::Reflect::get(outcome, &"counterexample".into()).unwrap_or(JsValue::NULL);
    let counterexample = if found.is_object() {
        picked(&found, &["property", "detail", "schedule", "story", "link"]).into()
    } else {
        JsValue::NULL
    };
    let _ = js_sys::Reflect::set(&report, &"counterexample".into(), &counterexample);
    json_of(&report)
}

/// A new object with `fields` of `value`.
fn picked(value: &JsValue, fields: &[&str]) -> js_sys::Object {
    let object = js_sys::Object::new();
    for field in fields {
        let member = js_sys::Reflect::get(value, &(*field).into()).unwrap_or(JsValue::NULL);
        let _ = js_sys::Reflect::set(&object, &(*field).into(), &member);
    }
    object
}

fn json_of(value: &JsValue) -> String {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|text| text.as_string())
        .unwrap_or_default()
}
