//! "Your reconcile": the learner's code, its language, Check, and what the
//! check found. It renders [`ExerciseState`] and emits actions; the check
//! itself runs in the JS API's sandbox (`crate::learner`).

use reconcile_check::Language;
use yew::prelude::*;

use super::code_editor::code_editor;
use super::counterexample::{counterexample_view, log_view};
use crate::state::{CheckPhase, CheckReport, CheckStatus, ExerciseAction, ExerciseState};

#[derive(Properties, PartialEq)]
pub struct ExercisePaneProps {
    pub exercise: ExerciseState,
    /// The editors hold a valid scenario, which the check runs first.
    pub scenario_ready: bool,
    pub on_action: Callback<ExerciseAction>,
    pub on_check: Callback<()>,
    /// Loads a counterexample's documents into the editors.
    pub on_load: Callback<[String; 3]>,
    #[prop_or_default]
    pub closable: bool,
}

#[component]
pub fn ExercisePane(props: &ExercisePaneProps) -> Html {
    let exercise = &props.exercise;
    let language = exercise.code.language;
    let on_language = props.on_action.reform(|e: Event| {
        let value = e
            .target_dyn_into::<web_sys::HtmlSelectElement>()
            .map(|select| select.value())
            .unwrap_or_default();
        ExerciseAction::ChooseLanguage(Language::from_id(&value).unwrap_or(Language::Python))
    });
    let on_check = {
        let on_check = props.on_check.clone();
        Callback::from(move |_: MouseEvent| on_check.emit(()))
    };
    let checking = exercise.is_checking();
    html! {
        <section class="pane exercise-pane" aria-labelledby="exercise-heading">
            <header class="pane-header">
                <h2 id="exercise-heading">{ "Your reconcile" }</h2>
                <label class="exercise-language">
                    { "Language " }
                    <select id="exercise-language" onchange={on_language} disabled={checking}>
                        { for Language::ALL.iter().map(|l| html! {
                            <option value={l.id()} selected={*l == language}>{ l.title() }</option>
                        }) }
                    </select>
                </label>
                { start_over_buttons(exercise, &props.on_action) }
                if props.closable {
                    <button type="button" class="close-exercise" aria-label="Close Your reconcile"
                            onclick={props.on_action.reform(|_: MouseEvent| ExerciseAction::Close)}>{ "×" }</button>
                }
            </header>
            <p class="exercise-intro">{ intro(language) }</p>
            { code_editor(&exercise.code, &props.on_action) }
            <div class="exercise-actions">
                <button type="button" class="check-button primary" onclick={on_check} disabled={checking}>
                    { if checking { "Checking…" } else { "Check" } }
                </button>
                if !props.scenario_ready {
                    <span class="exercise-note">{ "The editors' scenario has errors, so only generated cases are checked." }</span>
                }
            </div>
            <div class="check-status" role="status" aria-live="polite" aria-atomic="true">
                { status_line(&exercise.check) }
            </div>
            if exercise.result_is_outdated() {
                <p class="exercise-note outdated">{ "This result is of an earlier version of your code. Check again to see where it stands." }</p>
            }
            { result_view(&exercise.check, &props.on_load) }
        </section>
    }
}

fn intro(language: Language) -> &'static str {
    match language {
        Language::Python => {
            "Write reconcile(desired, observed, finalizers=None) in Python: return a list of \
             (kind, name, spec) tuples, with None as the spec of FINALIZE and DELETE. \
             Check runs it in your browser (real CPython, through Pyodide) on the scenario \
             in the editors and at least 500 generated cases."
        }
        Language::JavaScript => {
            "Write reconcile(desired, observed, finalizers) in JavaScript: return an array of \
             [kind, name, spec] arrays, with null as the spec of FINALIZE and DELETE. \
             Check runs it in your browser, in a sandbox, on the scenario in the editors \
             and at least 500 generated cases."
        }
    }
}

fn start_over_buttons(exercise: &ExerciseState, on_action: &Callback<ExerciseAction>) -> Html {
    let checking = exercise.is_checking();
    html! {
        <>
            if !exercise.code.is_starter() {
                <button type="button" class="start-over" disabled={checking}
                        onclick={on_action.reform(|_: MouseEvent| ExerciseAction::ResetToStarter)}>
                    { "Start over" }
                </button>
            }
            if exercise.replaced.is_some() {
                <button type="button" class="bring-back" disabled={checking}
                        onclick={on_action.reform(|_: MouseEvent| ExerciseAction::BringBack)}>
                    { "Bring back my code" }
                </button>
            }
        </>
    }
}

fn status_line(check: &CheckStatus) -> Html {
    match check {
        CheckStatus::NotRun => html! {},
        CheckStatus::Running {
            phase: CheckPhase::Loading { percent },
        } => html! {
            <>
                <label for="runtime-progress">{ format!("Loading Python… {percent}%") }</label>
                <progress id="runtime-progress" max="100" value={percent.to_string()}></progress>
            </>
        },
        CheckStatus::Running {
            phase: CheckPhase::Checking { done },
        } => html! { <p>{ format!("Checking… {done} cases so far.") }</p> },
        CheckStatus::Done(report) => {
            html! { <p class={verdict_class(report)}>{ verdict(report) }</p> }
        }
        CheckStatus::Failed { message, .. } => html! {
            <p class="verdict failed">{ format!("Your code could not be checked: {message}") }</p>
        },
    }
}

fn verdict_class(report: &CheckReport) -> Classes {
    classes!("verdict", if report.passed { "passed" } else { "failed" })
}

fn verdict(report: &CheckReport) -> String {
    if report.passed {
        format!(
            "Passed: all {} cases give the contract's actions, in its order.",
            report.total
        )
    } else {
        format!(
            "Failed: a case of the {} run gives other actions than the contract's. Below is the smallest such case.",
            report.total
        )
    }
}

fn result_view(check: &CheckStatus, on_load: &Callback<[String; 3]>) -> Html {
    let CheckStatus::Done(report) = check else {
        return html! {};
    };
    html! {
        <>
            if let Some(found) = &report.counterexample {
                { counterexample_view(found, on_load) }
            }
            { log_view(&report.logs) }
        </>
    }
}
