use std::rc::Rc;

use reconcile_content::pane::{PaneEvent, PaneInput};
use reconcile_core::export_scenario;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::pane::{self, MountedPane};
use crate::shared::Shared;
use crate::state::Playground;

/// Where the pane's module stands.
#[derive(Debug, Clone, PartialEq)]
pub enum PaneLoad {
    /// Not asked for yet: the pane has not been opened.
    Idle,
    Loading,
    /// The download or the start failed, with the browser's message.
    Failed(String),
    Ready,
}

/// The pane as the page renders it.
pub struct ExercisePane {
    pub load: PaneLoad,
    /// Tries a failed download again.
    pub retry: Callback<()>,
    /// The element the pane lives in. The page puts it in its layout while
    /// the pane is open and takes it out when closed; the pane, in it, keeps
    /// its results meanwhile.
    pub host: web_sys::Node,
}

/// Loads and mounts "Your reconcile" the first time it opens, then keeps it
/// given what it needs from the page: the code, the editors' scenario while
/// it is valid, the simulation's settings. `on_event` hears what it says.
#[hook]
pub fn use_exercise_pane(
    state: &Playground,
    closable: bool,
    on_event: Callback<PaneEvent>,
) -> ExercisePane {
    let host = use_memo((), |()| {
        let host = gloo::utils::document()
            .create_element("div")
            .expect_throw("a div");
        host.set_class_name("exercise-host");
        host
    });
    let input = use_pane_input(state, closable);
    // Read when the module has loaded, so the pane starts from what the page
    // holds then, not from what it held when the download began.
    let latest = use_mut_ref(|| Rc::clone(&input));
    *latest.borrow_mut() = Rc::clone(&input);
    let mounted = use_mut_ref(|| None::<MountedPane>);
    // Made once and kept as long as the page: the pane calls it.
    let listener = use_memo((), move |()| {
        Closure::<dyn Fn(String)>::new(move |text: String| match PaneEvent::from_json(&text) {
            Ok(event) => on_event.emit(event),
            Err(message) => gloo::console::error!(message),
        })
    });
    let load = use_state(|| PaneLoad::Idle);
    let attempt = use_state(|| 0u32);
    {
        let (load, host, mounted) = (load.clone(), Rc::clone(&host), Rc::clone(&mounted));
        let open = state.exercise_open && state.code.is_some();
        use_effect_with((open, *attempt), move |(open, _)| {
            if !*open || matches!(*load, PaneLoad::Loading | PaneLoad::Ready) {
                return;
            }
            load.set(PaneLoad::Loading);
            wasm_bindgen_futures::spawn_local(async move {
                let started = match pane::load().await {
                    Ok(module) => {
                        let input = latest.borrow().clone();
                        let input = input.as_deref().unwrap_or_default();
                        let listener: &JsValue = (*listener).as_ref();
                        module.start(&host, input, listener.unchecked_ref())
                    }
                    Err(message) => Err(message),
                };
                match started {
                    Ok(pane) => {
                        *mounted.borrow_mut() = Some(pane);
                        load.set(PaneLoad::Ready);
                    }
                    Err(message) => load.set(PaneLoad::Failed(message)),
                }
            });
        });
    }
    {
        let mounted = Rc::clone(&mounted);
        use_effect_with(Rc::clone(&input), move |input| {
            if let (Some(pane), Some(input)) = (mounted.borrow().as_ref(), input.as_deref()) {
                pane.give(input);
            }
        });
    }
    ExercisePane {
        load: (*load).clone(),
        retry: Callback::from(move |()| attempt.set(*attempt + 1)),
        host: web_sys::Node::clone(&host),
    }
}

/// What the pane is given, as JSON, once there is code; made again only when
/// part of it changed.
#[hook]
fn use_pane_input(state: &Playground, closable: bool) -> Rc<Option<String>> {
    let scenario = state
        .scenario
        .as_ref()
        .filter(|_| state.errors.is_empty())
        .map(|scenario| Shared::from(Rc::clone(scenario)));
    let deps = (
        state.code.clone(),
        state.code_revision,
        scenario,
        state.sim.config.clone(),
        closable,
    );
    use_memo(deps, |(code, code_revision, scenario, config, closable)| {
        let input = PaneInput {
            code: code.clone()?,
            code_revision: *code_revision,
            scenario: scenario.as_deref().map(export_scenario),
            options: serde_json::to_string(config).unwrap_or_default(),
            closable: *closable,
        };
        Some(input.to_json())
    })
}
