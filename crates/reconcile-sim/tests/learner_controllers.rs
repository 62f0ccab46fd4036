//! Controllers written against the driven run's synchronous client, for
//! the `owned-configmap` exercise (issue 30, step 1): a reference that
//! passes, and known-buggy ones from real bug classes, each caught by a
//! property, on the fault-free run or under a fault.

use serde_json::{json, Value};

use reconcile_core::json::Json;
use reconcile_sim::learner::properties::{EVENTUALLY_STABLE, IDEMPOTENT_ONCE_CONVERGED, SAFE};
use reconcile_sim::learner::{
    check, owned_configmap, CallError, ClientCall, DrivenRun, Exercise, Finish, Read, Request,
};
use reconcile_sim::{CrashPlan, ScriptedEvent, WorldEvent};

/// The bugs, as one controller with a flaw: the reference has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flaw {
    None,
    /// Creates the ConfigMap with no ownerReference.
    NoOwnerReference,
    /// An ownerReference without `controller: true`.
    NotController,
    /// Updates the ConfigMap on every reconcile, changed or not.
    BlindUpdate,
    /// Creates the ConfigMap when missing, never fixes its data.
    CreateOnly,
    /// Updates on every reconcile, and on 409 Conflict sends the same
    /// object again, with the same stale resourceVersion.
    BlindRetry,
}

fn get(run: &mut DrivenRun, kind: &str, name: &str) -> Result<Value, CallError> {
    run.call(ClientCall::Get {
        kind: kind.to_owned(),
        name: name.to_owned(),
        namespace: None,
        read: Read::Cache,
    })
}

fn not_found(error: &CallError) -> bool {
    matches!(error, CallError::Api(failure) if failure.status == 404 && failure.reason == "NotFound")
}

/// `reconcile(request, client)`, as a learner would write it.
fn reconcile(flaw: Flaw, request: &Request, run: &mut DrivenRun) -> Result<Option<u64>, CallError> {
    let custom = match get(run, "Desired", &request.name) {
        Ok(custom) => custom,
        Err(error) if not_found(&error) => return Ok(None),
        Err(error) => return Err(error),
    };
    if !custom["metadata"]["deletionTimestamp"].is_null() {
        return Ok(None);
    }
    let data = custom["spec"]["data"].clone();
    let name = format!("{}-config", request.name);
    let owner = json!({
        "apiVersion": custom["apiVersion"],
        "kind": custom["kind"],
        "name": request.name,
        "uid": custom["metadata"]["uid"],
        "controller": flaw != Flaw::NotController,
        "blockOwnerDeletion": true,
    });
    match get(run, "ConfigMap", &name) {
        Err(error) if not_found(&error) => {
            let mut metadata = json!({ "name": name });
            if flaw != Flaw::NoOwnerReference {
                metadata["ownerReferences"] = json!([owner]);
            }
            let object = json!({
                "apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": data,
            });
            run.call(ClientCall::Create { object })?;
        }
        Err(error) => return Err(error),
        Ok(mut found) => {
            let stale = found["data"] != data;
            let fix = match flaw {
                Flaw::BlindUpdate | Flaw::BlindRetry => true,
                Flaw::CreateOnly => false,
                _ => stale,
            };
            if fix {
                found["data"] = data;
                let attempts = if flaw == Flaw::BlindRetry { 3 } else { 1 };
                update(run, &found, attempts)?;
            }
        }
    }
    Ok(None)
}

/// `client.update(object)`, sent again up to `attempts` times in all
/// while it gets 409 Conflict.
fn update(run: &mut DrivenRun, object: &Value, attempts: usize) -> Result<Value, CallError> {
    let mut answer = run.call(ClientCall::Update {
        object: object.clone(),
    });
    for _ in 1..attempts {
        if !matches!(&answer, Err(CallError::Api(failure)) if failure.status == 409) {
            break;
        }
        answer = run.call(ClientCall::Update {
            object: object.clone(),
        });
    }
    answer
}

/// Runs `flaw`'s controller to the end of the run.
fn run_with(flaw: Flaw, exercise: Exercise) -> DrivenRun {
    let mut run = DrivenRun::new(exercise);
    while let Some(request) = run.next_reconcile() {
        let finish = match reconcile(flaw, &request, &mut run) {
            Ok(requeue_after) => Finish::Ok(requeue_after),
            Err(error) => Finish::Error(error.to_string()),
        };
        run.finish(finish);
    }
    run
}

/// The names of the properties the run broke.
fn broken(run: &DrivenRun) -> Vec<&'static str> {
    check(run)
        .into_iter()
        .filter(|p| !p.held)
        .map(|p| p.name)
        .collect()
}

/// Someone changes the shop ConfigMap's data once the run has settled.
fn with_drift() -> Exercise {
    let mut exercise = owned_configmap();
    exercise.config.script = vec![ScriptedEvent {
        after_pass: 4,
        event: WorldEvent::Drift {
            name: "ConfigMap/default/shop-config".to_owned(),
            path: vec!["data".to_owned(), "color".to_owned()],
            value: Json::string("red"),
        },
    }];
    exercise
}

/// Someone changes the shop ConfigMap right after pass 3, while pass 4
/// (shop's) has read it from the cache and its update is on the way.
fn with_write_in_flight() -> Exercise {
    let mut exercise = with_drift();
    exercise.config.script[0].after_pass = 3;
    exercise
}

/// The answers to `name`'s updates in pass `pass`.
fn updates_in(run: &DrivenRun, pass: usize) -> Vec<Result<Value, CallError>> {
    let reconcile = run.record().iter().find(|r| r.pass == pass);
    let calls = reconcile.map(|r| r.calls.as_slice()).unwrap_or_default();
    calls
        .iter()
        .filter(|c| c.call.method() == "update")
        .map(|c| c.answer.clone())
        .collect()
}

fn is_conflict(answer: &Result<Value, CallError>) -> bool {
    matches!(answer, Err(CallError::Api(f)) if (f.status, f.reason) == (409, "Conflict"))
}

#[test]
fn an_update_with_a_resource_version_read_before_another_write_gets_409() {
    let run = run_with(Flaw::BlindUpdate, with_write_in_flight());
    let updates = updates_in(&run, 4);
    assert_eq!(run.record()[3].name, "shop");
    assert!(
        updates.len() == 1 && is_conflict(&updates[0]),
        "{updates:#?}"
    );
    // Returning the error requeues it; the next read is fresh, and it converges.
    assert_eq!(broken(&run), [IDEMPOTENT_ONCE_CONVERGED]);
    assert!(run.goal_holds_now());
}

#[test]
fn a_blind_retry_of_a_stale_update_gets_409_every_time() {
    let run = run_with(Flaw::BlindRetry, with_write_in_flight());
    let updates = updates_in(&run, 4);
    assert_eq!(updates.len(), 3, "{updates:#?}");
    assert!(updates.iter().all(is_conflict), "{updates:#?}");
}

#[test]
fn the_reference_converges_and_keeps_every_property() {
    let run = run_with(Flaw::None, owned_configmap());
    assert_eq!(broken(&run), Vec::<&str>::new(), "{:#?}", check(&run));
    assert!(run.goal_holds_now());
    // Several resyncs reconciled the converged world, writing nothing.
    let idle = run.record().iter().filter(|r| r.converged_at_start).count();
    assert!(idle >= 4, "{idle} reconciles of a converged world");
    let writes: usize = run.record().iter().map(|r| r.writes().count()).sum();
    assert_eq!(writes, 2, "one create per custom resource");
}

#[test]
fn the_reference_survives_a_drift_and_a_crash() {
    let run = run_with(Flaw::None, with_drift());
    assert_eq!(broken(&run), Vec::<&str>::new(), "{:#?}", check(&run));
    let mut crashing = owned_configmap();
    crashing.config.crash = Some(CrashPlan {
        at_pass: 2,
        after_actions: 1,
    });
    let run = run_with(Flaw::None, crashing);
    assert_eq!(broken(&run), Vec::<&str>::new(), "{:#?}", check(&run));
    assert!(run.record().iter().any(|r| r.incarnation == 1));
}

#[test]
fn no_owner_reference_is_unsafe_and_never_stable() {
    let run = run_with(Flaw::NoOwnerReference, owned_configmap());
    assert_eq!(broken(&run), [EVENTUALLY_STABLE, SAFE]);
}

#[test]
fn an_owner_reference_that_is_not_the_controller_is_unsafe() {
    let run = run_with(Flaw::NotController, owned_configmap());
    assert!(broken(&run).contains(&SAFE), "{:#?}", check(&run));
}

#[test]
fn a_blind_update_every_reconcile_is_not_idempotent() {
    let run = run_with(Flaw::BlindUpdate, owned_configmap());
    // The updates change nothing, so the world is stable; they are still writes.
    assert_eq!(broken(&run), [IDEMPOTENT_ONCE_CONVERGED]);
}

#[test]
fn create_only_passes_fault_free_and_fails_under_a_drift() {
    let run = run_with(Flaw::CreateOnly, owned_configmap());
    assert_eq!(broken(&run), Vec::<&str>::new(), "{:#?}", check(&run));
    let run = run_with(Flaw::CreateOnly, with_drift());
    assert_eq!(broken(&run), [EVENTUALLY_STABLE]);
}

#[test]
fn the_record_holds_each_call_and_answer() {
    let run = run_with(Flaw::None, owned_configmap());
    let first = &run.record()[0];
    let methods: Vec<&str> = first.calls.iter().map(|c| c.call.method()).collect();
    assert_eq!(methods, ["get", "get", "create"]);
    let created = first.calls[2].answer.as_ref().expect("created");
    assert_eq!(created["metadata"]["name"], "blog-config");
    assert!(created["metadata"]["resourceVersion"].as_str().is_some());
    assert!(
        first.calls[2].answered_at > first.calls[2].at,
        "a request takes time"
    );
    assert!(first.calls[1].answer.is_err(), "404 from the cache");
    assert_eq!(
        first.calls[0].answered_at, first.calls[0].at,
        "a cache read is free"
    );
}

/// The first reconcile of a fresh run, and the run.
fn started() -> (DrivenRun, Request) {
    let mut run = DrivenRun::new(owned_configmap());
    let request = run.next_reconcile().expect("a reconcile");
    (run, request)
}

fn misuse_of(answer: Result<Value, CallError>) -> (String, String) {
    match answer {
        Err(CallError::Misuse { method, message }) => (method.to_owned(), message),
        other => panic!("expected a misuse error, got {other:?}"),
    }
}

#[test]
fn misuse_is_an_error_that_names_the_call() {
    let (mut run, _) = started();
    let nameless = json!({ "apiVersion": "v1", "kind": "ConfigMap", "metadata": {} });
    let (method, message) = misuse_of(run.call(ClientCall::Create { object: nameless }));
    assert_eq!(method, "create");
    assert!(message.contains("no metadata.name"), "{message}");
    let (method, message) = misuse_of(get(&mut run, "Deployment", "web"));
    assert_eq!(method, "get");
    assert!(message.contains("no kind \"Deployment\""), "{message}");
    assert!(message.contains("ConfigMap"), "{message}");
    let wrong_version =
        json!({ "apiVersion": "apps/v1", "kind": "ConfigMap", "metadata": { "name": "a" } });
    let (method, _) = misuse_of(run.call(ClientCall::Update {
        object: wrong_version,
    }));
    assert_eq!(method, "update");
    let (_, message) = misuse_of(run.call(ClientCall::Create {
        object: json!([1, 2]),
    }));
    assert!(message.contains("not a JSON object"), "{message}");
    let (method, _) = misuse_of(run.call(ClientCall::PatchStatus {
        kind: "ConfigMap".to_owned(),
        name: "a".to_owned(),
        namespace: None,
        patch: json!({ "status": {} }),
    }));
    assert_eq!(method, "patchStatus");
    let error = CallError::Misuse {
        method: "get",
        message: "m".to_owned(),
    };
    assert_eq!(error.to_string(), "client.get: m");
}

#[test]
fn a_call_outside_a_reconcile_is_refused() {
    let mut run = DrivenRun::new(owned_configmap());
    let answer = get(&mut run, "Desired", "shop");
    assert_eq!(answer, Err(CallError::NotReconciling { method: "get" }));
}

#[test]
fn the_server_answers_with_status_and_reason() {
    let (mut run, request) = started();
    let owner_less = |name: &str| json!({ "apiVersion": "v1", "kind": "ConfigMap", "metadata": { "name": name }, "data": {} });
    run.call(ClientCall::Create {
        object: owner_less("a"),
    })
    .expect("created");
    // The cache has not seen the create yet; the server has.
    assert!(get(&mut run, "ConfigMap", "a").is_err());
    let again = run.call(ClientCall::Create {
        object: owner_less("a"),
    });
    let Err(CallError::Api(failure)) = again else {
        panic!("{again:?}")
    };
    assert_eq!((failure.status, failure.reason), (409, "AlreadyExists"));
    assert!(failure.message.contains("\"a\""), "{}", failure.message);
    let live = run.call(ClientCall::Get {
        kind: "ConfigMap".to_owned(),
        name: "a".to_owned(),
        namespace: None,
        read: Read::Live,
    });
    let mut stale = live.expect("a live read");
    // A deep copy: changing it changes nothing else.
    stale["data"] = json!({ "x": "1" });
    run.call(ClientCall::Update {
        object: stale.clone(),
    })
    .expect("updated");
    let conflict = run.call(ClientCall::Update { object: stale });
    let Err(CallError::Api(failure)) = conflict else {
        panic!("{conflict:?}")
    };
    assert_eq!((failure.status, failure.reason), (409, "Conflict"));
    let gone = run.call(ClientCall::Delete {
        kind: "ConfigMap".to_owned(),
        name: "b".to_owned(),
        namespace: None,
        propagation_policy: None,
    });
    let Err(CallError::Api(failure)) = gone else {
        panic!("{gone:?}")
    };
    assert_eq!((failure.status, failure.reason), (404, "NotFound"));
    let bad = run.call(ClientCall::Patch {
        kind: "ConfigMap".to_owned(),
        name: "a".to_owned(),
        namespace: None,
        patch: json!({ "not": "a list" }),
        patch_type: reconcile_sim::learner::PatchKind::Json,
        resource_version: None,
    });
    let Err(CallError::Api(failure)) = bad else {
        panic!("{bad:?}")
    };
    assert_eq!((failure.status, failure.reason), (400, "BadRequest"));
    assert_eq!(request.namespace, "default");
}

#[test]
fn a_terminal_error_is_not_retried() {
    // The first two reconciles of blog: the gap is the backoff, or a resync.
    let gap = |finish: Finish| {
        let mut run = DrivenRun::new(owned_configmap());
        while let Some(_request) = run.next_reconcile() {
            run.finish(finish.clone());
        }
        let blog: Vec<u64> = run
            .record()
            .iter()
            .filter(|r| r.name == "blog")
            .map(|r| r.started_at)
            .take(2)
            .collect();
        blog[1] - blog[0]
    };
    assert!(gap(Finish::Error("again".to_owned())) < 100, "a backoff");
    assert!(
        gap(Finish::Terminal("no".to_owned())) >= 500,
        "only the resync"
    );
}
