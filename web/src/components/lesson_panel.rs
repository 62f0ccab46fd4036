//! The lesson side panel: the step's text and task, its exercise, and the
//! feedback; the panel while the lesson's file is fetched; the lesson menu;
//! the invitation to start with lesson 1. The menu, the invitation and the
//! way on to the next lesson read the lessons' index, compiled in; a
//! lesson's text comes with its file.

use reconcile_content::lesson::{Exercise, ExerciseKind, Feedback};
use reconcile_content::lesson_index::{self, LessonEntry, LESSON_INDEX};
use reconcile_content::progress::{LessonProgress, Progress};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::hooks::use_answer_in_view;
use crate::state::{LessonAction, LessonLoad, LessonState};

/// " ✓" when every exercise was answered, " (step k of n)" when started.
fn progress_mark(saved: Option<&LessonProgress>, lesson: &LessonEntry) -> String {
    match saved {
        Some(saved) if saved.is_complete(lesson) => " ✓".to_owned(),
        Some(saved) => format!(" (step {} of {})", saved.reached + 1, lesson.steps()),
        None => String::new(),
    }
}

/// The "Lessons" menu: opens a lesson at its first step.
/// Opening a lesson resumes at the furthest step reached before.
pub fn lesson_menu(
    current: Option<&str>,
    progress: &Progress,
    on_action: &Callback<LessonAction>,
) -> Html {
    let saved = progress.clone();
    let onchange = on_action.reform(move |e: Event| {
        let id = e.target_unchecked_into::<HtmlSelectElement>().value();
        if id.is_empty() {
            LessonAction::Close
        } else {
            let step = saved.get(&id).map_or(0, |p| p.reached);
            LessonAction::Open { id, step }
        }
    });
    html! {
        <label class="lesson-menu">
            { "Lesson " }
            <select {onchange} aria-label="Lesson">
                <option value="" selected={current.is_none()}>{ "None (free play)" }</option>
                { for LESSON_INDEX.iter().enumerate().map(|(i, lesson)| html! {
                    <option value={lesson.id} selected={current == Some(lesson.id)}>
                        { format!("{}. {}{}", i + 1, lesson.title, progress_mark(progress.get(lesson.id), lesson)) }
                    </option>
                }) }
            </select>
        </label>
    }
}

/// For a newcomer: where to begin, one button beside the lesson menu.
pub fn lesson_invite(on_action: &Callback<LessonAction>) -> Html {
    let Some(first) = LESSON_INDEX.first() else {
        return Html::default();
    };
    let id = first.id;
    html! {
        <button type="button" class="lesson-invite" title={format!("Lesson 1: {}", first.title)}
                onclick={on_action.reform(move |_| LessonAction::Open { id: id.to_owned(), step: 0 })}>
            { "New here? Start with lesson 1" }
        </button>
    }
}

/// The panel while the lesson's file is fetched, in the place and with the
/// header the lesson will have (its title and step from the index): "Loading
/// lesson…", shown only if the file takes a moment (main.css), or why it
/// failed, with Try again.
pub fn lesson_loading(load: &LessonLoad, on: &Callback<LessonAction>) -> Html {
    let entry = load.entry;
    html! {
        <aside class="pane lesson-panel" aria-labelledby="lesson-title" aria-busy={load.failed.is_none().to_string()}>
            <header class="pane-header">
                <h2 id="lesson-title">{ entry.title }</h2>
                <button type="button" onclick={on.reform(|_| LessonAction::Close)} aria-label="Close the lesson">{ "✕" }</button>
            </header>
            <p class="lesson-progress">{ format!("Step {} of {}", load.step + 1, entry.steps()) }</p>
            if let Some(error) = &load.failed {
                <div class="lesson-load-error" role="alert">
                    <p>{ format!("The lesson could not be loaded: {error}") }</p>
                    <button type="button" class="primary" onclick={on.reform(|_| LessonAction::Refetch)}>{ "Try again" }</button>
                </div>
            } else {
                <p class="lesson-loading" role="status">{ "Loading lesson…" }</p>
            }
        </aside>
    }
}

#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    pub lesson: LessonState,
    /// What earlier visits saved for this lesson.
    pub saved: Option<LessonProgress>,
    pub on_action: Callback<LessonAction>,
}

#[component]
pub fn LessonPanel(props: &LessonPanelProps) -> Html {
    let state = &props.lesson;
    let lesson = &state.lesson;
    let total = lesson.steps.len();
    let (feedback, revealed) = state
        .feedback()
        .map_or((None, false), |(f, revealed)| (Some(f.clone()), revealed));
    let nav = use_answer_in_view(revealed);
    let Some(step) = lesson.steps.get(state.step) else {
        return Html::default();
    };
    let on = &props.on_action;
    let previous = state.step.checked_sub(1);
    let next = (state.step + 1 < total).then_some(state.step + 1);
    html! {
        <aside class="pane lesson-panel" aria-labelledby="lesson-title">
            <header class="pane-header">
                <h2 id="lesson-title">{ &lesson.title }</h2>
                <button type="button" onclick={on.reform(|_| LessonAction::Close)} aria-label="Close the lesson">{ "✕" }</button>
            </header>
            <p class="lesson-progress">{ format!("Step {} of {total}", state.step + 1) }</p>
            <p class="lesson-text">{ &step.text }</p>
            if let Some(task) = &step.task {
                <p class="lesson-task"><strong>{ "Try it: " }</strong>{ task }</p>
            }
            if let Some(exercise) = &step.exercise {
                <ExerciseView key={state.step} exercise={exercise.clone()} picked={state.picked.clone()}
                              {feedback} {revealed} explanation={step.explanation.clone()} on_action={on.clone()} />
            }
            <nav class="lesson-nav" aria-label="Lesson steps" ref={nav}>
                <button type="button" disabled={previous.is_none()}
                        onclick={on.reform(move |_| LessonAction::GoTo(previous.unwrap_or(0)))}>{ "← Previous" }</button>
                <button type="button" class="primary" disabled={next.is_none()}
                        onclick={on.reform(move |_| LessonAction::GoTo(next.unwrap_or(0)))}>{ "Next →" }</button>
            </nav>
            if next.is_none() {
                { lesson_end(state, props.saved.as_ref(), on) }
            }
        </aside>
    }
}

/// The last step: whether every exercise was answered, and the way on.
fn lesson_end(
    state: &LessonState,
    saved: Option<&LessonProgress>,
    on: &Callback<LessonAction>,
) -> Html {
    let lesson = &state.lesson;
    let mut progress = saved.cloned().unwrap_or_default();
    progress.merge(state.step, &state.answered);
    let unanswered = lesson_index::find(&lesson.id)
        .map(|(_, entry)| progress.unanswered(entry))
        .unwrap_or_default();
    let following = lesson_index::following(&lesson.id);
    html! {
        <div class="lesson-end">
            if unanswered.is_empty() {
                <p>{ "✓ Lesson done: every exercise answered." }</p>
            } else {
                <p>{ format!("Not done yet: the exercise of step {} is unanswered.",
                     unanswered.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")) }</p>
            }
            if let Some((number, following)) = following {
                <button type="button" class="primary"
                        onclick={{ let id = following.id; on.reform(move |_| LessonAction::Open { id: id.to_owned(), step: 0 }) }}>
                    { format!("Next lesson: {number}. {} →", following.title) }
                </button>
            } else {
                <p>{ "That was the last lesson." }</p>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ExerciseProps {
    exercise: Exercise,
    picked: Vec<String>,
    feedback: Option<Feedback>,
    /// The whole feedback shows; otherwise only its hint.
    revealed: bool,
    /// Shown with the revealed answer.
    explanation: Option<String>,
    on_action: Callback<LessonAction>,
}

#[component]
fn ExerciseView(props: &ExerciseProps) -> Html {
    let on = &props.on_action;
    let passes = use_state(String::new);
    let choice = use_state(|| None::<usize>);
    let exercise = &props.exercise;
    let answered = props.revealed;
    let body = match exercise.kind {
        ExerciseKind::Actions => action_picker(
            exercise,
            &props.picked,
            answered,
            on,
            LessonAction::CheckActions,
        ),
        ExerciseKind::PassActions => action_picker(
            exercise,
            &props.picked,
            answered,
            on,
            LessonAction::CheckPassActions,
        ),
        ExerciseKind::Passes => {
            let oninput = {
                let passes = passes.clone();
                Callback::from(move |e: InputEvent| {
                    passes.set(e.target_unchecked_into::<HtmlInputElement>().value())
                })
            };
            let guess = passes.trim().parse::<usize>().ok();
            html! {
                <div class="row">
                    <label>{ "Passes: " }
                        <input type="number" min="1" max="100" class="narrow" value={(*passes).clone()} {oninput}
                               aria-label="Your prediction: number of passes" disabled={answered} />
                    </label>
                    <button type="button" class="primary" disabled={answered || guess.is_none()}
                            onclick={on.reform(move |_| LessonAction::CheckPasses(guess.unwrap_or(0)))}>{ "Check" }</button>
                </div>
            }
        }
        ExerciseKind::Choice => html! {
            <>
                <fieldset class="choices">
                    <legend class="visually-hidden">{ &exercise.prompt }</legend>
                    { for exercise.choices.iter().enumerate().map(|(i, item)| {
                        let choice = choice.clone();
                        html! {
                            <label class="check">
                                <input type="radio" name="lesson-choice" checked={*choice == Some(i)} disabled={answered}
                                       onchange={Callback::from(move |_| choice.set(Some(i)))} />
                                { " " }{ &item.text }
                            </label>
                        }
                    }) }
                </fieldset>
                <button type="button" class="primary" disabled={answered || choice.is_none()}
                        onclick={{ let picked = *choice; on.reform(move |_| LessonAction::CheckChoice(picked.unwrap_or(usize::MAX))) }}>
                    { "Check" }
                </button>
            </>
        },
    };
    html! {
        <section class="exercise" aria-label="Your prediction">
            <p class="exercise-prompt"><strong>{ "Predict: " }</strong>{ &exercise.prompt }</p>
            { body }
            if let Some(feedback) = &props.feedback {
                { feedback_view(feedback, props.revealed, props.explanation.as_deref(), on) }
                if props.revealed {
                    { reveal_link(exercise.kind) }
                }
            }
        </section>
    }
}

/// A first wrong answer shows its hint and a way to give up; a revealed
/// one shows the answer, why, and the step's explanation.
fn feedback_view(
    feedback: &Feedback,
    revealed: bool,
    explanation: Option<&str>,
    on: &Callback<LessonAction>,
) -> Html {
    if !revealed {
        return html! {
            <div class="feedback wrong" role="status">
                <p><span aria-hidden="true">{ "✗ " }</span>{ &feedback.hint }</p>
                <p>{ "Try once more." }</p>
                <button type="button" onclick={on.reform(|_| LessonAction::ShowAnswer)}>{ "Show the answer" }</button>
            </div>
        };
    }
    html! {
        <div class={classes!("feedback", if feedback.correct { "right" } else { "wrong" })} role="status">
            <p><span aria-hidden="true">{ if feedback.correct { "✓ " } else { "✗ " } }</span>{ &feedback.headline }</p>
            if !feedback.details.is_empty() {
                <ul>{ for feedback.details.iter().map(|d| html! { <li>{ d }</li> }) }</ul>
            }
            if let Some(explanation) = explanation {
                <p class="explanation">{ explanation }</p>
            }
        </div>
    }
}

/// What the answer revealed, one tap away: on a phone it is far below the
/// panel, and scrolling there on Check would take the feedback and Next
/// out of view.
fn reveal_link(kind: ExerciseKind) -> Html {
    let (target, what) = if kind.conceals_plan() {
        ("plan-heading", "See the plan")
    } else if kind.conceals_simulation() {
        ("sim-heading", "See the simulation")
    } else {
        return Html::default();
    };
    let onclick = Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        crate::browser::focus_element(target);
    });
    html! {
        <a class="reveal-link" href={format!("#{target}")} {onclick}>
            { what }<span aria-hidden="true">{ " ↓" }</span>
        </a>
    }
}

/// Pick actions in order, then check them: for `actions` (the plan) and
/// `pass-actions` (one pass of the simulation).
fn action_picker(
    exercise: &Exercise,
    picked: &[String],
    answered: bool,
    on: &Callback<LessonAction>,
    check: LessonAction,
) -> Html {
    html! {
        <>
            <div class="pick-options" role="group" aria-label="Actions to choose from">
                { for exercise.options.iter().map(|option| {
                    let chosen = picked.contains(option);
                    let value = option.clone();
                    html! {
                        <button type="button" aria-pressed={chosen.to_string()} disabled={answered}
                                onclick={on.reform(move |_| LessonAction::Pick(value.clone()))}>{ option }</button>
                    }
                }) }
            </div>
            <p class="picked" aria-live="polite">
                { "Your answer, in order: " }
                <strong>{ if picked.is_empty() { "(nothing yet: nothing to do)".to_owned() } else { picked.join(", ") } }</strong>
            </p>
            <div class="row">
                <button type="button" onclick={on.reform(|_| LessonAction::ClearPicks)}>{ "Start over" }</button>
                <button type="button" class="primary" disabled={answered}
                        onclick={on.reform(move |_| check.clone())}>{ "Check" }</button>
            </div>
        </>
    }
}
