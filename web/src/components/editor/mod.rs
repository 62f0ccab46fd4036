//! A JSON editor: a transparent textarea over a syntax-coloured copy of its text,
//! with a line-number gutter and the document's error underneath. Large
//! documents are shown through a window of lines ([`crate::editor_window`]).

mod clipboard;
mod dom;
mod render;
mod state;
mod use_editor_keys;
mod use_editor_listeners;
mod use_editor_window;

use reconcile_core::{Document, Format, InputError};
use web_sys::HtmlElement;
use yew::prelude::*;

use clipboard::{clipboard_handlers, ClipboardHandlers};
use dom::input_handler;
use render::{highlighted_lines, render_header, render_numbers, render_yaml_load, Header};
use state::window_text;
use use_editor_keys::{use_editor_keys, KeyHandlers};
use use_editor_listeners::use_editor_listeners;
use use_editor_window::{use_editor_window, window_edits, EditorWindow};

use crate::editor_window::TextWindow;
use crate::hooks::YamlLoad;

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub document: Document,
    pub text: AttrValue,
    #[prop_or_default]
    pub error: Option<InputError>,
    /// Receives this editor's document with its new text.
    pub on_edit: Callback<(Document, String)>,
    /// The format the text is read in.
    pub format: Format,
    /// Where the YAML reader stands, while this document is YAML.
    #[prop_or_default]
    pub yaml_load: Option<YamlLoad>,
    /// Read this document in another format / convert it to one (its own
    /// format: pretty-print it).
    pub on_switch: Callback<(Document, Format)>,
    pub on_convert: Callback<(Document, Format)>,
    /// Loads a YAML reader that failed to load again.
    pub on_retry: Callback<()>,
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
        Document::Actions => "actions",
    }
}

#[component]
pub fn JsonEditor(props: &EditorProps) -> Html {
    let editor = use_editor_window(&props.text);
    let window = editor.window;
    let window_text = window_text(&props.text, window);
    let on_window_edit = window_edits(&editor.state, props.document, &props.on_edit);
    use_editor_listeners(&editor);
    let KeyHandlers {
        onkeydown,
        onkeyup,
        onblur,
        onmouseup,
    } = use_editor_keys(&editor.state, &on_window_edit);
    let ClipboardHandlers {
        oncopy,
        oncut,
        onpaste,
    } = clipboard_handlers(&editor.state, props, &on_window_edit);
    let oninput = input_handler(&on_window_edit);

    let id = dom_id(props.document);
    let label = props.document.label();
    let error_id = format!("{id}-error");
    let document = props.document;
    let format = props.format;
    // Formatting is converting to its own format.
    let onclick_format = props
        .on_convert
        .reform(move |_: MouseEvent| (document, format));
    let error_elsewhere = error_outside(props.error.as_ref(), window, props.text.len());
    let onclick_goto_error = go_to_error(&editor, error_elsewhere);

    let error_line = props.error.as_ref().map(|e| e.line);
    let lines: Vec<&str> = window_text.split('\n').collect();
    let first_number = window.first_line + 1;
    let numbers = render_numbers(first_number..=first_number + lines.len() - 1, error_line);
    let highlighted = highlighted_lines(&lines, first_number, error_line);

    html! {
        <section class={classes!("pane", "editor-pane", props.error.is_some().then_some("has-error"))}
                 aria-labelledby={format!("{id}-heading")}>
            { render_header(Header {
                id,
                document,
                format: props.format,
                readonly: props.readonly,
                on_format: onclick_format,
                on_switch: props.on_switch.reform(move |format| (document, format)),
                on_convert: props.on_convert.reform(move |format| (document, format)),
            }) }
            { render_yaml_load(props.yaml_load.as_ref(), &props.on_retry) }
            <div class="code" ref={editor.refs.scroller}>
                <div class="code-spacer" ref={editor.refs.spacer_above} aria-hidden="true"></div>
                <div class="code-row">
                    <div class="gutter" aria-hidden="true">
                        <span class="numbers">{ numbers }</span>
                    </div>
                    <div class="code-area">
                        <pre class="highlight" aria-hidden="true">{ for highlighted }{ " " }</pre>
                        <textarea id={format!("{id}-input")} ref={editor.refs.area}
                            class="code-input"
                            aria-label={label}
                            aria-invalid={props.error.is_some().then_some("true")}
                            aria-describedby={error_id.clone()}
                            spellcheck="false" autocapitalize="off" autocomplete="off" wrap="off"
                            value={AttrValue::from(window_text.to_owned())}
                            data-partial={(!window.is_whole(props.text.len())).then_some("true")}
                            readonly={props.readonly}
                            {oninput} {onkeydown} {onkeyup} {onblur} {onmouseup} {oncopy} {oncut} {onpaste} />
                    </div>
                </div>
                <div class="code-spacer" ref={editor.refs.spacer_below} aria-hidden="true"></div>
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

/// In a large document the error's line may be outside the window: its line
/// and column then, for a way there.
fn error_outside(
    error: Option<&InputError>,
    window: TextWindow,
    text_len: usize,
) -> Option<(usize, usize)> {
    error
        .filter(|error| {
            !window.is_whole(text_len) && !window.contains_line(error.line.saturating_sub(1))
        })
        .map(|error| (error.line, error.column))
}

/// "Go to line N": brings the error's line and column (`target`) into the
/// window and puts the caret there.
fn go_to_error(editor: &EditorWindow, target: Option<(usize, usize)>) -> Callback<MouseEvent> {
    let (state, area_ref) = (editor.state.clone(), editor.refs.area.clone());
    Callback::from(move |_: MouseEvent| {
        let Some((line, column)) = target else {
            return;
        };
        let offset = state.rendered().offset_of(line, column);
        if let Some(area) = area_ref.cast::<HtmlElement>() {
            let _ = area.focus();
        }
        state.move_window(offset, (offset, offset));
    })
}

/// "Line 2, column 25 at $.web: trailing comma; …"
pub fn error_text(error: &InputError) -> String {
    format!(
        "Line {}, column {} at {}: {}",
        error.line, error.column, error.path, error.message
    )
}
