//! The loader of the yew apps the page loads on demand, each a wasm module of
//! its own built into `pkg/` (`cargo xtask ui-modules`): "Your reconcile"
//! (`pkg/reconcile_exercise_ui.js`, from `crates/reconcile-exercise-ui`) the
//! first time the pane opens, and the simulation section
//! (`pkg/reconcile_simulation_ui.js`, from `crates/reconcile-simulation-ui`)
//! once the page has painted and has a run to simulate (its build with the
//! replay, `pkg/reconcile_simulation_replay.js`, for a `#v4/` link); never
//! with the page. Each
//! app is a module and the name of its mount function, `mount(host, input,
//! onEvent)` or another export with the same parameters, whose result has
//! `update(input)`. This only loads and mounts them; what each says to the
//! page is its own JSON (`reconcile_protocol::pane`,
//! `reconcile_protocol::control_plane`).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// An app the page loads on demand: its module (`pkg/MODULE.js`), the
/// export that mounts it, and the class of the element the page gives it.
/// Apps of one module share its download and start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnDemandApp {
    pub module: &'static str,
    pub mount: &'static str,
    pub host_class: &'static str,
}

/// "Your reconcile".
pub const EXERCISE_UI: OnDemandApp = OnDemandApp {
    module: "reconcile_exercise_ui",
    mount: "mount",
    host_class: "exercise-host",
};
/// The simulation section: the run simulated and shown (its timeline,
/// chart, status grid, verdict, Faults and settings, World now, and its two
/// views, the control plane pictured and level vs edge).
pub const SIMULATION_SECTION: OnDemandApp = OnDemandApp {
    module: SIMULATION_UI,
    mount: "mount_simulation",
    host_class: "sim-host",
};
/// The same, able to replay a learner's controller: loaded instead for a
/// `#v4/` link, so that the usual section leaves the learner driver out.
pub const SIMULATION_REPLAY_SECTION: OnDemandApp = OnDemandApp {
    module: "reconcile_simulation_replay",
    ..SIMULATION_SECTION
};
/// The module of the simulation section (the engine and every view of the run).
const SIMULATION_UI: &str = "reconcile_simulation_ui";

#[wasm_bindgen(inline_js = r#"
const modules = new Map();
const styles = new Map();
const failures = new Map();
function stylesheet(href) {
  return new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
    link.onload = resolve;
    link.onerror = () => { link.remove(); reject(new Error(`${href} could not be loaded`)); };
    document.head.append(link);
  });
}
export function start_module(url, name, argument, element) {
  import(url).then((module) => module[name](argument, element), (error) => console.error(error));
}
export function mount_app(module, name, host, input, onEvent) {
  return module[name](host, input, onEvent);
}
export function load_module(url) {
  // The browser keeps a failed import failed for its URL, so a retry asks for another.
  const failed = failures.get(url) ?? 0;
  const retry = failed ? `?retry=${failed}` : "";
  if (!styles.has(url)) {
    styles.set(url, stylesheet(url.replace(/\.js$/, ".css") + retry).catch((error) => { styles.delete(url); throw error; }));
  }
  if (!modules.has(url)) {
    modules.set(url, Promise.all([import(url + retry), styles.get(url)])
      .then(async ([module]) => { await module.default(); return module; })
      .catch((error) => { modules.delete(url); failures.set(url, failed + 1); throw error; }));
  }
  return modules.get(url);
}
"#)]
extern "C" {
    /// Imports the module with its stylesheet (so it never shows unstyled)
    /// and starts its wasm, once; after a failed download the next call
    /// tries again.
    fn load_module(url: &str) -> js_sys::Promise;

    /// Imports the plain module at `url` and calls its export `name`.
    fn start_module(url: &str, name: &str, argument: &str, element: &JsValue);

    /// A module's exports.
    pub type OnDemandModule;
    /// Calls the module's export `name` (an app's mount function).
    #[wasm_bindgen(catch)]
    fn mount_app(
        module: &OnDemandModule,
        name: &str,
        host: &web_sys::Element,
        input: &str,
        on_event: &js_sys::Function,
    ) -> Result<Mounted, JsValue>;

    /// A module's app, mounted.
    pub type Mounted;
    #[wasm_bindgen(method, catch)]
    fn update(this: &Mounted, input: &str) -> Result<(), JsValue>;
}

/// Loads `pkg/MODULE.js`; errs with a sentence.
pub async fn load(module: &str) -> Result<OnDemandModule, String> {
    let url = crate::browser::beside_page(&format!("pkg/{module}.js"));
    JsFuture::from(load_module(&url))
        .await
        .map(JsCast::unchecked_into)
        .map_err(|error| crate::browser::message_of(&error))
}

/// Imports the plain JS module at `path` (beside the page) and calls its
/// export `name` with `argument` and `element`; it reports its own outcome.
pub fn start(path: &str, name: &str, argument: &str, element: &JsValue) {
    start_module(&crate::browser::beside_page(path), name, argument, element);
}

impl OnDemandModule {
    /// Starts the module's app mounted by the export `mount` in `host` with
    /// `input` (its input's JSON); `on_event` hears each of its events' JSON.
    pub fn start(
        &self,
        mount: &str,
        host: &web_sys::Element,
        input: &str,
        on_event: &js_sys::Function,
    ) -> Result<Mounted, String> {
        mount_app(self, mount, host, input, on_event)
            .map_err(|error| crate::browser::message_of(&error))
    }
}

impl Mounted {
    /// Gives the app a new input's JSON.
    pub fn give(&self, input: &str) {
        if let Err(error) = self.update(input) {
            gloo::console::error!(crate::browser::message_of(&error));
        }
    }
}
