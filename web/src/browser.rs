//! Thin wrappers over the browser APIs the page uses. Each returns a plain
//! Rust value and swallows what the browser refuses (no storage, no clipboard),
//! because none of these may crash the page.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Url, UrlSearchParams};

fn window() -> web_sys::Window {
    gloo::utils::window()
}

/// `location.hash`, with its `#`; empty when there is none.
pub fn location_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// The query parameters, in order.
pub fn query_params() -> Vec<(String, String)> {
    let search = window().location().search().unwrap_or_default();
    let Ok(params) = UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    if let Ok(Some(iterator)) = js_sys::try_iter(&params) {
        for entry in iterator.flatten() {
            let entry: js_sys::Array = entry.unchecked_into();
            let key = entry.get(0).as_string().unwrap_or_default();
            let value = entry.get(1).as_string().unwrap_or_default();
            pairs.push((key, value));
        }
    }
    pairs
}

/// The page's address without query or hash.
pub fn page_base() -> String {
    let location = window().location();
    format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    )
}

/// The address of `path` beside the page (its base URI), for a module to import.
pub fn beside_page(path: &str) -> String {
    let base = gloo::utils::document()
        .base_uri()
        .ok()
        .flatten()
        .unwrap_or_default();
    Url::new_with_base(path, &base)
        .map(|url| url.href())
        .unwrap_or_else(|_| path.to_owned())
}

/// Adds `<script type="module" src="{src}">` to the page: a module that
/// only runs once the page is up, and is none of the first view's downloads.
pub fn add_module_script(src: &str) {
    let document = gloo::utils::document();
    let (Ok(script), Some(head)) = (document.create_element("script"), document.head()) else {
        return;
    };
    let _ = script.set_attribute("type", "module");
    let _ = script.set_attribute("src", src);
    let _ = head.append_child(&script);
}

/// An error's message, or the value as text.
pub fn message_of(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// Replaces the hash without a reload or a history entry.
pub fn replace_hash(hash: &str) {
    replace_query_and_hash(&window().location().search().unwrap_or_default(), hash);
}

/// Replaces the query (with its `?`, or empty) and the hash without a reload
/// or a history entry.
pub fn replace_query_and_hash(query: &str, hash: &str) {
    let location = window().location();
    let url = format!("{}{query}{hash}", location.pathname().unwrap_or_default());
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Starts copying `text` to the clipboard; false if the browser offers no clipboard.
pub fn copy_to_clipboard(text: &str) -> bool {
    let clipboard = window().navigator().clipboard();
    let promise = clipboard.write_text(text);
    // The outcome is not awaited: the link is also shown for copying by hand.
    wasm_bindgen_futures::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    });
    true
}

/// Why local storage took nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageProblem {
    /// The browser gives this page no storage (denied, as in a sandboxed
    /// third-party frame, or switched off).
    Unavailable,
    /// The storage refused the write: its quota is used up.
    Full,
}

fn local_storage() -> Result<web_sys::Storage, StorageProblem> {
    // `window.localStorage` throws where storage is denied.
    window()
        .local_storage()
        .ok()
        .flatten()
        .ok_or(StorageProblem::Unavailable)
}

/// Whether this page has local storage at all.
pub fn storage_problem() -> Option<StorageProblem> {
    local_storage().err()
}

pub fn storage_get(key: &str) -> Option<String> {
    local_storage().ok()?.get_item(key).ok().flatten()
}

pub fn storage_set(key: &str, value: &str) -> Result<(), StorageProblem> {
    local_storage()?
        .set_item(key, value)
        .map_err(|_| StorageProblem::Full)
}

pub fn storage_remove(key: &str) {
    if let Ok(storage) = local_storage() {
        let _ = storage.remove_item(key);
    }
}

/// This tab's own storage (`sessionStorage`): a reload keeps it, a new tab
/// starts without it (a duplicated tab starts with a copy).
pub fn tab_storage_get(key: &str) -> Option<String> {
    window()
        .session_storage()
        .ok()
        .flatten()?
        .get_item(key)
        .ok()
        .flatten()
}

/// Nothing happens where the tab has no storage: the page then forgets the
/// tab's session at a reload, which it says (autosave is off).
pub fn tab_storage_set(key: &str, value: &str) {
    if let Ok(Some(storage)) = window().session_storage() {
        let _ = storage.set_item(key, value);
    }
}

/// The time in milliseconds since the epoch.
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// A short random token (base 36), for ids no other tab picks.
pub fn random_token() -> String {
    let mut n = (js_sys::Math::random() * 2f64.powi(52)) as u64;
    let mut token = String::new();
    while n > 0 {
        let digit = (n % 36) as u32;
        token.push(char::from_digit(digit, 36).unwrap_or('0'));
        n /= 36;
    }
    token
}

/// Saves `text` as a file download (the one copy, shared with the simulation's module).
pub use reconcile_ui_shared::download::download;

/// Reads a file's bytes, then calls `done` with its UTF-8 text or a message.
pub fn read_text_file(
    file: web_sys::File,
    done: impl FnOnce(String, Result<String, String>) + 'static,
) {
    let name = file.name();
    wasm_bindgen_futures::spawn_local(async move {
        let result = match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
            Ok(buffer) => {
                let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                String::from_utf8(bytes).map_err(|e| {
                    format!(
                        "the file is not UTF-8 text (invalid byte at offset {}); save it as UTF-8",
                        e.utf8_error().valid_up_to()
                    )
                })
            }
            Err(_) => Err("the browser could not read the file".to_owned()),
        };
        done(name, result);
    });
}

/// Sets the root's `data-theme` (`light` or `dark`), which main.css reads;
/// `None` leaves the system's theme.
pub fn set_theme(theme: Option<&str>) {
    if let (Some(theme), Some(root)) = (theme, gloo::utils::document().document_element()) {
        let _ = root.set_attribute("data-theme", theme);
    }
}

/// True inside an iframe.
pub fn in_frame() -> bool {
    let window = window();
    window
        .parent()
        .ok()
        .flatten()
        .is_some_and(|parent| parent != window)
}

/// Posts a message to the embedding page, delivered only if its origin is `origin`.
pub fn post_to_parent_at(message: &JsValue, origin: &str) {
    if let Ok(Some(parent)) = window().parent() {
        let _ = parent.post_message(message, origin);
    }
}

/// Posts a message to the embedding page (any origin: the height is not secret).
pub fn post_to_parent(message: &JsValue) {
    if let Ok(Some(parent)) = window().parent() {
        let _ = parent.post_message(message, "*");
    }
}

/// Moves the keyboard focus to the element `id` names (which needs a
/// `tabindex` unless it is a control) and scrolls it into view.
pub fn focus_element(id: &str) {
    use wasm_bindgen::JsCast;
    let element = gloo::utils::document().get_element_by_id(id);
    if let Some(element) = element.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = element.focus();
        element.scroll_into_view();
    }
}
