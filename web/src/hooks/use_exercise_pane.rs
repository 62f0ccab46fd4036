use std::cell::RefCell;
use std::rc::Rc;

use reconcile_content::pane::{PaneEvent, PaneInput};
use reconcile_core::export_scenario;
use wasm_bindgen::prelude::*;
use yew::functional::UseForceUpdateHandle;
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
/// it is valid, the simulation's settings. `on_event` hears what it says
/// (only the first one given is kept).
///
/// Few hooks on purpose: each is generic code of its own in the page's
/// first load, which this module exists to keep small.
#[hook]
pub fn use_exercise_pane(
    state: &Playground,
    closable: bool,
    on_event: Callback<PaneEvent>,
) -> ExercisePane {
    let input = use_pane_input(state, closable);
    let bridge = use_mut_ref(|| Bridge::new(on_event));
    let rerender = use_force_update();
    let open = state.exercise_open && state.code.is_some();
    {
        let (bridge, rerender) = (Rc::clone(&bridge), rerender.clone());
        use_effect_with((open, input), move |(open, input)| {
            let mut inner = bridge.borrow_mut();
            inner.latest = Rc::clone(input);
            if let (Some(pane), Some(input)) = (&inner.mounted, input.as_deref()) {
                pane.give(input);
            } else if *open && inner.load == PaneLoad::Idle {
                drop(inner);
                load(bridge, rerender);
            }
        });
    }
    let retry = {
        let bridge = Rc::clone(&bridge);
        Callback::from(move |()| load(Rc::clone(&bridge), rerender.clone()))
    };
    let inner = bridge.borrow();
    ExercisePane {
        load: inner.load.clone(),
        retry,
        host: inner.host.clone().into(),
    }
}

/// The page's side of the pane, kept across renders.
struct Bridge {
    host: web_sys::Element,
    load: PaneLoad,
    mounted: Option<MountedPane>,
    /// The input as it is now: a pane that finishes loading starts from it,
    /// not from what the page held when the download began.
    latest: Rc<Option<String>>,
    /// Made once and kept as long as the page: the pane calls it.
    listener: Closure<dyn Fn(String)>,
}

impl Bridge {
    fn new(on_event: Callback<PaneEvent>) -> Self {
        let host = gloo::utils::document()
            .create_element("div")
            .expect_throw("a div");
        host.set_class_name("exercise-host");
        Self {
            host,
            load: PaneLoad::Idle,
            mounted: None,
            latest: Rc::new(None),
            listener: Closure::new(move |text: String| match PaneEvent::from_json(&text) {
                Ok(event) => on_event.emit(event),
                Err(error) => gloo::console::error!(error.to_string()),
            }),
        }
    }
}

/// Imports the module and mounts the pane, saying how it goes.
fn load(bridge: Rc<RefCell<Bridge>>, rerender: UseForceUpdateHandle) {
    bridge.borrow_mut().load = PaneLoad::Loading;
    rerender.force_update();
    wasm_bindgen_futures::spawn_local(async move {
        let module = pane::load().await;
        let mut inner = bridge.borrow_mut();
        let started = module.and_then(|module| {
            let input = inner.latest.as_deref().unwrap_or_default();
            module.start(&inner.host, input, inner.listener.as_ref().unchecked_ref())
        });
        match started {
            Ok(pane) => {
                inner.mounted = Some(pane);
                inner.load = PaneLoad::Ready;
            }
            Err(message) => inner.load = PaneLoad::Failed(message),
        }
        drop(inner);
        rerender.force_update();
    });
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
