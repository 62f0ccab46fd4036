//! "Your reconcile": the learner's code, its language, Check, and what the
//! check found. It renders [`ExerciseState`] and emits actions; the check
//! itself runs in the JS API's sandbox (`crate::learner`).

use reconcile_check::Language;
use yew::prelude::*;

use super::code_editor::code_editor;
use super::controller_view::{
    controller_intro, controller_result, controller_status, exercise_picker, stopped_line,
};
use super::counterexample::{counterexample_view, log_view};
use crate::state::{CheckReport, ExerciseAction, ExerciseState, Job, LoopReport, Run, RunPhase};

#[derive(Properties, PartialEq)]
pub struct ExercisePaneProps {
    pub exercise: ExerciseState,
    /// The editors hold a valid scenario, which the check runs first.
    pub scenario_ready: bool,
    pub on_action: Callback<ExerciseAction>,
    /// Runs the code: a Check, or in the loop.
    pub on_run: Callback<Job>,
    /// Stops the run under way (Stop).
    pub on_stop: Callback<()>,
    /// Loads a counterexample's documents into the editors.
    pub on_load: Callback<[String; 3]>,
    /// The Close button, when the pane has one.
    pub on_close: Option<Callback<()>>,
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
    let running = exercise.is_running();
    let source = &exercise.code.source;
    let check = use_node_ref();
    if exercise.code.is_controller() {
        return controller_pane(props, on_language, &check);
    }
    html! {
        <section class="pane exercise-pane" aria-labelledby="exercise-heading">
            { pane_header(props, on_language) }
            <p class="exercise-intro">{ intro(language) }</p>
            { code_editor(&exercise.code, &props.on_action) }
            <div class="exercise-actions">
                // aria-disabled, not disabled, while running: a disabled
                // button would drop the keyboard focus to the page's start.
                <button type="button" class="check-button primary" aria-disabled={running.then_some("true")}
                        ref={check.clone()} onclick={run_unless(running, Job::Check, &props.on_run)}>
                    { if matches!(exercise.check, Run::Running { .. }) { "Checking…" } else { "Check" } }
                </button>
                { stop_button(running, &props.on_stop, &check) }
                <button type="button" class="loop-button"
                        aria-disabled={(running || !props.scenario_ready).then_some("true")}
                        onclick={run_unless(running || !props.scenario_ready, Job::Loop, &props.on_run)}>
                    { if matches!(exercise.in_loop, Run::Running { .. }) { "Running…" } else { "Run in the loop" } }
                </button>
                if !props.scenario_ready {
                    <span class="exercise-note">{ "The editors' scenario has errors: Check uses generated cases only, and the loop needs a scenario." }</span>
                }
            </div>
            <div class="check-status" role="status" aria-live="polite" aria-atomic="true">
                { status_line(&exercise.check, "cases", "check", check_verdict) }
            </div>
            if exercise.check.is_outdated(source) {
                <p class="exercise-note outdated">{ "This result is of an earlier version of your code. Check again to see where it stands." }</p>
            }
            { check_view(&exercise.check, &props.on_load) }
            <div class="loop-status" role="status" aria-live="polite" aria-atomic="true">
                { status_line(&exercise.in_loop, "calls", "run", loop_verdict) }
            </div>
            if exercise.in_loop.is_outdated(source) {
                <p class="exercise-note outdated">{ "These verdicts are of an earlier version of your code." }</p>
            }
            { loop_view(&exercise.in_loop) }
        </section>
    }
}

/// The heading, the exercise and language choices, "Start over" and Close.
fn pane_header(props: &ExercisePaneProps, on_language: Callback<Event>) -> Html {
    let exercise = &props.exercise;
    let (language, running) = (exercise.code.language, exercise.is_running());
    html! {
        <header class="pane-header">
            <h2 id="exercise-heading">{ "Your reconcile" }</h2>
            { exercise_picker(exercise, &props.on_action) }
            <label class="exercise-language">
                { "Language " }
                <select id="exercise-language" onchange={on_language} disabled={running}>
                    { for Language::ALL.iter().map(|l| html! {
                        <option value={l.id()} selected={*l == language}>{ l.title() }</option>
                    }) }
                </select>
            </label>
            { start_over_buttons(exercise, &props.on_action) }
            if let Some(on_close) = &props.on_close {
                <button type="button" class="close-exercise" aria-label="Close Your reconcile"
                        onclick={on_close.reform(|_: MouseEvent| ())}>{ "×" }</button>
            }
        </header>
    }
}

/// The pane on a controller exercise: its goal and hints, the code, Check,
/// and what `checkController` found.
fn controller_pane(
    props: &ExercisePaneProps,
    on_language: Callback<Event>,
    check: &NodeRef,
) -> Html {
    let exercise = &props.exercise;
    let running = exercise.is_running();
    let run = &exercise.controller;
    html! {
        <section class="pane exercise-pane" aria-labelledby="exercise-heading">
            { pane_header(props, on_language) }
            { controller_intro(exercise, &props.on_action) }
            { code_editor(&exercise.code, &props.on_action) }
            <div class="exercise-actions">
                <button type="button" class="check-button primary" aria-disabled={running.then_some("true")}
                        ref={check.clone()} onclick={run_unless(running, Job::CheckController, &props.on_run)}>
                    { if running { "Checking…" } else { "Check" } }
                </button>
                { stop_button(running, &props.on_stop, check) }
            </div>
            <div class="check-status controller-status" role="status" aria-live="polite" aria-atomic="true">
                if matches!(run, Run::Running { .. }) {
                    { status_line(run, "schedules explored", "check", |_| html! {}) }
                } else {
                    { controller_status(run) }
                }
            </div>
            if run.is_outdated(&exercise.code.source) {
                <p class="exercise-note outdated">{ "This result is of an earlier version of your code. Check again to see where it stands." }</p>
            }
            { controller_result(run) }
        </section>
    }
}

/// Stop, while a run is going: stops it and puts the focus back on Check
/// (`check`), which the end of the run leaves in place.
fn stop_button(running: bool, on_stop: &Callback<()>, check: &NodeRef) -> Html {
    if !running {
        return html! {};
    }
    let (on_stop, check) = (on_stop.clone(), check.clone());
    let onclick = Callback::from(move |_: MouseEvent| {
        on_stop.emit(());
        if let Some(button) = check.cast::<web_sys::HtmlElement>() {
            let _ = button.focus();
        }
    });
    html! {
        <button type="button" class="stop-button" {onclick}>{ "Stop" }</button>
    }
}

/// Emits `job` on a click, unless `blocked`.
fn run_unless(blocked: bool, job: Job, on_run: &Callback<Job>) -> Callback<MouseEvent> {
    let on_run = on_run.clone();
    Callback::from(move |_: MouseEvent| {
        if !blocked {
            on_run.emit(job);
        }
    })
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
    let checking = exercise.is_running();
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

/// Where a run stands, in one line; `verdict` words a finished one, and
/// `name` ("check", "run") names a stopped one.
fn status_line<R>(run: &Run<R>, unit: &str, name: &str, verdict: fn(&R) -> Html) -> Html {
    match run {
        Run::NotRun => html! {},
        // Downloaded, Python still has to start (a few seconds): no share to show.
        Run::Running {
            phase: RunPhase::Loading { percent: 100 },
        } => html! {
            <>
                <label for="runtime-progress">{ "Starting Python…" }</label>
                <progress id="runtime-progress"></progress>
            </>
        },
        Run::Running {
            phase: RunPhase::Loading { percent },
        } => html! {
            <>
                <label for="runtime-progress">{ format!("Loading Python… {percent}%") }</label>
                <progress id="runtime-progress" max="100" value={percent.to_string()}></progress>
            </>
        },
        Run::Running {
            phase: RunPhase::Calling { done },
        } => html! { <p>{ format!("Running… {done} {unit} so far.") }</p> },
        Run::Done(report) => verdict(report),
        Run::Failed { message, .. } => html! {
            <p class="verdict failed">{ format!("Your code could not be run: {message}") }</p>
        },
        Run::Stopped { .. } => stopped_line(name),
    }
}

fn check_verdict(report: &CheckReport) -> Html {
    let class = classes!("verdict", if report.passed { "passed" } else { "failed" });
    let text = if report.passed {
        format!(
            "Passed: all {} cases give the contract's actions, in its order.",
            report.total
        )
    } else {
        format!(
            "Failed: a case of the {} run gives other actions than the contract's. Below is the smallest such case.",
            report.total
        )
    };
    html! { <p {class}>{ text }</p> }
}

fn loop_verdict(report: &LoopReport) -> Html {
    if let Some(error) = &report.error {
        return html! { <p class="verdict failed">{ format!("In the loop: {error}") }</p> };
    }
    html! {
        <ul class="loop-verdicts" aria-label="Your reconcile in the loop">
            { for report.verdicts.iter().map(|(holds, text)| html! {
                <li class={classes!("verdict", if *holds { "passed" } else { "failed" })}>{ text }</li>
            }) }
        </ul>
    }
}

fn check_view(check: &Run<CheckReport>, on_load: &Callback<[String; 3]>) -> Html {
    let report = match check {
        Run::Done(report) => report,
        Run::Stopped { logs, .. } => return log_view(logs),
        _ => return html! {},
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

fn loop_view(run: &Run<LoopReport>) -> Html {
    match run {
        Run::Done(report) => log_view(&report.logs),
        Run::Stopped { logs, .. } => log_view(logs),
        _ => html! {},
    }
}
