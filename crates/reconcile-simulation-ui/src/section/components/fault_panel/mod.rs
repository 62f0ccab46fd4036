//! Faults and settings: inject another actor's change, failures, watch
//! breaks, resync, backoff, finalizer owners (stuck, or their speed), a
//! crash. One component per fieldset. Each change is a `SettingChange`,
//! which the section's app applies to the run's settings and sends to the
//! page (`SimulationEvent::Settings`).

mod another_actor;
mod cloud;
mod compare;
mod controller_api;
mod finalizer_owners;
mod naming;
mod requeue;
mod status_writes;
mod workers;
mod writes;

use reconcile_sim::SimConfig;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use reconcile_protocol::setting_change::SettingChange;
use reconcile_ui_shared::Shared;

use crate::section::state::SectionRun;
use another_actor::AnotherActor;
use compare::Compare;
use controller_api::ControllerApi;
use finalizer_owners::FinalizerOwners;
use naming::Naming;
use requeue::{Requeue, WorkQueue};
use status_writes::StatusWritesField;
use workers::Workers;
use writes::Writes;

#[derive(Properties, PartialEq)]
pub struct FaultPanelProps {
    /// The run shown, whose settings these are.
    pub run: Shared<SectionRun>,
    /// The cursor: a position in the run's moments.
    pub position: usize,
    pub on_change: Callback<SettingChange>,
    /// A read-only embed: the run is the author's; nothing here may change it.
    #[prop_or_default]
    pub readonly: bool,
}

/// A fieldset that reads the run at the cursor.
#[derive(Properties, PartialEq)]
pub struct RunProps {
    pub run: Shared<SectionRun>,
    /// The cursor: a position in the run's moments.
    pub position: usize,
    pub on_change: Callback<SettingChange>,
}

/// A fieldset of settings alone.
#[derive(Properties, PartialEq)]
pub struct SettingProps {
    pub config: SimConfig,
    pub on_change: Callback<SettingChange>,
}

/// Rates are shown and edited as whole percents (integers keep float
/// formatting and parsing code out of the bundle).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn percent(rate: f64) -> u32 {
    (rate * 100.0).round() as u32
}

fn rate_of(percent_text: &str) -> f64 {
    f64::from(percent_text.parse::<u32>().unwrap_or(0).min(100)) / 100.0
}

fn input_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

/// Closed on the page and in embeds: a beginner's first Step should not land
/// on a wall of settings. The advanced ones (rate limiters, queues, naming,
/// status writes) sit behind a second disclosure.
#[component]
pub fn FaultPanel(props: &FaultPanelProps) -> Html {
    let (run, position, on_change) = (&props.run, props.position, &props.on_change);
    let config = &run.config;
    html! {
        <details class="fault-panel">
            <summary><h3>{ "Faults and settings" }</h3></summary>
            if props.readonly {
                <p class="muted small">{ "Read-only: this run's faults and settings are fixed by the page that embeds it." }</p>
            }
            // A disabled fieldset disables every control inside it.
            <fieldset class="fault-grid" disabled={props.readonly}>
                <AnotherActor run={run.clone()} {position} on_change={on_change.clone()} />
                <ControllerApi config={config.clone()} on_change={on_change.clone()} />
                <Compare config={config.clone()} on_change={on_change.clone()} />
                <Writes config={config.clone()} on_change={on_change.clone()} />
                // Workers matter once there are several keys; with one the panel is as it was.
                if run.scenario.entries().len() > 1 {
                    <Workers config={config.clone()} on_change={on_change.clone()} />
                }
                <FinalizerOwners run={run.clone()} {position} on_change={on_change.clone()} />
                <cloud::Cloud config={config.clone()} on_change={on_change.clone()} />
                <details class="advanced-settings">
                    <summary>{ "Advanced settings: rate limiters, queues, naming, status writes" }</summary>
                    <div class="fault-grid">
                        <Requeue config={config.clone()} on_change={on_change.clone()} />
                        <WorkQueue config={config.clone()} on_change={on_change.clone()} />
                        <Naming config={config.clone()} on_change={on_change.clone()} />
                        <StatusWritesField config={config.clone()} on_change={on_change.clone()} />
                    </div>
                </details>
            </fieldset>
        </details>
    }
}
