//! The tab row above the editors: one tab per custom resource, its name,
//! "Add custom resource" and Remove. With one custom resource it is only
//! the Add button (none in an embed), so the page looks as it did.
//!
//! Kept small for the first view (docs/SIZE.md): one click handler for the
//! whole row (each button names its action in `data-action`) and one for
//! the name, rather than a callback per button.

use yew::prelude::*;

use crate::state::{Action, CustomResourceAction, Playground};

/// The row for `state`'s tabs; `editable` offers Add, Remove and renaming.
/// An embed of one custom resource shows nothing: its column is narrow.
pub fn custom_resource_tabs(
    state: &Playground,
    editable: bool,
    embed: bool,
    dispatch: &Callback<Action>,
) -> Html {
    let tabs = &state.tabs;
    let several = tabs.len() > 1;
    if !several && (!editable || embed) {
        return Html::default();
    }
    let shown = tabs.shown();
    let onclick = {
        let dispatch = dispatch.clone();
        Callback::from(move |event: MouseEvent| {
            let target: web_sys::Element = event.target_unchecked_into();
            let Ok(Some(button)) = target.closest("button") else {
                return;
            };
            let action = button.get_attribute("data-action").unwrap_or_default();
            dispatch.emit(Action::CustomResource(match action.as_str() {
                "add" => CustomResourceAction::Add,
                "remove" => CustomResourceAction::Remove(shown),
                index => match index.parse() {
                    Ok(index) => CustomResourceAction::Select(index),
                    Err(_) => return,
                },
            }));
        })
    };
    let add = editable.then(|| {
        html! { <button type="button" class="small add-custom-resource" data-action="add">{ "Add custom resource" }</button> }
    });
    if !several {
        return html! { <div class="custom-resource-tabs one" {onclick}>{ add }</div> };
    }
    let views = tabs.views(!state.errors.is_empty());
    // Each error of a tab, shown or not: its conflict, else a kept tab's first error.
    let mut errors = Vec::new();
    let mut row = Vec::with_capacity(views.len());
    for (index, view) in views.into_iter().enumerate() {
        let (label, class) = if view.has_error {
            let conflict = (tabs.conflict.as_ref()).filter(|(tab, _)| *tab == index);
            let error = match conflict {
                Some((_, message)) => Some(message.clone()),
                None if index != shown => tabs.kept_error(index).map(ToString::to_string),
                None => None,
            };
            errors.extend(error.map(|error| format!("{}: {error}", view.name)));
            (format!("{} (has an error)", view.name), "cr-tab has-error")
        } else {
            (view.name.to_string(), "cr-tab")
        };
        let selected = if view.shown { "true" } else { "false" };
        row.push(html! {
            <button type="button" role="tab" {class} data-action={index.to_string()}
                    aria-selected={selected} aria-label={label}>{ view.name }</button>
        });
    }
    let rename = editable.then(|| {
        let oninput = dispatch.reform(move |event: InputEvent| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            Action::CustomResource(CustomResourceAction::Rename(shown, input.value()))
        });
        html! {
            <>
                <label>{ "Name " }
                    <input type="text" class="cr-name" value={tabs.name.clone()} {oninput}
                           aria-label="Name of the custom resource shown" spellcheck="false" />
                </label>
                <button type="button" class="small" data-action="remove"
                        aria-label={format!("Remove custom resource {}", tabs.name)}>{ "Remove" }</button>
            </>
        }
    });
    html! {
        <div class="custom-resource-tabs" {onclick}>
            <div role="tablist" aria-label="Custom resources">{ for row }</div>
            { rename }
            { add }
            if !errors.is_empty() {
                <ul class="cr-errors error small" aria-label="Errors in the custom resources" aria-live="polite">
                    { for errors.into_iter().map(|error| html! { <li>{ error }</li> }) }
                </ul>
            }
        </div>
    }
}
