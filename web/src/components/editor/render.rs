//! The editor's render pieces: plain functions, not components (each component
//! type costs its own copy of yew's lifecycle code in the bundle).

use std::ops::RangeInclusive;

use reconcile_core::{Document, Format};
use yew::prelude::*;

use crate::hooks::YamlLoad;

use crate::highlight::tokenize_line;

/// Past these limits text is shown without syntax colours: colour is not
/// worth a frozen editor. Lines past the first many, and lines longer than so
/// many bytes (a window is at most 64 KB, so no whole-text limit is needed).
const HIGHLIGHT_LINE_LIMIT: usize = 1_500;
const HIGHLIGHT_LINE_BYTES: usize = 4_000;

/// What the editor's header shows and offers.
pub(super) struct Header<'a> {
    pub id: &'a str,
    pub document: Document,
    pub format: Format,
    pub readonly: bool,
    pub on_format: Callback<MouseEvent>,
    /// Read the text in the other format, or convert it to the other format.
    pub on_switch: Callback<Format>,
    pub on_convert: Callback<Format>,
}

/// The pane's heading, its format (a menu to switch or convert it) and its
/// Format button, unless the editor is read-only.
pub(super) fn render_header(header: Header<'_>) -> Html {
    let Header {
        id,
        document,
        format,
        readonly,
        ..
    } = header;
    let label = document.label();
    let other = match format {
        Format::Json => Format::Yaml,
        Format::Yaml => Format::Json,
    };
    let badge =
        html! { <span class="format-badge" id={format!("{id}-format")}>{ format.label() }</span> };
    if readonly {
        return html! {
            <header class="pane-header"><h2 id={format!("{id}-heading")}>{ label }</h2>{ badge }</header>
        };
    }
    let item = |text: String, on: &Callback<Format>| {
        let onclick = on.reform(move |event: MouseEvent| {
            close_menu(&event);
            other
        });
        html! { <button type="button" role="menuitem" {onclick}>{ text }</button> }
    };
    html! {
        <header class="pane-header">
            <h2 id={format!("{id}-heading")}>{ label }</h2>
            <details class="format-menu">
                <summary aria-label={format!("{label} is {}: change the format", format.label())}>
                    { badge }{ " ▾" }
                </summary>
                <div class="format-menu-items" role="menu">
                    { item(format!("Read as {}", other.label()), &header.on_switch) }
                    { item(format!("Convert to {}", other.label()), &header.on_convert) }
                </div>
            </details>
            <button type="button" class="format-button" onclick={header.on_format}
                    aria-label={format!("Format {label}")}>{ "Format" }</button>
        </header>
    }
}

/// Closes the menu a choice was made in.
fn close_menu(event: &MouseEvent) {
    let menu = event
        .target_dyn_into::<web_sys::Element>()
        .and_then(|target| target.closest("details").ok().flatten());
    if let Some(menu) = menu {
        let _ = menu.remove_attribute("open");
    }
}

/// "Loading YAML support…", or why it failed with a way to try again.
pub(super) fn render_yaml_load(load: Option<&YamlLoad>, on_retry: &Callback<()>) -> Html {
    match load {
        Some(YamlLoad::Loading) => html! {
            <p class="yaml-status" role="status">{ "Loading YAML support…" }</p>
        },
        Some(YamlLoad::Failed(message)) => html! {
            <p class="yaml-status failed" role="status">
                { format!("YAML support could not be loaded ({message}). ") }
                <button type="button" onclick={on_retry.reform(|_| ())}>{ "Try again" }</button>
            </p>
        },
        _ => Html::default(),
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
