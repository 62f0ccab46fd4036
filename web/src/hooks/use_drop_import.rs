//! A file dragged over the page shows where it goes; dropped anywhere, it is
//! imported (never opened by the browser in place of the page and the work).

use yew::prelude::*;

/// The page's drag handlers, and the drop zone while a file is over it.
pub struct DropImport {
    pub ondragenter: Callback<DragEvent>,
    pub ondragover: Callback<DragEvent>,
    pub ondrop: Callback<DragEvent>,
    pub zone: Html,
}

/// Whether a drag carries files (not text or a link being dragged about).
fn carries_files(e: &DragEvent) -> bool {
    e.data_transfer()
        .is_some_and(|transfer| transfer.types().includes(&"Files".into(), 0))
}

#[hook]
pub fn use_drop_import(readonly: bool, on_import: Callback<web_sys::File>) -> DropImport {
    let dragging = use_state(|| false);
    let ondragenter = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            if carries_files(&e) {
                e.prevent_default();
                dragging.set(!readonly);
            }
        })
    };
    let ondragover = Callback::from(move |e: DragEvent| {
        if carries_files(&e) {
            e.prevent_default();
            if let Some(transfer) = e.data_transfer() {
                transfer.set_drop_effect(if readonly { "none" } else { "copy" });
            }
        }
    });
    let ondragleave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let ondrop = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            let file = e
                .data_transfer()
                .and_then(|d| d.files())
                .and_then(|files| files.get(0));
            if let (Some(file), false) = (file, readonly) {
                on_import.emit(file);
            }
        })
    };
    let zone = dragging.then(|| {
        html! {
            // Over and drop bubble to the page's own handlers.
            <div class="drop-zone" {ondragleave}>
                <p>{ "Drop a scenario file to import it" }</p>
            </div>
        }
    });
    DropImport {
        ondragenter,
        ondragover,
        ondrop,
        zone: zone.unwrap_or_default(),
    }
}
