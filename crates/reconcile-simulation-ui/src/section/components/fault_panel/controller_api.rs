//! Faults and settings → "The controller and its API": transient failures,
//! watch breaks, the resync period, a crash and the random seed.

use reconcile_sim::format_millis;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::SettingProps;

use reconcile_protocol::setting_change::SettingChange;

use super::{input_value, percent, rate_of};

const RESYNC_CHOICES: [(&str, Option<u64>); 4] = [
    ("off", None),
    ("1 s", Some(1_000)),
    ("10 s", Some(10_000)),
    ("60 s", Some(60_000)),
];

#[component]
pub fn ControllerApi(props: &SettingProps) -> Html {
    let config = &props.config;
    let crash_after = use_state(|| 1usize);
    let on_failure = props
        .on_change
        .reform(|e: Event| SettingChange::FailureRate(rate_of(&input_value(&e))));
    let on_drop = props
        .on_change
        .reform(|e: Event| SettingChange::WatchBreakRate(rate_of(&input_value(&e))));
    let on_resync = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        SettingChange::Resync(
            RESYNC_CHOICES
                .iter()
                .find(|(label, _)| *label == value)
                .and_then(|(_, p)| *p),
        )
    });
    let on_seed = props
        .on_change
        .reform(|e: Event| SettingChange::Seed(input_value(&e).parse().unwrap_or(1)));
    let on_crash = {
        let after = *crash_after;
        props
            .on_change
            .reform(move |_: MouseEvent| SettingChange::CrashNextPass {
                after_actions: after,
            })
    };
    let on_crash_after = {
        let crash_after = crash_after.clone();
        Callback::from(move |e: Event| crash_after.set(input_value(&e).parse().unwrap_or(1)))
    };
    let current_resync = RESYNC_CHOICES
        .iter()
        .find(|(_, p)| *p == config.resync_period_ms)
        .map(|c| c.0);
    // A period from a preset, a lesson or a link that is not on the menu is
    // shown as it is, never as "off".
    let other_resync = config
        .resync_period_ms
        .filter(|_| current_resync.is_none())
        .map(format_millis);

    html! {
        <fieldset>
            <legend>{ "The controller and its API" }</legend>
            <label class="slider">{ format!("Transient failure rate: {}%", percent(config.failure_rate)) }
                <input type="range" min="0" max="90" step="10" value={percent(config.failure_rate).to_string()}
                       onchange={on_failure} aria-label="Transient failure rate" />
            </label>
            <label class="slider">{ format!("Watch breaks: {}% of events", percent(config.watch_break_rate)) }
                <input type="range" min="0" max="100" step="10" value={percent(config.watch_break_rate).to_string()}
                       onchange={on_drop} aria-label="Watch event drop rate" />
            </label>
            <label>{ "Resync period " }
                <select onchange={on_resync} aria-label="Resync period">
                    { for RESYNC_CHOICES.iter().map(|(label, _)| html! {
                        <option value={*label} selected={Some(*label) == current_resync}>{ *label }</option>
                    }) }
                    if let Some(period) = &other_resync {
                        <option value="other" selected=true>{ period.clone() }</option>
                    }
                </select>
            </label>
            <div class="row">
                <label>{ "Crash after " }
                    <input type="number" min="0" max="50" value={crash_after.to_string()} onchange={on_crash_after}
                           aria-label="Crash after this many actions" class="narrow" />
                    { " action(s)" }
                </label>
                <button type="button" onclick={on_crash}>{ "Crash during next pass" }</button>
            </div>
            if let Some(crash) = config.crash {
                <p class="muted small">{ format!("Planned: crash in pass {} after {} action(s).", crash.at_pass, crash.after_actions) }</p>
            }
            <label>{ "Seed " }
                <input type="number" min="0" value={config.seed.to_string()} onchange={on_seed} aria-label="Random seed" class="narrow" />
            </label>
        </fieldset>
    }
}
