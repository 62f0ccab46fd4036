//! Reading and writing the editor's elements: the spacers and the scroller
//! the window is measured and placed with, the textarea's selection, and edits
//! made through the textarea (Tab, Shift+Tab).

use wasm_bindgen::JsCast;
use web_sys::{
    ClipboardEvent, DataTransfer, Event, HtmlDocument, HtmlElement, HtmlTextAreaElement,
};
use yew::{Callback, InputEvent, NodeRef, TargetCast};

use super::state::Placement;
use crate::editor_window::{byte_index_of_utf16, utf16_index_of_byte, utf16_len, TextWindow};

const INDENT: &str = "  ";

/// The window's new text, and the caret in it (a UTF-16 offset) when known.
pub(super) type WindowEdit = Callback<(String, Option<u32>)>;

/// Typing: the window's new text, and the caret, from each input.
pub(super) fn input_handler(on_window_edit: &WindowEdit) -> Callback<InputEvent> {
    on_window_edit.reform(|e: InputEvent| {
        let area: HtmlTextAreaElement = e.target_unchecked_into();
        (area.value(), area.selection_end().ok().flatten())
    })
}

/// The elements the editor places its window with.
#[derive(Clone)]
pub(super) struct EditorRefs {
    pub scroller: NodeRef,
    pub area: NodeRef,
    /// Stand in for the lines above and below the window.
    pub spacer_above: NodeRef,
    pub spacer_below: NodeRef,
}

impl EditorRefs {
    fn spacers(&self, window: TextWindow) -> [(&NodeRef, usize); 2] {
        [
            (&self.spacer_above, window.lines_above()),
            (&self.spacer_below, window.lines_below()),
        ]
    }
}

/// Sets the spacers to the height of the lines they stand in for, through the
/// CSS object model (the Content-Security-Policy forbids `style` attributes).
pub(super) fn set_spacer_heights(refs: &EditorRefs, window: TextWindow) {
    for (spacer, lines) in refs.spacers(window) {
        if let Some(spacer) = spacer.cast::<HtmlElement>() {
            let height = if lines == 0 {
                String::new()
            } else {
                format!("calc(var(--line) * {lines})")
            };
            let _ = spacer.style().set_property("height", &height);
        }
    }
}

/// Reads one line's height (from a spacer, which is a whole number of lines
/// high: no CSS value to parse) and how many lines fit on screen.
pub(super) fn measure(refs: &EditorRefs, window: TextWindow, placement: &mut Placement) {
    let Some(scroller) = refs.scroller.cast::<HtmlElement>() else {
        return;
    };
    let line_px = refs.spacers(window).iter().find_map(|(spacer, lines)| {
        let height = f64::from(spacer.cast::<HtmlElement>()?.offset_height());
        (*lines > 0 && height > 0.0).then(|| height / *lines as f64)
    });
    if let Some(px) = line_px {
        placement.line_px = px;
    }
    placement.screen_lines =
        ((f64::from(scroller.client_height()) / placement.line_px).ceil() as usize).max(1);
}

/// Selects `from..to` (document byte offsets) in the textarea, when it has the
/// focus and the window holds that range.
pub(super) fn select_in_window(
    area: &HtmlTextAreaElement,
    window: TextWindow,
    (from, to): (usize, usize),
) {
    let focused = gloo::utils::document()
        .active_element()
        .is_some_and(|e| e == ***area);
    if focused && window.start <= from && to <= window.end {
        let text = &area.value();
        let (from, to) = (from - window.start, to - window.start);
        let _ = area.set_selection_range(
            utf16_index_of_byte(text, from),
            utf16_index_of_byte(text, to),
        );
    }
}

/// The textarea's selection as document byte offsets.
pub(super) fn document_selection(
    area: &HtmlTextAreaElement,
    window_start: usize,
) -> Option<(usize, usize)> {
    let (from, to) = (area.selection_start().ok()??, area.selection_end().ok()??);
    let value = area.value();
    Some((
        window_start + byte_index_of_utf16(&value, from),
        window_start + byte_index_of_utf16(&value, to),
    ))
}

/// Whether the whole of the textarea's text is selected (and there is some).
pub(super) fn selects_all(area: &HtmlTextAreaElement) -> bool {
    let length = area.text_length();
    length > 0
        && area.selection_start().ok().flatten() == Some(0)
        && area.selection_end().ok().flatten() == Some(length)
}

/// The data of a copy, cut or paste event.
pub(super) fn clipboard_data(e: &Event) -> Option<DataTransfer> {
    e.dyn_ref::<ClipboardEvent>()
        .and_then(ClipboardEvent::clipboard_data)
}

/// Inserts one indent at the caret (Tab).
pub(super) fn indent(area: &HtmlTextAreaElement, on_edit: &WindowEdit) {
    insert_text(area, INDENT, on_edit);
}

/// Inserts at the caret through the browser's editing command, so Undo still works;
/// falls back to a direct edit where that command is unavailable.
fn insert_text(area: &HtmlTextAreaElement, text: &str, on_edit: &WindowEdit) {
    let via_command = gloo::utils::document()
        .dyn_into::<HtmlDocument>()
        .ok()
        .and_then(|doc| {
            doc.exec_command_with_show_ui_and_value("insertText", false, text)
                .ok()
        })
        .unwrap_or(false);
    if !via_command && area.set_range_text(text).is_ok() {
        let caret = area.selection_end().ok().flatten().unwrap_or(0) + utf16_len(text);
        let _ = area.set_selection_range(caret, caret);
        on_edit.emit((area.value(), Some(caret)));
    }
}

/// Removes up to one indent from the start of the caret's line (Shift+Tab).
pub(super) fn outdent(area: &HtmlTextAreaElement, on_edit: &WindowEdit) {
    let value = area.value();
    let caret_utf16 = area.selection_start().ok().flatten().unwrap_or(0);
    let caret = byte_index_of_utf16(&value, caret_utf16);
    let line_start = value[..caret].rfind('\n').map_or(0, |i| i + 1);
    let removable = value[line_start..]
        .bytes()
        .take(INDENT.len())
        .take_while(|b| *b == b' ')
        .count();
    if removable == 0 {
        return;
    }
    let mut next = value.clone();
    next.replace_range(line_start..line_start + removable, "");
    area.set_value(&next);
    let new_caret = caret_utf16.saturating_sub(u32::try_from(removable).unwrap_or(0));
    let _ = area.set_selection_range(new_caret, new_caret);
    on_edit.emit((next, Some(new_caret)));
}
