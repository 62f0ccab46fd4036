//! The offline cache (docs/offline.md): once the first view is on screen the
//! page adds `sw-register.js`, which registers the service worker (`sw.js`)
//! and tells the page when a newer version is ready. The Reload it offers is
//! handled there too (a click on the notice's button), so the page's own
//! first load carries next to nothing for it.

use gloo::events::EventListener;
use yew::prelude::*;

use crate::browser;

/// The event `sw-register.js` dispatches on `window` when a newer version is ready.
const UPDATE_READY: &str = "playground-update-ready";

/// Starts the service worker unless `enabled` is false (embeds); true once a
/// newer version of the playground is ready. Debug builds never start it:
/// their `sw.js` retires any worker a release build left (crates/xtask/src/sw.rs).
#[hook]
pub fn use_service_worker(enabled: bool) -> bool {
    let ready = use_state(|| false);
    {
        let ready = ready.setter();
        use_effect_with((), move |()| {
            if enabled && !cfg!(debug_assertions) {
                EventListener::new(&gloo::utils::window(), UPDATE_READY, move |_| {
                    ready.set(true)
                })
                .forget();
                browser::add_module_script(&browser::beside_page("sw-register.js"));
            }
        });
    }
    *ready
}
