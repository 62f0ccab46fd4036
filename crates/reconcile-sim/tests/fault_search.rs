//! The fault search, its properties and shrinking (issue 30, step 2), with
//! Rust controllers for `owned-configmap`: the reference passes the whole
//! default budget; each known bug fails with a shrunk schedule.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use reconcile_sim::learner::properties::{EVENTUALLY_STABLE, IDEMPOTENT_ONCE_CONVERGED, SAFE};
use reconcile_sim::learner::schedule::single_faults;
use reconcile_sim::learner::search::run_schedule;
use reconcile_sim::learner::{
    check_controller, owned_configmap, Budget, CallError, CheckReport, CheckSession, Client,
    ClientCall, Fault, Finish, Read, Reconciler, Request,
};

/// The bugs, from issue 30's list of real bug classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flaw {
    None,
    /// No ownerReference on the ConfigMap.
    NoOwnerReference,
    /// Updates the ConfigMap every reconcile, changed or not.
    BlindUpdate,
    /// Creates the ConfigMap when missing, never fixes its data.
    CreateOnly,
    /// Marks a custom resource done in memory before its create succeeded.
    RemembersTooEarly,
}

struct Controller {
    flaw: Flaw,
    /// What this process remembers: lost in a crash.
    done: BTreeSet<String>,
}

fn get(client: &mut Client<'_>, kind: &str, name: &str) -> Result<Value, CallError> {
    client.call(ClientCall::Get {
        kind: kind.to_owned(),
        name: name.to_owned(),
        namespace: None,
        read: Read::Cache,
    })
}

fn not_found(error: &CallError) -> bool {
    matches!(error, CallError::Api(failure) if failure.status == 404)
}

impl Controller {
    fn run(&mut self, request: &Request, client: &mut Client<'_>) -> Result<(), CallError> {
        let custom = match get(client, "Desired", &request.name) {
            Ok(custom) => custom,
            Err(error) if not_found(&error) => return Ok(()),
            Err(error) => return Err(error),
        };
        if !custom["metadata"]["deletionTimestamp"].is_null() {
            return Ok(());
        }
        if self.flaw == Flaw::RemembersTooEarly && self.done.contains(&request.name) {
            return Ok(());
        }
        let data = custom["spec"]["data"].clone();
        let name = format!("{}-config", request.name);
        let mut metadata = json!({ "name": name, "labels": { "owner": request.name } });
        if self.flaw != Flaw::NoOwnerReference {
            metadata["ownerReferences"] = json!([{
                "apiVersion": custom["apiVersion"], "kind": custom["kind"],
                "name": request.name, "uid": custom["metadata"]["uid"],
                "controller": true, "blockOwnerDeletion": true,
            }]);
        }
        let existing = match get(client, "ConfigMap", &name) {
            Ok(found) => Some(found),
            Err(error) if not_found(&error) => None,
            Err(error) => return Err(error),
        };
        let Some(mut found) = existing else {
            if self.flaw == Flaw::RemembersTooEarly {
                self.done.insert(request.name.clone());
            }
            let object = json!({
                "apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": data,
            });
            client.call(ClientCall::Create { object })?;
            return Ok(());
        };
        let fix = match self.flaw {
            Flaw::BlindUpdate => true,
            Flaw::CreateOnly => false,
            _ => found["data"] != data,
        };
        if fix {
            found["data"] = data;
            client.call(ClientCall::Update { object: found })?;
        }
        Ok(())
    }
}

impl Reconciler for Controller {
    fn reconcile(&mut self, request: &Request, client: &mut Client<'_>) -> Finish {
        match self.run(request, client) {
            Ok(()) => Finish::Ok(None),
            Err(error) => Finish::Error(error.to_string()),
        }
    }
}

fn check(flaw: Flaw, budget: usize, seed: u64) -> CheckReport {
    let factory = move || -> Box<dyn Reconciler> {
        Box::new(Controller {
            flaw,
            done: BTreeSet::new(),
        })
    };
    let budget = Budget { schedules: budget };
    check_controller(&owned_configmap(), &factory, budget, seed)
}

#[test]
fn the_reference_passes_the_whole_default_budget() {
    let report = check(Flaw::None, Budget::default().schedules, 7);
    let failure = report
        .counterexample
        .as_ref()
        .map(|c| (&c.story, &c.detail));
    assert!(report.passed, "{failure:#?}");
    assert_eq!(report.schedules_explored, 1000);
    assert!(report.properties.iter().all(|p| p.held));
    // Every single-fault schedule was run.
    let singles = single_faults(report.fault_free_requests);
    assert_eq!(
        report.fault_free_requests, 2,
        "one create per custom resource"
    );
    let explored: BTreeSet<_> = report.explored.iter().collect();
    assert!(singles.iter().all(|s| explored.contains(s)));
    assert!(singles.len() >= 20, "{} single faults", singles.len());
    // And schedules of two and three faults.
    assert!(report.explored.iter().any(|s| s.len() == 3));
}

#[test]
fn the_search_is_deterministic_for_a_seed() {
    let a = check(Flaw::None, 400, 11);
    let b = check(Flaw::None, 400, 11);
    assert_eq!(a.explored, b.explored);
    let c = check(Flaw::None, 400, 12);
    assert_ne!(a.explored, c.explored, "the random part follows the seed");
}

/// The counterexample of `flaw`: its property and shrunk schedule.
fn caught(flaw: Flaw) -> (CheckReport, &'static str, Vec<Fault>) {
    let report = check(flaw, Budget::default().schedules, 7);
    let example = report.counterexample.clone().expect("a counterexample");
    assert!(!report.passed);
    assert!(example.schedule.len() <= 3, "{:?}", example.schedule);
    assert_eq!(example.story.len(), example.schedule.len());
    assert!(!example.record.is_empty(), "the record to replay");
    let faults = example.schedule.0.iter().map(|p| p.fault).collect();
    (report, example.property, faults)
}

#[test]
fn bugs_seen_fault_free_shrink_to_no_fault() {
    let (_, property, faults) = caught(Flaw::NoOwnerReference);
    assert_eq!((property, faults), (EVENTUALLY_STABLE, vec![]));
    let (report, property, faults) = caught(Flaw::BlindUpdate);
    assert_eq!((property, faults), (IDEMPOTENT_ONCE_CONVERGED, vec![]));
    assert_eq!(report.schedules_explored, 1);
}

#[test]
fn create_only_is_caught_by_another_writer() {
    // Another writer acts only on an object that exists: here, once a
    // lagging cache made the controller send its create again.
    let (report, property, faults) = caught(Flaw::CreateOnly);
    assert_eq!(property, EVENTUALLY_STABLE);
    assert!(faults.contains(&Fault::OtherWriter), "{faults:?}");
    let example = report.counterexample.expect("caught");
    let story = example.story.join(" ");
    assert!(story.contains("another writer"), "{story}");
}

#[test]
fn memory_ahead_of_the_world_is_caught_by_a_503() {
    let (report, property, faults) = caught(Flaw::RemembersTooEarly);
    assert_eq!(property, EVENTUALLY_STABLE);
    assert_eq!(faults.len(), 1, "{:?}", report.counterexample);
    let example = report.counterexample.expect("caught");
    assert_eq!(example.schedule.0[0].at, 0, "shrunk to the earliest point");
    assert!(example.story[0].contains("503"), "{:?}", example.story);
}

#[test]
fn the_reference_keeps_safety_under_a_deleted_custom_resource() {
    let report = check(Flaw::None, 60, 3);
    assert!(report.passed);
    let safe = report.properties.iter().find(|p| p.name == SAFE);
    assert!(safe.is_some_and(|p| p.held));
}

/// The session the wasm binding drives, one run at a time.
fn session_until(flaw: Flaw, runs: usize) -> CheckSession {
    let factory = move || -> Box<dyn Reconciler> {
        Box::new(Controller {
            flaw,
            done: BTreeSet::new(),
        })
    };
    let exercise = owned_configmap();
    let mut session = CheckSession::new(Budget::default(), 0);
    for _ in 0..runs {
        let Some(schedule) = session.next().cloned() else {
            break;
        };
        session.record(run_schedule(&exercise, &factory, &schedule));
    }
    session
}

#[test]
fn a_session_run_to_its_end_reports_what_check_reports() {
    for flaw in [Flaw::None, Flaw::CreateOnly, Flaw::RemembersTooEarly] {
        let whole = check(flaw, 1000, 0);
        let session = session_until(flaw, usize::MAX).report();
        assert_eq!(session.passed, whole.passed);
        assert_eq!(session.explored, whole.explored);
        let schedule = |r: &CheckReport| r.counterexample.as_ref().map(|c| c.schedule.clone());
        assert_eq!(schedule(&session), schedule(&whole));
    }
}

#[test]
fn a_session_stopped_early_reports_what_it_explored_and_nothing_run_is_no_pass() {
    let stopped = session_until(Flaw::None, 10).report();
    assert!(stopped.passed);
    assert_eq!(stopped.schedules_explored, 10);
    assert!(stopped.properties.iter().all(|p| p.held));
    let nothing = session_until(Flaw::None, 0).report();
    assert!(!nothing.passed);
    assert_eq!(nothing.schedules_explored, 0);
    assert!(nothing.properties.is_empty());
}
