//! "Embed in a course page": the share link as a ready-to-paste iframe snippet.

use reconcile_content::package::PackageTarget;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser;
use crate::embed::{embed_snippet, EmbedChoice};
use crate::on_demand;

/// The module that packs an LMS package in the browser (`cargo xtask
/// scorm` writes it into the build), loaded on the first click only.
const PACKER: &str = "scorm/pack.js";

#[derive(Properties, PartialEq)]
pub struct EmbedCodeProps {
    /// The share link the snippet shows (`page#v2/…`).
    pub link: AttrValue,
    /// What an LMS package of this state opens; none for a state with
    /// neither a lesson nor the exercise.
    #[prop_or_default]
    pub package: Option<PackageTarget>,
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
            { package_button(props.package) }
        </details>
    }
}

/// "Download as an LMS package": a SCORM 1.2 zip of the state's lesson or
/// exercise, packed in the browser by [`PACKER`] (docs/lms.md), which also
/// says how it went in the status beside the button. Plain markup and one
/// callback, so the page's first view barely grows.
fn package_button(target: Option<PackageTarget>) -> Html {
    let Some(target) = target else {
        return html! {
            <p class="embed-package">{ "An LMS package holds a lesson or the Your reconcile exercise: open one to download it." }</p>
        };
    };
    let onclick = Callback::from(move |e: MouseEvent| {
        on_demand::start(PACKER, "download", &target.name(), &e.target().into());
    });
    html! {
        <div class="embed-actions embed-package">
            <button type="button" {onclick}>{ "Download as an LMS package" }</button>
            <span role="status"></span>
        </div>
    }
}
