//! The pane's root: its state, kept in step with what the page gives it
//! ([`PaneInput`]) and tells the page what it needs to know ([`PaneEvent`]).

use reconcile_content::exercise::LearnerCode;
use reconcile_protocol::pane::{PaneEvent, PaneInput};
use yew::prelude::*;

use crate::components::ExercisePane;
use crate::hooks::use_learner_run;
use crate::learner::RunInput;
use crate::state::{ExerciseState, Job};

#[derive(Properties, PartialEq)]
pub struct PaneProps {
    pub input: PaneInput,
    /// Everything the page hears from the pane goes through this one callback.
    pub events: Callback<PaneEvent>,
}

#[component]
pub fn PaneApp(props: &PaneProps) -> Html {
    let input = &props.input;
    let state = {
        let (code, code_revision) = (asked_code(input), input.code_revision);
        use_reducer(move || ExerciseState {
            code_revision,
            ..ExerciseState::new(code)
        })
    };
    let dispatch = {
        let dispatcher = state.dispatcher();
        Callback::from(move |action| dispatcher.dispatch(action))
    };
    use_page_code(input, &dispatch);
    use_report_edits(&state, &input.code, &props.events);
    let on_checked = props.events.reform(|report| PaneEvent::Checked { report });
    let on_controller_checked = props
        .events
        .reform(|report| PaneEvent::ControllerChecked { report });
    let learner_run = use_learner_run(dispatch.clone(), on_checked, on_controller_checked);

    let on_stop = learner_run.stop;
    let on_run = {
        let (on_run, code) = (learner_run.run, state.code.clone());
        let (scenario, options) = (input.scenario.clone(), input.options.clone());
        Callback::from(move |job: Job| {
            let input = RunInput {
                scenario: scenario.clone(),
                options: options.clone(),
            };
            on_run.emit((job, code.clone(), input));
        })
    };
    let on_load = props
        .events
        .reform(|documents| PaneEvent::LoadDocuments { documents });
    let on_close = input
        .closable
        .then(|| props.events.reform(|()| PaneEvent::Close));
    html! {
        <ExercisePane exercise={(*state).clone()} scenario_ready={input.scenario.is_some()}
            on_action={dispatch} {on_run} {on_stop} {on_load} {on_close} />
    }
}

/// The page's code, switched to the exercise and language the address asks
/// for (`?exercise=`, `?lang=`). Done here, once, when the pane mounts: the
/// page links none of the exercises' starters.
fn asked_code(input: &PaneInput) -> LearnerCode {
    let mut code = input.code.clone();
    if let Some(exercise) = &input.asked_exercise {
        code = code.switched_to_exercise(exercise);
    }
    if let Some(language) = input.asked_language {
        code = code.switched_to(language);
    }
    code
}

/// Takes the page's code when the page replaced it (a new `code_revision`).
#[hook]
fn use_page_code(input: &PaneInput, dispatch: &Callback<crate::state::ExerciseAction>) {
    let (code, dispatch) = (input.code.clone(), dispatch.clone());
    use_effect_with(input.code_revision, move |revision| {
        dispatch.emit(crate::state::ExerciseAction::Replace {
            code,
            revision: *revision,
        });
    });
}

/// Tells the page each change of the code, once. Compared with what was last
/// sent rather than with the page's copy, which may lag a keystroke behind;
/// the code the page itself put here comes back once, which changes nothing
/// there. The first sent is the page's, so a switch to the address's
/// exercise reaches the page.
#[hook]
fn use_report_edits(state: &ExerciseState, page_code: &LearnerCode, events: &Callback<PaneEvent>) {
    let sent = use_mut_ref(|| page_code.clone());
    let events = events.clone();
    use_effect_with(state.code.clone(), move |code| {
        if *sent.borrow() != *code {
            *sent.borrow_mut() = code.clone();
            events.emit(PaneEvent::Edited { code: code.clone() });
        }
    });
}
