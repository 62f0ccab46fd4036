//! Faults and settings → "An external system": the controller keeps a
//! cloud load balancer behind its own finalizer (`reconcile_sim::cloud`),
//! beyond the seed's contract.

use reconcile_sim::CloudSettings;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use reconcile_protocol::setting_change::SettingChange;

use super::{input_value, percent, rate_of, SettingProps};

#[component]
pub fn Cloud(props: &SettingProps) -> Html {
    let cloud = props.config.cloud;
    let on_toggle = props.on_change.reform(|e: Event| {
        let on = e.target_unchecked_into::<HtmlInputElement>().checked();
        SettingChange::Cloud(on.then(CloudSettings::default))
    });
    let settings = cloud.unwrap_or_default();
    let on_failure = props.on_change.reform(move |e: Event| {
        SettingChange::Cloud(Some(CloudSettings {
            failure_rate: rate_of(&input_value(&e)),
            ..settings
        }))
    });
    html! {
        <fieldset>
            <legend>{ "An external system" }</legend>
            <p class="plain">{ "The controller may own something outside the cluster, which only it can delete." }</p>
            <label>
                <input type="checkbox" checked={cloud.is_some()} onchange={on_toggle} />
                { " A cloud load balancer, behind the controller's own finalizer" }
            </label>
            if let Some(cloud) = cloud {
                <label class="slider">{ format!("Cloud failure rate: {}%", percent(cloud.failure_rate)) }
                    <input type="range" min="0" max="100" step="10" value={percent(cloud.failure_rate).to_string()}
                           onchange={on_failure} aria-label="Cloud failure rate" />
                </label>
            }
            <p class="muted small">{ "Each pass adds the finalizer if missing, then ensures the load balancer. \
                When the custom resource is deleted, it stays terminating until the controller has deleted \
                the load balancer and removed its finalizer." }</p>
        </fieldset>
    }
}
