//! The timeline: one entry per revealed pass, with its trigger, actions and results.

use reconcile_sim::events::SimEvent;
use reconcile_sim::workqueue::AddOutcome;
use reconcile_sim::{format_millis, ActionResult, Happening, LogEntry, Timeline};
use yew::prelude::*;

use crate::shared::Shared;
use crate::state::SimAction;

#[derive(Properties, PartialEq)]
pub struct PassListProps {
    pub timeline: Shared<Timeline>,
    pub cursor: usize,
    pub selected: Option<usize>,
    /// The event Step event shows, if any (an index into the event log).
    pub event: Option<usize>,
    pub on_action: Callback<SimAction>,
}

#[component]
pub fn PassList(props: &PassListProps) -> Html {
    let timeline = &props.timeline;
    let (cursor, selected) = (props.cursor, props.selected);
    let list = use_node_ref();
    {
        // Keep the newest pass in view as Step, Play and Run reveal passes. The
        // list scrolls smoothly unless the reader asked for reduced motion
        // (main.css), in which case it jumps.
        let list = list.clone();
        let shown_before = use_mut_ref(|| cursor);
        use_effect_with(cursor, move |cursor| {
            let revealed_more =
                *cursor > std::mem::replace(&mut *shown_before.borrow_mut(), *cursor);
            if let (true, Some(list)) = (revealed_more, list.cast::<web_sys::Element>()) {
                list.set_scroll_top(list.scroll_height());
            }
        });
    }
    let revealed = &timeline.passes[..cursor.min(timeline.passes.len())];
    let before_first = timeline.log.iter().filter(|e| e.after_pass == 0).count();
    html! {
        <div class="pass-list-wrap">
            <h3>{ "Timeline" }</h3>
            if revealed.is_empty() {
                <p class="muted">{ "No passes yet. Press Step to run the first one." }</p>
            }
            <ol class="pass-list" aria-label="Passes" ref={list}>
                { for revealed.iter().enumerate().map(|(position, pass)| html! {
                    <PassItem key={pass.index} timeline={timeline.clone()} {position}
                        selected={selected == Some(pass.index)}
                        event={props.event.filter(|_| selected == Some(pass.index))}
                        on_action={props.on_action.clone()} />
                }) }
            </ol>
            if before_first > 0 && !revealed.is_empty() {
                <p class="muted small">{ format!("{before_first} event(s) before pass 1.") }</p>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct PassItemProps {
    timeline: Shared<Timeline>,
    /// 0-based position in `timeline.passes`.
    position: usize,
    selected: bool,
    /// The event Step event shows, if any (an index into the event log).
    event: Option<usize>,
    on_action: Callback<SimAction>,
}

/// One pass. A component so revealing pass n+1 does not re-render passes 1..=n.
#[component]
fn PassItem(props: &PassItemProps) -> Html {
    let pass = &props.timeline.passes[props.position];
    let after: Vec<&LogEntry> = props
        .timeline
        .log
        .iter()
        .filter(|e| e.after_pass == pass.index)
        .collect();
    let selected = props.selected;
    let index = pass.index;
    let onclick = props
        .on_action
        .reform(move |_| SimAction::Select((!selected).then_some(index)));
    let observed = shorten(
        &pass.world_after.observed.to_json_string(),
        OBSERVED_PREVIEW_CHARS,
    );
    html! {
        <li key={index} class={classes!("pass", selected.then_some("selected"), pass.crashed.then_some("crashed"))}
            aria-current={selected.then_some("step")} data-pass={index.to_string()}>
            <button type="button" class="pass-head" {onclick} aria-pressed={selected.to_string()}>
                // The spaces keep the button's accessible name readable
                // ("Pass 1 t = 1 ms why: …"); the flex layout spaces them on screen.
                <span class="pass-no">{ format!("Pass {index}") }</span>{ " " }
                <span class="pass-time">{ format!("t = {}", format_millis(pass.started_at)) }</span>{ " " }
                <span class="trigger">{ format!("why: {}", pass.trigger) }</span>
            </button>
            if pass.actions.is_empty() {
                <p class="no-actions">{ "reconcile returned nothing: in sync" }</p>
            } else {
                <ul class="pass-actions" aria-label={format!("Actions of pass {index}")}>
                    { for pass.actions.iter().map(|outcome| html! {
                        <li class={classes!("pass-action", result_class(&outcome.result))}>
                            <span class="kind">{ outcome.action.kind.as_str() }</span>{ " " }
                            <code class="name">{ &outcome.action.name }</code>{ " → " }
                            <span class="result">{ result_text(&outcome.result) }</span>
                        </li>
                    }) }
                </ul>
            }
            <p class="observed-line">
                { "observed after: " }<code class="observed-after">{ observed }</code>
            </p>
            if !after.is_empty() {
                <ul class="happenings" aria-label={format!("Then, after pass {index}")}>
                    { for after.iter().map(|entry| html! {
                        <li>{ format!("t = {}: {}", format_millis(entry.at), happening_text(&entry.what)) }</li>
                    }) }
                </ul>
            }
            if selected {
                { pass_events(&props.timeline, props.position, props.event) }
            }
        </li>
    }
}

/// Longer observed states are cut here; the status grid shows every resource.
const OBSERVED_PREVIEW_CHARS: usize = 400;

fn shorten(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!(
            "{}… ({} characters in all)",
            &text[..cut],
            text.chars().count()
        ),
        None => text.to_owned(),
    }
}

fn result_class(result: &ActionResult) -> &'static str {
    match result {
        ActionResult::Applied => "ok",
        ActionResult::AlreadyTerminating | ActionResult::AlreadyGone => "noop",
        ActionResult::Failed { .. } => "failed",
        ActionResult::NotAttempted | ActionResult::LostInCrash => "skipped",
    }
}

fn result_text(result: &ActionResult) -> String {
    match result {
        ActionResult::Applied => "ok".to_owned(),
        ActionResult::AlreadyTerminating => "already terminating (no-op)".to_owned(),
        ActionResult::AlreadyGone => "already gone (404; done)".to_owned(),
        ActionResult::Failed {
            requeued_at, code, ..
        } => format!(
            "failed ({code}); requeued at t = {}",
            format_millis(*requeued_at)
        ),
        ActionResult::NotAttempted => "not attempted (an earlier action failed)".to_owned(),
        ActionResult::LostInCrash => "lost: the controller crashed".to_owned(),
    }
}

/// Every step from this pass's start to the next pass's, from the event log:
/// the view that steps by event (shown for the selected pass). While Step
/// event walks through it, `current` is the event shown, and the list stops there.
fn pass_events(timeline: &Timeline, position: usize, current: Option<usize>) -> Html {
    let index = timeline.passes[position].index;
    let range = timeline.events.of_pass(index);
    let (from, to) = (range.start, range.end);
    let current = current.filter(|i| range.contains(i));
    let shown_to = current.map_or(to, |i| i + 1);
    let events = &timeline.events.entries[from..shown_to];
    let summary = match current {
        Some(i) => format!(
            "Step by event: event {} of {} until the next pass",
            i - from + 1,
            to - from
        ),
        None => format!("Every step until the next pass ({} events)", to - from),
    };
    html! {
        <details class="pass-events" open={current.is_some()}>
            <summary>{ summary }</summary>
            <ol aria-label={format!("Events from pass {index}")}>
                { for events.iter().enumerate().map(|(offset, entry)| {
                    let is_current = current == Some(from + offset);
                    html! {
                        <li class={classes!(is_current.then_some("current-event"))} aria-current={is_current.then_some("step")}>
                            { format!("t = {}: {}", format_millis(entry.at), event_text(&entry.what)) }
                        </li>
                    }
                }) }
            </ol>
            if timeline.events.truncated && to == timeline.events.entries.len() {
                <p class="muted small">{ "The event log keeps the first 10,000 events of a run." }</p>
            }
        </details>
    }
}

/// One line per step of the control plane.
pub fn event_text(event: &SimEvent) -> String {
    match event {
        SimEvent::ReconcileStarted {
            pass,
            trigger,
            actions,
        } => format!("the worker takes the key: pass {pass} ({trigger}) plans {actions} action(s) from its cache"),
        SimEvent::Request {
            action, name, code, ..
        } => format!("{} {name} → {code}", action.as_str()),
        SimEvent::ReconcileEnded {
            pass,
            error,
            crashed,
        } => match (crashed, error) {
            (true, _) => format!("pass {pass} ends: the controller crashed"),
            (false, true) => format!("pass {pass} returns an error"),
            (false, false) => format!("pass {pass} returns"),
        },
        SimEvent::WatchDelivered { name, change } => {
            format!("watch event {name} {}: the cache takes it", change_text(*change))
        }
        SimEvent::Enqueued { outcome, trigger } => {
            let what = match outcome {
                AddOutcome::Queued => "queued",
                AddOutcome::AlreadyQueued => "already queued: one key, one entry",
                AddOutcome::Deferred => "deferred: the key is being processed",
            };
            format!("key added ({trigger}): {what}")
        }
        SimEvent::RequeueDelayed { ready_at } => {
            format!("the requeue waits until t = {}", format_millis(*ready_at))
        }
    }
}

/// One sentence per thing that happened between passes.
pub fn happening_text(what: &Happening) -> String {
    match what {
        Happening::WatchBroken { name, change } => format!(
            "the watch broke at the event for {name} ({}): it and the events in flight \
             are lost until the informer lists again",
            change_text(*change)
        ),
        Happening::Relisted { deleted } if deleted.is_empty() => {
            "the informer listed again: its cache now matches the API server".to_owned()
        }
        Happening::Relisted { deleted } => format!(
            "the informer listed again: its cache now matches the API server, and the \
             deletes it missed are synthesized for the handlers: {}",
            deleted.join(", ")
        ),
        Happening::Deferred { trigger } => {
            format!("{trigger} while the key was processing: deferred until the pass ends")
        }
        Happening::ExternalEvent { event, effect } => format!("{}: {effect}", event),
        Happening::FinalizerRemoved {
            object,
            finalizer,
            object_deleted: false,
        } => format!("the owner of {finalizer} removed it from {object}"),
        Happening::FinalizerRemoved {
            object,
            finalizer,
            object_deleted: true,
        } => format!(
            "the owner of {finalizer} removed it from {object}, the last finalizer: \
             the API server deleted {object} in that update"
        ),
        Happening::Rejected { object, reason } => {
            format!("API server rejected a write to {object}: {reason}")
        }
        Happening::OtherWriterWrote {
            writer,
            object,
            path,
            value,
        } => {
            format!("{writer} set {path} of {object} to {value}")
        }
        Happening::Crashed { pass } => format!("the controller crashed during pass {pass}"),
        Happening::Restarted => {
            "the controller restarted with an empty queue and re-listed the world".to_owned()
        }
        Happening::RequeueMerged {
            requested_at,
            ready_at,
        } => format!(
            "a requeue for t = {} merged into the one already waiting for t = {}: \
             the queue keeps one waiting entry per key, the earlier",
            format_millis(*requested_at),
            format_millis(*ready_at)
        ),
        Happening::GarbageCollector { action } => action.to_string(),
    }
}

fn change_text(change: reconcile_sim::Change) -> &'static str {
    match change {
        reconcile_sim::Change::Added => "added",
        reconcile_sim::Change::Updated => "updated",
        reconcile_sim::Change::Deleted => "deleted",
    }
}
