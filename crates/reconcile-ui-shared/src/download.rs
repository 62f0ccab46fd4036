//! Saving text as a file download: the one copy, for the page (its
//! scenario and YAML downloads, through `browser::download`) and the
//! simulation section's module (the results it holds).

use js_sys::wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// Saves `text` as a file download; does nothing where the browser refuses.
pub fn download(file_name: &str, text: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type("application/json");
    let Ok(blob) = Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = Url::create_object_url_with_blob(&blob) else {
        return;
    };
    let document = gloo::utils::document();
    if let Ok(anchor) = document.create_element("a") {
        let anchor: HtmlAnchorElement = anchor.unchecked_into();
        anchor.set_href(&url);
        anchor.set_download(file_name);
        anchor.click();
    }
    let _ = Url::revoke_object_url(&url);
}
