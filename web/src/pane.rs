//! The loader of "Your reconcile": its module (`pkg/reconcile_exercise_ui.js`,
//! built from `crates/reconcile-exercise-ui`) is imported the first time the
//! pane opens, never with the page. This only loads and mounts it; what the
//! two say to each other is `reconcile_content::pane`'s types, as JSON text.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(inline_js = r#"
let pane = null;
let style = null;
let failures = 0;
function stylesheet(href) {
  return new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
    link.onload = resolve;
    link.onerror = () => { link.remove(); reject(new Error(`${href} could not be loaded`)); };
    document.head.append(link);
  });
}
export function load_pane(url) {
  // The browser keeps a failed import failed for its URL, so a retry asks for another.
  const retry = failures ? `?retry=${failures}` : "";
  style ??= stylesheet(url.replace(/\.js$/, ".css") + retry).catch((error) => { style = null; throw error; });
  pane ??= Promise.all([import(url + retry), style])
    .then(async ([module]) => { await module.default(); return module; })
    .catch((error) => { pane = null; failures += 1; throw error; });
  return pane;
}
"#)]
extern "C" {
    /// Imports the module with its stylesheet (so the pane never shows
    /// unstyled) and starts its wasm, once; after a failed download the next
    /// call tries again.
    fn load_pane(url: &str) -> js_sys::Promise;

    /// The module's exports.
    pub type PaneModule;
    #[wasm_bindgen(method, catch)]
    fn mount(
        this: &PaneModule,
        host: &web_sys::Element,
        input: &str,
        on_event: &js_sys::Function,
    ) -> Result<MountedPane, JsValue>;

    /// The pane, mounted.
    pub type MountedPane;
    #[wasm_bindgen(method, catch)]
    fn update(this: &MountedPane, input: &str) -> Result<(), JsValue>;
}

/// Loads the pane's module; errs with a sentence.
pub async fn load() -> Result<PaneModule, String> {
    let url = crate::browser::beside_page("pkg/reconcile_exercise_ui.js");
    JsFuture::from(load_pane(&url))
        .await
        .map(JsCast::unchecked_into)
        .map_err(|error| crate::browser::message_of(&error))
}

impl PaneModule {
    /// Starts the pane in `host` with `input` (a `PaneInput`'s JSON);
    /// `on_event` hears each `PaneEvent`'s JSON.
    pub fn start(
        &self,
        host: &web_sys::Element,
        input: &str,
        on_event: &js_sys::Function,
    ) -> Result<MountedPane, String> {
        self.mount(host, input, on_event)
            .map_err(|error| crate::browser::message_of(&error))
    }
}

impl MountedPane {
    /// Gives the pane a new `PaneInput`'s JSON.
    pub fn give(&self, input: &str) {
        if let Err(error) = self.update(input) {
            gloo::console::error!(crate::browser::message_of(&error));
        }
    }
}
