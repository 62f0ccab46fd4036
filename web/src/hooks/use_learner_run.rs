use std::cell::Cell;
use std::rc::Rc;

use reconcile_content::exercise::LearnerCode;
use wasm_bindgen::JsValue;
use yew::prelude::*;

use crate::embed::{EmbedOptions, MESSAGE_CHECKED};
use crate::learner::{self, RunInput};
use crate::state::{Action, ExerciseAction, Job};

/// Runs the learner's code for a job (Check, or the loop) when called,
/// reporting progress and the result to the reducer. Inside a course page's
/// frame, a Check's result also goes to the page, if its origin is one that
/// `allow=` names.
#[hook]
pub fn use_learner_run(
    options: Rc<EmbedOptions>,
    dispatch: Callback<Action>,
) -> Callback<(Job, LearnerCode, RunInput)> {
    let counter = use_mut_ref(|| Cell::new(0u32));
    use_callback(
        (options, dispatch),
        move |(job, code, input): (Job, LearnerCode, RunInput), (options, dispatch)| {
            let id = counter.borrow().get() + 1;
            counter.borrow().set(id);
            let exercise = dispatch.reform(Action::Exercise);
            exercise.emit(ExerciseAction::Started { job, id });
            let progress = {
                let exercise = exercise.clone();
                Rc::new(move |phase| exercise.emit(ExerciseAction::Progress { id, phase }))
            };
            let options = Rc::clone(options);
            wasm_bindgen_futures::spawn_local(async move {
                match learner::run(job, &code, input, progress).await {
                    Ok(finished) => {
                        if job == Job::Check {
                            report_to_host(&options, &finished.outcome);
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

/// `{type, passed, total, counterexample}` to the embedding page, addressed
/// to each origin `allow=` names: the browser delivers it only to the one the
/// page really has, so no other origin ever reads a learner's result.
fn report_to_host(options: &EmbedOptions, outcome: &JsValue) {
    if !crate::browser::in_frame() {
        return;
    }
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &MESSAGE_CHECKED.into());
    for field in ["passed", "total", "counterexample"] {
        let value = js_sys::Reflect::get(outcome, &field.into()).unwrap_or(JsValue::NULL);
        let _ = js_sys::Reflect::set(&message, &field.into(), &value);
    }
    for origin in options
        .allowed_origins
        .iter()
        .filter(|o| o.as_str() != "null")
    {
        crate::browser::post_to_parent_at(&message, origin);
    }
}
