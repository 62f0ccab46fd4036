use std::cell::Cell;
use std::rc::Rc;

use reconcile_content::exercise::LearnerCode;
use wasm_bindgen::JsValue;
use yew::prelude::*;

use crate::learner::{self, RunInput};
use crate::state::{ExerciseAction, Job};

/// Runs the learner's code for a job (Check, or the loop) when called,
/// reporting progress and the result to the reducer. A Check's result also
/// goes to `on_checked`, as the JSON text of the JS API's `{passed, total,
/// counterexample}`: the page sends it on to a course page that embeds it.
#[hook]
pub fn use_learner_run(
    dispatch: Callback<ExerciseAction>,
    on_checked: Callback<String>,
) -> Callback<(Job, LearnerCode, RunInput)> {
    let counter = use_mut_ref(|| Cell::new(0u32));
    use_callback(
        (dispatch, on_checked),
        move |(job, code, input): (Job, LearnerCode, RunInput), (exercise, on_checked)| {
            let id = counter.borrow().get() + 1;
            counter.borrow().set(id);
            exercise.emit(ExerciseAction::Started { job, id });
            let progress = {
                let exercise = exercise.clone();
                Rc::new(move |phase| exercise.emit(ExerciseAction::Progress { id, phase }))
            };
            let (exercise, on_checked) = (exercise.clone(), on_checked.clone());
            wasm_bindgen_futures::spawn_local(async move {
                match learner::run(job, &code, input, progress).await {
                    Ok(finished) => {
                        if job == Job::Check {
                            on_checked.emit(host_report(&finished.outcome));
                        }
                        exercise.emit(ExerciseAction::Finished {
                            id,
                            report: finished.report,
                        });
                    }
                    Err(message) => exercise.emit(ExerciseAction::Failed { id, message }),
                }
            });
        },
    )
}

/// The fields of a Check's result an embedding page is sent (not the
/// learner's printed output), as JSON text.
fn host_report(outcome: &JsValue) -> String {
    let report = js_sys::Object::new();
    for field in ["passed", "total", "counterexample"] {
        let value = js_sys::Reflect::get(outcome, &field.into()).unwrap_or(JsValue::NULL);
        let _ = js_sys::Reflect::set(&report, &field.into(), &value);
    }
    js_sys::JSON::stringify(&report)
        .ok()
        .and_then(|text| text.as_string())
        .unwrap_or_default()
}
