//! Per-resource status at the shown pass: in sync, drifted, missing, extra or terminating,
//! and where the controller's informer cache still differs from the store.

use std::borrow::Cow;

use reconcile_sim::naming::named_world;
use reconcile_sim::{resource_statuses, EventMoment, Moment, SyncState, Timeline};
use yew::prelude::*;

use reconcile_ui_shared::Shared;

fn state_class(state: SyncState) -> &'static str {
    match state {
        SyncState::InSync => "state-in-sync",
        SyncState::Drifted => "state-drifted",
        SyncState::Missing => "state-missing",
        SyncState::Extra => "state-extra",
        SyncState::Terminating => "state-terminating",
    }
}

/// Rows shown at most; the rest are summarized in one line.
const ROW_LIMIT: usize = 100;

#[derive(Properties, PartialEq)]
pub struct StatusGridProps {
    pub timeline: Shared<Timeline>,
    /// The simulation's cursor: the grid is computed for this moment.
    pub moment: Moment,
    /// Stepping by event: the run at the cursor's event, shown instead.
    pub at_event: Option<Shared<EventMoment>>,
}

/// A component, so a Play beat that doesn't change the shown moment skips it.
#[component]
pub fn StatusGrid(props: &StatusGridProps) -> Html {
    let (timeline, moment) = (&props.timeline, props.moment);
    let at_event = props.at_event.as_deref();
    let (desired, store, lags) = match at_event {
        Some(at) => (at.desired.clone(), &*at.store, Cow::Owned(at.cache_lag())),
        None => (
            timeline.desired_at(moment),
            timeline.world_at(moment),
            Cow::Borrowed(timeline.cache_lag_at(moment)),
        ),
    };
    // Problems first (each group keeps the name order; a stale cached copy is
    // one), and at most ROW_LIMIT
    // rows: a thousand in-sync rows would only hide what matters. (A partition,
    // not a sort: a sort costs the page ~1 KB gzipped.)
    // By desired name, as the controller sees its objects (generated names).
    let world = named_world(timeline.naming, &desired, store);
    let (mut statuses, in_sync): (Vec<_>, Vec<_>) = resource_statuses(&desired, &world, &lags)
        .into_iter()
        .partition(|status| status.state != SyncState::InSync || status.cache.is_some());
    statuses.extend(in_sync);
    let hidden = statuses.len().saturating_sub(ROW_LIMIT);
    statuses.truncate(ROW_LIMIT);
    let caption = match (moment, at_event) {
        (_, Some(at)) => format!("Resource status at {}", at.describe()),
        (Moment::Start, None) => "Resource status at the start".to_owned(),
        (_, None) => format!("Resource status after {}", timeline.describe_moment(moment)),
    };
    html! {
        <table class="status-grid" aria-label="Resource status">
            <caption>{ caption }</caption>
            <thead><tr><th scope="col">{ "Resource" }</th><th scope="col">{ "State" }</th><th scope="col">{ "Details" }</th></tr></thead>
            <tbody>
                // One keyed list of its own (collected, not `for`): spread
                // beside the row below, the rows would be diffed by position,
                // and a row moving up would rebuild every row after it.
                { statuses.iter().map(|status| {
                    let details = match status.state {
                        SyncState::Drifted => format!("differs at {}", status.drifted_fields.join(", ")),
                        SyncState::Terminating if status.pending_finalizers.is_empty() => "no finalizers left; DELETE next".to_owned(),
                        SyncState::Terminating => format!("waiting for {}", status.pending_finalizers.join(", ")),
                        _ if !status.pending_finalizers.is_empty() => format!("finalizers: {}", status.pending_finalizers.join(", ")),
                        _ => String::new(),
                    };
                    let details = match (status.cache, details.is_empty()) {
                        (Some(lag), true) => lag.describe().to_owned(),
                        (Some(lag), false) => format!("{details}; {}", lag.describe()),
                        (None, _) => details,
                    };
                    html! {
                        <tr key={status.name.clone()} class={state_class(status.state)}>
                            <th scope="row"><code>{ &status.name }</code></th>
                            <td class="state"><span aria-hidden="true">{ status.state.icon() }{ " " }</span>{ status.state.label() }</td>
                            <td>{ details }</td>
                        </tr>
                    }
                }).collect::<Html>() }
                if hidden > 0 {
                    <tr class="more-rows"><td colspan="3">
                        { format!("…and {hidden} more resources, all in sync, not listed.") }
                    </td></tr>
                }
            </tbody>
        </table>
    }
}
