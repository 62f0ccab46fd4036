//! A run of several custom resources: each one's status at the cursor (a
//! table above the objects' grid) and the chart's choice of key. With one
//! custom resource neither is drawn, so the section looks as before.

use std::borrow::Cow;

use reconcile_sim::{key_statuses, EventMoment, Moment};
use reconcile_ui_shared::Shared;
use yew::prelude::*;

use crate::section::state::SectionRun;

/// Rows shown at most; the rest are counted in one line.
const ROW_LIMIT: usize = 100;

#[derive(Properties, PartialEq)]
pub struct KeyGridProps {
    pub run: Shared<SectionRun>,
    pub moment: Moment,
    /// Stepping by event: the run at the cursor's event, shown instead.
    pub at_event: Option<Shared<EventMoment>>,
}

/// Each custom resource: converged, or how many of its objects are out of
/// sync, at the status grid's moment. Those not converged come first.
#[component]
pub fn KeyGrid(props: &KeyGridProps) -> Html {
    let run = &props.run;
    if run.scenario.entries().len() < 2 {
        return Html::default();
    }
    let timeline = &run.timeline;
    let (store, lags) = match props.at_event.as_deref() {
        Some(at) => (&*at.store, Cow::Owned(at.cache_lag())),
        None => (
            timeline.world_at(props.moment),
            Cow::Borrowed(timeline.cache_lag_at(props.moment)),
        ),
    };
    let keys = key_statuses(&run.scenario, store, &lags, timeline.naming);
    let total = keys.len();
    let (mut shown, converged): (Vec<_>, Vec<_>) = keys.into_iter().partition(|k| !k.converged());
    let waiting = shown.len();
    shown.extend(converged);
    shown.truncate(ROW_LIMIT);
    let summary = format!("{} of {total} custom resources converged", total - waiting);
    html! {
        <table class="status-grid key-grid" aria-label="Custom resource status">
            <caption>{ summary }</caption>
            <thead><tr><th scope="col">{ "Custom resource" }</th><th scope="col">{ "State" }</th></tr></thead>
            <tbody>
                { shown.iter().map(|key| {
                    let (class, icon, state) = match (key.converged(), key.out_of_sync()) {
                        (true, _) => ("state-in-sync", "✓", "converged".to_owned()),
                        (false, 0) => ("state-terminating", "◐", "objects terminating".to_owned()),
                        (false, n) => ("state-drifted", "≠", format!("{n} object(s) out of sync")),
                    };
                    html! {
                        <tr key={key.key.to_string()} class={class} data-key={key.key.to_string()}>
                            <th scope="row"><code>{ &*key.key }</code></th>
                            <td class="state"><span aria-hidden="true">{ icon }{ " " }</span>{ state }</td>
                        </tr>
                    }
                }).collect::<Html>() }
                if total > ROW_LIMIT {
                    <tr class="more-rows"><td colspan="2">
                        { format!("…and {} more custom resources, all converged, not listed.", total - ROW_LIMIT) }
                    </td></tr>
                }
            </tbody>
        </table>
    }
}

/// The chart's choice: every custom resource together, or one of them.
pub fn key_picker(
    run: &SectionRun,
    chosen: Option<&str>,
    on_choose: &Callback<Option<String>>,
) -> Html {
    if run.scenario.entries().len() < 2 {
        return Html::default();
    }
    let onchange = on_choose.reform(|event: Event| {
        let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
        Some(select.value()).filter(|key| !key.is_empty())
    });
    html! {
        <p class="key-picker">
            <label for="chart-key">{ "Chart of " }</label>
            <select id="chart-key" {onchange}>
                <option value="" selected={chosen.is_none()}>{ "every custom resource" }</option>
                { for run.scenario.entries().iter().map(|entry| html! {
                    <option value={entry.name.to_string()} selected={chosen == Some(&*entry.name)}>{ &*entry.name }</option>
                }) }
            </select>
        </p>
    }
}
