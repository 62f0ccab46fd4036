//! The picture's words, used by both the drawing and its text equivalent.

use reconcile_sim::picture::Position;
use reconcile_sim::picture::{
    Card, CardPair, CollectorWork, ControllerPicture, Freshness, KeyState, Picture, QueuePicture,
};
use reconcile_sim::workqueue::AddOutcome;
use reconcile_sim::{format_millis, ActionResult, EventMoment, Millis, PassPhase, Timeline};

use super::LINES;
use reconcile_ui_shared::words::{change_text, event_text, result_text};

/// "t = 25 ms".
pub fn time(at: Millis) -> String {
    format!("t = {}", format_millis(at))
}

/// What a view that shows only the moments between passes says while the
/// cursor stands at an event: which moment it marks instead.
pub fn boundary_note(at_event: &EventMoment) -> String {
    let marks = match at_event.phase {
        PassPhase::BeforeFirst => "the start".to_owned(),
        PassPhase::During(n) | PassPhase::After(n) => format!("the end of pass {n}"),
    };
    format!(
        "The cursor is at {}. This view shows moments between passes, so it marks {marks}.",
        at_event.describe()
    )
}

/// What the position follows, as the timeline's rows say it.
pub fn now(timeline: &Timeline, picture: &Picture) -> String {
    match (picture.position, &picture.event) {
        (_, Some(entry)) => event_text(&entry.what),
        (Position::ActorEvent(i), None) => timeline
            .actor_events
            .get(i)
            .map_or_else(String::new, |e| format!("{}: {}", e.event, e.effect)),
        _ => "the start: the informer has listed the store into its cache".to_owned(),
    }
}

/// "rv 12 · gen 2 · deleting since t = 30 ms · finalizers: a/b".
pub fn card_meta(card: &Card) -> String {
    let mut meta = format!("rv {} · gen {}", card.resource_version, card.generation);
    if let Some(at) = card.deletion_timestamp {
        meta.push_str(&format!(" · deleting since {}", time(at)));
    }
    if !card.finalizers.is_empty() {
        meta.push_str(&format!(" · finalizers: {}", card.finalizers.join(", ")));
    }
    meta
}

/// How a cache card stands, in words (never colour alone).
pub fn freshness(pair: &CardPair) -> String {
    match pair.freshness {
        Freshness::Fresh => "fresh".to_owned(),
        Freshness::Stale { store_version } => format!("stale: the store has rv {store_version}"),
        Freshness::Deleted => "deleted from the store, still cached".to_owned(),
        Freshness::Unseen => "not in the cache yet".to_owned(),
    }
}

/// The spec, cut to `limit` characters.
pub fn spec(card: &Card, limit: usize) -> String {
    if card.name == reconcile_sim::ownership::CUSTOM_RESOURCE {
        let observed = card
            .spec
            .get("status")
            .and_then(|s| s.get("observedGeneration"));
        return match observed {
            Some(generation) => {
                format!("the desired state (its spec); status.observedGeneration {generation}")
            }
            None => "the desired state (its spec)".to_owned(),
        };
    }
    let text = card.spec.to_string();
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// The work queue, line by line.
pub fn queue(picture: &Picture) -> Vec<String> {
    let queue: &QueuePicture = &picture.queue;
    if !queue.keys.is_empty() {
        let mut lines = several_keys(queue);
        lines.extend(queue.added.map(|added| added_text(added).to_owned()));
        return lines;
    }
    let state = match (queue.queued, queue.processing, queue.dirty) {
        (true, _, _) => "queued, ready for the worker",
        (false, true, true) => {
            "being processed; queued again when the pass is done (an add came meanwhile)"
        }
        (false, true, false) => "being processed by the worker",
        (false, false, _) => "not queued",
    };
    let mut lines = vec![format!("key {}: {state}", queue.key)];
    lines.extend(
        queue
            .waiting_until
            .map(|at| format!("a requeue waits until {}", time(at))),
    );
    lines.push(format!("requeued {} time(s)", queue.requeues));
    lines.extend(queue.added.map(|added| added_text(added).to_owned()));
    lines
}

fn added_text(added: AddOutcome) -> &'static str {
    match added {
        AddOutcome::Queued => "this add queued the key",
        AddOutcome::AlreadyQueued => {
            "this add merged: the key was waiting already (one key, one entry)"
        }
        AddOutcome::Deferred => "this add is deferred: the key is being processed",
    }
}

/// Keys listed per line at most; the rest are counted.
const KEYS_PER_LINE: usize = 4;

/// Several keys or workers: what each worker holds, the keys ready in
/// line, those waiting for a delayed requeue (soonest first), the idle ones.
fn several_keys(queue: &QueuePicture) -> Vec<String> {
    let mut held = Vec::new();
    let (mut ready, mut waiting, mut idle) = (Vec::new(), Vec::new(), 0);
    for key in &queue.keys {
        let failures = match key.requeues {
            0 => String::new(),
            n => format!(", failed {n}×"),
        };
        match key.state {
            KeyState::Held {
                worker,
                dirty,
                waiting_until,
            } => {
                let mut text = format!("worker {} holds {}{failures}", worker + 1, key.key);
                if dirty {
                    text.push_str("; queued again when done");
                }
                if let Some(at) = waiting_until {
                    text.push_str(&format!("; a requeue waits until {}", time(at)));
                }
                held.push((worker, text));
            }
            KeyState::Ready { .. } => ready.push(key.key.to_string()),
            KeyState::Waiting { until } => {
                waiting.push(format!("{} until {}{failures}", key.key, time(until)));
            }
            KeyState::Idle => idle += 1,
        }
    }
    // Busy workers a line each (a few; the picture lists them by worker),
    // then the idle ones counted.
    let busy = held.len();
    let mut lines: Vec<String> = held
        .into_iter()
        .take(KEYS_PER_LINE)
        .map(|(_, t)| t)
        .collect();
    if busy > KEYS_PER_LINE {
        lines.push(format!("…and {} more workers busy", busy - KEYS_PER_LINE));
    }
    match queue.workers.len() - busy {
        0 => {}
        1 if queue.workers.len() == 1 => lines.push("the worker is idle".to_owned()),
        idle => lines.push(format!("{idle} worker(s) idle")),
    }
    let listed = |what: &str, items: Vec<String>| {
        let more = items.len().saturating_sub(KEYS_PER_LINE);
        let mut text = format!("{what}: {}", items[..items.len() - more].join(", "));
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        text
    };
    if !ready.is_empty() {
        lines.push(listed("ready, in line", ready));
    }
    if !waiting.is_empty() {
        lines.push(listed("waiting for a requeue", waiting));
    }
    if idle > 0 {
        lines.push(format!("{idle} key(s) not queued"));
    }
    lines
}

/// The controller, line by line: what it does, then its plan around the
/// next request (a pass of a thousand actions shows a window of them).
pub fn controller(controller: &ControllerPicture) -> Vec<String> {
    let state = match controller {
        ControllerPicture::Idle => "idle, waiting for the key".to_owned(),
        ControllerPicture::Down { restarts_at } => match restarts_at {
            Some(at) => format!("down after a crash; restarts at {}", time(*at)),
            None => "down after a crash".to_owned(),
        },
        ControllerPicture::Reconciling {
            pass,
            trigger,
            plan,
            sent,
        } => format!(
            "pass {pass}: reconciling the key, {sent} of {} request(s) answered\nwhy: {trigger}",
            plan.len()
        ),
        ControllerPicture::Returned {
            pass,
            error,
            crashed,
        } => match (crashed, error) {
            (true, _) => format!("pass {pass} ended: the controller crashed"),
            (false, true) => format!("pass {pass} returned an error"),
            (false, false) => format!("pass {pass} returned"),
        },
    };
    // Two lines for a pass: what it does, and why it runs.
    let mut lines: Vec<String> = state.split('\n').map(str::to_owned).collect();
    if let ControllerPicture::Reconciling { plan, sent, .. } = controller {
        let from = sent.saturating_sub(2).min(plan.len().saturating_sub(LINES));
        let to = (from + LINES).min(plan.len());
        if from > 0 {
            lines.push(format!("…{from} before"));
        }
        lines.extend((from..to).map(|i| plan_step(&plan[i], i == *sent)));
        if to < plan.len() {
            lines.push(format!("…and {} more", plan.len() - to));
        }
    }
    lines
}

/// One action of the controller's plan: "UPDATE web-9 → ok", or "(next)".
fn plan_step(outcome: &reconcile_sim::ActionOutcome, next: bool) -> String {
    let what = format!("{} {}", outcome.action.kind.as_str(), outcome.action.name);
    match &outcome.result {
        ActionResult::NotAttempted if next => format!("{what} (next)"),
        ActionResult::NotAttempted => format!("{what} (to send)"),
        result => format!("{what} → {}", result_text(result)),
    }
}

/// The owners' and the collector's next steps.
pub fn others(picture: &Picture) -> Vec<String> {
    let owners = picture.owners.iter().map(|task| match task.at {
        Some(at) => format!(
            "the owner of {} removes it from {} at {}",
            task.finalizer,
            task.object,
            time(at)
        ),
        None => format!(
            "the owner of {} never removes it from {} (stuck)",
            task.finalizer, task.object
        ),
    });
    let collector = picture.collector.iter().map(|task| {
        let object = task.object.as_deref().unwrap_or("the custom resource");
        let what = match task.work {
            CollectorWork::AttemptToDelete => "looks at",
            CollectorWork::AttemptToOrphan => "orphans the dependents of",
        };
        format!("the garbage collector {what} {object} at {}", time(task.at))
    });
    capped(owners.chain(collector).collect())
}

/// At most [`LINES`], then how many more.
fn capped(mut lines: Vec<String>) -> Vec<String> {
    if lines.len() > LINES {
        let more = lines.len() - LINES;
        lines.truncate(LINES);
        lines.push(format!("…and {more} more"));
    }
    lines
}

/// The watch events in flight ("web-1 updated, arrives at t = 30 ms"), and a broken watch.
pub fn in_flight(picture: &Picture) -> Vec<String> {
    let mut lines = capped(
        picture
            .in_flight
            .iter()
            .map(|f| {
                let object = f.object.as_deref().unwrap_or("the custom resource");
                format!(
                    "{object} {}, arrives at {}",
                    change_text(f.change),
                    time(f.arrives_at)
                )
            })
            .collect(),
    );
    lines.extend(picture.relist_at.map(|at| {
        format!(
            "the watch is broken: the informer lists again at {}",
            time(at)
        )
    }));
    lines
}
