//! `client.update` is a PUT of the whole object (issue 30, step 1), as
//! `Store.Update` answers it (`staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`):
//! 404 for a missing object, 422 for a custom resource without a
//! resourceVersion, an unconditional update for a built-in kind, and the
//! object's metadata replaced by what was sent. A 409 the learner's code
//! recovers from does not fail its pass.

use serde_json::{json, Value};

use reconcile_core::json::Json;
use reconcile_sim::events::SimEvent;
use reconcile_sim::learner::{
    owned_configmap, CallError, CallRecord, ClientCall, DrivenRun, Finish, Read, ReconcileOutcome,
    ReconcileRecord, Request,
};
use reconcile_sim::{ScriptedEvent, WorldEvent};

fn started() -> DrivenRun {
    let mut run = DrivenRun::new(owned_configmap());
    run.next_reconcile().expect("a reconcile");
    run
}

fn live(run: &mut DrivenRun, kind: &str, name: &str) -> Result<Value, CallError> {
    run.call(ClientCall::Get {
        kind: kind.to_owned(),
        name: name.to_owned(),
        namespace: None,
        read: Read::Live,
    })
}

fn update(run: &mut DrivenRun, object: Value) -> Result<Value, CallError> {
    run.call(ClientCall::Update { object })
}

/// The status and reason of a refused call.
fn refusal(answer: Result<Value, CallError>) -> (u16, &'static str, String) {
    match answer {
        Err(CallError::Api(f)) => (f.status, f.reason, f.message),
        other => panic!("expected an API error, got {other:?}"),
    }
}

fn created(run: &mut DrivenRun) -> Value {
    let owner = json!({
        "apiVersion": "reconcile.example.com/v1", "kind": "Desired", "name": "blog",
        "uid": "1", "controller": true,
    });
    let object = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": { "name": "a", "labels": { "app": "blog" }, "ownerReferences": [owner] },
        "data": { "k": "v" },
    });
    run.call(ClientCall::Create { object }).expect("created")
}

#[test]
fn a_put_replaces_the_metadata_it_carries() {
    let mut run = started();
    let mut object = created(&mut run);
    assert_eq!(object["metadata"]["ownerReferences"][0]["name"], "blog");
    object["metadata"]
        .as_object_mut()
        .expect("metadata")
        .remove("ownerReferences");
    object["metadata"]["labels"] = json!({ "app": "shop" });
    let updated = update(&mut run, object).expect("updated");
    assert!(
        updated["metadata"]["ownerReferences"].is_null(),
        "{updated}"
    );
    assert_eq!(updated["metadata"]["labels"], json!({ "app": "shop" }));
    assert_eq!(updated["data"], json!({ "k": "v" }));
}

#[test]
fn a_built_in_kind_takes_an_update_without_a_resource_version() {
    let mut run = started();
    let mut object = created(&mut run);
    object["metadata"]["resourceVersion"] = Value::Null;
    object["data"] = json!({ "k": "w" });
    let updated = update(&mut run, object).expect("an unconditional update");
    assert_eq!(updated["data"], json!({ "k": "w" }));
}

#[test]
fn a_custom_resource_without_a_resource_version_gets_422() {
    let mut run = started();
    let mut custom = live(&mut run, "Desired", "blog").expect("the custom resource");
    custom["metadata"]["resourceVersion"] = Value::Null;
    let (status, reason, message) = refusal(update(&mut run, custom));
    assert_eq!((status, reason), (422, "Invalid"));
    assert!(
        message.contains("must be specified for an update"),
        "{message}"
    );
}

#[test]
fn an_update_of_a_missing_object_gets_404() {
    let mut run = started();
    let object = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": { "name": "nobody", "resourceVersion": "3" },
    });
    let (status, reason, _) = refusal(update(&mut run, object));
    assert_eq!((status, reason), (404, "NotFound"));
}

/// How a reconcile answers a 409 on its update.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OnConflict {
    /// Reads the object from the server and updates again.
    ReadAgain,
    /// Returns the error: retried with backoff.
    ReturnError,
}

/// Updates the request's ConfigMap on every reconcile, answering a 409 as
/// `on_conflict` says.
fn always_update(run: &mut DrivenRun, request: &Request, on_conflict: OnConflict) -> Finish {
    let name = format!("{}-config", request.name);
    let custom = run.call(ClientCall::Get {
        kind: "Desired".to_owned(),
        name: request.name.clone(),
        namespace: None,
        read: Read::Cache,
    });
    let custom = custom.expect("the custom resource");
    let Ok(mut object) = run.call(ClientCall::Get {
        kind: "ConfigMap".to_owned(),
        name: name.clone(),
        namespace: None,
        read: Read::Cache,
    }) else {
        let owner = json!({
            "apiVersion": custom["apiVersion"], "kind": custom["kind"], "name": request.name,
            "uid": custom["metadata"]["uid"], "controller": true,
        });
        let metadata = json!({ "name": name, "ownerReferences": [owner] });
        let object = json!({
            "apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata,
            "data": { "color": "blue" },
        });
        return match run.call(ClientCall::Create { object }) {
            Ok(_) => Finish::Ok(None),
            Err(error) => Finish::Error(error.to_string()),
        };
    };
    object["data"] = json!({ "color": "blue" });
    let answer = match (update(run, object.clone()), on_conflict) {
        (Err(CallError::Api(f)), OnConflict::ReadAgain) if f.status == 409 => {
            let mut fresh = live(run, "ConfigMap", &name).expect("a live read");
            fresh["data"] = object["data"].clone();
            update(run, fresh)
        }
        (answer, _) => answer,
    };
    match answer {
        Ok(_) => Finish::Ok(None),
        Err(error) => Finish::Error(error.to_string()),
    }
}

/// A run where someone changes shop's ConfigMap right after pass
/// `after`, while the next pass may have read it from the cache with its
/// update on the way.
fn run_with_drift_after(after: usize, on_conflict: OnConflict) -> DrivenRun {
    let mut exercise = owned_configmap();
    exercise.config.script = vec![ScriptedEvent {
        after_pass: after,
        event: WorldEvent::Drift {
            name: "ConfigMap/default/shop-config".to_owned(),
            path: vec!["data".to_owned(), "color".to_owned()],
            value: Json::string("red"),
        },
    }];
    let mut run = DrivenRun::new(exercise);
    while let Some(request) = run.next_reconcile() {
        let finish = always_update(&mut run, &request, on_conflict);
        run.finish(finish);
    }
    run
}

fn got_conflict(reconcile: &ReconcileRecord) -> bool {
    let conflict = |c: &CallRecord| matches!(&c.answer, Err(CallError::Api(f)) if f.status == 409);
    reconcile.calls.iter().any(conflict)
}

/// The first reconcile that got a 409, over the first drifts that cause
/// one, and whether the timeline shows its pass as failed.
fn first_conflict(on_conflict: OnConflict) -> (ReconcileRecord, bool) {
    let run = (1..12)
        .map(|after| run_with_drift_after(after, on_conflict))
        .find(|run| run.record().iter().any(got_conflict))
        .expect("a drift between a cached read and an update");
    let reconcile = run.record().iter().find(|r| got_conflict(r));
    let reconcile = reconcile.cloned().expect("a reconcile got 409");
    let timeline = run.into_timeline();
    let ended = timeline.events.entries.iter().find_map(|e| match e.what {
        SimEvent::ReconcileEnded { pass, error, .. } if pass == reconcile.pass => Some(error),
        _ => None,
    });
    (reconcile, ended.expect("its pass ended"))
}

#[test]
fn a_conflict_the_reconcile_recovers_from_does_not_fail_its_pass() {
    let (reconcile, failed) = first_conflict(OnConflict::ReadAgain);
    let answers: Vec<bool> = reconcile.calls.iter().map(|c| c.answer.is_ok()).collect();
    // The custom resource, the cached read, the 409, the live read, the
    // update that took.
    assert_eq!(answers, [true, true, false, true, true], "{reconcile:#?}");
    assert_eq!(reconcile.outcome, Some(ReconcileOutcome::Done));
    assert!(!failed);
}

#[test]
fn a_conflict_the_reconcile_returns_fails_its_pass() {
    let (reconcile, failed) = first_conflict(OnConflict::ReturnError);
    assert!(matches!(
        reconcile.outcome,
        Some(ReconcileOutcome::Error { .. })
    ));
    assert!(failed);
}
