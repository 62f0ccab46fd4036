//! Fetches the file of the lesson being loaded (`Playground::lesson_load`,
//! `lessons/NN-id.json` beside the page, precached by the service worker) and
//! hands its text, or why the download failed, to the reducer, which reads
//! it with the lessons' one reader (`reconcile_content::lesson::parse_lesson`).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

use crate::browser;
use crate::state::LessonAction;

/// Fetches `request`'s path whenever the request (path and try) changes.
#[hook]
pub fn use_lesson_fetch(request: Option<(String, u32)>, on_action: Callback<LessonAction>) {
    use_effect_with(request, move |request| {
        if let Some((path, _)) = request.clone() {
            spawn_local(async move {
                let action = match fetch_text(&browser::beside_page(&path)).await {
                    Ok(text) => LessonAction::Fetched { path, text },
                    Err(message) => LessonAction::FetchFailed { path, message },
                };
                on_action.emit(action);
            });
        }
    });
}

/// The text at `url`; errs with a sentence.
async fn fetch_text(url: &str) -> Result<String, String> {
    let failed = |error: wasm_bindgen::JsValue| browser::message_of(&error);
    let response: web_sys::Response = JsFuture::from(gloo::utils::window().fetch_with_str(url))
        .await
        .map_err(failed)?
        .unchecked_into();
    if !response.ok() {
        return Err(format!(
            "the server answered {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let text = JsFuture::from(response.text().map_err(failed)?)
        .await
        .map_err(failed)?;
    Ok(text.as_string().unwrap_or_default())
}
