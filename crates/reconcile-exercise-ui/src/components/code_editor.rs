//! The learner's code: a plain textarea with a line-number gutter (tracebacks
//! name lines), where Tab indents and Shift+Tab outdents. As in the JSON
//! editors, Esc and then Tab moves the focus on.

use reconcile_check::Language;
use reconcile_content::exercise::LearnerCode;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::state::ExerciseAction;

/// The editor is never shorter than this many lines.
const MIN_ROWS: usize = 14;
/// Set by Esc: the next Tab leaves the editor.
const TAB_LEAVES: &str = "data-tab-leaves";

fn indent_of(language: Language) -> &'static str {
    match language {
        Language::Python => "    ",
        Language::JavaScript => "  ",
    }
}

pub fn code_editor(code: &LearnerCode, on_action: &Callback<ExerciseAction>) -> Html {
    let lines = code.source.split('\n').count();
    let numbers: Vec<String> = (1..=lines).map(|n| n.to_string()).collect();
    let oninput = on_action.reform(|e: InputEvent| {
        ExerciseAction::Edit(e.target_unchecked_into::<HtmlTextAreaElement>().value())
    });
    let onkeydown = {
        let (on_action, indent) = (on_action.clone(), indent_of(code.language));
        Callback::from(move |e: KeyboardEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            if let Some(source) = handle_key(&e, &area, indent) {
                on_action.emit(ExerciseAction::Edit(source));
            }
        })
    };
    html! {
        <div class="code-editor">
            <pre class="code-gutter" aria-hidden="true">{ numbers.join("\n") }</pre>
            <textarea id="exercise-code" class="code-source"
                aria-label={format!("Your reconcile, in {}", code.language.title())}
                aria-describedby="exercise-keys"
                rows={(lines + 1).max(MIN_ROWS).to_string()}
                spellcheck="false" autocapitalize="off" autocomplete="off" wrap="off"
                value={code.source.clone()} {oninput} {onkeydown} />
            <p id="exercise-keys" class="visually-hidden">
                { "Tab indents and Shift+Tab outdents. Press Esc, then Tab, to move on." }
            </p>
        </div>
    }
}

/// Tab and Shift+Tab edit the text (the new text is returned); Esc arms the
/// next Tab to leave.
fn handle_key(e: &KeyboardEvent, area: &HtmlTextAreaElement, indent: &str) -> Option<String> {
    let leaves = area.has_attribute(TAB_LEAVES);
    let _ = area.remove_attribute(TAB_LEAVES);
    match e.key().as_str() {
        "Escape" => {
            let _ = area.set_attribute(TAB_LEAVES, "");
            None
        }
        "Tab" if !leaves && !e.ctrl_key() && !e.alt_key() && !e.meta_key() => {
            e.prevent_default();
            if e.shift_key() {
                outdent(area, indent)
            } else {
                let start = area.selection_start().ok().flatten()?;
                let end = area.selection_end().ok().flatten()?;
                area.set_range_text_with_start_and_end(indent, start, end)
                    .ok()?;
                let caret = start + indent.len() as u32;
                let _ = area.set_selection_range(caret, caret);
                Some(area.value())
            }
        }
        _ => None,
    }
}

/// Removes up to one indent from the start of the caret's line.
fn outdent(area: &HtmlTextAreaElement, indent: &str) -> Option<String> {
    let caret = area.selection_start().ok().flatten()?;
    // Offsets are UTF-16 units, as the textarea counts them.
    let value: js_sys::JsString = area.value().into();
    let line_start = if caret == 0 {
        0
    } else {
        u32::try_from(value.last_index_of("\n", caret as i32 - 1) + 1).unwrap_or(0)
    };
    let head = String::from(value.substring(line_start, line_start + indent.len() as u32));
    let spaces = head.chars().take_while(|c| *c == ' ').count() as u32;
    if spaces == 0 {
        return None;
    }
    area.set_range_text_with_start_and_end("", line_start, line_start + spaces)
        .ok()?;
    let caret = caret.saturating_sub(spaces).max(line_start);
    let _ = area.set_selection_range(caret, caret);
    Some(area.value())
}
