//! A JSON editor: a transparent textarea over a syntax-coloured copy of its text,
//! with a line-number gutter and the document's error underneath.

use reconcile_core::{Document, InputError};
use wasm_bindgen::JsCast;
use web_sys::{HtmlDocument, HtmlTextAreaElement};
use yew::prelude::*;

use crate::highlight::tokenize_line;

const INDENT: &str = "  ";
/// Past these limits text is shown without syntax colours: colour is not
/// worth a frozen editor. Lines past the first many, lines longer than so many
/// bytes, and whole documents over so many bytes.
const HIGHLIGHT_LINE_LIMIT: usize = 1_500;
const HIGHLIGHT_LINE_BYTES: usize = 4_000;
const HIGHLIGHT_TEXT_BYTES: usize = 200_000;

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

#[component]
pub fn JsonEditor(props: &EditorProps) -> Html {
    // After Escape, the next Tab leaves the editor instead of indenting (keyboard users' way out).
    let escape_pressed = use_mut_ref(|| false);
    let on_edit = {
        let (document, on_edit) = (props.document, props.on_edit.clone());
        Callback::from(move |text: String| on_edit.emit((document, text)))
    };
    let id = dom_id(props.document);
    let label = props.document.label();
    let error_line = props.error.as_ref().map(|e| e.line);
    let error_id = format!("{id}-error");

    let oninput = {
        let on_edit = on_edit.clone();
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            on_edit.emit(area.value());
        })
    };
    let onkeydown = {
        let on_edit = on_edit.clone();
        Callback::from(move |e: KeyboardEvent| {
            let leave = std::mem::take(&mut *escape_pressed.borrow_mut());
            match e.key().as_str() {
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

    let lines: Vec<&str> = props.text.split('\n').collect();
    // One text node for the line numbers on each side of the error line:
    // thousands of elements would make every keystroke in a large document
    // slow. The error line's number is a block in the flow, so it lines up
    // without an inline `style` (the Content-Security-Policy allows none).
    let number_run = |numbers: std::ops::Range<usize>| {
        numbers
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let numbers = match error_line.map(|line| line.clamp(1, lines.len())) {
        Some(line) => html! {
            <>
                { number_run(1..line) }
                <span class="error-line">{ line }</span>
                { number_run(line + 1..lines.len() + 1) }
            </>
        },
        None => html! { { number_run(1..lines.len() + 1) } },
    };
    let plain = props.text.len() > HIGHLIGHT_TEXT_BYTES;
    let highlighted = lines.iter().enumerate().map(|(i, line)| {
        let marked = Some(i + 1) == error_line;
        let class = classes!("line", marked.then_some("error-line"));
        if i >= HIGHLIGHT_LINE_LIMIT || line.len() > HIGHLIGHT_LINE_BYTES || plain {
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
            <div class="code">
                <div class="gutter" aria-hidden="true">
                    <span class="numbers">{ numbers }</span>
                </div>
                <div class="code-area">
                    <pre class="highlight" aria-hidden="true">{ for highlighted }{ " " }</pre>
                    <textarea id={format!("{id}-input")}
                        class="code-input"
                        aria-label={label}
                        aria-invalid={props.error.is_some().then_some("true")}
                        aria-describedby={error_id.clone()}
                        spellcheck="false" autocapitalize="off" autocomplete="off" wrap="off"
                        value={props.text.clone()}
                        readonly={props.readonly}
                        {oninput} {onkeydown} />
                </div>
            </div>
            <p id={error_id} class="editor-error" aria-live="polite">
                { props.error.as_ref().map(error_text).unwrap_or_default() }
            </p>
        </section>
    }
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
fn insert_text(area: &HtmlTextAreaElement, text: &str, on_edit: &Callback<String>) {
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
        on_edit.emit(area.value());
    }
}

/// Removes up to one indent from the start of the caret's line.
fn outdent(area: &HtmlTextAreaElement, on_edit: &Callback<String>) {
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
    on_edit.emit(next);
}

fn utf16_len(text: &str) -> u32 {
    u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX)
}

/// Textarea selections count UTF-16 units; Rust strings index bytes.
fn byte_index_of_utf16(text: &str, utf16_index: u32) -> usize {
    let mut units = 0u32;
    for (byte, ch) in text.char_indices() {
        if units >= utf16_index {
            return byte;
        }
        units += u32::try_from(ch.len_utf16()).unwrap_or(2);
    }
    text.len()
}
