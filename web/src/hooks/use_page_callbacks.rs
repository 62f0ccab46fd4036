//! Stable callbacks (made once), so memoized children are not re-rendered
//! just because a new closure was created.

use reconcile_core::{Document, Format};
use yew::prelude::*;

use crate::state::{Action, LessonAction, Playground, SimAction, YamlAction};

/// What the editors, the simulation and the lesson panel send the reducer.
#[derive(Clone)]
pub struct PageCallbacks {
    pub on_edit: Callback<(Document, String)>,
    pub on_switch: Callback<(Document, Format)>,
    pub on_sim_action: Callback<SimAction>,
    pub on_lesson: Callback<LessonAction>,
}

#[hook]
pub fn use_page_callbacks(
    state: &UseReducerHandle<Playground>,
    panic_on_edit: bool,
) -> PageCallbacks {
    let on_edit = {
        let dispatcher = state.dispatcher();
        use_callback((), move |(document, text): (Document, String), ()| {
            if panic_on_edit {
                panic!("deliberate panic on edit, requested with ?debug=panic");
            }
            dispatcher.dispatch(Action::Edit { document, text });
        })
    };
    let on_switch = {
        let dispatcher = state.dispatcher();
        use_callback((), move |(document, format): (Document, Format), ()| {
            dispatcher.dispatch(Action::Yaml(YamlAction::Switch(document, format)))
        })
    };
    let on_sim_action = {
        let dispatcher = state.dispatcher();
        use_callback((), move |action: SimAction, ()| {
            dispatcher.dispatch(Action::Sim(action))
        })
    };
    let on_lesson = {
        let dispatcher = state.dispatcher();
        use_callback((), move |action: LessonAction, ()| {
            dispatcher.dispatch(Action::Lesson(action))
        })
    };
    PageCallbacks {
        on_edit,
        on_switch,
        on_sim_action,
        on_lesson,
    }
}
