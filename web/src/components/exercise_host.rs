//! Where "Your reconcile" goes in the layout: the element its module renders
//! into, and until that module has loaded, a line that says so (or why it
//! could not, with a button to try again).

use yew::prelude::*;

use crate::hooks::{ModuleLoad, OnDemand};

pub fn exercise_host(open: bool, pane: &OnDemand) -> Html {
    if !open {
        return html! {};
    }
    let status = match &pane.load {
        ModuleLoad::Idle | ModuleLoad::Loading => html! {
            <p class="pane exercise-loading" role="status">{ "Loading Your reconcile…" }</p>
        },
        ModuleLoad::Failed(message) => html! {
            <div class="pane exercise-loading" role="alert">
                <p>{ format!("Your reconcile could not be loaded: {message}") }</p>
                <button type="button" onclick={pane.retry.reform(|_: MouseEvent| ())}>{ "Try again" }</button>
            </div>
        },
        ModuleLoad::Ready => html! {},
    };
    html! {
        <>
            { status }
            { Html::VRef(pane.host.clone()) }
        </>
    }
}
