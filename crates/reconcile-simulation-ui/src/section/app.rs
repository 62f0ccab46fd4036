//! The section's root: draws what [`super::state::SectionState`] shows, in
//! the order the page drew it after its controls, and turns every click
//! into a request to the page.

use reconcile_protocol::section::SimulationEvent;
use reconcile_protocol::setting_change::SettingChange;
use reconcile_sim::key_out_of_sync_series;
use yew::prelude::*;

use super::components::chart::convergence_chart;
use super::components::fault_panel::FaultPanel;
use super::components::key_status::{key_picker, KeyGrid};
use super::components::pass_list::PassList;
use super::components::replay::{not_for_a_replay, replay_banner, replay_refused};
use super::components::run_views::{control_plane_details, level_edge_details};
use super::components::status_grid::StatusGrid;
use super::components::verdict::{snapshot_banner, verdict_banner};
use super::components::world_now::world_now_portal;
use super::state::SectionShown;

#[derive(Properties, PartialEq)]
pub struct SectionProps {
    pub shown: SectionShown,
    /// Tells the page.
    pub to_page: Callback<SimulationEvent>,
    /// Asks the page to move its cursor (made once, so that the passes'
    /// rows keep their props and are not drawn again on every move).
    pub on_move: Callback<usize>,
}

#[component]
pub fn SectionApp(props: &SectionProps) -> Html {
    let shown = &props.shown;
    // The custom resource the chart shows, of several (`None`: all).
    let chart_key = use_state(|| None::<String>);
    if let Some(message) = &shown.replay_refused {
        return replay_refused(message);
    }
    // Concealed or not simulated yet: the page's frame says so.
    let (Some(run), false) = (&shown.run, shown.frame.concealed) else {
        return Html::default();
    };
    let (frame, cursor, on_move) = (shown.frame, shown.cursor, &props.on_move);
    let on_change = {
        let (run, to_page) = (run.clone(), props.to_page.clone());
        Callback::from(move |change: SettingChange| {
            to_page.emit(run.settings_after(change, cursor.position))
        })
    };
    let moment = run.moment_at(cursor.position);
    let at_event = &shown.at_event;
    let on_choose = {
        let chart_key = chart_key.clone();
        Callback::from(move |key| chart_key.set(key))
    };
    // A key of an earlier run the new one lacks shows every custom resource.
    let revealed = cursor.revealed + 1;
    let key_series = chart_key.as_deref().and_then(|key| {
        let series = key_out_of_sync_series(&run.timeline, &run.scenario, key, revealed)?;
        Some((key, series))
    });
    let chosen = key_series.as_ref().map(|(key, _)| *key);
    html! {
        <>
            if let Some(replay) = &run.replay {
                { replay_banner(run, replay, cursor.position, on_move) }
            }
            { verdict_banner(run, shown) }
            { snapshot_banner(run, shown, on_move) }
            if frame.timeline && !shown.before_first_step() {
                <div class="sim-grid">
                    <PassList timeline={run.timeline.clone()} cursor={cursor.position} revealed={cursor.revealed}
                              event={cursor.event} on_move={on_move.clone()}
                              broke_at={run.replay.as_ref().map(|r| r.broke_at)} />
                    <div class="sim-side">
                        { key_picker(run, chosen, &on_choose) }
                        { convergence_chart(&run.timeline, cursor.revealed, cursor.position,
                                            at_event.as_deref(), on_move, key_series.clone()) }
                        <KeyGrid run={run.clone()} {moment} at_event={at_event.clone()} />
                        <StatusGrid timeline={run.timeline.clone()} {moment} at_event={at_event.clone()} />
                    </div>
                </div>
            }
            if frame.faults && run.replay.is_some() {
                { not_for_a_replay("fault-panel", "Faults and settings do not apply to a replay: \
                    its faults are the schedule the check found, told above.") }
            } else if frame.faults {
                <FaultPanel run={run.clone()} position={cursor.position} {on_change}
                            readonly={frame.readonly} />
            }
            if frame.timeline {
                { control_plane_details(shown, on_move, &props.to_page) }
                if run.replay.is_some() {
                    { not_for_a_replay("level-edge", "Level- vs edge-triggered compares two contract \
                        loops on the page's scenario: it does not apply to a replay.") }
                } else {
                    { level_edge_details(shown, &props.to_page) }
                }
            }
            if shown.world_now {
                { world_now_portal(run, cursor.position, at_event.as_deref()) }
            }
        </>
    }
}
