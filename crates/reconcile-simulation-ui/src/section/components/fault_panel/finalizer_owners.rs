//! Faults and settings → "Finalizer owners": which finalizers are stuck,
//! and how long each one's owner takes per object.

use reconcile_sim::{FinalizerRef, Millis, SimConfig};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::RunProps;

use reconcile_protocol::setting_change::SettingChange;

use crate::section::state::SectionRun;

/// How long each finalizer's owner takes per object, `None` for the default.
const OWNER_SPEEDS: [(&str, Option<Millis>); 5] = [
    ("default", None),
    ("10 ms", Some(10)),
    ("500 ms", Some(500)),
    ("2 s", Some(2_000)),
    ("10 s", Some(10_000)),
];

#[component]
pub fn FinalizerOwners(props: &RunProps) -> Html {
    let config = &props.run.config;
    let entries = finalizer_entries(&props.run, props.position);
    html! {
        <fieldset>
            <legend>{ "Finalizer owners" }</legend>
            if entries.is_empty() {
                <p class="muted small">{ "No finalizers in this scenario. Add some in the Finalizers editor." }</p>
            }
            { for entries.iter().map(|entry| {
                let checked = config.stuck_finalizers.contains(entry);
                let toggle = { let entry = entry.clone(); props.on_change.reform(move |_: Event| SettingChange::ToggleStuck(entry.clone())) };
                html! {
                    <label class="check">
                        <input type="checkbox" {checked} onchange={toggle} />
                        { format!(" {} on {} is stuck", entry.finalizer, entry.object) }
                    </label>
                }
            }) }
            { owner_speeds(config, &entries, &props.on_change) }
        </fieldset>
    }
}

/// Every finalizer entry that exists at the cursor, at the start, or is
/// marked stuck, for the stuck toggles.
fn finalizer_entries(run: &SectionRun, position: usize) -> Vec<FinalizerRef> {
    let world = run.timeline.world_at(run.moment_at(position));
    let mut entries: Vec<FinalizerRef> = Vec::new();
    let lists = world
        .finalizers
        .iter()
        .chain(run.timeline.initial.finalizers.iter());
    for (object, list) in lists {
        for finalizer in list {
            let entry = FinalizerRef {
                object: object.to_owned(),
                finalizer: finalizer.clone(),
            };
            if !entries.contains(&entry) {
                entries.push(entry);
            }
        }
    }
    for entry in &run.config.stuck_finalizers {
        if !entries.contains(entry) {
            entries.push(entry.clone());
        }
    }
    entries
}

/// A speed choice for the owner of each finalizer name: another controller,
/// which cleans up after one object at a time.
fn owner_speeds(
    config: &SimConfig,
    entries: &[FinalizerRef],
    on_change: &Callback<SettingChange>,
) -> Html {
    let mut names: Vec<&str> = Vec::new();
    for entry in entries {
        if !names.contains(&entry.finalizer.as_str()) {
            names.push(&entry.finalizer);
        }
    }
    let default_label = format!("default ({} ms)", config.finalizer_owner_delay_ms);
    html! {
        { for names.into_iter().map(|finalizer| {
            let current = config.finalizer_owners.iter().find(|o| o.finalizer == finalizer).map(|o| o.delay_ms);
            let on_change = {
                let finalizer = finalizer.to_owned();
                on_change.reform(move |e: Event| {
                    let value = e.target_unchecked_into::<HtmlSelectElement>().value();
                    let delay_ms = OWNER_SPEEDS.iter().find(|(label, _)| *label == value).and_then(|(_, d)| *d);
                    SettingChange::OwnerDelay { finalizer: finalizer.clone(), delay_ms }
                })
            };
            html! {
                <label class="slider">
                    { format!("The owner of {finalizer} takes, per object:") }
                    <select onchange={on_change}>
                        { for OWNER_SPEEDS.iter().map(|(label, delay)| html! {
                            <option value={*label} selected={*delay == current}>
                                { if delay.is_none() { default_label.clone() } else { (*label).to_owned() } }
                            </option>
                        }) }
                    </select>
                </label>
            }
        }) }
    }
}
