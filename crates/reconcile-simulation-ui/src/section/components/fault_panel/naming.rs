//! Faults and settings → "How the controller names what it creates": the
//! simulated controller's naming option (`reconcile_sim::naming`), beyond the
//! seed's contract.

use reconcile_sim::ObjectNaming;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::SettingProps;

use reconcile_protocol::setting_change::SettingChange;

/// Each choice: its value in settings and links, its label, what it does.
const CHOICES: [(ObjectNaming, &str, &str, &str); 3] = [
    (
        ObjectNaming::Deterministic,
        "deterministic",
        "the desired name (the contract)",
        "A CREATE names the object as reconcile does: a second CREATE of the same name, from a \
         stale cache, is refused with 409 AlreadyExists.",
    ),
    (
        ObjectNaming::GenerateName,
        "generate-name",
        "generateName",
        "Beyond the contract: a CREATE of N sends generateName \"N-\" and the API server picks \
         N-xxxxx. The controller shows reconcile the oldest N-xxxxx as N and any other under its \
         own name, so a duplicate made from a stale cache is deleted later.",
    ),
    (
        ObjectNaming::GenerateNameWithExpectations,
        "generate-name-with-expectations",
        "generateName with expectations",
        "Beyond the contract: generateName, and, as a ReplicaSet does, after a pass that creates \
         the controller skips its passes until its cache has seen those creations (or 5 minutes \
         pass).",
    ),
];

#[component]
pub fn Naming(props: &SettingProps) -> Html {
    let config = &props.config;
    let on_change = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        let naming = CHOICES
            .iter()
            .find(|(_, id, _, _)| *id == value)
            .map_or(ObjectNaming::Deterministic, |(naming, ..)| *naming);
        SettingChange::Naming(naming)
    });
    let on_consistency = props.on_change.reform(|e: Event| {
        SettingChange::ConsistencyStore(e.target_unchecked_into::<HtmlInputElement>().checked())
    });
    let description = CHOICES
        .iter()
        .find(|(naming, ..)| *naming == config.naming)
        .map_or("", |(.., description)| *description);
    html! {
        <fieldset>
            <legend>{ "How the controller names what it creates" }</legend>
            <p class="plain">{ "A new object gets its name from the desired state, or the API server makes one up." }</p>
            <select onchange={on_change} aria-label="How the controller names what it creates">
                { for CHOICES.iter().map(|(naming, id, label, _)| html! {
                    <option value={*id} selected={*naming == config.naming}>{ *label }</option>
                }) }
            </select>
            <p class="muted small">{ description }</p>
            <label>
                <input type="checkbox" checked={config.consistency_store} onchange={on_consistency} />
                { " Wait until the cache has the controller's own writes (KEP-5647)" }
            </label>
            <p class="muted small">{ "Kubernetes 1.36: the controller remembers the resourceVersion of its last write. \
                A pass whose cache has not synced it returns an error and is retried with backoff." }</p>
        </fieldset>
    }
}
