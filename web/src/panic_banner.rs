//! What people see if the page panics: a banner that keeps their work.
//!
//! The release build aborts on panic, so the wasm instance traps right after
//! the panic hook returns and yew never renders again. Everything therefore
//! happens inside the hook, before the trap, with plain DOM calls:
//! 1. the last known state, with the texts read back from the editors (so a
//!    keystroke the reducer never saw is kept too), goes to the autosave and
//!    into the address bar;
//! 2. the panic is logged to the console, as `console_error_panic_hook` does;
//! 3. a `role="alert"` banner offers Reload and Copy debug info.
//!
//! The buttons' click handlers are browser built-ins bound to their arguments
//! (`location.reload`, `navigator.clipboard.writeText(info)`): they run no wasm,
//! so they work whatever state the trapped instance was left in.
//!
//! `?debug=panic` makes the next edit panic on purpose (see `EmbedOptions`),
//! so the banner can be seen and tested in the release build.

use std::cell::RefCell;
use std::panic::PanicHookInfo;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use reconcile_content::share::{self, SharedState};
use reconcile_core::Document;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement, HtmlTextAreaElement, UrlSearchParams};

use crate::browser;
use crate::components::editor::dom_id;
use crate::embed::DEBUG_PARAM;
use crate::hooks::AUTOSAVE_LIMIT;
use crate::state::{Persisted, DOCUMENTS};

/// Set by the first panic; later panics are only logged.
static PANICKED: AtomicBool = AtomicBool::new(false);

/// The state the page last rendered, and where it is autosaved.
struct LastState {
    state: Rc<Persisted>,
    autosave_key: String,
}

thread_local! {
    static LAST_STATE: RefCell<Option<LastState>> = const { RefCell::new(None) };
}

/// Replaces yew's default hook (which only logs) with one that also shows the banner.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(on_panic));
}

/// Notes the state the page shows, for the hook to save if a panic comes.
pub fn remember_state(state: Rc<Persisted>, autosave_key: &str) {
    LAST_STATE.with(|last| {
        if let Ok(mut last) = last.try_borrow_mut() {
            *last = Some(LastState {
                state,
                autosave_key: autosave_key.to_owned(),
            });
        }
    });
}

/// True once the page has panicked: nothing may overwrite what the hook saved.
pub fn has_panicked() -> bool {
    PANICKED.load(Ordering::Relaxed)
}

fn on_panic(info: &PanicHookInfo<'_>) {
    console_error_panic_hook::hook(info);
    if PANICKED.swap(true, Ordering::Relaxed) {
        return;
    }
    let kept = keep_work();
    let message = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned());
    let location = info
        .location()
        .map_or_else(|| "(unknown)".to_owned(), ToString::to_string);
    let debug_info = debug_info(&message, &location, &kept);
    show_banner(&kept, &debug_info);
}

/// What happened to the user's work.
enum Kept {
    /// Saved, and the address bar holds it; this is its share link.
    Saved { link: String },
    /// Over the autosave and link limits: still in the editors, nowhere else.
    TooLarge,
    /// The page panicked before it had a state.
    Nothing,
}

impl Kept {
    fn sentence(&self) -> &'static str {
        match self {
            Kept::Saved { .. } => "Your work is kept: Reload brings back your documents and settings.",
            Kept::TooLarge => {
                "Your documents are too large to keep automatically: copy them out of the editors before you reload."
            }
            Kept::Nothing => "Reload starts the playground again.",
        }
    }
}

/// Saves the last state with the editors' current texts, and puts it in the
/// address bar so that Reload (or the browser's own reload) restores it. Drops
/// `?debug=panic` from the address, so the reloaded page does not panic again.
fn keep_work() -> Kept {
    let last = LAST_STATE.with(|last| {
        last.try_borrow().ok().and_then(|last| {
            last.as_ref()
                .map(|l| (l.state.to_shared(), l.autosave_key.clone()))
        })
    });
    let Some((mut shared, autosave_key)) = last else {
        set_address(None);
        return Kept::Nothing;
    };
    for document in DOCUMENTS {
        match editor_text(document) {
            Some(text) if text != *text_of(&mut shared, document) => {
                *text_of(&mut shared, document) = text;
                // A preset is named only while its texts are unchanged.
                shared.preset = None;
            }
            _ => {}
        }
    }
    if share::text_size(&shared) > AUTOSAVE_LIMIT {
        set_address(None);
        return Kept::TooLarge;
    }
    // Where storage refuses it, the address bar below still holds the state.
    let _ = browser::storage_set(&autosave_key, &share::to_autosave(&shared));
    // Nothing can wait here: the hash is made at once, uncompressed.
    let hash = crate::links::hash_now(&shared);
    set_address(Some(&hash));
    Kept::Saved {
        link: format!("{}{hash}", browser::page_base()),
    }
}

/// The text in a document's editor, as the browser holds it; none for a large
/// document, whose editor holds only a window of it (its edits reach the state at once).
fn editor_text(document: Document) -> Option<String> {
    gloo::utils::document()
        .get_element_by_id(&format!("{}-input", dom_id(document)))?
        .dyn_into::<HtmlTextAreaElement>()
        .ok()
        .filter(|area| !area.has_attribute("data-partial"))
        .map(|area| area.value())
}

fn text_of(shared: &mut SharedState, document: Document) -> &mut String {
    match document {
        Document::Desired => &mut shared.desired,
        Document::Observed => &mut shared.observed,
        Document::Finalizers | Document::Scenario | Document::Actions => &mut shared.finalizers,
    }
}

/// Drops `debug` from the query and sets the hash (when given), without a reload.
fn set_address(hash: Option<&str>) {
    let location = gloo::utils::window().location();
    let search = location.search().unwrap_or_default();
    let query = match UrlSearchParams::new_with_str(&search) {
        Ok(params) if params.has(DEBUG_PARAM) => {
            params.delete(DEBUG_PARAM);
            let rest = String::from(params.to_string());
            if rest.is_empty() {
                rest
            } else {
                format!("?{rest}")
            }
        }
        _ => search,
    };
    let hash = hash.map_or_else(|| location.hash().unwrap_or_default(), str::to_owned);
    browser::replace_query_and_hash(&query, &hash);
}

fn debug_info(message: &str, location: &str, kept: &Kept) -> String {
    let window = gloo::utils::window();
    let user_agent = window.navigator().user_agent().unwrap_or_default();
    let state = match kept {
        Kept::Saved { link } => link.as_str(),
        Kept::TooLarge => "(too large for a link)",
        Kept::Nothing => "(none yet)",
    };
    format!(
        "Reconcile Playground {version} panicked\n\
         Message: {message}\n\
         Location: {location}\n\
         User agent: {user_agent}\n\
         State: {state}\n",
        version = env!("CARGO_PKG_VERSION"),
    )
}

/// Builds the banner with text nodes only (never HTML) and puts it first in the body.
fn show_banner(kept: &Kept, debug_info: &str) {
    let document = gloo::utils::document();
    let Some(body) = document.body() else {
        return;
    };
    let element = |tag: &str, class: Option<&str>, text: Option<&str>| -> Option<Element> {
        let element = document.create_element(tag).ok()?;
        if let Some(class) = class {
            element.set_class_name(class);
        }
        element.set_text_content(text);
        Some(element)
    };
    let build = || -> Option<HtmlElement> {
        let banner = element("div", Some("panic-banner"), None)?;
        banner.set_attribute("role", "alert").ok()?;
        let heading = element(
            "p",
            Some("panic-title"),
            Some("Something went wrong inside the playground. This is a bug in the playground, not a problem with your input."),
        )?;
        let kept_note = element("p", None, Some(kept.sentence()))?;
        let reload = element("button", None, Some("Reload"))?;
        reload.set_attribute("type", "button").ok()?;
        let window = gloo::utils::window();
        on_click_call(&reload, &window.location(), "reload", None)?;
        let copy = element("button", None, Some("Copy debug info"))?;
        copy.set_attribute("type", "button").ok()?;
        let clipboard = window.navigator().clipboard();
        on_click_call(
            &copy,
            &clipboard,
            "writeText",
            Some(&JsValue::from_str(debug_info)),
        )?;
        let details = element("details", None, None)?;
        let summary = element(
            "summary",
            None,
            Some("Debug info (its link holds your documents)"),
        )?;
        let shown_info = element("pre", None, Some(debug_info))?;
        details.append_with_node_2(&summary, &shown_info).ok()?;
        for child in [&heading, &kept_note, &reload, &copy, &details] {
            banner.append_with_node_1(child).ok()?;
        }
        body.prepend_with_node_1(&banner).ok()?;
        let reload: HtmlElement = reload.dyn_into().ok()?;
        Some(reload)
    };
    if let Some(reload) = build() {
        let _ = reload.focus();
    }
}

/// Makes a click on `button` call `target.method(argument)`: the browser's
/// own method, bound, so no wasm code runs on the click.
fn on_click_call(
    button: &Element,
    target: &JsValue,
    method: &str,
    argument: Option<&JsValue>,
) -> Option<()> {
    let method: js_sys::Function = js_sys::Reflect::get(target, &JsValue::from_str(method))
        .ok()?
        .dyn_into()
        .ok()?;
    let handler: js_sys::Function = match argument {
        Some(argument) => method.bind1(target, argument).unchecked_into(),
        None => method.bind0(target),
    };
    button
        .add_event_listener_with_callback("click", &handler)
        .ok()
}
