//! A JSON editor: a transparent textarea over a syntax-coloured copy of its text,
//! with a line-number gutter and the document's error underneath. Large
//! documents are shown through a window of lines ([`crate::editor_window`]).

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use reconcile_core::{Document, InputError};
use wasm_bindgen::JsCast;
use web_sys::{ClipboardEvent, HtmlDocument, HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::editor_window::{
    byte_index_of_utf16, utf16_index_of_byte, utf16_len, window_for, LineIndex, TextWindow,
    EDGE_BYTES, EDGE_LINES, LINES_ABOVE, LINES_BELOW, WHOLE_BYTES, WINDOW_BYTES,
};
use crate::highlight::tokenize_line;
use crate::state::same_text;

const INDENT: &str = "  ";
/// Past these limits text is shown without syntax colours: colour is not
/// worth a frozen editor. Lines past the first many, and lines longer than so
/// many bytes (a window is at most 64 KB, so no whole-text limit is needed).
const HIGHLIGHT_LINE_LIMIT: usize = 1_500;
const HIGHLIGHT_LINE_BYTES: usize = 4_000;
/// Pastes larger than this skip the textarea (see `onpaste`); smaller ones
/// stay native, so the browser's Undo covers them.
const LARGE_PASTE_BYTES: usize = 16 * 1024;

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub document: Document,
    pub text: AttrValue,
    #[prop_or_default]
    pub error: Option<InputError>,
    /// Receives this editor's document with its new text.
    pub on_edit: Callback<(Document, String)>,
    pub on_format: Callback<Document>,
    /// Locked by an embed's `readonly`: selectable and copyable, not editable.
    #[prop_or_default]
    pub readonly: bool,
}

/// Element-id stem for a document: `desired`, `observed`, `finalizers`.
pub fn dom_id(document: Document) -> &'static str {
    match document {
        Document::Desired => "desired",
        Document::Observed => "observed",
        Document::Finalizers => "finalizers",
        Document::Scenario => "scenario",
    }
}

/// What the editor last rendered, for its event handlers.
#[derive(Default)]
struct Rendered {
    text: AttrValue,
    index: Rc<LineIndex>,
    window: TextWindow,
}

/// How the window should be placed on the next render.
#[derive(Default)]
struct Placement {
    /// The first line on screen.
    anchor_line: usize,
    /// Lines that fit on screen, and one line's height in CSS pixels (measured).
    screen_lines: usize,
    line_px: f64,
    /// Keep the window on this byte range of the next text (after an edit inside it).
    keep: Option<(usize, usize)>,
    /// Bring this byte offset (the caret after an edit) on screen.
    reveal: Option<usize>,
    /// Scroll so that this line is the first on screen (set when revealing).
    scroll_to: Option<usize>,
    /// The selection to put back (document byte offsets) once the window moved.
    selection: Option<(usize, usize)>,
    /// Place the window again, even though the text did not change (scrolling).
    moved: bool,
    /// Whether the coming input replaces a whole-window selection (Select All).
    replaces_all: bool,
}

impl Placement {
    /// A move of the window is under way: yew renders, and runs effects, in
    /// later tasks (it yields to the browser every 16 ms), so events can come in
    /// between, and must not read the caret from the half-moved window.
    fn settling(&self) -> bool {
        self.moved || self.selection.is_some() || self.scroll_to.is_some()
    }
}

#[component]
pub fn JsonEditor(props: &EditorProps) -> Html {
    // After Escape, the next Tab leaves the editor instead of indenting (keyboard users' way out).
    let escape_pressed = use_mut_ref(|| false);
    let rendered = use_mut_ref(Rendered::default);
    let placement = use_mut_ref(|| Placement {
        screen_lines: 24,
        line_px: 19.5,
        ..Placement::default()
    });
    let rerender = use_force_update();
    let scroller = use_node_ref();
    let area_ref = use_node_ref();
    let spacer_above = use_node_ref();
    let spacer_below = use_node_ref();

    let index = use_memo(props.text.clone(), |text| LineIndex::new(text));
    let window = place_window(
        &props.text,
        &index,
        &rendered.borrow(),
        &mut placement.borrow_mut(),
    );
    *rendered.borrow_mut() = Rendered {
        text: props.text.clone(),
        index: Rc::clone(&index),
        window,
    };
    let window_text = &props.text[window.start..window.end];

    // Edits arrive as the window's new text; the document is the window spliced back in.
    let on_edit = {
        let (document, on_edit) = (props.document, props.on_edit.clone());
        let (rendered, placement) = (rendered.clone(), placement.clone());
        Callback::from(move |(edited, caret_utf16): (String, Option<u32>)| {
            let next = {
                let rendered = rendered.borrow();
                let mut placement = placement.borrow_mut();
                let whole = std::mem::take(&mut placement.replaces_all);
                let start = if whole { 0 } else { rendered.window.start };
                let next = if whole {
                    edited.clone()
                } else {
                    rendered.window.splice(&rendered.text, &edited)
                };
                let caret =
                    start + caret_utf16.map_or(edited.len(), |c| byte_index_of_utf16(&edited, c));
                placement.keep = (!whole).then_some((start, start + edited.len()));
                placement.reveal = Some(caret);
                placement.selection = Some((caret, caret));
                next
            };
            on_edit.emit((document, next));
        })
    };
    let id = dom_id(props.document);
    let label = props.document.label();
    let error_line = props.error.as_ref().map(|e| e.line);
    let error_id = format!("{id}-error");

    // The window's size and place, the selection, and the spacers' heights,
    // once the DOM holds this render.
    {
        let (scroller, area_ref, placement) =
            (scroller.clone(), area_ref.clone(), placement.clone());
        let (spacer_above, spacer_below) = (spacer_above.clone(), spacer_below.clone());
        use_effect(move || {
            set_height(&spacer_above, window.lines_above());
            set_height(&spacer_below, window.lines_below());
            let mut placement = placement.borrow_mut();
            if let (Some(area), Some((from, to))) = (
                area_ref.cast::<HtmlTextAreaElement>(),
                placement.selection.take(),
            ) {
                let focused = gloo::utils::document()
                    .active_element()
                    .is_some_and(|e| e == **area);
                if focused && window.start <= from && to <= window.end {
                    let text = &area.value();
                    let (from, to) = (from - window.start, to - window.start);
                    let _ = area.set_selection_range(
                        utf16_index_of_byte(text, from),
                        utf16_index_of_byte(text, to),
                    );
                }
            }
            if placement.scroll_to.is_some() {
                let spacers = [
                    (&spacer_above, window.lines_above()),
                    (&spacer_below, window.lines_below()),
                ];
                measure(&scroller, spacers, &mut placement);
            }
            if let (Some(line), Some(scroller)) =
                (placement.scroll_to.take(), scroller.cast::<HtmlElement>())
            {
                scroller.set_scroll_top((line as f64 * placement.line_px) as i32);
            }
            || ()
        });
    }
    // Scrolling moves the window when the screen nears its edge; the caret's
    // selection is carried over to the new window.
    {
        let (scroller, area_ref) = (scroller.clone(), area_ref.clone());
        let (spacer_above, spacer_below) = (spacer_above.clone(), spacer_below.clone());
        let (rendered, placement, rerender) =
            (rendered.clone(), placement.clone(), rerender.clone());
        use_effect_with((), move |()| {
            // Measured on scrolling only: reading layout in every render would force it.
            let listener = scroller.cast::<HtmlElement>().map(|element| {
                let target = element.clone();
                EventListener::new(&element, "scroll", move |_| {
                    let window = rendered.borrow().window;
                    let mut placement = placement.borrow_mut();
                    if placement.settling() {
                        return;
                    }
                    let spacers = [
                        (&spacer_above, window.lines_above()),
                        (&spacer_below, window.lines_below()),
                    ];
                    measure(&scroller, spacers, &mut placement);
                    let first =
                        (f64::from(target.scroll_top()) / placement.line_px).max(0.0) as usize;
                    placement.anchor_line = first;
                    if !window.covers(first, first + placement.screen_lines) {
                        placement.moved = true;
                        placement.selection = area_ref
                            .cast::<HtmlTextAreaElement>()
                            .and_then(|area| document_selection(&area, window.start));
                        drop(placement);
                        rerender.force_update();
                    }
                })
            });
            move || drop(listener)
        });
    }
    // Select All selects the whole window, which stands for the whole document:
    // typing or pasting over it replaces the document.
    {
        let (area_ref, placement) = (area_ref.clone(), placement.clone());
        use_effect_with((), move |()| {
            let listener = area_ref.cast::<HtmlTextAreaElement>().map(|area| {
                let target = area.clone();
                EventListener::new(&area, "beforeinput", move |_| {
                    placement.borrow_mut().replaces_all = selects_all(&target);
                })
            });
            move || drop(listener)
        });
    }

    let oninput = {
        let on_edit = on_edit.clone();
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            on_edit.emit((area.value(), area.selection_end().ok().flatten()));
        })
    };
    // Copying or cutting a Select All takes the whole document, not the window.
    let on_clipboard = |cut: bool| {
        let (rendered, on_edit, placement) = (rendered.clone(), on_edit.clone(), placement.clone());
        Callback::from(move |e: Event| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            let rendered = rendered.borrow();
            if rendered.window.is_whole(rendered.text.len()) || !selects_all(&area) {
                return;
            }
            let Some(data) = e
                .dyn_ref::<ClipboardEvent>()
                .and_then(ClipboardEvent::clipboard_data)
            else {
                return;
            };
            if data.set_data("text/plain", &rendered.text).is_ok() {
                e.prevent_default();
                if cut && !area.read_only() {
                    placement.borrow_mut().replaces_all = true;
                    drop(rendered);
                    on_edit.emit((String::new(), Some(0)));
                }
            }
        })
    };
    // A large paste goes straight into the document: the textarea, which only
    // shows a window, never has to take (and lay out) megabytes of text.
    let onpaste = {
        let (rendered, placement) = (rendered.clone(), placement.clone());
        let on_document = {
            let (document, on_edit) = (props.document, props.on_edit.clone());
            Callback::from(move |text: String| on_edit.emit((document, text)))
        };
        Callback::from(move |e: Event| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            let Some(pasted) = e
                .dyn_ref::<ClipboardEvent>()
                .and_then(ClipboardEvent::clipboard_data)
                .and_then(|data| data.get_data("text/plain").ok())
                .filter(|text| text.len() > LARGE_PASTE_BYTES)
            else {
                return;
            };
            if area.read_only() {
                return;
            }
            let next = {
                let rendered = rendered.borrow();
                // Only while the textarea shows what was rendered (an input may be
                // waiting for its render); otherwise the browser pastes, and the
                // input splices as usual.
                let shown = &rendered.text[rendered.window.start..rendered.window.end];
                if area.value() != shown {
                    return;
                }
                let whole = !rendered.window.is_whole(rendered.text.len()) && selects_all(&area);
                let (from, to) = if whole {
                    (0, rendered.text.len())
                } else {
                    document_selection(&area, rendered.window.start)
                        .unwrap_or((rendered.text.len(), rendered.text.len()))
                };
                let mut next =
                    String::with_capacity(rendered.text.len() - (to - from) + pasted.len());
                next.push_str(&rendered.text[..from]);
                next.push_str(&pasted);
                next.push_str(&rendered.text[to..]);
                let caret = from + pasted.len();
                let mut placement = placement.borrow_mut();
                placement.reveal = Some(caret);
                placement.selection = Some((caret, caret));
                next
            };
            e.prevent_default();
            on_document.emit(next);
        })
    };
    let oncopy = on_clipboard(false);
    let oncut = on_clipboard(true);
    // The caret moving near the window's edge (arrow keys, clicks) moves the window.
    let on_caret = {
        let (rendered, placement, rerender) =
            (rendered.clone(), placement.clone(), rerender.clone());
        move |area: &HtmlTextAreaElement| {
            let (window, line_of) = {
                let rendered = rendered.borrow();
                (rendered.window, Rc::clone(&rendered.index))
            };
            if window.is_whole(rendered.borrow().text.len()) || placement.borrow().settling() {
                return;
            }
            // Only a caret moves the window: moving it under a selection would cut the selection.
            let Some((from, to)) =
                document_selection(area, window.start).filter(|(from, to)| from == to)
            else {
                return;
            };
            let line = line_of.line_of(to);
            // By lines, or by bytes where the window cuts a very long line.
            let cut_above = window.start != line_of.start_of(window.first_line);
            let cut_below = window.end != line_of.end_of(window.last_line);
            let near_edge = (window.first_line > 0 && line < window.first_line + EDGE_LINES / 2)
                || (window.lines_below() > 0 && line + EDGE_LINES / 2 > window.last_line)
                || (cut_above && to.saturating_sub(window.start) < EDGE_BYTES)
                || (cut_below && window.end.saturating_sub(to) < EDGE_BYTES);
            if near_edge {
                move_window(&placement, &rerender, to, (from, to));
            }
        }
    };
    let onkeyup = {
        let on_caret = on_caret.clone();
        Callback::from(move |e: KeyboardEvent| on_caret(&e.target_unchecked_into()))
    };
    let onmouseup = Callback::from(move |e: MouseEvent| on_caret(&e.target_unchecked_into()));
    let onkeydown = {
        let on_edit = on_edit.clone();
        let (rendered, placement, rerender) =
            (rendered.clone(), placement.clone(), rerender.clone());
        Callback::from(move |e: KeyboardEvent| {
            let leave = std::mem::take(&mut *escape_pressed.borrow_mut());
            let to_document_edge = |end: bool| {
                // The textarea only knows the window: go to the document's edge ourselves.
                let len = rendered.borrow().text.len();
                if rendered.borrow().window.is_whole(len) {
                    return;
                }
                e.prevent_default();
                let area: HtmlTextAreaElement = e.target_unchecked_into();
                let target = if end { len } else { 0 };
                let anchor = document_selection(&area, rendered.borrow().window.start)
                    .map_or(target, |(from, to)| if target >= to { from } else { to });
                let selection = if e.shift_key() {
                    (anchor.min(target), anchor.max(target))
                } else {
                    (target, target)
                };
                move_window(&placement, &rerender, target, selection);
            };
            let command = e.ctrl_key() || e.meta_key();
            match e.key().as_str() {
                "Home" if command => to_document_edge(false),
                "End" if command => to_document_edge(true),
                "Escape" => *escape_pressed.borrow_mut() = true,
                "Tab" if !leave && !e.ctrl_key() && !e.alt_key() && !e.meta_key() => {
                    e.prevent_default();
                    let area: HtmlTextAreaElement = e.target_unchecked_into();
                    if e.shift_key() {
                        outdent(&area, &on_edit);
                    } else {
                        insert_text(&area, INDENT, &on_edit);
                    }
                }
                _ => {}
            }
        })
    };
    let document = props.document;
    let onclick_format = props.on_format.reform(move |_: MouseEvent| document);
    // In a large document the error's line may be outside the window: offer a way there.
    let error_elsewhere = props
        .error
        .as_ref()
        .filter(|error| {
            !window.is_whole(props.text.len())
                && !window.contains_line(error.line.saturating_sub(1))
        })
        .map(|error| (error.line, error.column));
    let onclick_goto_error = {
        let (rendered, placement, area_ref) =
            (rendered.clone(), placement.clone(), area_ref.clone());
        let rerender = rerender.clone();
        Callback::from(move |_: MouseEvent| {
            let Some((line, column)) = error_elsewhere else {
                return;
            };
            let offset = {
                let rendered = rendered.borrow();
                let line = line.saturating_sub(1).min(rendered.index.line_count() - 1);
                let (start, end) = (rendered.index.start_of(line), rendered.index.end_of(line));
                // The column counts characters from 1.
                rendered.text[start..end]
                    .char_indices()
                    .nth(column.saturating_sub(1))
                    .map_or(end, |(at, _)| start + at)
            };
            if let Some(area) = area_ref.cast::<HtmlElement>() {
                let _ = area.focus();
            }
            move_window(&placement, &rerender, offset, (offset, offset));
        })
    };

    let lines: Vec<&str> = window_text.split('\n').collect();
    let first_number = window.first_line + 1;
    let last_number = first_number + lines.len() - 1;
    // One text node for the line numbers on each side of the error line:
    // thousands of elements would make every keystroke in a large document
    // slow. The error line's number is a block in the flow, so it lines up
    // without an inline `style` (the Content-Security-Policy allows none).
    let number_run = |numbers: std::ops::RangeInclusive<usize>| {
        numbers
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let numbers = match error_line.filter(|line| (first_number..=last_number).contains(line)) {
        Some(line) => html! {
            <>
                { number_run(first_number..=line - 1) }
                <span class="error-line">{ line }</span>
                { number_run(line + 1..=last_number) }
            </>
        },
        None => html! { { number_run(first_number..=last_number) } },
    };
    let highlighted = lines.iter().enumerate().map(|(i, line)| {
        let marked = Some(first_number + i) == error_line;
        let class = classes!("line", marked.then_some("error-line"));
        if i >= HIGHLIGHT_LINE_LIMIT || line.len() > HIGHLIGHT_LINE_BYTES {
            return if marked {
                html! { <><span {class}>{ *line }</span>{ "\n" }</> }
            } else {
                html! { <>{ *line }{ "\n" }</> }
            };
        }
        let tokens = tokenize_line(line)
            .into_iter()
            .map(|token| match token.kind.class() {
                Some(class) => html! { <span {class}>{ token.text }</span> },
                None => html! { { token.text } },
            });
        html! { <><span {class}>{ for tokens }</span>{ "\n" }</> }
    });

    html! {
        <section class={classes!("pane", "editor-pane", props.error.is_some().then_some("has-error"))}
                 aria-labelledby={format!("{id}-heading")}>
            <header class="pane-header">
                <h2 id={format!("{id}-heading")}>{ label }</h2>
                if !props.readonly {
                    <button type="button" class="format-button" onclick={onclick_format}
                            aria-label={format!("Format {label}")}>{ "Format" }</button>
                }
            </header>
            <div class="code" ref={scroller}>
                <div class="code-spacer" ref={spacer_above} aria-hidden="true"></div>
                <div class="code-row">
                    <div class="gutter" aria-hidden="true">
                        <span class="numbers">{ numbers }</span>
                    </div>
                    <div class="code-area">
                        <pre class="highlight" aria-hidden="true">{ for highlighted }{ " " }</pre>
                        <textarea id={format!("{id}-input")} ref={area_ref}
                            class="code-input"
                            aria-label={label}
                            aria-invalid={props.error.is_some().then_some("true")}
                            aria-describedby={error_id.clone()}
                            spellcheck="false" autocapitalize="off" autocomplete="off" wrap="off"
                            value={AttrValue::from(window_text.to_owned())}
                            data-partial={(!window.is_whole(props.text.len())).then_some("true")}
                            readonly={props.readonly}
                            {oninput} {onkeydown} {onkeyup} {onmouseup} {oncopy} {oncut} {onpaste} />
                    </div>
                </div>
                <div class="code-spacer" ref={spacer_below} aria-hidden="true"></div>
            </div>
            <p id={error_id} class="editor-error" aria-live="polite">
                { props.error.as_ref().map(error_text).unwrap_or_default() }
            </p>
            if let Some((line, _)) = error_elsewhere {
                <button type="button" class="goto-error" onclick={onclick_goto_error}>
                    { format!("Go to line {line}") }
                </button>
            }
        </section>
    }
}

/// Places the window around `caret` on the next render, puts `selection`
/// (document byte offsets) back once it is there, and renders.
fn move_window(
    placement: &RefCell<Placement>,
    rerender: &UseForceUpdateHandle,
    caret: usize,
    selection: (usize, usize),
) {
    let mut placement = placement.borrow_mut();
    placement.moved = true;
    placement.reveal = Some(caret);
    placement.selection = Some(selection);
    drop(placement);
    rerender.force_update();
}

/// The window for this render: kept where an edit happened, or placed around
/// the screen (or the caret to reveal) when the text or the scroll position moved.
fn place_window(
    text: &AttrValue,
    index: &LineIndex,
    rendered: &Rendered,
    placement: &mut Placement,
) -> TextWindow {
    let moved = std::mem::take(&mut placement.moved);
    let keep = placement.keep.take();
    let reveal = placement.reveal.take();
    if text.len() <= WHOLE_BYTES {
        return TextWindow::whole(index);
    }
    if !moved && same_text(&rendered.text, text) && rendered.window.end <= text.len() {
        return rendered.window;
    }
    if let Some((start, end)) = keep.filter(|(start, end)| {
        *end <= text.len()
            && text.is_char_boundary(*start)
            && text.is_char_boundary(*end)
            && end - start <= 2 * WINDOW_BYTES
    }) {
        let (first_line, last_line) = (index.line_of(start), index.line_of(end));
        if last_line - first_line <= 2 * (LINES_ABOVE + LINES_BELOW) {
            return TextWindow {
                start,
                end,
                first_line,
                last_line,
                total_lines: index.line_count(),
            };
        }
    }
    if let Some(line) = reveal.map(|caret| index.line_of(caret.min(text.len()))) {
        let on_screen = placement.anchor_line..placement.anchor_line + placement.screen_lines;
        if !on_screen.contains(&line) {
            placement.anchor_line = line.saturating_sub(placement.screen_lines / 2);
            placement.scroll_to = Some(placement.anchor_line);
        }
    }
    window_for(text, index, placement.anchor_line, reveal)
}

/// Sets a spacer to `lines` lines' height, through the CSS object model
/// (the Content-Security-Policy forbids `style` attributes).
fn set_height(spacer: &NodeRef, lines: usize) {
    if let Some(spacer) = spacer.cast::<HtmlElement>() {
        let height = if lines == 0 {
            String::new()
        } else {
            format!("calc(var(--line) * {lines})")
        };
        let _ = spacer.style().set_property("height", &height);
    }
}

/// Reads one line's height (from a spacer, which is a whole number of lines
/// high: no CSS value to parse) and how many lines fit on screen.
fn measure(scroller: &NodeRef, spacers: [(&NodeRef, usize); 2], placement: &mut Placement) {
    let Some(scroller) = scroller.cast::<HtmlElement>() else {
        return;
    };
    let line_px = spacers.iter().find_map(|(spacer, lines)| {
        let height = f64::from(spacer.cast::<HtmlElement>()?.offset_height());
        (*lines > 0 && height > 0.0).then(|| height / *lines as f64)
    });
    if let Some(px) = line_px {
        placement.line_px = px;
    }
    placement.screen_lines =
        ((f64::from(scroller.client_height()) / placement.line_px).ceil() as usize).max(1);
}

/// The textarea's selection as document byte offsets.
fn document_selection(area: &HtmlTextAreaElement, window_start: usize) -> Option<(usize, usize)> {
    let (from, to) = (area.selection_start().ok()??, area.selection_end().ok()??);
    let value = area.value();
    Some((
        window_start + byte_index_of_utf16(&value, from),
        window_start + byte_index_of_utf16(&value, to),
    ))
}

/// Whether the whole of the textarea's text is selected (and there is some).
fn selects_all(area: &HtmlTextAreaElement) -> bool {
    let length = area.text_length();
    length > 0
        && area.selection_start().ok().flatten() == Some(0)
        && area.selection_end().ok().flatten() == Some(length)
}

/// "Line 2, column 25 at $.web: trailing comma; …"
pub fn error_text(error: &InputError) -> String {
    format!(
        "Line {}, column {} at {}: {}",
        error.line, error.column, error.path, error.message
    )
}

/// Inserts at the caret through the browser's editing command, so Undo still works;
/// falls back to a direct edit where that command is unavailable.
fn insert_text(area: &HtmlTextAreaElement, text: &str, on_edit: &Callback<(String, Option<u32>)>) {
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

/// Removes up to one indent from the start of the caret's line.
fn outdent(area: &HtmlTextAreaElement, on_edit: &Callback<(String, Option<u32>)>) {
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
