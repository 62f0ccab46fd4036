//! A controller exercise in the pane: the choice of exercise, its goal and
//! hints, and what `checkController` found. The check decides; this only
//! shows its report.

use reconcile_content::controller_exercise::{controller_content, CONTROLLER_EXERCISES};
use reconcile_content::exercise::RECONCILE_EXERCISE;
use yew::prelude::*;

use super::counterexample::log_view;
use crate::state::{
    ControllerCounterexample, ControllerReport, ExerciseAction, ExerciseState, Run,
};

/// The exercise choice: the seed's function, or a controller exercise.
pub fn exercise_picker(exercise: &ExerciseState, on_action: &Callback<ExerciseAction>) -> Html {
    let on_change = on_action.reform(|e: Event| {
        let value = e
            .target_dyn_into::<web_sys::HtmlSelectElement>()
            .map(|select| select.value())
            .unwrap_or_default();
        ExerciseAction::ChooseExercise(value)
    });
    let chosen = exercise.code.exercise.as_str();
    html! {
        <label class="exercise-choice">
            { "Exercise " }
            <select id="exercise-choice" onchange={on_change} disabled={exercise.is_running()}>
                <option value={RECONCILE_EXERCISE} selected={chosen == RECONCILE_EXERCISE}>
                    { "reconcile (a pure function)" }
                </option>
                <optgroup label="Controllers">
                    { for CONTROLLER_EXERCISES.iter().map(|c| html! {
                        <option value={c.name} selected={chosen == c.name}>{ c.name }</option>
                    }) }
                </optgroup>
            </select>
        </label>
    }
}

/// The controller exercise's goal, what to write, and its hints on request.
pub fn controller_intro(exercise: &ExerciseState, on_action: &Callback<ExerciseAction>) -> Html {
    let Some(content) = controller_content(&exercise.code.exercise) else {
        return html! {};
    };
    let hints = content.hints();
    let shown = exercise.hints_shown().min(hints.len());
    html! {
        <div class="controller-intro">
            <p class="controller-goal"><strong>{ "Goal: " }</strong>{ content.goal() }</p>
            <p class="exercise-intro">{ "Write reconcile(request, client), as a real controller does. \
                Check runs it in a sandbox, fault-free and then under fault schedules: \
                crashes, errors, a stale cache. It tells you the first property it broke." }</p>
            if shown > 0 {
                <ol class="controller-hints" aria-label="Hints">
                    { for hints.iter().take(shown).map(|hint| html! { <li>{ hint }</li> }) }
                </ol>
            }
            if shown < hints.len() {
                <button type="button" class="show-hint"
                        onclick={on_action.reform(|_: MouseEvent| ExerciseAction::ShowHint)}>
                    { format!("Show a hint ({} of {})", shown + 1, hints.len()) }
                </button>
            }
        </div>
    }
}

/// Where the controller's Check stands, in one line.
pub fn controller_status(run: &Run<ControllerReport>) -> Html {
    match run {
        Run::Done(report) if report.passed => html! {
            <p class="verdict passed">{ format!(
                "Passed: every property held in {} schedules.", report.schedules_explored) }</p>
        },
        Run::Done(report) => html! {
            <p class="verdict failed">{ format!(
                "Failed: a property broke. Schedules explored: {}.", report.schedules_explored) }</p>
        },
        Run::Failed { message, .. } => html! {
            <p class="verdict failed">{ format!("Your controller could not be checked: {message}") }</p>
        },
        Run::Stopped { .. } => stopped_line("check"),
        _ => html! {},
    }
}

/// What the pane says of a run the learner stopped: not a time limit.
pub fn stopped_line(name: &str) -> Html {
    html! {
        <p class="verdict stopped">{ format!(
            "Stopped: you stopped the {name} before it ended. Your code is as you left it.") }</p>
    }
}

/// The properties, the counterexample, and the output of the code.
pub fn controller_result(run: &Run<ControllerReport>) -> Html {
    match run {
        Run::Done(report) => html! {
            <>
                <ul class="controller-properties" aria-label="Properties">
                    { for report.properties.iter().map(|p| html! {
                        <li class={classes!("verdict", if p.held { "passed" } else { "failed" })}>
                            <strong>{ &p.name }</strong>
                            { if p.held { ": held".to_owned() } else { format!(": broken. {}", p.detail) } }
                        </li>
                    }) }
                </ul>
                if let Some(found) = &report.counterexample {
                    { counterexample(found) }
                }
                { log_view(&report.logs) }
            </>
        },
        Run::Failed { logs, .. } | Run::Stopped { logs, .. } => log_view(logs),
        _ => html! {},
    }
}

fn counterexample(found: &ControllerCounterexample) -> Html {
    let schedule = if found.schedule.is_empty() {
        "no faults: the fault-free run".to_owned()
    } else {
        found
            .schedule
            .iter()
            // `at` counts requests from 0; the story (and a learner) from 1.
            .map(|(at, fault)| format!("{fault} at request {}", at + 1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    html! {
        <section class="controller-counterexample" aria-label="Counterexample">
            <h3>{ format!("Broken: {}", found.property) }</h3>
            <p class="controller-detail">{ &found.detail }</p>
            <p class="controller-schedule"><strong>{ "Schedule: " }</strong>{ schedule }</p>
            if !found.story.is_empty() {
                <ol class="controller-story" aria-label="What happened">
                    { for found.story.iter().map(|line| html! { <li>{ line }</li> }) }
                </ol>
            }
            if let Some(href) = found.link.as_deref().and_then(page_link) {
                <a class="open-in-simulation" {href} target="_blank" rel="noopener">
                    { "Open in the simulation" }
                </a>
            } else {
                <p class="exercise-note">{ "This browser cannot make the replay's link." }</p>
            }
        </section>
    }
}

/// The playground page's address, without its query (an embed's), with `hash`.
fn page_link(hash: &str) -> Option<String> {
    let base = gloo::utils::document().base_uri().ok().flatten()?;
    let url = web_sys::Url::new(&base).ok()?;
    url.set_search("");
    url.set_hash(hash);
    Some(url.href())
}
