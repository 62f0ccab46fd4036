//! Share links' hashes, compressed by the browser's own deflate
//! (`CompressionStream("deflate-raw")`), so the page carries no compressor
//! (docs/SIZE.md). Where nothing can wait (leaving the page, a panic), the
//! hash is made at once of stored deflate blocks: longer, the same state.

use reconcile_content::share::{self, SharedState};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(inline_js = r#"
export function deflate_raw(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return new Response(stream).arrayBuffer().then((buffer) => new Uint8Array(buffer));
}
export function copy_when_ready(text) {
  // Safari copies only within the click: the item is given now, its text when ready.
  const clipboard = navigator.clipboard;
  if (typeof ClipboardItem === "function") {
    const blob = text.then((url) => new Blob([url], { type: "text/plain" }));
    return clipboard.write([new ClipboardItem({ "text/plain": blob })]);
  }
  return text.then((url) => clipboard.writeText(url));
}
"#)]
extern "C" {
    /// `text`'s UTF-8 bytes as raw deflate data; throws where the browser has no `CompressionStream`.
    #[wasm_bindgen(catch)]
    fn deflate_raw(text: &str) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch, js_name = copy_when_ready)]
    fn copy_text_when_ready(text: &js_sys::Promise) -> Result<js_sys::Promise, JsValue>;
}

/// `state`'s hash (with its `#`), compressed; of stored blocks if the
/// browser cannot compress.
pub async fn hash(state: &SharedState) -> String {
    let json = share::to_autosave(state);
    let deflated = match deflate_raw(&json) {
        Ok(promise) => JsFuture::from(promise)
            .await
            .ok()
            .map(|bytes| js_sys::Uint8Array::new(&bytes).to_vec()),
        Err(_) => None,
    };
    let deflated = deflated.unwrap_or_else(|| share::stored(json.as_bytes()));
    share::hash_of(state, &deflated)
}

/// `state`'s hash at once, of stored (uncompressed) blocks.
pub fn hash_now(state: &SharedState) -> String {
    share::hash_of(state, &share::stored(share::to_autosave(state).as_bytes()))
}

/// Copies the text `text` resolves to. The outcome is not awaited: the link
/// is also shown for copying by hand.
pub fn copy_when_ready(text: &js_sys::Promise) {
    if let Ok(copied) = copy_text_when_ready(text) {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = JsFuture::from(copied).await;
        });
    }
}
