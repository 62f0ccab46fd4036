//! Faults and settings: inject another actor's change, failures, watch
//! breaks, resync, backoff, finalizer owners (stuck, or their speed), a
//! crash. Each change is a `SettingChange`, which the section's app applies
//! to the run's settings and sends to the page (`SimulationEvent::Settings`).

use std::fmt::Write as _;

use reconcile_core::Json;
use reconcile_sim::{
    format_millis, BackoffPolicy, DriftInputError, FinalizerRef, Millis, PropagationPolicy,
    QueueModel, SimConfig, SpecComparison, WorldEvent,
};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::naming_setting::naming_fieldset;
use super::status_writes_field::StatusWritesField;
use reconcile_protocol::setting_change::SettingChange;
use reconcile_ui_shared::Shared;

use crate::section::state::SectionRun;

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
    /// Starts closed (in an embed, where a course column has little room).
    #[prop_or_default]
    pub closed: bool,
}

/// Objects offered as targets at most.
const TARGET_LIMIT: usize = 200;

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

const RESYNC_CHOICES: [(&str, Option<u64>); 4] = [
    ("off", None),
    ("1 s", Some(1_000)),
    ("10 s", Some(10_000)),
    ("60 s", Some(60_000)),
];

fn backoff_choices() -> [(&'static str, &'static str, BackoffPolicy); 3] {
    [
        ("client-go", "client-go default", BackoffPolicy::default()),
        (
            "fixed-1s",
            "kube-rs: fixed 1 s",
            BackoffPolicy::FixedDelay { delay_ms: 1_000 },
        ),
        (
            "fixed-5s",
            "kube-rs: fixed 5 s",
            BackoffPolicy::FixedDelay { delay_ms: 5_000 },
        ),
    ]
}

#[component]
pub fn FaultPanel(props: &FaultPanelProps) -> Html {
    let run = &props.run;
    let config = &run.config;
    let moment = run.moment_at(props.position);
    let world = run.timeline.world_at(moment);
    let shown_pass = run.timeline.passes_at(moment);
    // A long select is unusable and slow to redraw on every pass: offer the first names.
    let names: Vec<String> = world
        .observed
        .names()
        .take(TARGET_LIMIT)
        .map(str::to_owned)
        .collect();
    let target = use_state(String::new);
    let field = use_state(|| "replicas".to_owned());
    let value = use_state(|| "7".to_owned());
    let stray = use_state(|| "stray-pod".to_owned());
    let crash_after = use_state(|| 1usize);
    let value_error = use_state(|| None::<String>);
    let chosen = if names.contains(&target) {
        (*target).clone()
    } else {
        names.first().cloned().unwrap_or_default()
    };

    let on_target = {
        let target = target.clone();
        Callback::from(move |e: Event| {
            target.set(e.target_unchecked_into::<HtmlSelectElement>().value())
        })
    };
    let inject = |make: Box<dyn Fn() -> Option<WorldEvent>>| {
        let on_change = props.on_change.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(event) = make() {
                on_change.emit(SettingChange::Inject(event));
            }
        })
    };
    let delete = {
        let name = chosen.clone();
        inject(Box::new(move || {
            (!name.is_empty()).then(|| WorldEvent::Delete { name: name.clone() })
        }))
    };
    let drift = {
        let (name, field, value, value_error) = (
            chosen.clone(),
            (*field).clone(),
            (*value).clone(),
            value_error.clone(),
        );
        inject(Box::new(move || {
            // The simulation reads and checks the typed drift; this only shows its verdict.
            match WorldEvent::drift_from_input(&name, &field, &value) {
                Err(error @ DriftInputError::Value(_)) => {
                    value_error.set(Some(error.to_string()));
                    None
                }
                _ if name.is_empty() => None,
                Err(error) => {
                    value_error.set(Some(error.to_string()));
                    None
                }
                Ok(event) => {
                    value_error.set(None);
                    Some(event)
                }
            }
        }))
    };
    let stray_create = {
        let name = (*stray).clone();
        inject(Box::new(move || {
            let spec = Json::object(vec![("app".into(), Json::string("stray"))]);
            (!name.trim().is_empty()).then(|| WorldEvent::StrayCreate {
                name: name.trim().to_owned(),
                spec,
            })
        }))
    };
    let add_finalizer = {
        let name = chosen.clone();
        inject(Box::new(move || {
            (!name.is_empty()).then(|| WorldEvent::AddFinalizer {
                name: name.clone(),
                finalizer: "example.com/hold".into(),
            })
        }))
    };
    // `kubectl delete --cascade=...` of the custom resource; the garbage collector does the rest.
    let delete_custom_resource = |propagation: PropagationPolicy| {
        inject(Box::new(move || {
            Some(WorldEvent::DeleteCustomResource { propagation })
        }))
    };
    let cascades = [
        PropagationPolicy::Background,
        PropagationPolicy::Foreground,
        PropagationPolicy::Orphan,
    ];

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
    let on_backoff = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        let policy = backoff_choices()
            .into_iter()
            .find(|(id, _, _)| *id == value)
            .map(|(_, _, p)| p);
        SettingChange::Backoff(policy.unwrap_or_default())
    });
    let on_queue = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        SettingChange::Queue(match value.as_str() {
            "controller-runtime-priority" => QueueModel::ControllerRuntimePriority,
            "kube-rs" => QueueModel::KubeRs,
            _ => QueueModel::ClientGo,
        })
    });
    let on_compare = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        SettingChange::Compare(if value == "fields-it-sets" {
            SpecComparison::FieldsItSets
        } else {
            SpecComparison::WholeSpec
        })
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
    let text_setter = |state: &UseStateHandle<String>| {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            state.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_crash_after = {
        let crash_after = crash_after.clone();
        Callback::from(move |e: Event| crash_after.set(input_value(&e).parse().unwrap_or(1)))
    };

    // Every finalizer entry that exists at some point, for the stuck toggles.
    let mut entries: Vec<FinalizerRef> = Vec::new();
    for world in std::iter::once(world) {
        for (object, list) in world.finalizers.iter() {
            for finalizer in list {
                entries.push(FinalizerRef {
                    object: object.to_owned(),
                    finalizer: finalizer.clone(),
                });
            }
        }
    }
    for (object, list) in run.timeline.initial.finalizers.iter() {
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
    for entry in &config.stuck_finalizers {
        if !entries.contains(entry) {
            entries.push(entry.clone());
        }
    }
    let current_backoff = backoff_choices()
        .into_iter()
        .find(|(_, _, p)| *p == config.backoff)
        .map_or("client-go", |c| c.0);
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
        <details class="fault-panel" open={!props.closed}>
            <summary><h3>{ "Faults and settings" }</h3></summary>
            if props.readonly {
                <p class="muted small">{ "Read-only: this run's faults and settings are fixed by the page that embeds it." }</p>
            }
            // A disabled fieldset disables every control inside it.
            <fieldset class="fault-grid" disabled={props.readonly}>
                <fieldset>
                    <legend>{ format!("Another actor, right after pass {}", shown_pass) }</legend>
                    <label>{ "Object " }
                        <select onchange={on_target} aria-label="Target object">
                            { for names.iter().map(|n| html! { <option value={n.clone()} selected={*n == chosen}>{ n }</option> }) }
                        </select>
                    </label>
                    <div class="row">
                        <button type="button" onclick={delete} disabled={chosen.is_empty()}>{ "Delete it" }</button>
                        <button type="button" onclick={add_finalizer} disabled={chosen.is_empty()}>{ "Add a finalizer" }</button>
                    </div>
                    <div class="row">
                        <label>{ "Field " }<input type="text" value={(*field).clone()} oninput={text_setter(&field)} aria-label="Drift field path" title="A JSON path: replicas, or $.metadata.labels[\"app.kubernetes.io/name\"] for a name with dots" size="10" /></label>
                        <label>{ "Value " }<input type="text" value={(*value).clone()} oninput={text_setter(&value)} aria-label="Drift value (JSON)" size="6" /></label>
                        <button type="button" onclick={drift} disabled={chosen.is_empty()}>{ "Drift it" }</button>
                    </div>
                    if let Some(error) = &*value_error {
                        <p class="editor-error" role="alert">{ error }</p>
                    }
                    <div class="row">
                        <label>{ "Name " }<input type="text" value={(*stray).clone()} oninput={text_setter(&stray)} aria-label="Stray object name" size="10" /></label>
                        <button type="button" onclick={stray_create}>{ "Create a stray object" }</button>
                    </div>
                    <div class="row">
                        { "Delete the custom resource: " }
                        { for cascades.into_iter().map(|propagation| html! {
                            <button type="button" onclick={delete_custom_resource(propagation)}
                                    title="Its dependents go to the garbage collector, as this propagation policy says">
                                { propagation.to_string() }
                            </button>
                        }) }
                    </div>
                </fieldset>
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
                <fieldset>
                    <legend>{ "Requeue with backoff" }</legend>
                    <select onchange={on_backoff} aria-label="Backoff policy">
                        { for backoff_choices().iter().map(|(id, label, _)| html! {
                            <option value={*id} selected={*id == current_backoff}>{ *label }</option>
                        }) }
                    </select>
                    <p class="muted small">{ backoff_description(&config.backoff) }</p>
                    { backoff_curve(&config.backoff) }
                    <label>{ "Work queue " }
                        <select onchange={on_queue} aria-label="Work queue">
                            <option value="client-go" selected={config.queue == QueueModel::ClientGo}>
                                { "client-go" }
                            </option>
                            <option value="controller-runtime-priority" selected={config.queue == QueueModel::ControllerRuntimePriority}>
                                { "controller-runtime priority queue" }
                            </option>
                            <option value="kube-rs" selected={config.queue == QueueModel::KubeRs}>
                                { "kube-rs" }
                            </option>
                        </select>
                    </label>
                    <p class="muted small">{ queue_description(config.queue) }</p>
                </fieldset>
                <fieldset>
                    <legend>{ "The controller compares" }</legend>
                    <select onchange={on_compare} aria-label="What the controller compares">
                        <option value="whole-spec" selected={config.compare == SpecComparison::WholeSpec}>
                            { "the whole spec (the contract)" }
                        </option>
                        <option value="fields-it-sets" selected={config.compare == SpecComparison::FieldsItSets}>
                            { "only the fields it sets" }
                        </option>
                    </select>
                    <p class="muted small">{ compare_description(config.compare) }</p>
                </fieldset>
                { naming_fieldset(config, &props.on_change) }
                <StatusWritesField config={config.clone()} on_change={props.on_change.clone()} />
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
            </fieldset>
        </details>
    }
}

/// How long each finalizer's owner takes per object, `None` for the default.
const OWNER_SPEEDS: [(&str, Option<Millis>); 5] = [
    ("default", None),
    ("10 ms", Some(10)),
    ("500 ms", Some(500)),
    ("2 s", Some(2_000)),
    ("10 s", Some(10_000)),
];

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

fn compare_description(compare: SpecComparison) -> &'static str {
    match compare {
        SpecComparison::WholeSpec => {
            "Any difference is drift, including fields the API server filled in with defaults."
        }
        SpecComparison::FieldsItSets => {
            "Beyond the contract: members its desired spec leaves out are not compared, and an \
             UPDATE sends them back as it read them, as with controller-runtime's CreateOrUpdate \
             or server-side apply's field ownership."
        }
    }
}

fn queue_description(model: QueueModel) -> String {
    let how = match model {
        QueueModel::ControllerRuntimePriority => {
            "One item per key: an add makes a waiting requeue ready at once."
        }
        QueueModel::KubeRs => {
            "One slot per object, the earlier time wins; an event during a reconcile waits for it to end, \
             and then the requeue it asked for is dropped. No rate limiter: a failure is requeued by the \
             error_policy's fixed delay."
        }
        _ => "A delayed requeue waits apart from the queue: it still fires after a watch event ran the key.",
    };
    format!("{how} Follows {}.", model.follows())
}

fn backoff_description(policy: &BackoffPolicy) -> String {
    match policy {
        BackoffPolicy::ClientGo { base_ms, max_ms, qps, burst } => format!(
            "Per item: {} · 2ⁿ after n failures, at most {}; overall: a token bucket of {qps} qps, burst {burst}. \
             The larger delay wins (client-go's DefaultControllerRateLimiter).",
            format_millis(*base_ms),
            format_millis(*max_ms)
        ),
        BackoffPolicy::FixedDelay { delay_ms } => format!(
            "Every failure requeues after {} (an error policy returning Action::requeue in kube-rs).",
            format_millis(*delay_ms)
        ),
    }
}

/// The per-item delay after 0..12 failures, on a log scale.
fn backoff_curve(policy: &BackoffPolicy) -> Html {
    const FAILURES: u32 = 12;
    let delays: Vec<u64> = (0..=FAILURES).map(|n| policy.item_delay(n)).collect();
    // Integer SVG units; the y axis is logarithmic (bits of the delay, from 1 ms).
    let bits = |ms: u64| u64::from(64 - ms.max(1).leading_zeros());
    let top = bits(*delays.iter().max().unwrap_or(&1)).max(1);
    let mut points = String::new();
    for (n, delay) in (0u64..).zip(&delays) {
        let x = 24 + 220 * n / u64::from(FAILURES);
        let y = 80 - 70 * bits(*delay) / top;
        let _ = write!(points, "{x},{y} ");
    }
    let summary = delays
        .iter()
        .map(|d| format_millis(*d))
        .collect::<Vec<_>>()
        .join(", ");
    html! {
        <figure class="backoff-curve">
            <svg viewBox="0 0 260 100" role="img" aria-label={format!("Requeue delay after 1 to {} failures: {summary}", FAILURES + 1)}>
                <line class="axis" x1="24" y1="80" x2="250" y2="80" />
                <polyline class="series out-of-sync" points={points} />
                <text class="tick" x="24" y="95">{ "1st failure" }</text>
                <text class="tick" x="250" y="95" text-anchor="end">{ format!("{}th", FAILURES + 1) }</text>
                <text class="tick" x="26" y="12">{ format_millis(*delays.last().unwrap_or(&0)) }</text>
            </svg>
            <figcaption class="muted small">{ format!("Delays: {summary}") }</figcaption>
        </figure>
    }
}
