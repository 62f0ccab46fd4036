use std::rc::Rc;

use gloo::events::EventListener;
use reconcile_content::lesson_index;
use reconcile_content::progress::Progress;
use reconcile_content::report::{reports, Field, LessonView, Report};
use reconcile_content::share::SharedState;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, ResizeObserver};
use yew::prelude::*;

use crate::browser;
use crate::embed::{
    accepts_version, EmbedOptions, MESSAGE_HEIGHT, MESSAGE_LOAD, MESSAGE_PREFIX, MESSAGE_RUN,
    MESSAGE_STATE, MESSAGE_STEP, MESSAGE_VERSION,
};
use crate::state::{Action, Playground, SimAction};

/// Inside an iframe: tells the parent the content height whenever it changes,
/// and obeys commands only from the configured origins.
#[hook]
pub fn use_embed_bridge(options: Rc<EmbedOptions>, dispatch: Callback<Action>) {
    use_effect_with(options, move |options| {
        let in_frame = browser::in_frame();
        let observer = in_frame.then(observe_height).flatten();
        let listener = (!options.allowed_origins.is_empty()).then(|| {
            let options = Rc::clone(options);
            EventListener::new(&gloo::utils::window(), "message", move |event| {
                let Some(event) = event.dyn_ref::<MessageEvent>() else {
                    return;
                };
                if !options.accepts_origin(&event.origin()) {
                    return;
                }
                if let Some(action) = command(&event.data()) {
                    dispatch.emit(action);
                }
            })
        });
        move || {
            if let Some((observer, _closure)) = observer {
                observer.disconnect();
            }
            drop(listener);
        }
    });
}

type Observer = (ResizeObserver, Closure<dyn FnMut(js_sys::Array)>);

fn observe_height() -> Option<Observer> {
    let last = Rc::new(std::cell::Cell::new(0i32));
    let closure = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| {
        // The body's height, not the root's: the root's scroll height is never
        // less than the frame itself, so a frame could grow but never shrink.
        // Rounded up, so a fractional height does not leave a scrollbar.
        let height = gloo::utils::document().body().map_or(0, |body| {
            let exact = body.get_bounding_client_rect().height().ceil() as i32;
            exact.max(body.scroll_height())
        });
        if height != last.get() {
            last.set(height);
            let message = js_sys::Object::new();
            seal(&message, MESSAGE_HEIGHT);
            let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
            browser::post_to_parent(&message);
        }
    });
    let observer = ResizeObserver::new(closure.as_ref().unchecked_ref()).ok()?;
    let body: web_sys::Element = gloo::utils::document().body()?.into();
    observer.observe(&body);
    Some((observer, closure))
}

fn field(data: &JsValue, name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(data, &name.into())
        .ok()
        .filter(|v| !v.is_undefined())
}

/// Puts the envelope's `type` and `version` on an outgoing message.
pub(super) fn seal(message: &JsValue, kind: &str) {
    let _ = js_sys::Reflect::set(message, &"type".into(), &kind.into());
    let _ = js_sys::Reflect::set(message, &"version".into(), &MESSAGE_VERSION.into());
}

/// A command from the parent page, if `data` is one in a version this build reads.
fn command(data: &JsValue) -> Option<Action> {
    let version = match field(data, "version") {
        Some(version) => Some(version.as_f64()?),
        None => None,
    };
    if !accepts_version(version) {
        return None;
    }
    let kind = field(data, "type")?.as_string()?;
    match kind.as_str() {
        MESSAGE_STEP => Some(Action::Sim(SimAction::Step)),
        MESSAGE_RUN => Some(Action::Sim(SimAction::RunToEnd)),
        MESSAGE_LOAD => {
            // Documents arrive as JSON text, exactly as typed into the editors.
            let text = |name: &str| field(data, name).and_then(|v| v.as_string());
            let shared = SharedState {
                desired: text("desired")?,
                observed: text("observed")?,
                finalizers: text("finalizers").unwrap_or_else(|| "null".to_owned()),
                preset: None,
                ..SharedState::default()
            };
            Some(Action::LoadShared(Rc::new(shared)))
        }
        _ => None,
    }
}

/// A Check's result (the JSON text of `{passed, total, counterexample}`, or
/// of a controller check's report) to the embedding page as `{type, ...}`
/// with `kind` as its type (`MESSAGE_CHECKED` or
/// `MESSAGE_CONTROLLER_CHECKED`), addressed to each origin `allow=` names:
/// the browser delivers it only to the one the page really has, so no other
/// origin ever reads a learner's result.
pub fn report_checked(options: &EmbedOptions, report: &str, kind: &str) {
    if !browser::in_frame() {
        return;
    }
    let Ok(message) = js_sys::JSON::parse(report) else {
        return;
    };
    seal(&message, kind);
    post_to_allowed(options, &message);
}

/// Inside an iframe with `allow=`: tells the course page the state's link
/// (`#v2/…`) each time it is remade, so an LMS package can resume there.
#[hook]
pub fn use_state_reports(options: &Rc<EmbedOptions>, link_hash: Option<Rc<str>>) {
    let listening = browser::in_frame() && !options.allowed_origins.is_empty();
    let options = Rc::clone(options);
    use_effect_with(link_hash, move |link| {
        if let Some(link) = link.as_deref().filter(|_| listening) {
            let message: JsValue = js_sys::Object::new().into();
            seal(&message, MESSAGE_STATE);
            let _ = js_sys::Reflect::set(&message, &"link".into(), &link.into());
            post_to_allowed(&options, &message);
        }
    });
}

/// Addressed to each origin `allow=` names: the browser delivers it only to
/// the one the page really has, so no other origin ever reads it.
pub(super) fn post_to_allowed(options: &EmbedOptions, message: &JsValue) {
    for origin in options
        .allowed_origins
        .iter()
        .filter(|o| o.as_str() != "null")
    {
        browser::post_to_parent_at(message, origin);
    }
}

/// Inside an iframe with `allow=`: tells the course page each step reached,
/// prediction answered and lesson completed (docs/embedding.md).
#[hook]
pub fn use_progress_reports(options: &Rc<EmbedOptions>, state: &Playground, progress: &Progress) {
    let view = state.lesson.as_ref().map(|open| {
        let (id, step) = (open.lesson.id.clone(), open.step);
        let saved = progress.get(&id);
        let entry = lesson_index::find(&id).map(|(_, entry)| entry);
        let complete = saved
            .zip(entry)
            .is_some_and(|(saved, entry)| LessonView::completes(saved, entry));
        LessonView {
            correct: open.feedback().is_some_and(|(f, _)| f.correct),
            total: open.lesson.steps.len(),
            tries: open.tries,
            complete,
            lesson: id,
            step,
        }
    });
    let last = use_mut_ref(|| None::<LessonView>);
    let listening = browser::in_frame() && !options.allowed_origins.is_empty();
    let options = Rc::clone(options);
    use_effect_with(view, move |view| {
        if listening {
            for report in reports(last.borrow().as_ref(), view.as_ref()) {
                post_to_allowed(&options, &report_message(&report));
            }
        }
        *last.borrow_mut() = view.clone();
    });
}

/// A report in the envelope, its fields beside `type` and `version`.
fn report_message(report: &Report) -> JsValue {
    let message: JsValue = js_sys::Object::new().into();
    seal(&message, &format!("{MESSAGE_PREFIX}{}", report.kind()));
    for (name, value) in report.fields() {
        let value = match value {
            Field::Text(text) => JsValue::from_str(text),
            Field::Number(number) => JsValue::from(number as f64),
            Field::Flag(flag) => JsValue::from_bool(flag),
        };
        let _ = js_sys::Reflect::set(&message, &name.into(), &value);
    }
    message
}
