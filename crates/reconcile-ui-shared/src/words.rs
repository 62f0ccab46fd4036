//! The simulation's records in words, where more than one view shows them:
//! the page's timeline, and the simulation section's module (its picture,
//! swimlanes and level vs edge). Wording only; the records come from `reconcile_sim`.

use reconcile_sim::events::SimEvent;
use reconcile_sim::workqueue::AddOutcome;
use reconcile_sim::{format_millis, ActionResult, SyncState};

/// What became of a request: "ok", "failed (503); requeued at t = 25 ms".
pub fn result_text(result: &ActionResult) -> String {
    match result {
        ActionResult::Applied => "ok".to_owned(),
        ActionResult::AlreadyTerminating => "already terminating (no-op)".to_owned(),
        ActionResult::Unchanged => {
            "unchanged: with the server's defaults it is what is stored (no write)".to_owned()
        }
        ActionResult::AlreadyGone => "already gone (404; done)".to_owned(),
        // An apply conflict names the fields and their managers (`NewConflictError`).
        ActionResult::Failed {
            requeued_at,
            code,
            error,
        } if error.starts_with("Apply failed with") => format!(
            "failed ({code}: {error}); requeued at t = {}",
            format_millis(*requeued_at)
        ),
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

/// One line per step of the control plane.
pub fn event_text(event: &SimEvent) -> String {
    match event {
        SimEvent::ReconcileStarted {
            pass,
            trigger,
            skipped: Some(skip),
            ..
        } => format!("the worker takes the key: pass {pass} ({trigger}) does not reconcile, {skip}"),
        SimEvent::ReconcileStarted {
            pass,
            trigger,
            actions,
            skipped: None,
        } => format!("the worker takes the key: pass {pass} ({trigger}) plans {actions} action(s) from its cache"),
        SimEvent::StatusWrite { code, changed, .. } => match (code, changed) {
            (200, true) => "PUT /status → 200: the custom resource has a new resourceVersion".to_owned(),
            (200, false) => "PUT /status → 200: the same status, nothing written".to_owned(),
            (code, _) => format!("PUT /status → {code}"),
        },
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
        SimEvent::FinalizerWrite { added, code, .. } => format!(
            "PATCH the custom resource: {} its finalizer {} → {code}",
            if *added { "add" } else { "remove" },
            reconcile_sim::cloud::FINALIZER
        ),
        SimEvent::Cloud { call, code, .. } => match code {
            200 | 201 => format!("the cloud: {call} → ok"),
            404 => format!("the cloud: {call} → 404, it does not exist"),
            code => format!("the cloud: {call} → {code}, nothing changed"),
        },
        SimEvent::RequeueDelayed { ready_at } => {
            format!("the requeue waits until t = {}", format_millis(*ready_at))
        }
    }
}

/// "added", "updated", "deleted".
pub fn change_text(change: reconcile_sim::Change) -> &'static str {
    match change {
        reconcile_sim::Change::Added => "added",
        reconcile_sim::Change::Updated => "updated",
        reconcile_sim::Change::Deleted => "deleted",
    }
}

/// Symbol, words and class for a lane's cell (level vs edge's lanes and
/// the control-plane view's swimlanes); never colour alone.
pub fn cell_text(state: Option<SyncState>) -> (&'static str, &'static str, &'static str) {
    // The status grid's symbols and words (`SyncState::icon`, `label`), so a
    // state reads the same in every view.
    let Some(state) = state else {
        return ("", "not there", "lane-none");
    };
    let class = match state {
        SyncState::InSync => "lane-in-sync",
        SyncState::Drifted => "lane-drifted",
        SyncState::Missing => "lane-missing",
        SyncState::Extra => "lane-extra",
        SyncState::Terminating => "lane-terminating",
    };
    (state.icon(), state.label(), class)
}
