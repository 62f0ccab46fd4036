//! The page's side of a yew app it loads on demand ("Your reconcile", the
//! control-plane view, level vs edge): the element the app lives in, where its download
//! stands, and the one listener its events come back through. Each app's own
//! hook (`use_exercise_pane`, `use_control_plane_view`, `use_level_edge_view`) decides what to give
//! it and when.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use yew::functional::UseForceUpdateHandle;
use yew::prelude::*;

use crate::on_demand::{self, Mounted, OnDemandApp};

/// Where a module stands.
#[derive(Debug, Clone, PartialEq)]
pub enum ModuleLoad {
    /// Not asked for yet: its part of the page has not been opened.
    Idle,
    Loading,
    /// The download or the start failed, with the browser's message.
    Failed(String),
    Ready,
}

/// A module's app as the page renders it.
#[derive(Clone, PartialEq)]
pub struct OnDemand {
    pub load: ModuleLoad,
    /// Tries a failed download again.
    pub retry: Callback<()>,
    /// The element the app lives in. The page puts it in its layout while
    /// its part is open and takes it out when closed; the app, in it, keeps
    /// its state meanwhile.
    pub host: web_sys::Node,
}

/// The page's side of one module, kept across renders.
pub struct Bridge {
    app: OnDemandApp,
    host: web_sys::Element,
    load: ModuleLoad,
    mounted: Option<Mounted>,
    /// What the app is given at mount: its input as it is now, not as it was
    /// when the download began.
    mount_input: String,
    /// Made once and kept as long as the page: the app calls it.
    listener: Closure<dyn Fn(String)>,
    rerender: UseForceUpdateHandle,
}

pub type SharedBridge = Rc<RefCell<Bridge>>;

/// The bridge to `app` (an [`on_demand`] app), which lives in an
/// element of its `host_class`; `on_event` hears each of its events' JSON
/// (only the first one given is kept).
#[hook]
pub fn use_on_demand(app: OnDemandApp, on_event: Callback<String>) -> (SharedBridge, OnDemand) {
    let rerender = use_force_update();
    let bridge = use_mut_ref(|| {
        let host = gloo::utils::document()
            .create_element("div")
            .expect_throw("a div");
        host.set_class_name(app.host_class);
        Bridge {
            app,
            host,
            load: ModuleLoad::Idle,
            mounted: None,
            mount_input: String::new(),
            listener: Closure::new(move |text: String| on_event.emit(text)),
            rerender,
        }
    });
    let retry = {
        let bridge = Rc::clone(&bridge);
        Callback::from(move |()| load(Rc::clone(&bridge)))
    };
    let inner = bridge.borrow();
    let view = OnDemand {
        load: inner.load.clone(),
        retry,
        host: inner.host.clone().into(),
    };
    drop(inner);
    (bridge, view)
}

impl Bridge {
    /// Gives the mounted app `message()`; before it is mounted, keeps
    /// `mount_input()` for its mount and, when `open`, starts the download.
    /// Returns whether the app was given the message.
    pub fn offer(
        bridge: &SharedBridge,
        open: bool,
        mount_input: impl FnOnce() -> String,
        message: impl FnOnce() -> String,
    ) -> bool {
        let mut inner = bridge.borrow_mut();
        if let Some(mounted) = &inner.mounted {
            mounted.give(&message());
            return true;
        }
        inner.mount_input = mount_input();
        let start = open && inner.load == ModuleLoad::Idle;
        drop(inner);
        if start {
            load(Rc::clone(bridge));
        }
        false
    }
}

/// Imports the module and mounts its app, saying how it goes.
fn load(bridge: SharedBridge) {
    let (app, rerender) = {
        let mut inner = bridge.borrow_mut();
        inner.load = ModuleLoad::Loading;
        (inner.app, inner.rerender.clone())
    };
    rerender.force_update();
    wasm_bindgen_futures::spawn_local(async move {
        let loaded = on_demand::load(app.module).await;
        let mut inner = bridge.borrow_mut();
        let started = loaded.and_then(|loaded| {
            let listener = inner.listener.as_ref().unchecked_ref();
            loaded.start(app.mount, &inner.host, &inner.mount_input, listener)
        });
        match started {
            Ok(mounted) => {
                inner.mounted = Some(mounted);
                inner.load = ModuleLoad::Ready;
            }
            Err(message) => inner.load = ModuleLoad::Failed(message),
        }
        drop(inner);
        rerender.force_update();
    });
}
