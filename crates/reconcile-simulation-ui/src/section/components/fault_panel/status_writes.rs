//! Faults and settings → "Status writes": what the simulated controller
//! writes to its custom resource's status after each pass, and whether its
//! watch ignores updates that leave the generation alone (both beyond the
//! seed's contract; `reconcile_sim::status_writes`).

use reconcile_sim::StatusWrites;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::SettingProps;

use reconcile_protocol::setting_change::SettingChange;

#[component]
pub fn StatusWritesField(props: &SettingProps) -> Html {
    let config = &props.config;
    let on_mode = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        SettingChange::StatusWrites(match value.as_str() {
            "observed-generation" => StatusWrites::ObservedGeneration,
            "with-timestamp" => StatusWrites::WithTimestamp,
            _ => StatusWrites::None,
        })
    });
    let on_predicate = props.on_change.reform(|e: Event| {
        SettingChange::GenerationChangedPredicate(
            e.target_unchecked_into::<HtmlInputElement>().checked(),
        )
    });
    let option = |value: &'static str, mode: StatusWrites, label: &'static str| {
        html! { <option {value} selected={config.status_writes == mode}>{ label }</option> }
    };
    html! {
        <fieldset>
            <legend>{ "Status writes" }</legend>
            <p class="plain">{ "The controller may write a report of its work back on its own resource." }</p>
            <select onchange={on_mode} aria-label="What the controller writes to its status">
                { option("none", StatusWrites::None, "none (the contract)") }
                { option("observed-generation", StatusWrites::ObservedGeneration, "observedGeneration and conditions") }
                { option("with-timestamp", StatusWrites::WithTimestamp, "the same, with lastReconcileTime") }
            </select>
            <label>
                <input type="checkbox" checked={config.generation_changed_predicate} onchange={on_predicate} />
                { " GenerationChangedPredicate on the custom resource's watch" }
            </label>
            <p class="muted small">{ description(config.status_writes) }</p>
        </fieldset>
    }
}

fn description(mode: StatusWrites) -> &'static str {
    match mode {
        StatusWrites::None => "The contract: the controller writes no status.",
        StatusWrites::ObservedGeneration => {
            "Beyond the contract: after each pass it writes observedGeneration and a Ready \
             condition to /status; the same status again writes nothing."
        }
        StatusWrites::WithTimestamp => {
            "Beyond the contract: the status also carries lastReconcileTime, new every pass, so \
             every write is an update event on the custom resource."
        }
    }
}
