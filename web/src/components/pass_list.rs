//! The timeline: one entry per revealed pass, with its trigger, actions and results.

use reconcile_core::sim::{format_millis, ActionResult, Happening, LogEntry, PassRecord, Timeline};
use yew::prelude::*;

use crate::state::SimAction;

pub fn pass_list(
    timeline: &Timeline,
    cursor: usize,
    selected: Option<usize>,
    on_action: &Callback<SimAction>,
) -> Html {
    let revealed = &timeline.passes[..cursor.min(timeline.passes.len())];
    let before_first = timeline.log.iter().filter(|e| e.after_pass == 0).count();
    html! {
        <div class="pass-list-wrap">
            <h3>{ "Timeline" }</h3>
            if revealed.is_empty() {
                <p class="muted">{ "No passes yet. Press Step to run the first one." }</p>
            }
            <ol class="pass-list" aria-label="Passes">
                { for revealed.iter().map(|pass| {
                    let after: Vec<&LogEntry> =
                        timeline.log.iter().filter(|e| e.after_pass == pass.index).collect();
                    pass_item(pass, &after, selected == Some(pass.index), on_action)
                }) }
            </ol>
            if before_first > 0 && !revealed.is_empty() {
                <p class="muted small">{ format!("{before_first} event(s) before pass 1.") }</p>
            }
        </div>
    }
}

fn pass_item(
    pass: &PassRecord,
    after: &[&LogEntry],
    selected: bool,
    on_action: &Callback<SimAction>,
) -> Html {
    let index = pass.index;
    let onclick = on_action.reform(move |_| SimAction::Select((!selected).then_some(index)));
    let observed = pass.world_after.observed.to_json_string();
    html! {
        <li key={index} class={classes!("pass", selected.then_some("selected"), pass.crashed.then_some("crashed"))}
            aria-current={selected.then_some("step")} data-pass={index.to_string()}>
            <button type="button" class="pass-head" {onclick} aria-pressed={selected.to_string()}>
                <span class="pass-no">{ format!("Pass {index}") }</span>
                <span class="pass-time">{ format!("t = {}", format_millis(pass.started_at)) }</span>
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
        </li>
    }
}

fn result_class(result: &ActionResult) -> &'static str {
    match result {
        ActionResult::Applied => "ok",
        ActionResult::AlreadyTerminating => "noop",
        ActionResult::Failed { .. } => "failed",
        ActionResult::NotAttempted | ActionResult::LostInCrash => "skipped",
    }
}

fn result_text(result: &ActionResult) -> String {
    match result {
        ActionResult::Applied => "ok".to_owned(),
        ActionResult::AlreadyTerminating => "already terminating (no-op)".to_owned(),
        ActionResult::Failed { requeued_at } => {
            format!("failed; requeued at t = {}", format_millis(*requeued_at))
        }
        ActionResult::NotAttempted => "not attempted (an earlier action failed)".to_owned(),
        ActionResult::LostInCrash => "lost: the controller crashed".to_owned(),
    }
}

/// One sentence per thing that happened between passes.
pub fn happening_text(what: &Happening) -> String {
    match what {
        Happening::WatchEventDropped { name, change } => {
            format!(
                "watch event for {name} ({}) was dropped",
                change_text(*change)
            )
        }
        Happening::Deferred { trigger } => {
            format!("{trigger} while the key was processing: deferred until the pass ends")
        }
        Happening::ExternalEvent { event, effect } => format!(
            "{}: {effect}",
            crate::components::fault_panel::event_text(event)
        ),
        Happening::FinalizerRemoved { object, finalizer } => {
            format!("the owner of {finalizer} removed it from {object}")
        }
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
    }
}

fn change_text(change: reconcile_core::sim::Change) -> &'static str {
    match change {
        reconcile_core::sim::Change::Added => "added",
        reconcile_core::sim::Change::Updated => "updated",
        reconcile_core::sim::Change::Deleted => "deleted",
    }
}
