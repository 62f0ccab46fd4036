//! The one place for where an app loaded on demand goes in the layout ("Your
//! reconcile", the control-plane view, level vs edge): the element its module
//! renders into and, until the module has loaded, a line that says so, or
//! why it could not, with a button to try again.

use yew::prelude::*;

use crate::hooks::{ModuleLoad, OnDemand};

/// The app's element with its loading line, while its part of the page is
/// `open`; closed, nothing (the app, out of the page, keeps its state).
/// `what` names the app in the line ("the control-plane view"); `class` is
/// the line's.
pub fn on_demand_host(open: bool, app: &OnDemand, what: &str, class: &'static str) -> Html {
    if !open {
        return html! {};
    }
    let status = match &app.load {
        ModuleLoad::Idle | ModuleLoad::Loading => html! {
            <p {class} role="status">{ format!("Loading {what}…") }</p>
        },
        ModuleLoad::Failed(message) => html! {
            <div {class} role="alert">
                <p>{ format!("{} could not be loaded: {message}", capitalized(what)) }</p>
                <button type="button" onclick={app.retry.reform(|_: MouseEvent| ())}>{ "Try again" }</button>
            </div>
        },
        ModuleLoad::Ready => html! {},
    };
    html! {
        <>
            { status }
            { Html::VRef(app.host.clone()) }
        </>
    }
}

fn capitalized(what: &str) -> String {
    let mut chars = what.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
