//! Faults and settings → "The controller writes": PUT (the contract), or
//! server-side apply under its own field manager, with or without force.

use reconcile_sim::ObjectWrites;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::SettingProps;

use reconcile_protocol::setting_change::SettingChange;

#[component]
pub fn Writes(props: &SettingProps) -> Html {
    let writes = props.config.writes;
    let on_writes = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        SettingChange::Writes(match value.as_str() {
            "apply" => ObjectWrites::Apply,
            "force-apply" => ObjectWrites::ForceApply,
            _ => ObjectWrites::Update,
        })
    });
    let option = |value: &'static str, label: &'static str, this: ObjectWrites| {
        html! { <option value={value} selected={writes == this}>{ label }</option> }
    };
    html! {
        <fieldset>
            <legend>{ "The controller writes" }</legend>
            <select onchange={on_writes} aria-label="How the controller writes objects">
                { option("update", "POST and PUT (the contract)", ObjectWrites::Update) }
                { option("apply", "with server-side apply", ObjectWrites::Apply) }
                { option("force-apply", "with server-side apply, forced", ObjectWrites::ForceApply) }
            </select>
            <p class="muted small">{ writes_description(writes) }</p>
        </fieldset>
    }
}

fn writes_description(writes: ObjectWrites) -> &'static str {
    match writes {
        ObjectWrites::Update => {
            "Each UPDATE is a PUT: it never conflicts with another field manager."
        }
        ObjectWrites::Apply => {
            "Beyond the contract: each CREATE and UPDATE applies the desired spec as field \
             manager contract-controller, comparing only the fields it sets. A field another \
             manager owns is a 409 Conflict."
        }
        ObjectWrites::ForceApply => {
            "Beyond the contract: as apply, but forced, so it takes the fields it applies \
             from their owners."
        }
    }
}
