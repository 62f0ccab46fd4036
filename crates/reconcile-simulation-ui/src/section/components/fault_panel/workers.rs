//! Faults and settings → "Workers": controller-runtime's
//! `MaxConcurrentReconciles`, shown when the run has several custom
//! resources, since one key never runs on two workers.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::SettingProps;

use reconcile_protocol::setting_change::SettingChange;

#[component]
pub fn Workers(props: &SettingProps) -> Html {
    let on_change = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlInputElement>().value();
        SettingChange::Workers(value.trim().parse().unwrap_or(1))
    });
    html! {
        <fieldset>
            <legend>{ "Workers" }</legend>
            <label>{ "Reconciles at once (MaxConcurrentReconciles) " }
                <input type="number" min="1" max="64" step="1" class="workers"
                       value={props.config.workers.to_string()} onchange={on_change} />
            </label>
            <p class="muted small">{ "Each custom resource is a key in one work queue. \
                Keys run on different workers at once; one key never runs on two." }</p>
        </fieldset>
    }
}
