//! The tab row above the editors: one tab per custom resource, its name,
//! "Add custom resource" and Remove. With one custom resource it is only
//! the Add button (none in an embed), so the page looks as it did.

use yew::prelude::*;

use crate::state::{CustomResourceAction, Playground, TabView};

/// The row for `state`'s tabs; `editable` offers Add, Remove and renaming.
/// An embed of one custom resource shows nothing: its column is narrow.
pub fn custom_resource_tabs(
    state: &Playground,
    editable: bool,
    embed: bool,
    on_action: &Callback<CustomResourceAction>,
) -> Html {
    let views = state.tabs.views(!state.errors.is_empty());
    if views.len() == 1 && (!editable || embed) {
        return Html::default();
    }
    let add = editable.then(|| {
        let onclick = on_action.reform(|_: MouseEvent| CustomResourceAction::Add);
        html! { <button type="button" class="small add-custom-resource" {onclick}>{ "Add custom resource" }</button> }
    });
    if views.len() == 1 {
        return html! { <div class="custom-resource-tabs one">{ add }</div> };
    }
    let tab = |(index, view): (usize, &TabView)| {
        let onclick = on_action.reform(move |_: MouseEvent| CustomResourceAction::Select(index));
        let label = if view.has_error {
            format!("{} (has an error)", view.name)
        } else {
            view.name.to_string()
        };
        html! {
            <button type="button" role="tab" class={classes!("cr-tab", view.has_error.then_some("has-error"))}
                    aria-selected={view.shown.to_string()} aria-label={label} {onclick}>
                { view.name.clone() }
                if view.has_error { <span class="cr-tab-mark" aria-hidden="true">{ " ⚠" }</span> }
            </button>
        }
    };
    let shown = state.tabs.shown();
    let rename = editable.then(|| {
        let oninput = on_action.reform(move |event: InputEvent| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            CustomResourceAction::Rename(shown, input.value())
        });
        let onclick = on_action.reform(move |_: MouseEvent| CustomResourceAction::Remove(shown));
        html! {
            <span class="cr-shown">
                <label>{ "Name " }
                    <input type="text" class="cr-name" value={state.tabs.name.clone()} {oninput}
                           aria-label="Name of the custom resource shown" spellcheck="false" />
                </label>
                <button type="button" class="small" {onclick}
                        aria-label={format!("Remove custom resource {}", state.tabs.name)}>{ "Remove" }</button>
            </span>
        }
    });
    // Where each error of a tab not shown is, so it can be found without switching.
    let elsewhere = views
        .iter()
        .enumerate()
        .filter(|(index, view)| view.has_error && *index != shown);
    let errors: Vec<Html> = elsewhere
        .filter_map(|(index, view)| {
            let conflict = state
                .tabs
                .conflict
                .as_ref()
                .filter(|(tab, _)| *tab == index);
            let error = conflict
                .map(|(_, error)| error)
                .or_else(|| state.tabs.kept_error(index))?;
            Some(html! { <li>{ format!("{}: {error}", view.name) }</li> })
        })
        .collect();
    let shown_conflict = state
        .tabs
        .conflict
        .as_ref()
        .filter(|(tab, _)| *tab == shown);
    html! {
        <div class="custom-resource-tabs">
            <div role="tablist" aria-label="Custom resources">
                { for views.iter().enumerate().map(tab) }
            </div>
            { rename }
            { add }
            if let Some((_, error)) = shown_conflict {
                <p class="error small" role="alert">{ error.to_string() }</p>
            }
            if !errors.is_empty() {
                <ul class="cr-errors error small" aria-label="Errors in other custom resources">{ for errors }</ul>
            }
        </div>
    }
}
