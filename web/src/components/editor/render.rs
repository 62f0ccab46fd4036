//! The editor's render pieces: plain functions, not components (each component
//! type costs its own copy of yew's lifecycle code in the bundle).

use std::ops::RangeInclusive;

use yew::prelude::*;

use crate::highlight::tokenize_line;

/// Past these limits text is shown without syntax colours: colour is not
/// worth a frozen editor. Lines past the first many, and lines longer than so
/// many bytes (a window is at most 64 KB, so no whole-text limit is needed).
const HIGHLIGHT_LINE_LIMIT: usize = 1_500;
const HIGHLIGHT_LINE_BYTES: usize = 4_000;

/// The pane's heading, and its Format button unless the editor is read-only.
pub(super) fn render_header(
    id: &str,
    label: &'static str,
    readonly: bool,
    onclick_format: Callback<MouseEvent>,
) -> Html {
    html! {
        <header class="pane-header">
            <h2 id={format!("{id}-heading")}>{ label }</h2>
            if !readonly {
                <button type="button" class="format-button" onclick={onclick_format}
                        aria-label={format!("Format {label}")}>{ "Format" }</button>
            }
        </header>
    }
}

/// The gutter's line numbers, `numbers` being the window's lines (from 1).
///
/// One text node for the line numbers on each side of the error line:
/// thousands of elements would make every keystroke in a large document
/// slow. The error line's number is a block in the flow, so it lines up
/// without an inline `style` (the Content-Security-Policy allows none).
pub(super) fn render_numbers(numbers: RangeInclusive<usize>, error_line: Option<usize>) -> Html {
    let number_run = |numbers: RangeInclusive<usize>| {
        numbers
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (first, last) = (*numbers.start(), *numbers.end());
    match error_line.filter(|line| numbers.contains(line)) {
        Some(line) => html! {
            <>
                { number_run(first..=line - 1) }
                <span class="error-line">{ line }</span>
                { number_run(line + 1..=last) }
            </>
        },
        None => html! { { number_run(numbers) } },
    }
}

/// The window's lines, syntax-coloured and each followed by its line break;
/// `first_number` is the first line's number, `error_line` the one to mark.
pub(super) fn highlighted_lines<'a>(
    lines: &'a [&'a str],
    first_number: usize,
    error_line: Option<usize>,
) -> impl Iterator<Item = Html> + 'a {
    lines.iter().enumerate().map(move |(i, line)| {
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
    })
}
