//! What the exercises' test controllers share: the client's calls in a
//! few words, and the check with its counterexample's shape.

#![allow(dead_code)]

use serde_json::{json, Value};

use reconcile_sim::learner::search::{run_schedule, Factory};
use reconcile_sim::learner::{
    check_controller, exercise_named, replay, Budget, CallError, CheckReport, Client, ClientCall,
    Exercise, Fault, Read, ReconcileRecord, Reconciler, ReplayLink, Schedule, Script,
};

/// `client.get(kind, name)` from the cache.
pub fn get(client: &mut Client<'_>, kind: &str, name: &str) -> Result<Value, CallError> {
    client.call(ClientCall::Get {
        kind: kind.to_owned(),
        name: name.to_owned(),
        namespace: None,
        read: Read::Cache,
    })
}

/// `client.get(...)`, `None` on 404 NotFound.
pub fn find(client: &mut Client<'_>, kind: &str, name: &str) -> Result<Option<Value>, CallError> {
    match get(client, kind, name) {
        Ok(found) => Ok(Some(found)),
        Err(error) if status(&error) == Some(404) => Ok(None),
        Err(error) => Err(error),
    }
}

/// `client.list(kind)` from the cache.
pub fn list(client: &mut Client<'_>, kind: &str) -> Result<Vec<Value>, CallError> {
    let items = client.call(ClientCall::List {
        kind: kind.to_owned(),
        namespace: None,
        labels: serde_json::Map::new(),
    })?;
    Ok(items.as_array().cloned().unwrap_or_default())
}

/// The API server's status code of `error`, if it is its.
pub fn status(error: &CallError) -> Option<u16> {
    match error {
        CallError::Api(failure) => Some(failure.status),
        _ => None,
    }
}

/// A controller ownerReference to custom resource `custom`.
pub fn controller_reference(custom: &Value) -> Value {
    json!({
        "apiVersion": custom["apiVersion"], "kind": custom["kind"],
        "name": custom["metadata"]["name"], "uid": custom["metadata"]["uid"],
        "controller": true, "blockOwnerDeletion": true,
    })
}

/// Whether `object` names `name` as its controller.
pub fn controlled_by(object: &Value, name: &str) -> bool {
    let refs = object["metadata"]["ownerReferences"].as_array();
    refs.into_iter()
        .flatten()
        .any(|r| r["controller"] == true && r["name"] == name)
}

/// Checks `make`'s controller on `exercise` under the default budget.
/// A counterexample must replay as its run did.
pub fn check<R: Reconciler + 'static>(exercise: &Exercise, make: impl Fn() -> R) -> CheckReport {
    let factory = move || -> Box<dyn Reconciler> { Box::new(make()) };
    let report = check_controller(exercise, &factory, Budget::default(), 7);
    if let Some(example) = &report.counterexample {
        replays_as_run(exercise, &factory, &example.schedule, &example.record);
    }
    report
}

/// Asserts the replay of `record` (a run of `factory`'s controller under
/// `schedule`) gives the same record and the same timeline as running the
/// controller again, without calling the controller.
pub fn replays_as_run(
    exercise: &Exercise,
    factory: Factory<'_>,
    schedule: &Schedule,
    record: &[ReconcileRecord],
) {
    let script = Script::of(schedule, record);
    let replayed = replay(exercise.clone(), &script).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed.run().record(), record, "the replay's record");
    let original = run_schedule(exercise, factory, schedule);
    assert_eq!(replayed.fired(), original.fired(), "the faults fired");
    let timeline = replayed.into_run().into_timeline();
    let run = original.run.into_run().into_timeline();
    assert_eq!(timeline, run, "the replay's timeline");
    // From the link's form (no answers), the same timeline.
    let text = serde_json::to_string(&script).expect("a script as JSON");
    let read: Script = serde_json::from_str(&text).expect("a script read back");
    let again = replay(exercise.clone(), &read).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        again.run().record(),
        record,
        "the replay of the link's form"
    );
    // Opened for the simulation's views, from a link: the same timeline and
    // record, with a picture at the start and at each event.
    let named = exercise_named(exercise.name).expect("a named exercise");
    assert_eq!(
        named.config, exercise.config,
        "a link names the exercise's settings"
    );
    let link = ReplayLink {
        exercise: exercise.name.to_owned(),
        options: None,
        script: read,
    };
    let opened = link.open_for_views().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opened.timeline, timeline, "the views' timeline");
    assert_eq!(opened.record, record, "the views' record");
    let pictured = 1 + timeline.events.entries.len() + timeline.actor_events.len();
    assert_eq!(opened.pictures.len(), pictured, "a picture at each event");
}

/// Asserts the reference passes the whole default budget, every single
/// fault included.
pub fn passes(report: &CheckReport) {
    let failure = report
        .counterexample
        .as_ref()
        .map(|c| (&c.story, &c.detail));
    assert!(report.passed, "{failure:#?}");
    assert_eq!(report.schedules_explored, Budget::default().schedules);
    let singles = reconcile_sim::learner::schedule::single_faults(report.fault_free_requests);
    assert!(singles.iter().all(|s| report.explored.contains(s)));
}

/// The property that caught a bug and its shrunk schedule's faults; at
/// most three faults, told one sentence each.
pub fn caught(report: &CheckReport) -> (&'static str, Vec<Fault>) {
    let example = report.counterexample.as_ref().expect("a counterexample");
    assert!(!report.passed);
    assert!(example.schedule.len() <= 3, "{:?}", example.schedule);
    assert_eq!(example.story.len(), example.schedule.len());
    assert!(!example.record.is_empty(), "the record to replay");
    let faults = example.schedule.0.iter().map(|p| p.fault).collect();
    (example.property, faults)
}
