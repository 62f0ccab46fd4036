//! The fault search, its properties and shrinking (issue 30, step 2), with
//! Rust controllers for `owned-configmap`: the reference passes the whole
//! default budget; each known bug fails with a shrunk schedule. Each run
//! replays from its record, without the controller.

mod exercises;

use std::collections::BTreeSet;

use serde_json::{json, Value};

use reconcile_sim::learner::properties::{EVENTUALLY_STABLE, IDEMPOTENT_ONCE_CONVERGED, SAFE};
use reconcile_sim::learner::schedule::single_faults;
use reconcile_sim::learner::search::{run_schedule, Counterexample};
use reconcile_sim::learner::{
    check_controller, owned_configmap, replay, Budget, CallError, CheckReport, CheckSession,
    Client, ClientCall, Fault, Finish, Read, Reconciler, ReplayError, ReplayLink, Request,
    Schedule, Script,
};

use exercises::replays_as_run;

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
    /// The reference, asking to be requeued after each reconcile: not a
    /// bug, but a result that a crash as it returns must not lose.
    Requeues,
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
            Ok(()) if self.flaw == Flaw::Requeues => Finish::Ok(Some(300)),
            Ok(()) => Finish::Ok(None),
            Err(error) => Finish::Error(error.to_string()),
        }
    }
}

/// Makes a fresh process of the controller with `flaw`.
fn factory(flaw: Flaw) -> impl Fn() -> Box<dyn Reconciler> {
    move || -> Box<dyn Reconciler> {
        Box::new(Controller {
            flaw,
            done: BTreeSet::new(),
        })
    }
}

fn check(flaw: Flaw, budget: usize, seed: u64) -> CheckReport {
    let budget = Budget { schedules: budget };
    check_controller(&owned_configmap(), &factory(flaw), budget, seed)
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

/// A run stopped by the pass limit is told in the property's words (the
/// goal), never in the engine's, which reads the contract's plan.
#[test]
fn a_run_at_the_pass_limit_is_told_in_the_propertys_words() {
    let example = counterexample(Flaw::NoOwnerReference);
    assert_eq!(example.property, EVENTUALLY_STABLE);
    let (detail, exercise) = (&example.detail, owned_configmap());
    let limit = exercise.config.max_passes;
    let goal = exercise.goal_text.trim_end_matches('.');
    assert_eq!(
        detail,
        &format!("the run never settled: after {limit} passes, the pass limit, the goal still did not hold: {goal}")
    );
    for engine in ["planning actions", "Not converging"] {
        assert!(!detail.contains(engine), "{detail}");
    }
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
    let factory = factory(flaw);
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

/// The bugs the check catches, each with its counterexample under the
/// default budget and seed 7.
fn counterexamples() -> impl Iterator<Item = (Flaw, Counterexample)> {
    [
        Flaw::NoOwnerReference,
        Flaw::BlindUpdate,
        Flaw::CreateOnly,
        Flaw::RemembersTooEarly,
    ]
    .into_iter()
    .map(|flaw| (flaw, counterexample(flaw)))
}

/// The counterexample of `flaw` under the default budget and seed 7.
fn counterexample(flaw: Flaw) -> Counterexample {
    let report = check(flaw, Budget::default().schedules, 7);
    report.counterexample.expect("caught")
}

#[test]
fn each_counterexample_replays_as_its_run_did() {
    let exercise = owned_configmap();
    for (flaw, example) in counterexamples() {
        replays_as_run(
            &exercise,
            &factory(flaw),
            &example.schedule,
            &example.record,
        );
    }
}

#[test]
fn the_reference_replays_fault_free_and_under_every_single_fault() {
    let exercise = owned_configmap();
    for flaw in [Flaw::None, Flaw::Requeues] {
        let reference = factory(flaw);
        let fault_free = run_schedule(&exercise, &reference, &Schedule::none());
        let singles = single_faults(fault_free.run.requests());
        for schedule in std::iter::once(Schedule::none()).chain(singles) {
            let outcome = run_schedule(&exercise, &reference, &schedule);
            replays_as_run(&exercise, &reference, &schedule, outcome.run.run().record());
        }
    }
}

#[test]
fn a_replay_that_parts_from_its_record_says_where() {
    let exercise = owned_configmap();
    let outcome = run_schedule(&exercise, &factory(Flaw::None), &Schedule::none());
    let script = Script::of(&Schedule::none(), outcome.run.run().record());
    let replayed = |script: &Script| replay(exercise.clone(), script).err();

    let mut answered = script.clone();
    let first = &mut answered.reconciles[0];
    first.answers.as_mut().expect("answers")[0] = Ok(json!("something else"));
    let error = replayed(&answered).expect("an answer that differs");
    assert!(
        matches!(
            &error,
            ReplayError::Answer {
                index: 0,
                call: 0,
                method: "get",
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("\"something else\""), "{error}");

    let mut renamed = script.clone();
    renamed.reconciles[0].name = "nobody".to_owned();
    let error = replayed(&renamed).expect("another key");
    assert!(error.to_string().contains("was for nobody"), "{error}");

    let mut short = script.clone();
    short.reconciles.pop();
    let error = replayed(&short).expect("the run goes on past the record");
    assert!(
        matches!(
            &error,
            ReplayError::Reconcile {
                expected: None,
                found: Some(_),
                ..
            }
        ),
        "{error:?}"
    );

    let mut long = script.clone();
    long.reconciles.push(script.reconciles[0].clone());
    let error = replayed(&long).expect("the run ends before the record");
    assert!(
        matches!(
            &error,
            ReplayError::Reconcile {
                expected: Some(_),
                found: None,
                ..
            }
        ),
        "{error:?}"
    );

    let mut moved = script.clone();
    moved.reconciles[0].incarnation = 1;
    let error = replayed(&moved).expect("another process");
    assert!(
        matches!(
            &error,
            ReplayError::Incarnation {
                index: 0,
                expected: 1,
                found: 0
            }
        ),
        "{error:?}"
    );
}

#[test]
fn a_replay_link_opens_the_same_run_and_a_bad_one_says_why() {
    let example = counterexample(Flaw::RemembersTooEarly);
    let link = ReplayLink::of(
        "owned-configmap",
        Some(r#"{"resyncPeriodMs": 1000}"#.into()),
        &example,
    );
    let text = serde_json::to_string(&link).expect("a link as JSON");
    assert!(
        !text.contains("answer"),
        "answers stay out of links: {text:.200}"
    );
    let opened = ReplayLink::read(&text)
        .expect("reads")
        .open()
        .expect("opens");
    assert_eq!(opened.run().record(), &example.record[..]);

    let unknown = ReplayLink {
        exercise: "replica".to_owned(),
        ..link.clone()
    };
    let error = unknown.open().expect_err("no such exercise");
    assert!(error.starts_with("no exercise \"replica\""), "{error}");
    let misspelt = ReplayLink {
        options: Some(r#"{"sed": 7}"#.into()),
        ..link.clone()
    };
    assert!(misspelt.open().expect_err("misspelt").contains("sed"));
    let error = ReplayLink::read(r#"{"exercise": "status"}"#).expect_err("no script");
    assert!(
        error.starts_with("This replay cannot be read: missing field"),
        "{error}"
    );
    let extra = text.replacen('{', r#"{"code": "x", "#, 1);
    let error = ReplayLink::read(&extra).expect_err("no code in a link");
    assert!(error.contains("unknown field `code`"), "{error}");
}

/// Issue 30's "Open in the simulation": the link's run, opened for the
/// views, is the run the check found (its timeline, record, property and
/// story), with the control plane's picture at every event, each pass's
/// end showing that pass's store.
#[test]
fn a_replay_opened_for_the_views_is_the_checked_run_with_its_pictures() {
    use reconcile_sim::picture::{position_of_moment, Position};
    use reconcile_sim::Moment;
    let exercise = owned_configmap();
    for (flaw, example) in counterexamples() {
        let link = ReplayLink::of("owned-configmap", None, &example);
        let text = serde_json::to_string(&link).expect("a link as JSON");
        let link = ReplayLink::read(&text).expect("reads");
        let opened = link.open_for_views().expect("opens");
        let original = run_schedule(&exercise, &factory(flaw), &example.schedule);
        let timeline = original.run.into_run().into_timeline();
        assert_eq!(opened.timeline, timeline, "{flaw:?}: the replay's timeline");
        assert_eq!(opened.record, example.record, "{flaw:?}: the record");
        let broken = opened.broken.as_ref().expect("a property broke");
        assert_eq!(
            (broken.name, &broken.detail, &opened.story),
            (example.property, &example.detail, &example.story),
            "{flaw:?}: the check's words"
        );
        // A picture at the start, each event and each actor's event.
        let events = opened.timeline.events.entries.len();
        let actor_events = opened.timeline.actor_events.len();
        assert_eq!(opened.pictures.len(), 1 + events + actor_events, "{flaw:?}");
        assert_eq!(opened.pictures[0].position, Position::Start);
        for (pass, _) in opened.timeline.passes.iter().enumerate() {
            let moment = Moment::AfterPass(pass + 1);
            let position = position_of_moment(&opened.timeline, moment).expect("pictured");
            let picture = opened
                .pictures
                .iter()
                .find(|p| p.position == position)
                .expect("a picture at each pass's end");
            assert_eq!(
                &*picture.store,
                opened.timeline.world_after(pass + 1),
                "{flaw:?}: pass {}",
                pass + 1
            );
        }
        let at = opened.broke_at();
        assert!(
            at > 0 && at < opened.timeline.moments.len(),
            "{flaw:?}: {at}"
        );
        if let Some(pass) = broken.pass {
            assert_eq!(
                opened.timeline.moments[at],
                Moment::AfterPass(pass),
                "{flaw:?}"
            );
        }
    }
}
