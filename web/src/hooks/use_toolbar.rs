//! What the toolbar's buttons do: share, export, download results, import.

use std::rc::Rc;

use js_sys::Promise;
use reconcile_core::export_scenario;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::{future_to_promise, spawn_local, JsFuture};
use yew::prelude::*;

use super::{share_link, YamlSupport};
use crate::components::toolbar::ToolbarCallbacks;
use crate::state::{Action, LinkOf, Notice, Playground, SimAction};
use crate::{browser, links};

/// The toolbar's callbacks; `on_share` is Ctrl+S's too.
#[hook]
pub fn use_toolbar(
    state: &UseReducerHandle<Playground>,
    dispatch: &Callback<Action>,
    yaml: &YamlSupport,
    embed: bool,
) -> ToolbarCallbacks {
    let on_share = {
        let (state, dispatch) = (state.clone(), dispatch.clone());
        Callback::from(move |()| {
            let (url, of) = link_to_share(&state);
            // Given to the clipboard within the click; it copies once compressed.
            links::copy_when_ready(&url);
            let dispatch = dispatch.clone();
            spawn_local(async move {
                let url = JsFuture::from(url)
                    .await
                    .ok()
                    .and_then(|url| url.as_string());
                let url = url.unwrap_or_default();
                // Embeds never write the address (it is the course page's frame's).
                if !embed {
                    browser::replace_hash(&url[url.find('#').unwrap_or(url.len())..]);
                }
                dispatch.emit(Action::SetNotice(Some(Notice::LinkReady {
                    url,
                    copied: true,
                    of,
                })));
            });
        })
    };
    ToolbarCallbacks {
        on_share,
        on_export_scenario: {
            // Read when pressed, not on every render (a large document's edits).
            let state = state.clone();
            Callback::from(move |()| {
                if let Some(scenario) = &state.scenario_to_export() {
                    browser::download("scenario.json", &export_scenario(scenario));
                }
            })
        },
        on_export_yaml: yaml.export_desired.clone(),
        // The simulation's module writes the results: the plan and its run.
        on_export_results: dispatch.reform(|()| Action::Sim(SimAction::DownloadResults)),
        on_import: {
            let (dispatch, import) = (dispatch.clone(), yaml.import.clone());
            Callback::from(move |file: web_sys::File| {
                let (dispatch, import) = (dispatch.clone(), import.clone());
                browser::read_text_file(file, move |file_name, result| match result {
                    Ok(text) => import.emit((file_name, text)),
                    Err(error) => dispatch.emit(Action::SetNotice(Some(Notice::ImportFailed {
                        file_name,
                        error,
                    }))),
                });
            })
        },
    }
}

/// The link Share gives, once made, and what it holds. A replay's is the
/// address it was opened from: the same record, written once, by the check.
fn link_to_share(state: &Playground) -> (Promise, LinkOf) {
    if let Some(replay) = &state.sim.replay {
        let url = format!("{}{}", browser::page_base(), replay.link);
        let of = LinkOf::Replay(Rc::clone(&replay.link));
        return (Promise::resolve(&JsValue::from(url)), of);
    }
    let (shared, of) = (state.shared(), Box::new(state.persisted()));
    let url = future_to_promise(async move { Ok(share_link(&shared).await.into()) });
    (url, LinkOf::State(of))
}
