//! Faults and settings → advanced settings: "Requeue with backoff" (the
//! rate limiter's policy and its curve of delays) and "Work queue" (the
//! queue's model).

use std::fmt::Write as _;

use reconcile_sim::{format_millis, BackoffPolicy, QueueModel};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::SettingProps;

use reconcile_protocol::setting_change::SettingChange;

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
pub fn Requeue(props: &SettingProps) -> Html {
    let config = &props.config;
    let on_backoff = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        let policy = backoff_choices()
            .into_iter()
            .find(|(id, _, _)| *id == value)
            .map(|(_, _, p)| p);
        SettingChange::Backoff(policy.unwrap_or_default())
    });
    let current_backoff = backoff_choices()
        .into_iter()
        .find(|(_, _, p)| *p == config.backoff)
        .map_or("client-go", |c| c.0);
    html! {
        <fieldset>
            <legend>{ "Requeue with backoff" }</legend>
            <p class="plain">{ "After a failure, the controller waits a while before it tries that object again." }</p>
            <select onchange={on_backoff} aria-label="Backoff policy">
                { for backoff_choices().iter().map(|(id, label, _)| html! {
                    <option value={*id} selected={*id == current_backoff}>{ *label }</option>
                }) }
            </select>
            <p class="muted small">{ backoff_description(&config.backoff) }</p>
            { backoff_curve(&config.backoff) }
        </fieldset>
    }
}

#[component]
pub fn WorkQueue(props: &SettingProps) -> Html {
    let queue = props.config.queue;
    let on_queue = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        SettingChange::Queue(match value.as_str() {
            "controller-runtime-priority" => QueueModel::ControllerRuntimePriority,
            "kube-rs" => QueueModel::KubeRs,
            _ => QueueModel::ClientGo,
        })
    });
    html! {
        <fieldset>
            <legend>{ "Work queue" }</legend>
            <p class="plain">{ "The queue holds the objects that wait for a reconcile, each one once." }</p>
            <select onchange={on_queue} aria-label="Work queue">
                <option value="client-go" selected={queue == QueueModel::ClientGo}>
                    { "client-go" }
                </option>
                <option value="controller-runtime-priority" selected={queue == QueueModel::ControllerRuntimePriority}>
                    { "controller-runtime priority queue" }
                </option>
                <option value="kube-rs" selected={queue == QueueModel::KubeRs}>
                    { "kube-rs" }
                </option>
            </select>
            <p class="muted small">{ queue_description(queue) }</p>
        </fieldset>
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
