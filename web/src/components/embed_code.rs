//! "Embed in a course page": the share link as a ready-to-paste iframe snippet.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser;
use crate::embed::{embed_snippet, EmbedChoice};

#[derive(Properties, PartialEq)]
pub struct EmbedCodeProps {
    /// The share link the snippet shows (`page#v2/…`).
    pub link: AttrValue,
}

/// The author's choices are this component's own state: they shape only the
/// snippet, never the playground.
#[component]
pub fn EmbedCode(props: &EmbedCodeProps) -> Html {
    let choice = use_state(EmbedChoice::default);
    let copied = use_state(|| false);
    let snippet = embed_snippet(&props.link, *choice);

    let checkbox = |label: &'static str, get: fn(&mut EmbedChoice) -> &mut bool, is_pane: bool| {
        let checked = *get(&mut { *choice });
        // An embed shows at least one pane: the last one cannot be unticked.
        let disabled = is_pane && checked && choice.panes().len() == 1;
        let onchange = {
            let (choice, copied) = (choice.clone(), copied.clone());
            Callback::from(move |e: Event| {
                let mut next = *choice;
                *get(&mut next) = e.target_unchecked_into::<HtmlInputElement>().checked();
                choice.set(next);
                copied.set(false);
            })
        };
        html! {
            <label>
                <input type="checkbox" {checked} {disabled} {onchange} />
                { label }
            </label>
        }
    };
    let on_copy = {
        let (snippet, copied) = (snippet.clone(), copied.clone());
        Callback::from(move |_: MouseEvent| copied.set(browser::copy_to_clipboard(&snippet)))
    };

    html! {
        <details class="embed-code">
            <summary>{ "Embed this state in a course page" }</summary>
            <div class="embed-options">
                <fieldset>
                    <legend>{ "Show" }</legend>
                    { checkbox("Editors", |c| &mut c.editors, true) }
                    { checkbox("Plan", |c| &mut c.plan, true) }
                    { checkbox("Simulation", |c| &mut c.timeline, true) }
                    { checkbox("Faults and settings", |c| &mut c.faults, true) }
                </fieldset>
                { checkbox("Read-only (documents, faults and settings)", |c| &mut c.readonly, false) }
            </div>
            <textarea class="snippet" readonly=true rows="6" spellcheck="false"
                      aria-label="Embed code" value={snippet} />
            <div class="embed-actions">
                <button type="button" onclick={on_copy}>{ "Copy embed code" }</button>
                <span role="status">{ if *copied { "Copied to the clipboard." } else { "" } }</span>
            </div>
        </details>
    }
}
