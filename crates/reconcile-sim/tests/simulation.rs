//! Tests of the simulated control loop (`reconcile_sim`): one unit test
//! per behaviour, with concrete timeline contents, then property tests.
//!
//! Unless a test says otherwise the timing is the default: an action takes
//! 10 ms, a watch event arrives 5 ms after its write, finalizer owners act
//! 50 ms after a pass ends, a restart takes 500 ms, and the first pass starts
//! at t = 1 (the informer's initial list).

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use reconcile_content::presets::presets;
use reconcile_core::{
    parse_finalizers, parse_json, parse_resources, reconcile, Action, ActionKind, Document,
    Finalizers, Json, Number, Resources,
};
use reconcile_sim::comparison::{controller_out_of_sync, controller_plan};
use reconcile_sim::naming::controller_observed;
use reconcile_sim::ownership::{ObjectKey, OwnerRefs, CUSTOM_RESOURCE};
use reconcile_sim::workqueue::{AddOutcome, RateLimiter, WorkQueue};
use reconcile_sim::ObjectNaming;
use reconcile_sim::SpecComparison;
use reconcile_sim::{
    compare_level_edge, resource_statuses, simulate, ActionResult, BackoffPolicy, CacheLag, Change,
    CrashPlan, FinalizerOwner, FinalizerRef, Happening, Millis, NotConvergingReason, ObjectWrites,
    OtherWriter, PassRecord, PropagationPolicy, QueueModel, ScriptedEvent, SimConfig, SimScenario,
    Simulation, StatusWrites, Step, SyncState, Timeline, Trigger, Verdict, WatchedKind, World,
    WorldEvent, NO_NEW_FINALIZERS,
};

// ---------------------------------------------------------------------------
// Helpers.

fn res(text: &str) -> Resources {
    parse_resources(Document::Desired, text).expect("test resources are valid")
}

fn json(text: &str) -> Json {
    parse_json(Document::Desired, text).expect("test JSON is valid")
}

fn scenario(desired: &str, observed: &str, finalizers: &str) -> SimScenario {
    SimScenario {
        desired: res(desired),
        observed: res(observed),
        finalizers: parse_finalizers(finalizers).expect("test finalizers are valid"),
    }
}

fn after(pass: usize, event: WorldEvent) -> ScriptedEvent {
    ScriptedEvent {
        after_pass: pass,
        event,
    }
}

fn delete(name: &str) -> WorldEvent {
    WorldEvent::Delete { name: name.into() }
}

fn owned(name: &str, change: Change) -> Trigger {
    Trigger::OwnedObject {
        name: name.into(),
        change,
    }
}

const CR_ADDED: Trigger = Trigger::CustomResource {
    change: Change::Added,
    after_restart: false,
};

/// A pass's actions as `(KIND, name, result)`.
/// A transient failure (503) requeued for `requeued_at`.
fn unavailable(requeued_at: Millis) -> ActionResult {
    ActionResult::Failed {
        requeued_at,
        code: 503,
        error: "the server is currently unable to handle the request".into(),
    }
}

fn actions(pass: &PassRecord) -> Vec<(ActionKind, String, ActionResult)> {
    pass.actions
        .iter()
        .map(|o| (o.action.kind, o.action.name.to_string(), o.result.clone()))
        .collect()
}

fn triggers(timeline: &Timeline) -> Vec<Trigger> {
    timeline.passes.iter().map(|p| p.trigger.clone()).collect()
}

/// The log entries of one kind, as `(at, after_pass, what)`.
fn log_of(timeline: &Timeline, pick: fn(&Happening) -> bool) -> Vec<(Millis, usize, Happening)> {
    timeline
        .log
        .iter()
        .filter(|e| pick(&e.what))
        .map(|e| (e.at, e.after_pass, e.what.clone()))
        .collect()
}

fn removals(timeline: &Timeline) -> Vec<(Millis, String, String)> {
    timeline
        .log
        .iter()
        .filter_map(|e| match &e.what {
            Happening::FinalizerRemoved {
                object, finalizer, ..
            } => Some((e.at, object.clone(), finalizer.clone())),
            _ => None,
        })
        .collect()
}

/// Delay of each failed pass's requeue, counted from the end of that pass.
fn requeue_delays(timeline: &Timeline) -> Vec<Millis> {
    timeline
        .passes
        .iter()
        .flat_map(|p| {
            p.actions.iter().filter_map(move |o| match o.result {
                ActionResult::Failed { requeued_at, .. } => Some(requeued_at - p.finished_at),
                _ => None,
            })
        })
        .collect()
}

/// How often each name was successfully created over the whole run.
fn creates(timeline: &Timeline) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for pass in &timeline.passes {
        for outcome in &pass.actions {
            if outcome.action.kind == ActionKind::Create && outcome.result == ActionResult::Applied
            {
                *counts.entry(outcome.action.name.to_string()).or_insert(0) += 1;
            }
        }
    }
    counts
}

fn remaining(desired: &Resources, world: &World) -> Vec<Action> {
    reconcile(desired, &world.observed, Some(&world.finalizers))
}

/// [`remaining`] as a controller with this `naming` sees the store.
fn remaining_named(naming: ObjectNaming, desired: &Resources, world: &World) -> Vec<Action> {
    let (observed, finalizers) = controller_observed(naming, desired, world);
    reconcile(desired, &observed, Some(&finalizers))
}

/// The desired state at the end of the run.
/// The custom resource's spec in force at `at` (changes at `at` itself too, if `inclusive`).
fn desired_at(timeline: &Timeline, at: Millis, inclusive: bool) -> Resources {
    let mut desired = timeline.desired_initial.clone();
    for entry in &timeline.log {
        if entry.at < at || (inclusive && entry.at == at) {
            if let Happening::ActorEvent {
                event: WorldEvent::SetDesired { desired: next },
                ..
            } = &entry.what
            {
                desired = next.clone();
            }
        }
    }
    desired
}

fn final_desired(timeline: &Timeline, config: &SimConfig) -> Resources {
    timeline.desired_after(timeline.passes.len(), config)
}

fn states(statuses: &[reconcile_sim::ResourceStatus]) -> Vec<(String, SyncState)> {
    statuses.iter().map(|s| (s.name.clone(), s.state)).collect()
}

fn preset_scenario(id: &str) -> (SimScenario, SimConfig) {
    let preset = reconcile_content::presets::find(id).expect("preset exists");
    (
        scenario(&preset.desired, &preset.observed, &preset.finalizers),
        preset.sim.read().expect("settings"),
    )
}

fn converged(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Converged { .. })
}

// ---------------------------------------------------------------------------
// One pass: what it records.

/// The seed example: pass 1 applies all three actions; its watch events
/// trigger two more passes (the first arrives mid-pass and is deferred).
/// Pass 2 reads the informer's cache, which has not yet heard of c's delete
/// (its event is still on the way), so it sends DELETE c again: 404, which
/// the controller takes as done. That stale read is why real controllers
/// treat NotFound on delete as success.
#[test]
fn a_pass_records_trigger_actions_results_world_and_out_of_sync() {
    let scenario = scenario(
        r#"{"a":{"replicas":1},"b":{"replicas":3}}"#,
        r#"{"b":{"replicas":1},"c":{"replicas":1}}"#,
        "null",
    );
    let timeline = simulate(&scenario, &SimConfig::default());

    let first = &timeline.passes[0];
    assert_eq!(first.index, 1);
    assert_eq!((first.started_at, first.finished_at), (1, 31));
    assert_eq!(first.trigger, CR_ADDED);
    assert_eq!(
        actions(first),
        vec![
            (ActionKind::Create, "a".into(), ActionResult::Applied),
            (ActionKind::Update, "b".into(), ActionResult::Applied),
            (ActionKind::Delete, "c".into(), ActionResult::Applied),
        ]
    );
    assert!(!first.crashed);
    assert_eq!(first.world_after.observed, scenario.desired);
    assert!(first.world_after.finalizers.is_empty());
    assert_eq!((first.out_of_sync, first.terminating), (0, 0));

    assert_eq!(
        triggers(&timeline),
        vec![
            CR_ADDED,
            owned("a", Change::Added),
            owned("c", Change::Deleted)
        ]
    );
    assert_eq!(
        actions(&timeline.passes[1]),
        vec![(ActionKind::Delete, "c".into(), ActionResult::AlreadyGone)],
        "a stale cache: c's delete has not reached it"
    );
    assert!(timeline.passes[2].actions.is_empty());
    assert_eq!(
        (timeline.passes[1].started_at, timeline.passes[2].started_at),
        (31, 41),
        "a at 16 is deferred until pass 1 ends at 31; c's event arrives at 31 + 5, during pass 2"
    );
    assert_eq!(
        log_of(&timeline, |h| matches!(h, Happening::Deferred { .. })),
        vec![
            (
                16,
                1,
                Happening::Deferred {
                    trigger: owned("a", Change::Added)
                }
            ),
            (
                36,
                2,
                Happening::Deferred {
                    trigger: owned("c", Change::Deleted)
                }
            )
        ]
    );
    assert_eq!(
        timeline.verdict,
        Verdict::Converged {
            passes: 3,
            time: 42
        }
    );
    assert_eq!(timeline.final_world.observed, scenario.desired);
    assert_eq!(
        timeline.verdict.to_string(),
        "Converged after 3 passes (t = 42 ms)"
    );
}

#[test]
fn an_in_sync_start_converges_in_one_pass_with_nothing_to_do() {
    let scenario = scenario(r#"{"a":1}"#, r#"{"a":1.0}"#, "null");
    let timeline = simulate(&scenario, &SimConfig::default());
    assert_eq!(timeline.passes.len(), 1);
    assert!(timeline.passes[0].actions.is_empty());
    assert_eq!(timeline.verdict, Verdict::Converged { passes: 1, time: 2 });
    assert_eq!(
        timeline.verdict.to_string(),
        "Converged after 1 pass (t = 2 ms)"
    );
    assert!(timeline.log.is_empty());
}

// ---------------------------------------------------------------------------
// Finalizers.

/// A pass as its trigger, its actions' kinds and results, and the pending finalizers of `svc` after it.
type PassSummary = (Trigger, Vec<(ActionKind, ActionResult)>, Vec<String>);

/// FINALIZE is a delete request: the API server marks the object terminating
/// and each finalizer's owner removes its entry on its own. The update that
/// removes the last one deletes the object there and then (apiserver
/// `store.go` `ShouldDeleteDuringUpdate`, ported as
/// `test_non_graceful_store_handle_finalizers`): no DELETE is ever sent.
#[test]
fn the_update_that_removes_the_last_finalizer_deletes_the_object() {
    let scenario = scenario(
        "{}",
        r#"{"svc":{"type":"LoadBalancer"}}"#,
        r#"{"svc":["cloud/a","cloud/b","cloud/c"]}"#,
    );
    let timeline = simulate(&scenario, &SimConfig::default());

    let first = &timeline.passes[0];
    assert_eq!(
        first.world_after.terminating.get("svc"),
        Some(&11),
        "deletionTimestamp = the time of the delete request"
    );
    assert_eq!(
        first.world_after.pending("svc").len(),
        3,
        "the request removes nothing"
    );
    assert_eq!((first.out_of_sync, first.terminating), (1, 1));

    let summary: Vec<PassSummary> = timeline
        .passes
        .iter()
        .map(|p| {
            (
                p.trigger.clone(),
                p.actions
                    .iter()
                    .map(|o| (o.action.kind, o.result.clone()))
                    .collect(),
                p.world_after.pending("svc").to_vec(),
            )
        })
        .collect();
    let all = ["cloud/a", "cloud/b", "cloud/c"].map(String::from).to_vec();
    assert_eq!(
        summary,
        vec![
            (
                CR_ADDED,
                vec![(ActionKind::Finalize, ActionResult::Applied)],
                all.clone()
            ),
            (
                owned("svc", Change::Updated),
                vec![(ActionKind::Finalize, ActionResult::AlreadyTerminating)],
                all
            ),
            (owned("svc", Change::Updated), vec![], vec![]),
        ]
    );
    // The three owners act on their own, 50 ms after the object started terminating.
    assert_eq!(
        removals(&timeline),
        vec![
            (61, "svc".into(), "cloud/a".into()),
            (61, "svc".into(), "cloud/b".into()),
            (61, "svc".into(), "cloud/c".into()),
        ]
    );
    let deleted_by: Vec<bool> = timeline
        .log
        .iter()
        .filter_map(|e| match e.what {
            Happening::FinalizerRemoved { object_deleted, .. } => Some(object_deleted),
            _ => None,
        })
        .collect();
    assert_eq!(
        deleted_by,
        vec![false, false, true],
        "the last removal deletes svc"
    );
    let last = timeline.passes.last().expect("passes");
    assert!(!last.world_after.observed.contains("svc"));
    assert!(last.world_after.terminating.is_empty());
    assert!(!last.world_after.finalizers.has_entry("svc"));
    assert!(timeline
        .passes
        .iter()
        .flat_map(|p| &p.actions)
        .all(|o| o.action.kind != ActionKind::Delete));
    assert_eq!(
        timeline.verdict,
        Verdict::Converged {
            passes: 3,
            time: 67
        }
    );
}

/// Finalizer owners are other controllers: they go on while this one is
/// down or deaf. Pass 1 sends the delete request and the controller crashes
/// right after; the owners finish, the object goes, and the restarted
/// controller lists a world with nothing left to do.
#[test]
fn finalizer_owners_act_while_the_controller_is_down() {
    let scenario = scenario("{}", r#"{"c":0}"#, r#"{"c":["f/2","f/3"]}"#);
    let config = SimConfig {
        crash: Some(CrashPlan {
            at_pass: 1,
            after_actions: 1,
        }),
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(
        removals(&timeline),
        vec![
            (61, "c".to_owned(), "f/2".to_owned()),
            (61, "c".to_owned(), "f/3".to_owned())
        ]
    );
    assert!(timeline.passes[0].crashed);
    let restarted_at = timeline.passes[1].started_at;
    assert!(61 < restarted_at, "the owners did not wait for the restart");
    assert!(timeline.passes[1].actions.is_empty());
    assert!(converged(&timeline.verdict));

    // Without a watch on owned objects no pass follows, and the object still goes.
    let deaf = SimConfig {
        watch_owned: false,
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &deaf);
    assert_eq!(timeline.passes.len(), 1);
    assert!(!timeline.final_world.observed.contains("c"));
    assert!(converged(&timeline.verdict));
}

/// Each finalizer owner is a controller with one worker and a speed of its
/// own: f/2's owner cleans up after c, then d, 50 ms each (the default);
/// f/3's owner takes 400 ms, and works at the same time as f/2's.
#[test]
fn each_finalizer_owner_works_one_object_at_a_time_at_its_own_speed() {
    let scenario = scenario(
        "{}",
        r#"{"c":0,"d":0}"#,
        r#"{"c":["f/2","f/3"],"d":["f/2"]}"#,
    );
    let config = SimConfig {
        finalizer_owners: vec![FinalizerOwner {
            finalizer: "f/3".to_owned(),
            delay_ms: 400,
        }],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    // Pass 1 FINALIZEs c (request answered at 11) and d (at 21).
    assert_eq!(
        removals(&timeline),
        vec![
            (61, "c".to_owned(), "f/2".to_owned()),
            (111, "d".to_owned(), "f/2".to_owned()),
            (411, "c".to_owned(), "f/3".to_owned()),
        ]
    );
    assert!(converged(&timeline.verdict));
    assert!(timeline.final_world.observed.is_empty());
}

/// Regression: an object the controller still wants, deleted by someone else
/// while it has finalizers, used to stay "terminating" forever with an empty
/// list (and the run "converged"). The API server removes it once the last
/// entry goes; the owned-object watch reports the delete and the loop
/// recreates it. The edge-triggered handler hears the same delete.
#[test]
fn a_wanted_object_deleted_with_finalizers_goes_when_they_are_gone_and_comes_back() {
    let scenario = scenario(
        r#"{"pvc":{"size":1}}"#,
        r#"{"pvc":{"size":1}}"#,
        r#"{"pvc":["csi/detach"]}"#,
    );
    let config = SimConfig {
        script: vec![after(1, delete("pvc"))],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(
        removals(&timeline),
        vec![(3 + 50, "pvc".to_owned(), "csi/detach".to_owned())],
        "the owner acts 50 ms after the delete began termination"
    );
    assert_eq!(
        triggers(&timeline),
        vec![
            CR_ADDED,
            owned("pvc", Change::Updated),
            owned("pvc", Change::Deleted),
            owned("pvc", Change::Added),
        ]
    );
    assert!(timeline.passes[1].world_after.is_terminating("pvc"));
    assert_eq!(
        actions(&timeline.passes[2]),
        vec![(ActionKind::Create, "pvc".into(), ActionResult::Applied)]
    );
    assert!(converged(&timeline.verdict));
    assert_eq!(timeline.final_world.observed, scenario.desired);
    assert!(timeline.final_world.terminating.is_empty());
    assert!(
        !timeline.final_world.finalizers.has_entry("pvc"),
        "a new object: no finalizers"
    );

    let level_edge = compare_level_edge(&scenario, &config);
    assert_eq!(
        level_edge.steps[1].edge_actions,
        vec![(
            Action::create("pvc", json(r#"{"size":1}"#)),
            "applied".to_owned()
        )]
    );
    assert_eq!(level_edge.edge_final, level_edge.level_final);
    assert_eq!(
        states(&level_edge.level_final),
        vec![("pvc".into(), SyncState::InSync)]
    );
}

#[test]
fn a_stuck_finalizer_is_never_removed() {
    let (scenario, config) = preset_scenario("stuck-namespace");
    let timeline = simulate(&scenario, &config);
    assert_eq!(
        removals(&timeline)
            .into_iter()
            .map(|(_, o, f)| (o, f))
            .collect::<Vec<_>>(),
        vec![("team-a".to_owned(), "example.com/backup".to_owned())],
        "the backup owner removes its entry; nobody removes kubernetes"
    );
    let world = &timeline.final_world;
    assert!(world.is_terminating("team-a"));
    assert_eq!(world.pending("team-a"), ["kubernetes".to_owned()]);
    let reason = NotConvergingReason::StuckFinalizer {
        object: "team-a".into(),
        finalizer: "kubernetes".into(),
    };
    assert_eq!(timeline.verdict, Verdict::NotConverging { reason });
    assert_eq!(
        timeline.verdict.to_string(),
        "Not converging: team-a is stuck terminating; finalizer kubernetes is never removed"
    );
    // Every pass after the first only finds the object already terminating.
    for pass in &timeline.passes[1..] {
        assert_eq!(
            actions(pass),
            vec![(
                ActionKind::Finalize,
                "team-a".into(),
                ActionResult::AlreadyTerminating
            )]
        );
    }
}

#[test]
fn adding_a_finalizer_while_terminating_is_rejected_with_the_api_server_message() {
    let scenario = scenario("{}", r#"{"svc":{}}"#, r#"{"svc":["cloud/lb"]}"#);
    let config = SimConfig {
        script: vec![after(
            1,
            WorldEvent::AddFinalizer {
                name: "svc".into(),
                finalizer: "example.com/audit".into(),
            },
        )],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    // apimachinery's ValidateNoNewFinalizers, as the API server words it.
    const REJECTED_AUDIT: &str = "object \"svc\" is invalid: metadata.finalizers: Forbidden: \
        no new finalizers can be added if the object is being deleted, \
        found new finalizers [\"example.com/audit\"]";
    assert_eq!(
        NO_NEW_FINALIZERS,
        "no new finalizers can be added if the object is being deleted"
    );
    assert_eq!(
        log_of(&timeline, |h| matches!(h, Happening::Rejected { .. })),
        vec![(
            12,
            1,
            Happening::Rejected {
                object: "svc".into(),
                reason: REJECTED_AUDIT.into(),
            }
        )]
    );
    let effects: Vec<String> = timeline
        .log
        .iter()
        .filter_map(|e| match &e.what {
            Happening::ActorEvent { effect, .. } => Some(effect.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(effects, vec![format!("rejected: {REJECTED_AUDIT}")]);
    assert!(timeline.passes.iter().all(|p| !p
        .world_after
        .pending("svc")
        .contains(&"example.com/audit".to_owned())));
    assert!(converged(&timeline.verdict));
    assert!(!timeline.final_world.observed.contains("svc"));
}

#[test]
fn the_world_enforces_the_finalizer_rules() {
    let mut world = World::new(
        res(r#"{"a":1,"b":2}"#),
        parse_finalizers(r#"{"a":["x"],"ghost":["y"]}"#).expect("valid"),
    );
    assert!(
        !world.finalizers.has_entry("ghost"),
        "entries of unobserved names are dropped"
    );
    assert_eq!(world.add_finalizer("b", "f"), Ok(true));
    assert_eq!(world.add_finalizer("b", "f"), Ok(false), "already present");
    assert_eq!(world.add_finalizer("nope", "f"), Ok(false), "not found");
    let before = world.fingerprint();
    assert!(world.mark_terminating("a", 7));
    assert_ne!(
        world.fingerprint(),
        before,
        "the deletion mark is part of the state"
    );
    assert!(!world.mark_terminating("a", 9), "already terminating");
    assert_eq!(world.terminating.get("a"), Some(&7));
    assert_eq!(world.add_finalizer("a", "z"), Err(NO_NEW_FINALIZERS));
    assert!(world.remove_finalizer("a", "x"));
    assert!(!world.remove_finalizer("a", "x"));
    assert_eq!(world.remove("a"), Some(Change::Deleted));
    assert_eq!(world.remove("a"), None);
    assert!(!world.is_terminating("a") && !world.finalizers.has_entry("a"));
    let same = World::new(
        res(r#"{"b":2}"#),
        parse_finalizers(r#"{"b":["f"]}"#).expect("valid"),
    );
    assert_eq!(
        world.fingerprint(),
        same.fingerprint(),
        "fingerprint = hash of the state"
    );
}

// ---------------------------------------------------------------------------
// Faults.

/// Each scripted event happens right after its pass; its watch event triggers
/// the pass that repairs it.
#[test]
fn external_delete_and_drift_at_chosen_passes() {
    let scenario = scenario(
        r#"{"a":{"r":1},"b":{"r":1}}"#,
        r#"{"a":{"r":1},"b":{"r":1}}"#,
        "null",
    );
    let config = SimConfig {
        script: vec![
            after(1, delete("a")),
            after(
                3,
                WorldEvent::Drift {
                    name: "b".into(),
                    path: vec!["r".into()],
                    value: json("7"),
                },
            ),
        ],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let external: Vec<(Millis, usize, String)> = timeline
        .log
        .iter()
        .filter_map(|e| match &e.what {
            Happening::ActorEvent { effect, .. } => Some((e.at, e.after_pass, effect.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        external,
        vec![
            (3, 1, "deleted".to_owned()),
            (25, 3, "field changed".to_owned()),
        ]
    );
    assert_eq!(
        triggers(&timeline),
        vec![
            CR_ADDED,
            owned("a", Change::Deleted),
            owned("a", Change::Added),
            owned("b", Change::Updated),
            owned("b", Change::Updated),
        ]
    );
    let repairs: Vec<Vec<(ActionKind, String, ActionResult)>> =
        timeline.passes.iter().map(actions).collect();
    assert_eq!(
        repairs,
        vec![
            vec![],
            vec![(ActionKind::Create, "a".into(), ActionResult::Applied)],
            vec![],
            vec![(ActionKind::Update, "b".into(), ActionResult::Applied)],
            vec![],
        ]
    );
    assert_eq!(
        timeline.passes[3].actions[0].action.spec,
        Some(json(r#"{"r":1}"#)),
        "UPDATE carries the desired spec"
    );
    assert_eq!(
        timeline.verdict,
        Verdict::Converged {
            passes: 5,
            time: 46
        }
    );
    assert_eq!(timeline.final_world.observed, scenario.desired);
}

#[test]
fn events_on_missing_or_existing_objects_change_nothing() {
    let scenario = scenario(r#"{"a":1}"#, r#"{"a":1}"#, "null");
    let config = SimConfig {
        script: vec![
            after(1, delete("ghost")),
            after(
                1,
                WorldEvent::Drift {
                    name: "ghost".into(),
                    path: vec!["r".into()],
                    value: json("1"),
                },
            ),
            after(
                1,
                WorldEvent::StrayCreate {
                    name: "a".into(),
                    spec: json("2"),
                },
            ),
        ],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let effects: Vec<String> = timeline
        .log
        .iter()
        .filter_map(|e| match &e.what {
            Happening::ActorEvent { effect, .. } => Some(effect.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        effects,
        vec![
            "not found; nothing deleted",
            "not found; nothing changed",
            "already exists; nothing created"
        ]
    );
    assert_eq!(timeline.verdict, Verdict::Converged { passes: 1, time: 2 });
}

/// Every action fails: the requeue delays double from 5 ms, and the pass
/// limit ends the run. The actions after the failed one are not attempted.
#[test]
fn transient_failures_requeue_with_client_go_exponential_backoff() {
    let scenario = scenario(r#"{"a":1,"b":2}"#, "{}", "null");
    let config = SimConfig {
        failure_rate: 1.0,
        max_passes: 8,
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(
        requeue_delays(&timeline),
        vec![5, 10, 20, 40, 80, 160, 320, 640]
    );
    let first = &timeline.passes[0];
    assert_eq!(
        actions(first),
        vec![
            (ActionKind::Create, "a".into(), unavailable(16)),
            (ActionKind::Create, "b".into(), ActionResult::NotAttempted),
        ]
    );
    assert_eq!(first.finished_at, 11, "only the attempted call takes time");
    let requeues: Vec<Trigger> = triggers(&timeline)[1..].to_vec();
    assert_eq!(
        requeues,
        (1..=7)
            .map(|failures| Trigger::Requeue { failures })
            .collect::<Vec<_>>()
    );
    // Each requeued pass starts exactly when its backoff expires.
    for pair in timeline.passes.windows(2) {
        let ActionResult::Failed { requeued_at, .. } = pair[0].actions[0].result else {
            panic!("every pass fails");
        };
        assert_eq!(pair[1].started_at, requeued_at);
    }
    assert_eq!(
        timeline.verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::PassLimit { limit: 8 }
        }
    );
    assert_eq!(
        timeline.verdict.to_string(),
        "Not converging: still planning actions after the pass limit of 8"
    );
    assert!(
        timeline.final_world.observed.is_empty(),
        "nothing was ever applied"
    );
}

/// Half of all calls fail. The backoff grows with each consecutive failed
/// pass and starts again at 5 ms after a pass that succeeds. (The finalizers'
/// removals keep the loop busy after its creates succeed, so a reset shows.)
#[test]
fn flaky_backoff_follows_5_10_20_ms_and_resets_after_success() {
    let scenario = scenario(
        r#"{"p1":1,"p2":1,"p3":1}"#,
        r#"{"old":1}"#,
        r#"{"old":["f/1","f/2","f/3"]}"#,
    );
    let config = SimConfig {
        failure_rate: 0.5,
        seed: 45,
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let mut consecutive = 0u32;
    let mut expected = Vec::new();
    for pass in &timeline.passes {
        if pass
            .actions
            .iter()
            .any(|o| matches!(o.result, ActionResult::Failed { .. }))
        {
            expected.push(5u64 << consecutive);
            consecutive += 1;
        } else {
            consecutive = 0;
        }
    }
    let delays = requeue_delays(&timeline);
    assert_eq!(delays, expected);
    assert_eq!(delays, vec![5, 10, 20, 5, 10]);
    assert!(converged(&timeline.verdict));
    assert_eq!(timeline.final_world.observed, scenario.desired);
}

#[test]
fn the_token_bucket_paces_requeues_once_the_burst_is_spent() {
    let scenario = scenario(r#"{"a":1}"#, "{}", "null");
    let config = SimConfig {
        failure_rate: 1.0,
        max_passes: 4,
        backoff: BackoffPolicy::ClientGo {
            base_ms: 5,
            max_ms: 1_000_000,
            qps: 10.0,
            burst: 1,
        },
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    // 1 token, then one every 100 ms: the bucket, not the item backoff, sets the pace.
    assert_eq!(requeue_delays(&timeline), vec![5, 85, 90, 90]);

    let mut limiter = RateLimiter::new(BackoffPolicy::default());
    let delays: Vec<Millis> = (0..101).map(|i| limiter.when(&i, 0)).collect();
    assert!(delays[..100].iter().all(|d| *d == 5), "a burst of 100");
    assert_eq!(delays[100], 100, "then 10 per second");
    let policy = BackoffPolicy::default();
    assert_eq!(policy.item_delay(17), 655_360);
    assert_eq!(policy.item_delay(18), 1_000_000, "capped at 1000 s");
    assert_eq!(policy.item_delay(64), 1_000_000);
}

#[test]
fn the_fixed_delay_policy_requeues_after_the_same_delay_every_time() {
    let scenario = scenario(r#"{"a":1}"#, "{}", "null");
    let config = SimConfig {
        failure_rate: 1.0,
        max_passes: 5,
        backoff: BackoffPolicy::FixedDelay { delay_ms: 250 },
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(requeue_delays(&timeline), vec![250; 5]);
    assert_eq!(
        timeline
            .passes
            .iter()
            .map(|p| p.started_at)
            .collect::<Vec<_>>(),
        vec![1, 261, 521, 781, 1041]
    );
    assert_eq!(
        timeline.verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::PassLimit { limit: 5 }
        }
    );
}

/// Crash after 1 of 3 actions: the rest are lost; 500 ms later the restarted
/// controller lists the custom resource again, re-reads the world, and creates
/// only what is missing. Each name is created exactly once.
#[test]
fn a_crash_mid_pass_restarts_and_creates_each_name_exactly_once() {
    let (scenario, config) = preset_scenario("crash-mid-pass");
    let timeline = simulate(&scenario, &config);
    let first = &timeline.passes[0];
    assert!(first.crashed);
    assert_eq!(
        actions(first),
        vec![
            (ActionKind::Create, "cache-0".into(), ActionResult::Applied),
            (
                ActionKind::Create,
                "cache-1".into(),
                ActionResult::LostInCrash
            ),
            (
                ActionKind::Create,
                "cache-2".into(),
                ActionResult::LostInCrash
            ),
        ]
    );
    assert_eq!(
        first.world_after.observed.names().collect::<Vec<_>>(),
        vec!["cache-0"]
    );
    assert_eq!(
        log_of(&timeline, |h| matches!(
            h,
            Happening::Crashed { .. } | Happening::Restarted
        )),
        vec![
            (11, 1, Happening::Crashed { pass: 1 }),
            (511, 1, Happening::Restarted)
        ]
    );
    let second = &timeline.passes[1];
    assert_eq!(
        second.trigger,
        Trigger::CustomResource {
            change: Change::Added,
            after_restart: true
        }
    );
    assert_eq!(
        second.trigger.to_string(),
        "custom resource listed after the controller restarted"
    );
    assert_eq!(second.started_at, 511);
    assert_eq!(
        actions(second),
        vec![
            (ActionKind::Create, "cache-1".into(), ActionResult::Applied),
            (ActionKind::Create, "cache-2".into(), ActionResult::Applied),
        ]
    );
    // The crashed process's watch event for cache-0 (due at 16) was lost with it.
    assert!(!triggers(&timeline).contains(&owned("cache-0", Change::Added)));
    assert_eq!(
        creates(&timeline),
        BTreeMap::from([
            ("cache-0".to_owned(), 1),
            ("cache-1".to_owned(), 1),
            ("cache-2".to_owned(), 1)
        ])
    );
    // Pass 3 starts when pass 2 ends (cache-1's event, deferred), before
    // cache-2's event has reached the cache: it CREATEs cache-2 again and the
    // API server answers 409 AlreadyExists, an error, so the key is requeued.
    let third = &timeline.passes[2];
    assert_eq!(third.started_at, 531);
    let [outcome] = &third.actions[..] else {
        panic!("one action: {:?}", third.actions)
    };
    assert_eq!(outcome.action.kind, ActionKind::Create);
    assert!(matches!(
        &outcome.result,
        ActionResult::Failed { code: 409, error, .. } if error == "object \"cache-2\" already exists"
    ));
    assert_eq!(
        timeline.verdict,
        Verdict::Converged {
            passes: 5,
            time: 547
        }
    );
}

/// Regression: a watch event that arrived while the controller was down used
/// to queue the key, so the first pass after the restart was labelled with
/// that event instead of the restart's fresh list.
#[test]
fn events_while_the_controller_is_down_reach_nobody() {
    let scenario = scenario(r#"{"a":1}"#, "{}", "null");
    let config = SimConfig {
        crash: Some(CrashPlan {
            at_pass: 1,
            after_actions: 0,
        }),
        script: vec![after(
            1,
            WorldEvent::SetDesired {
                desired: res(r#"{"a":1,"b":1}"#),
            },
        )],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(
        actions(&timeline.passes[0]),
        vec![(ActionKind::Create, "a".into(), ActionResult::LostInCrash)]
    );
    let second = &timeline.passes[1];
    assert_eq!(
        second.trigger,
        Trigger::CustomResource {
            change: Change::Added,
            after_restart: true
        }
    );
    assert_eq!(second.started_at, 2 + 500);
    assert_eq!(
        actions(second),
        vec![
            (ActionKind::Create, "a".into(), ActionResult::Applied),
            (ActionKind::Create, "b".into(), ActionResult::Applied),
        ],
        "the fresh list sees the new spec"
    );
    assert!(converged(&timeline.verdict));
}

/// Regression: when an action failed before the planned crash point, the
/// actions after it were marked lost in the crash and the failure's
/// `requeued_at` was left at 0. The pass returns its error at the failure
/// (the rest are not attempted) and crashes as it ends, losing the requeue.
#[test]
fn a_failure_before_the_crash_point_ends_the_pass_which_then_crashes() {
    let scenario = scenario(r#"{"a":1,"b":1,"c":1}"#, "{}", "null");
    let config = SimConfig {
        failure_rate: 1.0,
        max_passes: 2,
        crash: Some(CrashPlan {
            at_pass: 1,
            after_actions: 2,
        }),
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let first = &timeline.passes[0];
    assert!(first.crashed);
    assert_eq!(
        actions(first),
        vec![
            (ActionKind::Create, "a".into(), unavailable(16)),
            (ActionKind::Create, "b".into(), ActionResult::NotAttempted),
            (ActionKind::Create, "c".into(), ActionResult::NotAttempted),
        ]
    );
    assert_eq!(
        log_of(&timeline, |h| matches!(h, Happening::Crashed { .. })),
        vec![(11, 1, Happening::Crashed { pass: 1 })]
    );
    // The requeue at 16 died with the process: the restart's list runs pass 2.
    assert_eq!(timeline.passes[1].started_at, 511);
    assert_eq!(
        timeline.passes[1].trigger,
        Trigger::CustomResource {
            change: Change::Added,
            after_restart: true
        }
    );
    assert_eq!(
        requeue_delays(&timeline),
        vec![5, 5],
        "backoff state is lost too"
    );
}

#[test]
fn a_crash_after_all_actions_leaves_nothing_for_the_restart() {
    let scenario = scenario(r#"{"a":1,"b":1}"#, "{}", "null");
    let config = SimConfig {
        crash: Some(CrashPlan {
            at_pass: 1,
            after_actions: 5,
        }),
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert!(timeline.passes[0].crashed);
    assert!(timeline.passes[0]
        .actions
        .iter()
        .all(|o| o.result == ActionResult::Applied));
    assert_eq!(timeline.passes.len(), 2);
    assert!(
        timeline.passes[1].actions.is_empty(),
        "level-based: nothing left to do"
    );
    assert_eq!(timeline.passes[1].started_at, 21 + 500);
    assert_eq!(
        timeline.verdict,
        Verdict::Converged {
            passes: 2,
            time: 522
        }
    );
}

#[test]
fn without_owned_watches_or_resync_a_deleted_object_stays_missing() {
    let scenario = scenario(r#"{"a":1,"b":1}"#, r#"{"a":1,"b":1}"#, "null");
    let config = SimConfig {
        watch_owned: false,
        resync_period_ms: None,
        script: vec![after(1, delete("b"))],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(timeline.passes.len(), 1, "nothing triggers a second pass");
    assert_eq!(
        timeline.verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::NoTrigger { out_of_sync: 1 }
        }
    );
    assert_eq!(
        timeline.verdict.to_string(),
        "Not converging: 1 out of sync, but no event or resync will trigger another pass"
    );
    assert!(!timeline.final_world.observed.contains("b"));
    assert_eq!(
        states(&resource_statuses(
            &scenario.desired,
            &timeline.final_world,
            &[]
        )),
        vec![
            ("a".into(), SyncState::InSync),
            ("b".into(), SyncState::Missing)
        ]
    );

    // The informer still cached the delete (it caches what the controller
    // reads; only no handler listens), so the resync, which replays the cache
    // and never reads the server, brings a pass that sees b missing.
    assert!(!timeline.final_world.observed.contains("b"));
    let config = SimConfig {
        resync_period_ms: Some(1_000),
        ..config
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(timeline.passes[1].trigger, Trigger::Resync);
    // 1000 ms times the informer's jitter factor, drawn in [0.9, 1.1).
    assert_eq!(timeline.passes[1].started_at, 934);
    assert_eq!(
        actions(&timeline.passes[1]),
        vec![(ActionKind::Create, "b".into(), ActionResult::Applied)]
    );
    assert_eq!(
        timeline.verdict,
        Verdict::Converged {
            passes: 2,
            time: 944
        }
    );
}

// ---------------------------------------------------------------------------
// Triggers and the work queue.

#[test]
fn a_scripted_spec_change_triggers_a_custom_resource_updated_pass() {
    let scenario = scenario(r#"{"a":1}"#, r#"{"a":1}"#, "null");
    let next = res(r#"{"a":2,"b":1}"#);
    let config = SimConfig {
        script: vec![after(
            1,
            WorldEvent::SetDesired {
                desired: next.clone(),
            },
        )],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let second = &timeline.passes[1];
    assert_eq!(
        second.trigger,
        Trigger::CustomResource {
            change: Change::Updated,
            after_restart: false
        }
    );
    assert_eq!(second.trigger.to_string(), "custom resource spec changed");
    assert_eq!(second.started_at, 3 + 5);
    assert_eq!(
        actions(second),
        vec![
            (ActionKind::Update, "a".into(), ActionResult::Applied),
            (ActionKind::Create, "b".into(), ActionResult::Applied),
        ],
        "desired names in name order"
    );
    assert_eq!(timeline.desired_after(0, &config), scenario.desired);
    assert_eq!(timeline.desired_after(1, &config), next);
    assert_eq!(final_desired(&timeline, &config), next);
    assert_eq!(timeline.final_world.observed, next);
    assert!(converged(&timeline.verdict));
}

/// Regression: a spec change scripted after pass 5 of a run that settles after
/// 1 pass happens when the loop goes idle, before pass 2. The desired state in
/// force afterwards is the new one (it used to be looked up by `after_pass`).
#[test]
fn desired_after_follows_when_a_spec_change_really_happened() {
    let scenario = scenario(r#"{"a":1}"#, r#"{"a":1}"#, "null");
    let next = res(r#"{"b":2}"#);
    let config = SimConfig {
        script: vec![after(
            5,
            WorldEvent::SetDesired {
                desired: next.clone(),
            },
        )],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert!(timeline.passes.len() < 5, "{}", timeline.passes.len());
    assert_eq!(timeline.desired_after(1, &config), next);
    assert_eq!(final_desired(&timeline, &config), next);
    let level_edge = compare_level_edge(&scenario, &config);
    assert_eq!(
        states(&level_edge.level_final),
        vec![("b".into(), SyncState::InSync)],
        "the level loop reached the new desired state"
    );
    assert_eq!(
        states(&level_edge.edge_final),
        vec![("b".into(), SyncState::InSync)]
    );
}

#[test]
fn the_four_trigger_kinds_and_their_descriptions() {
    assert_eq!(CR_ADDED.to_string(), "custom resource added");
    assert_eq!(
        owned("pod", Change::Deleted).to_string(),
        "owned object pod deleted"
    );
    assert_eq!(
        owned("pod", Change::Added).to_string(),
        "owned object pod added"
    );
    assert_eq!(
        owned("pod", Change::Updated).to_string(),
        "owned object pod updated"
    );
    assert_eq!(Trigger::Resync.to_string(), "periodic resync");
    assert_eq!(
        Trigger::Requeue { failures: 2 }.to_string(),
        "requeue after failure #2"
    );
    let json = serde_json::to_string(&owned("pod", Change::Deleted)).expect("serializes");
    assert_eq!(
        json,
        r#"{"kind":"owned-object","name":"pod","change":"deleted"}"#
    );
}

/// The key is never processed twice at once: passes never overlap, and an
/// event that arrives mid-pass is deferred and runs the next pass.
#[test]
fn events_during_a_pass_are_deferred_never_run_concurrently() {
    let scenario = scenario(r#"{"a":1,"b":1,"c":1,"d":1}"#, "{}", "null");
    let timeline = simulate(&scenario, &SimConfig::default());
    // Writes at 11, 21, 31, 41; events at 16 (deferred), 26, 36 (folded in),
    // and 46, which arrives during pass 2 (deferred too). Pass 2 read a cache
    // without d, so its CREATE d got 409 AlreadyExists and a requeue, whose
    // waiting entry still fires after pass 3 succeeded (client-go's delaying
    // queue does not cancel it).
    assert_eq!(
        log_of(&timeline, |h| matches!(h, Happening::Deferred { .. })),
        vec![
            (
                16,
                1,
                Happening::Deferred {
                    trigger: owned("a", Change::Added)
                }
            ),
            (
                46,
                2,
                Happening::Deferred {
                    trigger: owned("d", Change::Added)
                }
            )
        ]
    );
    assert_eq!(
        timeline
            .passes
            .iter()
            .map(|p| (p.started_at, p.finished_at, p.trigger.clone()))
            .collect::<Vec<_>>(),
        vec![
            (1, 41, CR_ADDED),
            (41, 51, owned("a", Change::Added)),
            (51, 52, owned("d", Change::Added)),
            (56, 57, Trigger::Requeue { failures: 1 }),
        ]
    );

    let mut queue = WorkQueue::default();
    assert_eq!(queue.add("cr"), AddOutcome::Queued);
    assert_eq!(queue.get(), Some("cr"));
    assert_eq!(queue.add("cr"), AddOutcome::Deferred);
    assert_eq!(queue.get(), None, "not handed out while processing");
    assert!(queue.done(&"cr"));
    assert_eq!(queue.get(), Some("cr"));
}

/// Regression: `done` for a key that is queued but not processing used to
/// queue it a second time, so two workers could get it at once.
#[test]
fn done_for_a_key_that_is_not_processing_queues_nothing() {
    let mut queue = WorkQueue::default();
    assert_eq!(queue.add("cr"), AddOutcome::Queued);
    assert!(!queue.done(&"cr"), "cr was never handed out");
    assert_eq!(queue.len(), 1);
    assert_eq!(queue.get(), Some("cr"));
    assert_eq!(queue.get(), None, "handed out once");
}

// ---------------------------------------------------------------------------
// Verdicts.

#[test]
fn fighting_controllers_oscillate_over_the_named_field() {
    let (scenario, config) = preset_scenario("fighting-controllers");
    let timeline = simulate(&scenario, &config);
    let reason = NotConvergingReason::Oscillation {
        object: "web".into(),
        field: "$.replicas".into(),
        other_writer: Some("autoscaler".into()),
    };
    assert_eq!(timeline.verdict, Verdict::NotConverging { reason });
    assert_eq!(
        timeline.verdict.to_string(),
        "Not converging: oscillation: this controller and autoscaler keep overwriting $.replicas of web"
    );
    let writes = log_of(&timeline, |h| {
        matches!(h, Happening::OtherWriterWrote { .. })
    });
    assert!(writes.len() >= 3, "{writes:?}");
    assert_eq!(
        writes[0],
        (
            30,
            1,
            Happening::OtherWriterWrote {
                writer: "autoscaler".into(),
                object: "web".into(),
                path: "$.replicas".into(),
                value: json("5")
            }
        )
    );
    let updates = timeline
        .passes
        .iter()
        .filter(|p| actions(p) == vec![(ActionKind::Update, "web".into(), ActionResult::Applied)])
        .count();
    assert!(updates >= 2, "the controller keeps writing replicas back");

    // With too few passes to see the same state three times: the pass limit.
    let short = SimConfig {
        max_passes: 2,
        ..config
    };
    assert_eq!(
        simulate(&scenario, &short).verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::PassLimit { limit: 2 }
        }
    );
}

/// Regression: a finite script that undoes the controller's work again and
/// again (the same pod deleted three times) used to be reported as an
/// oscillation, ending the run before the script was done. Only another
/// writer can keep undoing it forever.
#[test]
fn the_same_object_deleted_again_and_again_is_not_an_oscillation() {
    let scenario = scenario(r#"{"a":1}"#, "{}", "null");
    let config = SimConfig {
        script: vec![
            after(2, delete("a")),
            after(4, delete("a")),
            after(6, delete("a")),
        ],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert!(converged(&timeline.verdict), "{}", timeline.verdict);
    assert_eq!(creates(&timeline).get("a"), Some(&4));
    assert_eq!(timeline.final_world.observed, scenario.desired);
}

/// A watch that closes does not lose its events (client-go `reflector.go`,
/// `Reflector.watch`): the reflector starts a new watch from its last
/// resourceVersion, and the API server replays what it missed from its
/// watch cache, deletes included (apiserver `watch_cache.go`,
/// `getAllEventsSinceLocked`). No list, no backoff: the delete of a arrives
/// on the new watch and queues the key.
#[test]
fn a_closed_watch_resumes_and_the_server_replays_the_missed_delete() {
    let scenario = scenario(r#"{"a":1,"b":2}"#, "{}", "null");
    let config = SimConfig {
        seed: 0,
        watch_break_rate: 0.5,
        watch_latency_ms: 0,
        script: vec![after(1, delete("a"))],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let broken = log_of(&timeline, |h| matches!(h, Happening::WatchBroken { .. }));
    assert_eq!(
        broken[0],
        (
            22,
            2,
            Happening::WatchBroken {
                name: "a".into(),
                change: Change::Deleted
            }
        )
    );
    let resumed = log_of(&timeline, |h| matches!(h, Happening::WatchResumed { .. }));
    assert!(
        matches!(
            resumed[0],
            (22, 2, Happening::WatchResumed { replayed: 1, .. })
        ),
        "{resumed:?}"
    );
    assert!(log_of(&timeline, |h| matches!(h, Happening::Relisted { .. })).is_empty());
    let repair = &timeline.passes[2];
    assert_eq!(repair.trigger, owned("a", Change::Deleted));
    assert_eq!(repair.started_at, 22);
    assert_eq!(
        actions(repair),
        vec![(ActionKind::Create, "a".into(), ActionResult::Applied)]
    );
    assert!(converged(&timeline.verdict));
    assert_eq!(timeline.final_world.observed, scenario.desired);
}

/// An API server restart starts its watch caches again from the store's
/// state, so a reflector that had not seen the last delete asks for history
/// the cache never had: 410 Gone ("too old resource version"). It lists
/// again after its backoff (800 ms, jitter 1.0); the list lacks a, which the
/// cache still holds, so the informer synthesizes its delete
/// (`DeletedFinalStateUnknown`) and the handler queues the key.
#[test]
fn after_an_api_server_restart_410_gone_makes_the_reflector_list_again() {
    let scenario = scenario(r#"{"a":1,"b":2}"#, "{}", "null");
    let config = SimConfig {
        seed: 0,
        watch_latency_ms: 10,
        script: vec![
            after(1, delete("a")),
            after(1, WorldEvent::RestartApiServer),
        ],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let objects_expired = |h: &Happening| {
        matches!(
            h,
            Happening::WatchExpired {
                informer: WatchedKind::Object,
                ..
            }
        )
    };
    let expired = log_of(&timeline, objects_expired);
    let (expired_at, _, gone) = &expired[0];
    let Happening::WatchExpired {
        resource_version,
        oldest,
        ..
    } = gone
    else {
        unreachable!()
    };
    assert!(resource_version < oldest, "{gone:?}");
    let objects_listed = |h: &Happening| {
        matches!(
            h,
            Happening::Relisted {
                informer: WatchedKind::Object,
                ..
            }
        )
    };
    let relists = log_of(&timeline, objects_listed);
    let (at, _, first) = &relists[0];
    assert!(
        (expired_at + 800..expired_at + 1_600).contains(at),
        "listed at {at}, 410 at {expired_at}"
    );
    assert_eq!(
        *first,
        Happening::Relisted {
            informer: WatchedKind::Object,
            deleted: vec!["a".into()]
        }
    );
    let repair = timeline
        .passes
        .iter()
        .find(|p| p.started_at == *at)
        .expect("the list queues the key");
    assert_eq!(repair.trigger, Trigger::Relisted);
    assert_eq!(
        actions(repair),
        vec![(ActionKind::Create, "a".into(), ActionResult::Applied)]
    );
    assert!(converged(&timeline.verdict));
}

/// Each kind has its own reflector and its own resourceVersion. After an
/// API server restart, the objects' reflector, which saw the last write,
/// resumes; the custom resource's, quiet since its list, asks for history
/// the new watch cache lacks and gets 410. (Upstream, a watch bookmark
/// about once a minute keeps a quiet reflector's resourceVersion recent:
/// cacher `bookmarkFrequency`; a run here lasts well under a minute.)
#[test]
fn after_an_api_server_restart_each_reflector_resumes_or_lists_on_its_own() {
    let scenario = scenario(r#"{"a":1,"b":2}"#, "{}", "null");
    let config = SimConfig {
        watch_latency_ms: 10,
        script: vec![after(2, WorldEvent::RestartApiServer)],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let watches: Vec<Happening> = timeline
        .log
        .iter()
        .filter(|e| {
            matches!(
                e.what,
                Happening::WatchResumed { .. } | Happening::WatchExpired { .. }
            )
        })
        .map(|e| e.what.clone())
        .collect();
    assert!(
        matches!(
            watches[..],
            [
                Happening::WatchExpired {
                    informer: WatchedKind::CustomResource,
                    ..
                },
                Happening::WatchResumed {
                    informer: WatchedKind::Object,
                    replayed: 0,
                    ..
                },
            ]
        ),
        "{watches:?}"
    );
    assert!(converged(&timeline.verdict));
}

/// The custom resource's reflector has a latency of its own: its events
/// reach the cache later than the objects' events of the same moment.
#[test]
fn each_reflector_has_its_own_latency() {
    let scenario = scenario(r#"{"a":1}"#, "{}", "null");
    let desired = res(r#"{"a":2}"#);
    let config = SimConfig {
        watch_latency_ms: 5,
        custom_resource_watch_latency_ms: Some(300),
        script: vec![after(1, WorldEvent::SetDesired { desired })],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let spec_change = log_of(&timeline, |h| matches!(h, Happening::ActorEvent { .. }));
    let changed_at = spec_change[0].0;
    let pass = timeline
        .passes
        .iter()
        .find(|p| {
            matches!(
                p.trigger,
                Trigger::CustomResource {
                    change: Change::Updated,
                    ..
                }
            )
        })
        .expect("a pass for the new spec");
    assert_eq!(pass.started_at, changed_at + 300);
}

/// A PUT sends the object as reconcile read it: the resourceVersion of the
/// cache at the start of the pass, even when the cache has caught up by the
/// time the request goes out (controller-runtime's `Update` sends the
/// object it was given). Pass 3 of "ten changes" starts as pass 2's last
/// write is still on its way to the cache, plans UPDATE web-9 again, and
/// gets 409 Conflict although the event has arrived before it sends.
#[test]
fn an_update_carries_the_version_reconcile_read() {
    let (scenario, config) = preset_scenario("ten-changes");
    let timeline = simulate(&scenario, &config);
    let pass = &timeline.passes[2];
    assert_eq!(pass.actions.len(), 1);
    assert_eq!(pass.actions[0].action.name.as_ref() as &str, "web-9");
    assert!(
        matches!(
            pass.actions[0].result,
            ActionResult::Failed { code: 409, .. }
        ),
        "{:?}",
        pass.actions[0].result
    );
    // The watch event of pass 2's write to web-9 reached the cache after
    // pass 3 started and before its request went out.
    let delivered = timeline.events.entries.iter().find(|e| {
        matches!(&e.what, reconcile_sim::events::SimEvent::WatchDelivered { name, .. } if name == "web-9")
            && e.at >= pass.started_at
    });
    let delivered = delivered.expect("the event of pass 2's write");
    assert!(delivered.at > pass.started_at && delivered.at < pass.finished_at);
}

/// A crash before the informer's initial list has landed loses that list
/// with the process: the pass after the restart is the restarted
/// controller's list (found by `timelines_are_consistent`).
#[test]
fn a_list_of_a_crashed_process_is_lost_with_it() {
    let config = reconcile_sim::options::parse_options(
        r#"{"actionMs":0,"watchLatencyMs":0,"finalizerOwnerDelayMs":0,"restartDelayMs":200,
            "crash":{"atPass":1,"afterActions":0},
            "script":[{"afterPass":0,"event":{"kind":"stray-create","name":"a","spec":0}}]}"#,
    )
    .expect("options");
    let scenario = SimScenario {
        desired: Resources::new(),
        observed: Resources::new(),
        finalizers: None,
    };
    let timeline = simulate(&scenario, &config);
    assert!(timeline.passes[0].crashed);
    assert_eq!(
        timeline.passes[1].trigger,
        Trigger::CustomResource {
            change: Change::Added,
            after_restart: true
        }
    );
}

/// The log is in time order as it is noted (`Engine::note`; no sort at the
/// end): every preset, as it is and with failures and watch breaks.
#[test]
fn the_log_is_in_time_order() {
    let mut entries = 0;
    for preset in presets() {
        let (scenario, config) = preset_scenario(&preset.id);
        let flaky = SimConfig {
            seed: 7,
            failure_rate: 0.3,
            watch_break_rate: 0.2,
            ..config.clone()
        };
        for config in [config, flaky] {
            let log = simulate(&scenario, &config).log;
            entries += log.len();
            assert!(
                log.windows(2).all(|pair| pair[0].at <= pair[1].at),
                "{}: log out of time order",
                preset.id
            );
        }
    }
    assert!(entries > 100, "only {entries} entries logged in all");
}

#[test]
fn each_preset_reaches_its_verdict() {
    let mut seen = BTreeSet::new();
    for preset in presets() {
        // Several custom resources run together: reconcile-content's
        // preset tests check those verdicts.
        if preset.custom_resource_name.is_some() {
            continue;
        }
        let (scenario, config) = preset_scenario(&preset.id);
        let timeline = simulate(&scenario, &config);
        let expected = match preset.id.as_str() {
            // Pass 2 reads a cache that has not heard of c's delete yet.
            "basics" => Verdict::Converged {
                passes: 3,
                time: 42,
            },
            // FINALIZE, then FINALIZE again (already terminating); the
            // owner's removal of the last finalizer deletes svc.
            "load-balancer-finalizer" => Verdict::Converged {
                passes: 3,
                time: 67,
            },
            "cache-2-replicas" => Verdict::Converged {
                passes: 4,
                time: 138,
            },
            "stuck-namespace" => Verdict::NotConverging {
                reason: NotConvergingReason::StuckFinalizer {
                    object: "team-a".into(),
                    finalizer: "kubernetes".into(),
                },
            },
            "fighting-controllers" => Verdict::NotConverging {
                reason: NotConvergingReason::Oscillation {
                    object: "web".into(),
                    field: "$.replicas".into(),
                    other_writer: Some("autoscaler".into()),
                },
            },
            "flaky-api" => Verdict::Converged {
                passes: 6,
                time: 67,
            },
            // After the restart, a stale read: CREATE cache-2 again, 409.
            "crash-mid-pass" => Verdict::Converged {
                passes: 5,
                time: 547,
            },
            // Crash, scale-down while down, restart: DELETE web-1.
            "missed-events" => Verdict::Converged {
                passes: 3,
                time: 518,
            },
            // The API server's defaults are drift to a whole-spec
            // comparison: an UPDATE that writes nothing at every resync.
            "defaults-drift" => Verdict::NotConverging {
                reason: NotConvergingReason::PassLimit { limit: 12 },
            },
            // Ten events, one pass; its own writes, one more, which reads a
            // cache one event behind: 409 on web-9, then the requeue.
            "ten-changes" => Verdict::Converged {
                passes: 5,
                time: 124,
            },
            // web-1 deleted while the controller is down: the restart's list
            // brings no event for it; pass 2 compares and recreates it.
            "deleted-while-down" => Verdict::Converged {
                passes: 3,
                time: 518,
            },
            // The spec change and the delete of web-1 share one pass; pass
            // 3 reads a stale cache (409 on web-1), the requeue runs pass 5.
            "two-reasons" => Verdict::Converged {
                passes: 5,
                time: 44,
            },
            // Foreground: the owner waits for web-2's own finalizer (300 ms).
            "owner-deletion" => Verdict::Converged {
                passes: 5,
                time: 339,
            },
            // Pass 2 reads a cache without web-1 and creates it again: 409,
            // then web-1's event and the requeue (tests/naming.rs has the
            // generateName modes).
            "stale-cache" => Verdict::Converged {
                passes: 4,
                time: 37,
            },
            // Each status write carries a new lastReconcileTime, and the
            // controller's watch on its custom resource hears it.
            "status-timestamp" => Verdict::NotConverging {
                reason: NotConvergingReason::StatusHotLoop {
                    field: "status.lastReconcileTime".into(),
                    passes: 3,
                },
            },
            // An autoscaler's write between pass 1's read and its PUT: 409;
            // pass 2 reads again; pass 3 (the requeue) reads a cache one
            // event behind: 409 again (tests below).
            "stale-update" => Verdict::Converged {
                passes: 5,
                time: 37,
            },
            // web-1 (no node) goes at once and comes back in pass 2; web-0
            // stays Terminating until the kubelet stops it, 2 s later.
            "graceful-pod-deletion" => Verdict::Converged {
                passes: 5,
                time: 2024,
            },
            // The custom resource waits, terminating, for the controller to
            // delete its load balancer: two 503s, then its finalizer goes.
            "controller-finalizer" => Verdict::Converged {
                passes: 7,
                time: 607,
            },
            other => panic!("preset {other} has no expected verdict here"),
        };
        assert_eq!(timeline.verdict, expected, "preset {}", preset.id);
        // Once the custom resource is deleted, the state to reach is the
        // garbage collector's, not its desired state.
        if converged(&expected)
            && !matches!(
                preset.id.as_str(),
                "owner-deletion" | "controller-finalizer"
            )
        {
            assert!(
                controller_plan(
                    config.comparison(),
                    &final_desired(&timeline, &config),
                    &timeline.final_world.observed,
                    &timeline.final_world.finalizers
                )
                .is_empty(),
                "preset {}",
                preset.id
            );
        }
        seen.insert(preset.id.as_str());
    }
    assert_eq!(seen.len(), 18, "every preset is covered");
}

// ---------------------------------------------------------------------------
// Level- vs edge-triggered.

/// The "Missed events" preset: the controller crashes after pass 1, and the
/// Cache is scaled down while it is down. The edge-triggered handler hears
/// "Cache added" with the new spec after the restart, never the update that
/// removed web-1, so it keeps web-1 for good; the level-triggered loop
/// deletes it in its first pass after the restart.
#[test]
fn the_edge_triggered_handler_never_hears_what_changed_while_it_was_down() {
    let (scenario, config) = preset_scenario("missed-events");
    let level_edge = compare_level_edge(&scenario, &config);
    let events: Vec<(&str, bool)> = level_edge
        .steps
        .iter()
        .map(|s| (s.event.as_str(), s.missed))
        .collect();
    assert_eq!(
        events,
        vec![
            ("custom resource added", false),
            ("the custom resource's spec changes", true),
            ("the controller restarted and listed what exists", false),
        ]
    );
    assert!(
        level_edge.steps[1].edge_actions.is_empty(),
        "nobody heard it"
    );
    assert_eq!(
        level_edge.steps[2].edge_actions,
        vec![(
            Action::create("web-0", json(r#"{"image":"web:1"}"#)),
            "rejected: AlreadyExists".to_owned()
        )],
        "on restart it creates what the current spec names, and deletes nothing"
    );
    assert_eq!(level_edge.first_divergence, Some(2));
    assert_eq!(
        states(&level_edge.edge_final),
        vec![
            ("web-0".into(), SyncState::InSync),
            ("web-1".into(), SyncState::Extra)
        ]
    );
    assert_eq!(
        states(&level_edge.level_final),
        vec![("web-0".into(), SyncState::InSync)]
    );
    let after_restart = &level_edge.level.passes[1];
    assert_eq!(
        actions(after_restart),
        vec![(ActionKind::Delete, "web-1".into(), ActionResult::Applied)]
    );

    // Without the crash both hear the update and agree.
    let config = SimConfig {
        crash: None,
        ..config
    };
    let level_edge = compare_level_edge(&scenario, &config);
    assert_eq!(level_edge.first_divergence, None);
    assert_eq!(level_edge.edge_final, level_edge.level_final);
}

/// A pod deleted while the controller is down is recreated by the edge
/// handler too, but only by accident: on restart it creates every name the
/// spec lists without looking (AlreadyExists for the others).
#[test]
fn a_delete_while_down_is_recreated_by_the_blind_create_on_restart() {
    let scenario = scenario(r#"{"a":1,"b":1}"#, r#"{"a":1,"b":1}"#, "null");
    let config = SimConfig {
        crash: Some(CrashPlan {
            at_pass: 1,
            after_actions: 0,
        }),
        script: vec![after(1, delete("b"))],
        ..SimConfig::default()
    };
    let level_edge = compare_level_edge(&scenario, &config);
    assert!(level_edge.steps[1].missed);
    assert_eq!(level_edge.edge_final, level_edge.level_final);
    assert!(level_edge
        .level_final
        .iter()
        .all(|s| s.state == SyncState::InSync));
}

#[test]
fn level_vs_edge_takes_scripted_events_by_pass_then_in_script_order() {
    let scenario = scenario(r#"{"a":1,"b":1,"c":1,"d":1}"#, "{}", "null");
    let event = |after_pass, name: &str| ScriptedEvent {
        after_pass,
        event: WorldEvent::Delete { name: name.into() },
    };
    let config = SimConfig {
        script: vec![event(2, "a"), event(1, "b"), event(0, "c"), event(1, "d")],
        ..SimConfig::default()
    };
    let level_edge = compare_level_edge(&scenario, &config);
    let events: Vec<&str> = level_edge.steps.iter().map(|s| s.event.as_str()).collect();
    assert_eq!(
        events,
        [
            "custom resource added",
            "someone deletes c",
            "someone deletes b",
            "someone deletes d",
            "someone deletes a",
        ]
    );
}

#[test]
fn the_edge_triggered_handler_acts_on_payloads_without_looking() {
    // The initial "added" event makes it create every desired name, even those that exist.
    let scenario = scenario(r#"{"a":1,"b":1}"#, r#"{"a":2}"#, "null");
    let level_edge = compare_level_edge(&scenario, &SimConfig::default());
    assert_eq!(
        level_edge.steps[0].edge_actions,
        vec![
            (
                Action::create("a", json("1")),
                "rejected: AlreadyExists".to_owned()
            ),
            (Action::create("b", json("1")), "applied".to_owned()),
        ]
    );
    assert_eq!(
        states(&level_edge.edge_final),
        vec![
            ("a".into(), SyncState::Drifted),
            ("b".into(), SyncState::InSync)
        ]
    );
    assert_eq!(level_edge.first_divergence, Some(0));
    assert!(converged(&level_edge.level.verdict));
}

// ---------------------------------------------------------------------------
// Extreme settings, as a JS caller may pass them (found by `cargo xtask fuzz`).

/// Every duration at `u64::MAX` ms: the clock stops at the end of time
/// instead of overflowing (a panic in debug builds, a wrapped clock in release).
#[test]
fn durations_at_the_end_of_time_saturate_the_clock() {
    let huge = Millis::MAX;
    let config = SimConfig {
        failure_rate: 0.5,
        resync_period_ms: Some(huge),
        backoff: BackoffPolicy::FixedDelay { delay_ms: huge },
        action_ms: huge,
        watch_latency_ms: huge,
        finalizer_owner_delay_ms: huge,
        restart_delay_ms: huge,
        crash: Some(CrashPlan {
            at_pass: 2,
            after_actions: 0,
        }),
        script: vec![after(1, delete("b")), after(3, delete("gone"))],
        other_writers: vec![OtherWriter {
            name: "autoscaler".into(),
            object: "b".into(),
            path: vec!["replicas".into()],
            value: int(5),
            reaction_ms: huge,
            writes: Default::default(),
        }],
        max_passes: 20,
        ..SimConfig::default()
    };
    let start = scenario(
        r#"{"a": {"replicas": 1}, "b": {"replicas": 3}}"#,
        r#"{"b": {"replicas": 1}, "c": {}}"#,
        r#"{"c": ["cloud/lb-cleanup"]}"#,
    );
    for seed in 0..20 {
        let config = SimConfig {
            seed,
            ..config.clone()
        };
        let timeline = simulate(&start, &config);
        assert!(timeline.passes.len() <= 20);
        for pair in timeline.passes.windows(2) {
            assert!(pair[0].finished_at <= pair[1].started_at, "seed {seed}");
        }
        assert!(timeline.log.windows(2).all(|w| w[0].at <= w[1].at));
        compare_level_edge(&start, &config);
    }
}

/// Backoff delays of `u64::MAX` (a huge base, or a token bucket with no rate):
/// no overflow when the requeue is scheduled.
#[test]
fn backoff_delays_at_the_end_of_time_saturate_the_clock() {
    for (base_ms, qps) in [(Millis::MAX, 10.0), (5, 0.0)] {
        let config = SimConfig {
            failure_rate: 1.0,
            backoff: BackoffPolicy::ClientGo {
                base_ms,
                max_ms: Millis::MAX,
                qps,
                burst: 0,
            },
            max_passes: 5,
            ..SimConfig::default()
        };
        let timeline = simulate(&scenario(r#"{"a": {}}"#, "{}", "null"), &config);
        // The requeue would come after the end of time, so it never comes.
        assert_eq!(timeline.passes.len(), 1, "{timeline:?}");
        assert_eq!(
            timeline.passes[0].actions[0].result,
            unavailable(Millis::MAX)
        );
        assert_eq!(
            timeline.verdict,
            Verdict::NotConverging {
                reason: NotConvergingReason::NoTrigger { out_of_sync: 1 }
            }
        );
    }
}

/// A pass far longer than the resync period: the ticks while it runs change
/// nothing, and the run must not spend one event on each (it used to, and a
/// 1 ms resync with a 30-year action never finished).
#[test]
fn resync_ticks_during_a_long_pass_are_skipped() {
    let config = SimConfig {
        action_ms: 1_000_000_000_000,
        resync_period_ms: Some(1),
        failure_rate: 1.0,
        max_passes: 6,
        ..SimConfig::default()
    };
    let start = scenario(r#"{"a": {}, "b": {}}"#, r#"{"c": {}}"#, "null");
    let timeline = simulate(&start, &config);
    assert_eq!(timeline.passes.len(), 6, "{:?}", timeline.verdict);
    // The tick deferred during each pass starts the next one as soon as the worker is free.
    for pair in timeline.passes.windows(2) {
        assert_eq!(pair[1].started_at, pair[0].finished_at, "{pair:?}");
    }
}

/// A drift to `null` and a stray object whose spec is `null` are events like
/// any other: their settings read back from their own JSON and share links
/// (`null` used to read as a missing member: "event \"drift\" needs \"value\"").
#[test]
fn null_event_values_read_back() {
    let config = SimConfig {
        script: vec![
            after(
                1,
                WorldEvent::Drift {
                    name: "a".into(),
                    path: vec!["replicas".into()],
                    value: Json::Null,
                },
            ),
            after(
                2,
                WorldEvent::StrayCreate {
                    name: "s".into(),
                    spec: Json::Null,
                },
            ),
        ],
        ..SimConfig::default()
    };
    let text = serde_json::to_string(&config).expect("serializes");
    assert!(text.contains(r#""value":null"#), "{text}");
    let read: SimConfig = serde_json::from_str(&text).expect("reads back");
    assert_eq!(read, config);
    let state = reconcile_content::share::SharedState {
        sim: reconcile_sim::SimSettings::of(&config),
        ..Default::default()
    };
    let link = reconcile_content::share::encode(&state);
    let opened = reconcile_content::share::decode(&link).map(|opened| opened.state);
    assert_eq!(opened, Ok(state));
    let settings = opened.map(|state| state.sim.read());
    assert_eq!(settings, Ok(Ok(config)));
    // A missing member is still an error that names it.
    let missing = serde_json::from_str::<SimConfig>(
        r#"{"script": [{"afterPass": 1, "event": {"kind": "stray-create", "name": "s"}}]}"#,
    );
    assert!(missing
        .expect_err("rejected")
        .to_string()
        .contains("event \"stray-create\" needs \"spec\""));
}

/// Field paths are bounded when read: each member nests the written value one
/// level deeper, and a 10,000-member path overflowed the stack (1 MB in wasm)
/// in the recursive compare, serialize and drop. The longest allowed path, with
/// a value nested as deep as the parser allows, runs on a 1 MB stack.
#[test]
fn field_paths_are_bounded_so_values_never_nest_too_deep() {
    use reconcile_sim::MAX_PATH_LEN;
    let path_of = |len: usize| serde_json::to_string(&vec!["k"; len]).expect("serializes");
    for len in [MAX_PATH_LEN + 1, 10_000] {
        let path = path_of(len);
        for text in [
            format!(
                r#"{{"otherWriters": [{{"name": "w", "object": "a", "path": {path}, "value": 1, "reactionMs": 5}}]}}"#
            ),
            format!(
                r#"{{"script": [{{"afterPass": 1, "event": {{"kind": "drift", "name": "a", "path": {path}, "value": 1}}}}]}}"#
            ),
        ] {
            let error = serde_json::from_str::<SimConfig>(&text).expect_err("too long");
            assert!(
                error.to_string().contains(&format!(
                    "a field path names at most {MAX_PATH_LEN} members, not {len}"
                )),
                "{error}"
            );
        }
    }
    // As deep as serde_json reads inside the settings (128 levels in all).
    let deepest_value = format!("{}1{}", "[".repeat(120), "]".repeat(120));
    let text = format!(
        r#"{{"otherWriters": [{{"name": "w", "object": "a", "path": {}, "value": {deepest_value}, "reactionMs": 5}}],
            "script": [{{"afterPass": 1, "event": {{"kind": "drift", "name": "a", "path": {}, "value": {deepest_value}}}}}],
            "maxPasses": 12}}"#,
        path_of(MAX_PATH_LEN),
        path_of(MAX_PATH_LEN)
    );
    let config: SimConfig = serde_json::from_str(&text).expect("the longest path reads");
    let start = scenario(r#"{"a": {"k": 1}}"#, r#"{"a": {"k": 1}}"#, "null");
    let run = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let level_edge = compare_level_edge(&start, &config);
            let text = serde_json::to_string(&level_edge.level).expect("serializes");
            (level_edge.level.passes.len(), text.len())
        })
        .expect("thread starts");
    let (passes, bytes) = run.join().expect("no stack overflow");
    assert!(passes > 1 && bytes > 0);
}

// ---------------------------------------------------------------------------
// Property tests.

const CASES: u32 = 256;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

const NAMES: &[&str] = &["a", "b", "c", "d", "e"];
const FINALIZER_NAMES: &[&str] = &["f/1", "f/2", "f/3"];

fn int(i: u64) -> Json {
    Json::Number(Number::Unsigned(i))
}

fn spec() -> impl Strategy<Value = Json> {
    prop_oneof![
        (0u64..3).prop_map(int),
        (0u64..3).prop_map(|r| Json::object(vec![("r".into(), int(r))])),
    ]
}

fn resources() -> impl Strategy<Value = Resources> {
    prop::collection::btree_map(prop::sample::select(NAMES), spec(), 0..5)
        .prop_map(|m| m.into_iter().map(|(n, s)| (n.to_owned(), s)).collect())
}

/// Finalizers for some names (of any name; the world keeps the observed ones).
fn finalizers() -> impl Strategy<Value = Option<Finalizers>> {
    let lists = prop::collection::btree_map(
        prop::sample::select(NAMES),
        prop::sample::subsequence(FINALIZER_NAMES, 0..=3),
        0..4,
    );
    prop::option::weighted(
        0.8,
        lists.prop_map(|m| {
            m.into_iter()
                .map(|(n, l)| (n.to_owned(), l.into_iter().map(str::to_owned).collect()))
                .collect()
        }),
    )
}

fn any_scenario() -> impl Strategy<Value = SimScenario> {
    (resources(), resources(), finalizers()).prop_map(|(desired, observed, finalizers)| {
        SimScenario {
            desired,
            observed,
            finalizers,
        }
    })
}

/// A scenario that starts in sync: observed = desired, with finalizers.
fn in_sync_scenario() -> impl Strategy<Value = SimScenario> {
    (resources(), finalizers()).prop_map(|(desired, finalizers)| SimScenario {
        observed: desired.clone(),
        desired,
        finalizers,
    })
}

/// Other actors' events. Drift values and stray names vary, so a state can recur.
fn world_event() -> impl Strategy<Value = WorldEvent> {
    let name = || prop::sample::select(NAMES).prop_map(str::to_owned);
    prop_oneof![
        3 => name().prop_map(|name| WorldEvent::Delete { name }),
        2 => (name(), 0u64..4).prop_map(|(name, v)| WorldEvent::Drift {
            name,
            path: vec!["r".into()],
            value: int(v),
        }),
        2 => (name(), spec()).prop_map(|(name, spec)| WorldEvent::StrayCreate { name, spec }),
        1 => (name(), prop::sample::select(FINALIZER_NAMES)).prop_map(|(name, f)| {
            WorldEvent::AddFinalizer {
                name,
                finalizer: f.to_owned(),
            }
        }),
        1 => resources().prop_map(|desired| WorldEvent::SetDesired { desired }),
        1 => Just(WorldEvent::RestartApiServer),
    ]
}

fn script(max: usize) -> impl Strategy<Value = Vec<ScriptedEvent>> {
    prop::collection::vec(
        (0usize..6, world_event())
            .prop_map(|(after_pass, event)| ScriptedEvent { after_pass, event }),
        0..=max,
    )
}

fn crash_plan() -> impl Strategy<Value = Option<CrashPlan>> {
    prop::option::of(
        (1usize..4, 0usize..4).prop_map(|(at_pass, after_actions)| CrashPlan {
            at_pass,
            after_actions,
        }),
    )
}

fn backoff() -> impl Strategy<Value = BackoffPolicy> {
    prop_oneof![
        Just(BackoffPolicy::default()),
        (1u64..50).prop_map(|delay_ms| BackoffPolicy::FixedDelay { delay_ms }),
        (1u32..5).prop_map(|burst| BackoffPolicy::ClientGo {
            base_ms: 5,
            max_ms: 2_000,
            qps: 10.0,
            burst,
        }),
    ]
}

/// Everything at once, for the replay and invariant properties.
fn any_config() -> impl Strategy<Value = SimConfig> {
    (
        (
            any::<u64>(),
            0.0f64..0.7,
            0.0f64..0.9,
            prop::option::of(50u64..2_000),
            any::<bool>(),
        ),
        (
            0u64..20,
            0u64..20,
            0u64..100,
            backoff(),
            prop::option::of(1u64..300),
        ),
        (
            prop::collection::vec(
                (
                    prop::sample::select(NAMES),
                    prop::sample::select(FINALIZER_NAMES),
                ),
                0..2,
            ),
            crash_plan(),
            script(4),
            prop::collection::vec((prop::sample::select(NAMES), 0u64..3, 1u64..60), 0..2),
            prop::collection::vec((prop::sample::select(FINALIZER_NAMES), 0u64..200), 0..2),
        ),
    )
        .prop_map(
            |(
                (seed, failure_rate, watch_break_rate, resync_period_ms, watch_owned),
                (
                    action_ms,
                    watch_latency_ms,
                    finalizer_owner_delay_ms,
                    backoff,
                    requeue_while_terminating_ms,
                ),
                (stuck, crash, script, writers, owners),
            )| SimConfig {
                finalizer_owners: owners
                    .into_iter()
                    .map(|(finalizer, delay_ms)| FinalizerOwner {
                        finalizer: finalizer.to_owned(),
                        delay_ms,
                    })
                    .collect(),
                requeue_while_terminating_ms,
                // kube-rs only with its error_policy, the fixed delay.
                queue: match backoff {
                    BackoffPolicy::FixedDelay { .. } if seed % 3 == 0 => QueueModel::KubeRs,
                    _ if seed % 2 == 0 => QueueModel::ClientGo,
                    _ => QueueModel::ControllerRuntimePriority,
                },
                // The controller option beyond the contract, now and then.
                compare: if seed % 4 == 1 {
                    SpecComparison::FieldsItSets
                } else {
                    SpecComparison::WholeSpec
                },
                // Server-side apply, now and then.
                writes: if seed % 7 == 3 {
                    ObjectWrites::Apply
                } else {
                    ObjectWrites::Update
                },
                // The naming options beyond the contract, now and then.
                naming: match seed % 5 {
                    2 => ObjectNaming::GenerateName,
                    3 => ObjectNaming::GenerateNameWithExpectations,
                    _ => ObjectNaming::Deterministic,
                },
                // The status writes beyond the contract, picked by the seed's bits.
                status_writes: match (seed >> 3) % 3 {
                    0 => StatusWrites::None,
                    1 => StatusWrites::ObservedGeneration,
                    _ => StatusWrites::WithTimestamp,
                },
                generation_changed_predicate: (seed >> 5) & 1 == 1,
                // KEP-5647's consistency store, now and then.
                consistency_store: (seed >> 6) & 1 == 1,
                // Now and then several workers: with one key, only one works at a time.
                workers: 1 + usize::try_from((seed >> 7) % 3).unwrap_or(0),
                // Now and then a cloud load balancer behind the controller's finalizer.
                cloud: (seed % 11 == 3).then_some(reconcile_sim::CloudSettings {
                    latency_ms: action_ms * 2,
                    failure_rate: 0.3,
                }),
                // Now and then the custom resource's reflector lags on its own.
                custom_resource_watch_latency_ms: (seed % 7 == 4)
                    .then_some(watch_latency_ms * 3 + 1),
                // Only pod manifests use it; the names here are of a generic kind.
                pod_stop_ms: 1000,
                seed,
                max_passes: 60,
                failure_rate,
                watch_break_rate,
                resync_period_ms,
                watch_owned,
                backoff,
                action_ms,
                watch_latency_ms,
                finalizer_owner_delay_ms,
                restart_delay_ms: 200,
                // A quarter of the runs start with objects terminating (picked by the seed's bits).
                terminating: NAMES
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| seed % 4 == 0 && (seed >> (8 + i)) & 1 == 1)
                    .map(|(_, name)| (*name).to_owned())
                    .collect(),
                stuck_finalizers: stuck
                    .into_iter()
                    .map(|(object, finalizer)| FinalizerRef {
                        object: object.to_owned(),
                        finalizer: finalizer.to_owned(),
                    })
                    .collect(),
                crash,
                script,
                other_writers: writers
                    .into_iter()
                    .enumerate()
                    .map(|(i, (object, value, reaction_ms))| OtherWriter {
                        name: format!("writer-{i}"),
                        object: object.to_owned(),
                        path: vec!["r".into()],
                        value: int(value),
                        reaction_ms,
                        writes: Default::default(),
                    })
                    .collect(),
            },
        )
}

/// The convergence bound of a fault-free run (see "Convergence bound" in the
/// `sim` module docs):
///
/// `passes ≤ 1 + n + Σf + resyncs`
///
/// - `n`: the actions of the first plan. Pass 1 (the initial list) applies all
///   of them, each write raising one watch event.
/// - `Σf`: the finalizer entries of the objects that plan FINALIZEs. Each
///   owner removes its entry on its own, each removal raising one event; the
///   update that removes the last entry deletes the object (its event is the
///   delete). Later FINALIZEs find the object already terminating and write
///   nothing; nothing else writes.
/// - Every pass after the first takes the key from the queue, which only a
///   delivered event (or a resync tick) puts there. The queue folds events
///   together (an add while queued, or while processing, is one more pass at
///   most) and never splits one, so passes ≤ 1 + events + resync ticks.
///
/// Equality is reached when each event arrives after the previous pass ended
/// (1 ms actions, a long watch latency) and nothing needs finalizing; with the
/// default timing, events that arrive mid-pass fold into one pass.
fn convergence_bound(scenario: &SimScenario) -> usize {
    let world = World::new(scenario.observed.clone(), scenario.finalizers.clone());
    let plan = remaining(&scenario.desired, &world);
    let finalized: Vec<&Action> = plan
        .iter()
        .filter(|a| a.kind == ActionKind::Finalize)
        .collect();
    let entries: usize = finalized.iter().map(|a| world.pending(&a.name).len()).sum();
    // The removal of an object's last entry is its delete: no DELETE follows.
    1 + plan.len() + entries
}

/// Fault-free timing: anything from instant actions to slow watches.
fn fault_free_config() -> impl Strategy<Value = SimConfig> {
    (
        0u64..25,
        0u64..25,
        0u64..120,
        prop::option::of(500u64..5_000),
    )
        .prop_map(
            |(action_ms, watch_latency_ms, finalizer_owner_delay_ms, resync_period_ms)| SimConfig {
                max_passes: 1_000,
                action_ms,
                watch_latency_ms,
                finalizer_owner_delay_ms,
                resync_period_ms,
                ..SimConfig::default()
            },
        )
}

proptest! {
    #![proptest_config(config())]

    /// (a) Without faults the loop converges within the derived bound, and
    /// the final world is in sync.
    #[test]
    fn without_faults_the_loop_converges_within_the_bound(
        scenario in any_scenario(),
        config in fault_free_config(),
    ) {
        let timeline = simulate(&scenario, &config);
        let resyncs = timeline.passes.iter().filter(|p| p.trigger == Trigger::Resync).count();
        // A pass that reads a stale cache repeats actions that then write
        // nothing (404 on a delete, an object already terminating) or fail
        // (409 AlreadyExists or Conflict): only its requeues add passes.
        let requeues = timeline
            .passes
            .iter()
            .filter(|p| matches!(p.trigger, Trigger::Requeue { .. }))
            .count();
        let bound = convergence_bound(&scenario) + resyncs + requeues;
        let Verdict::Converged { passes, time } = timeline.verdict else {
            panic!("not converged: {}", timeline.verdict);
        };
        prop_assert_eq!(passes, timeline.passes.len());
        prop_assert!(passes <= bound, "{} passes > bound {}", passes, bound);
        prop_assert_eq!(time, timeline.passes[passes - 1].finished_at);
        prop_assert!(remaining(&scenario.desired, &timeline.final_world).is_empty());
        prop_assert_eq!(&timeline.final_world.observed, &scenario.desired);
        prop_assert!(timeline.final_world.terminating.is_empty());
        // Pass 1 applied every action of the first plan.
        let first = &timeline.passes[0];
        let plan = remaining(
            &scenario.desired,
            &World::new(scenario.observed.clone(), scenario.finalizers.clone()),
        );
        prop_assert_eq!(first.actions.len(), plan.len());
        prop_assert!(first.actions.iter().all(|o| o.result == ActionResult::Applied));
    }

    /// The engine driven one call at a time, each plan answered as JSON text
    /// through the action reader, runs exactly as `simulate`: the pause
    /// changes nothing, and the reader reads back every plan reconcile makes.
    #[test]
    fn stepping_with_plans_as_text_runs_exactly_as_simulate(
        scenario in any_scenario(),
        config in any_config(),
    ) {
        let mut simulation = Simulation::new(&scenario, config.clone());
        while let Step::Reconcile(call) = simulation.step() {
            let plan = reconcile(call.desired, call.observed, Some(call.finalizers));
            let text = serde_json::to_string(&plan).expect("plans serialize");
            prop_assert_eq!(simulation.resume_json(&text), Ok(()));
        }
        prop_assert_eq!(simulation.into_timeline(), simulate(&scenario, &config));
    }

    /// (a') With no watch latency the cache is never stale when a pass
    /// starts (events of a pass's writes arrive before the next pass), so
    /// no pass repeats an action but FINALIZE, none is requeued, and the
    /// bound holds without requeues.
    #[test]
    fn without_watch_latency_no_read_is_stale(scenario in any_scenario()) {
        let config = SimConfig {
            action_ms: 1,
            watch_latency_ms: 0,
            finalizer_owner_delay_ms: 100_000,
            ..SimConfig::default()
        };
        let timeline = simulate(&scenario, &config);
        prop_assert!(converged(&timeline.verdict));
        prop_assert!(timeline.passes.len() <= convergence_bound(&scenario));
        // Only FINALIZE repeats: the object stays terminating until its
        // owners act (or is gone by the time the request arrives).
        let repeats_only_finalize = timeline.passes[1..].iter().all(|p| {
            p.actions.iter().all(|o| {
                o.action.kind == ActionKind::Finalize
                    && matches!(o.result, ActionResult::AlreadyTerminating | ActionResult::AlreadyGone)
            })
        });
        prop_assert!(repeats_only_finalize);
    }


    /// (b) Dropped watch events never stop the level-triggered loop when it
    /// resyncs, whatever else goes wrong meanwhile (failures, a crash, other
    /// actors' events); no stuck finalizers and no other writers.
    #[test]
    fn with_resync_the_level_loop_converges_despite_dropped_events(
        scenario in any_scenario(),
        watch_break_rate in 0.0f64..=0.9,
        failure_rate in prop_oneof![Just(0.0), 0.0f64..0.5],
        seed in any::<u64>(),
        resync in 200u64..2_000,
        crash in crash_plan(),
        script in script(3),
        watch_owned in any::<bool>(),
    ) {
        let config = SimConfig {
            seed,
            watch_break_rate,
            failure_rate,
            resync_period_ms: Some(resync),
            crash,
            script,
            watch_owned,
            max_passes: 5_000,
            ..SimConfig::default()
        };
        let timeline = simulate(&scenario, &config);
        prop_assert!(converged(&timeline.verdict), "{}", timeline.verdict);
        let desired = final_desired(&timeline, &config);
        prop_assert!(
            remaining(&desired, &timeline.final_world).is_empty(),
            "converged, but the world is out of sync"
        );
        // Every scripted event happened.
        let external = timeline
            .log
            .iter()
            .filter(|e| matches!(e.what, Happening::ActorEvent { .. }))
            .count();
        prop_assert_eq!(external, config.script.len());
    }

    /// (c) The same scenario and config, faults included, replay identically.
    #[test]
    fn replays_are_identical(scenario in any_scenario(), config in any_config()) {
        let first = simulate(&scenario, &config);
        let second = simulate(&scenario, &config);
        prop_assert_eq!(&first, &second);
        let a = serde_json::to_string(&first).expect("serializes");
        let b = serde_json::to_string(&second).expect("serializes");
        prop_assert_eq!(a, b);
        let a = serde_json::to_string(&compare_level_edge(&scenario, &config)).expect("serializes");
        let b = serde_json::to_string(&compare_level_edge(&scenario, &config)).expect("serializes");
        prop_assert_eq!(a, b);
        // The config itself round-trips through JSON, as share links need.
        let text = serde_json::to_string(&config).expect("serializes");
        let back: SimConfig = serde_json::from_str(&text).expect("parses");
        prop_assert_eq!(serde_json::to_string(&back).expect("serializes"), text);
    }

    /// Timeline invariants under every fault: passes are numbered and never
    /// overlap (one worker, the key never processed twice at once), each
    /// records the world and out-of-sync count it left, the log is in time
    /// order, finalizer owners remove at most one entry per object between
    /// two passes, stuck finalizers are never removed, and a terminating
    /// object never gains a finalizer.
    #[test]
    fn timelines_are_consistent(scenario in any_scenario(), config in any_config()) {
        let timeline = simulate(&scenario, &config);
        prop_assert!(timeline.passes.len() <= config.max_passes);
        for (i, pass) in timeline.passes.iter().enumerate() {
            prop_assert_eq!(pass.index, i + 1);
            prop_assert!(pass.started_at < pass.finished_at);
            // Measured when the pass ended, against the spec in force then (a
            // change at that very instant may come just before or after).
            let counts = [false, true].map(|inclusive| {
                let desired = desired_at(&timeline, pass.finished_at, inclusive);
                let (observed, finalizers) = controller_observed(config.naming, &desired, &pass.world_after);
                controller_out_of_sync(config.comparison(), &desired, &observed, &finalizers)
            });
            // The cloud adds its finalizer and load balancer, which the store does not show.
            let external = if config.cloud.is_some() { 0..=2 } else { 0..=0 };
            prop_assert!(
                counts.iter().any(|c| external.clone().any(|e| c + e == pass.out_of_sync)),
                "pass {}: {} not in {:?}", pass.index, pass.out_of_sync, counts
            );
            prop_assert_eq!(pass.terminating, pass.world_after.terminating.len());
            if let Some(next) = timeline.passes.get(i + 1) {
                prop_assert!(next.started_at >= pass.finished_at, "passes overlap");
                if pass.crashed {
                    prop_assert!(next.started_at >= pass.finished_at + config.restart_delay_ms);
                    prop_assert_eq!(
                        &next.trigger,
                        &Trigger::CustomResource { change: Change::Added, after_restart: true }
                    );
                }
            }
            let failed = pass.actions.iter().position(|o| matches!(o.result, ActionResult::Failed { .. }));
            if let Some(f) = failed {
                prop_assert!(pass.actions[f + 1..].iter().all(|o| o.result == ActionResult::NotAttempted));
            }
            if pass.crashed {
                let plan = config.crash.expect("only a planned crash");
                prop_assert_eq!(plan.at_pass, pass.index);
                // Actions from the crash point on are lost, unless the pass
                // ended before it (then it crashes as it ends).
                // A request before the actions that failed (the cloud's
                // finalizer or load balancer) ends the pass before them.
                let setup_failed = timeline.events.entries.iter().any(|e| match e.what {
                    reconcile_sim::events::SimEvent::FinalizerWrite { pass: p, code, .. } => p == pass.index && code >= 400,
                    reconcile_sim::events::SimEvent::Cloud { pass: p, code, .. } => p == pass.index && code >= 400 && code != 404,
                    _ => false,
                });
                let attempted = if setup_failed { 0 } else { failed.map_or(pass.actions.len(), |f| f + 1) };
                let lost = pass.actions.iter().filter(|o| o.result == ActionResult::LostInCrash).count();
                let expected = if plan.after_actions < attempted {
                    pass.actions.len() - plan.after_actions
                } else {
                    0
                };
                prop_assert_eq!(lost, expected);
            } else {
                prop_assert!(pass.actions.iter().all(|o| o.result != ActionResult::LostInCrash));
                prop_assert!(config.crash.is_none_or(|c| c.at_pass != pass.index));
            }
        }
        prop_assert!(timeline.log.windows(2).all(|w| w[0].at <= w[1].at));
        for stuck in &config.stuck_finalizers {
            prop_assert!(!removals(&timeline).iter().any(|(_, o, f)| *o == stuck.object && *f == stuck.finalizer));
        }
        // Each owner's queue holds one entry per object: one removal of an
        // entry at a time, and never before the owner's delay has passed.
        // One worker each: an owner's removals are its delay apart.
        let delay_of = |finalizer: &str| {
            config
                .finalizer_owners
                .iter()
                .find(|owner| owner.finalizer == finalizer)
                .map_or(config.finalizer_owner_delay_ms, |owner| owner.delay_ms)
        };
        let mut per_instant: BTreeMap<(Millis, String, String), usize> = BTreeMap::new();
        let mut last_by_owner: BTreeMap<String, Millis> = BTreeMap::new();
        for (at, object, finalizer) in removals(&timeline) {
            let delay = delay_of(&finalizer);
            prop_assert!(at >= delay);
            if let Some(last) = last_by_owner.insert(finalizer.clone(), at) {
                prop_assert!(at >= last + delay, "{} removed at {} after {}", finalizer, at, last);
            }
            *per_instant.entry((at, object, finalizer)).or_insert(0) += 1;
        }
        prop_assert!(per_instant.values().all(|n| *n == 1), "{:?}", per_instant);
        for pass in &timeline.passes {
            for name in pass.world_after.terminating.keys() {
                prop_assert!(pass.world_after.observed.contains(name));
            }
            // The cache's lag is by name, each once, and agrees with the store.
            prop_assert!(pass.cache_lag.windows(2).all(|w| w[0].name < w[1].name));
            for entry in &pass.cache_lag {
                let stored = pass.world_after.observed.contains(&entry.name);
                prop_assert_eq!(stored, entry.lag != CacheLag::StillCached, "{:?}", entry);
            }
        }
        match &timeline.verdict {
            Verdict::Converged { .. } => {
                let desired = final_desired(&timeline, &config);
                prop_assert!(remaining_named(config.naming, &desired, &timeline.final_world).is_empty());
            }
            Verdict::NotConverging { reason: NotConvergingReason::NoTrigger { out_of_sync } } => {
                let desired = final_desired(&timeline, &config);
                prop_assert_eq!(*out_of_sync, remaining_named(config.naming, &desired, &timeline.final_world).len());
                prop_assert!(*out_of_sync > 0);
            }
            Verdict::NotConverging { reason: NotConvergingReason::StuckFinalizer { object, finalizer } } => {
                prop_assert!(timeline.final_world.is_terminating(object));
                prop_assert!(config.stuck_finalizers.iter().any(|s| s.object == *object && s.finalizer == *finalizer));
            }
            Verdict::NotConverging { reason: NotConvergingReason::Oscillation { .. } } => {
                prop_assert!(!config.other_writers.is_empty(), "only other writers fight");
            }
            Verdict::NotConverging { reason: NotConvergingReason::PassLimit { limit } } => {
                prop_assert_eq!(*limit, config.max_passes);
                prop_assert_eq!(timeline.passes.len(), config.max_passes);
            }
            Verdict::NotConverging { reason: NotConvergingReason::ApplyConflict { .. } } => {
                prop_assert_eq!(timeline.passes.len(), config.max_passes);
                prop_assert!(config.writes == ObjectWrites::Apply, "only an unforced apply conflicts");
            }
            Verdict::NotConverging { reason: NotConvergingReason::StatusHotLoop { .. } } => {
                prop_assert!(config.status_writes != StatusWrites::None, "only status writes loop");
                prop_assert!(!config.generation_changed_predicate, "the predicate stops it");
                let last = timeline.passes.last().expect("passes ran");
                prop_assert!(last.actions.is_empty() && last.status_write.is_some());
            }
        }
    }

    /// A crash anywhere, and no other fault: the run still converges and
    /// every missing name is created exactly once.
    #[test]
    fn a_crash_never_duplicates_a_create(
        scenario in any_scenario(),
        crash in crash_plan(),
    ) {
        let config = SimConfig { crash, ..SimConfig::default() };
        let timeline = simulate(&scenario, &config);
        prop_assert!(converged(&timeline.verdict), "{}", timeline.verdict);
        let missing: BTreeMap<String, usize> = scenario
            .desired
            .names()
            .filter(|n| !scenario.observed.contains(n))
            .map(|n| (n.to_owned(), 1))
            .collect();
        prop_assert_eq!(creates(&timeline), missing);
        prop_assert_eq!(&timeline.final_world.observed, &scenario.desired);
    }

    /// (d) Without a crash, the edge-triggered handler and the
    /// level-triggered loop end in the same world when they start in sync,
    /// even when the watch closes: the resumed watch delivers what it
    /// missed. Not across an API server restart: a relist after 410 shows
    /// only the end state, so a create and a delete it missed reach no
    /// handler (`RealFIFO.Replace`), upstream as here.
    #[test]
    fn without_a_crash_edge_and_level_agree_from_an_in_sync_start(
        scenario in in_sync_scenario(),
        script in script(4).prop_map(|script| {
            script
                .into_iter()
                .filter(|e| {
                    // A stray queues no key: the level loop would wait forever.
                    e.event != WorldEvent::RestartApiServer
                        && !matches!(e.event, WorldEvent::StrayCreate { .. })
                })
                .collect::<Vec<_>>()
        }),
        seed in any::<u64>(),
        watch_break_rate in prop_oneof![Just(0.0), 0.0f64..0.5],
    ) {
        let config = SimConfig { seed, script, watch_break_rate, ..SimConfig::default() };
        let level_edge = compare_level_edge(&scenario, &config);
        prop_assert!(converged(&level_edge.level.verdict), "{}", level_edge.level.verdict);
        let last = level_edge.steps.last().expect("steps");
        prop_assert_eq!(&last.edge_observed, &last.level_observed);
        prop_assert_eq!(&last.level_observed, &level_edge.level.final_world.observed);
        prop_assert_eq!(states(&level_edge.edge_final), states(&level_edge.level_final));
        prop_assert!(level_edge.steps.iter().all(|s| !s.missed));
    }

    /// (e) The work queue: random add/get/done never hand a key out twice at
    /// once, and never lose an add: after an add the key is queued or being
    /// processed (then queued again on done), until a get hands it out.
    #[test]
    fn the_work_queue_never_hands_out_a_key_twice_nor_loses_one(
        ops in prop::collection::vec((0u8..3, 0u8..4), 0..80),
    ) {
        let mut queue: WorkQueue<u8> = WorkQueue::default();
        let mut processing = BTreeSet::new();
        // Added and not handed out by a get since.
        let mut owed = BTreeSet::new();
        for (op, key) in ops {
            match op {
                0 => {
                    let outcome = queue.add(key);
                    let expected = if processing.contains(&key) {
                        AddOutcome::Deferred
                    } else if owed.contains(&key) {
                        AddOutcome::AlreadyQueued
                    } else {
                        AddOutcome::Queued
                    };
                    prop_assert_eq!(outcome, expected);
                    owed.insert(key);
                }
                1 => match queue.get() {
                    Some(got) => {
                        prop_assert!(processing.insert(got), "{} handed out twice at once", got);
                        prop_assert!(owed.remove(&got), "{} handed out without an add", got);
                    }
                    None => prop_assert!(owed.iter().all(|k| processing.contains(k))),
                },
                _ => {
                    let requeued = queue.done(&key);
                    let was_processing = processing.remove(&key);
                    prop_assert_eq!(requeued, was_processing && owed.contains(&key));
                }
            }
            for k in 0..4 {
                prop_assert_eq!(queue.is_processing(&k), processing.contains(&k));
            }
            let queued = owed.iter().filter(|k| !processing.contains(k)).count();
            prop_assert_eq!(queue.len(), queued, "each owed key queued exactly once");
        }
        // Drain: everything owed comes out.
        for key in processing.clone() {
            queue.done(&key);
        }
        while let Some(got) = queue.get() {
            prop_assert!(owed.remove(&got));
            queue.done(&got);
        }
        prop_assert!(owed.is_empty(), "lost {:?}", owed);
    }
}

/// client-go's delaying queue keeps one waiting entry per key, the earliest
/// (`delaying_queue.go` `insert`, ported as `test_deduping`): an always-failing
/// key whose resync passes fail too has one requeue pending, never one per
/// failure, and a merged later time never runs a pass.
#[test]
fn failed_passes_of_one_key_keep_one_waiting_requeue_the_earliest() {
    let scenario = scenario(r#"{"a":1}"#, "{}", "null");
    let config = SimConfig {
        failure_rate: 1.0,
        resync_period_ms: Some(300),
        max_passes: 30,
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let starts: Vec<Millis> = timeline.passes.iter().map(|p| p.started_at).collect();
    // Resync ticks every 280 ms: 300 ms times this informer's jitter factor.
    assert_eq!(&starts[..9], &[1, 16, 36, 66, 116, 206, 281, 376, 561]);
    let merges: Vec<(Millis, Millis, Millis)> = timeline
        .log
        .iter()
        .filter_map(|e| match e.what {
            Happening::RequeueMerged {
                requested_at,
                ready_at,
            } => Some((e.at, requested_at, ready_at)),
            _ => None,
        })
        .collect();
    // The resync pass at 281 fails while the requeue for 376 waits: its own
    // requeue (5 ms · 2^6 later, 611) merges into the earlier one.
    assert_eq!(merges[0], (291, 611, 376));
    for (_, requested_at, ready_at) in &merges {
        assert!(ready_at <= requested_at);
        assert!(
            !timeline
                .passes
                .iter()
                .any(|p| p.started_at == *requested_at),
            "a merged time never runs a pass"
        );
    }
    // Every requeue pass starts when the one waiting entry became ready.
    for pass in &timeline.passes {
        if let Trigger::Requeue { .. } = pass.trigger {
            let requested = timeline.passes.iter().any(|earlier| {
                earlier.index < pass.index
                    && earlier.actions.iter().any(|o| {
                        matches!(o.result, ActionResult::Failed { requeued_at, .. } if requeued_at == pass.started_at)
                    })
            });
            assert!(requested, "pass {} at {}", pass.index, pass.started_at);
        }
    }
}

/// The polling style: a pass whose FINALIZEd objects are still terminating
/// returns RequeueAfter (controller-runtime: Forget, then AddAfter), so the
/// loop finishes even without a watch on the objects it owns.
#[test]
fn requeue_after_while_terminating_polls_until_the_object_is_gone() {
    let scenario = scenario("{}", r#"{"svc":1}"#, r#"{"svc":["cloud/lb"]}"#);
    let config = SimConfig {
        watch_owned: false,
        requeue_while_terminating_ms: Some(20),
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let triggers = triggers(&timeline);
    assert_eq!(triggers[0], CR_ADDED);
    assert!(triggers[1..]
        .iter()
        .all(|t| *t == Trigger::RequeueAfter { delay_ms: 20 }));
    // Each pass takes 10 ms and asks to be run 20 ms after it ends. The
    // owner removes the finalizer at 61, just before the pass due then.
    let starts: Vec<Millis> = timeline.passes.iter().map(|p| p.started_at).collect();
    assert_eq!(starts, vec![1, 31, 61]);
    // Its cache has not heard of the delete yet (the event is 5 ms away):
    // one more delete request, 404, done.
    assert_eq!(
        actions(&timeline.passes[2]),
        vec![(
            ActionKind::Finalize,
            "svc".into(),
            ActionResult::AlreadyGone
        )]
    );
    assert!(converged(&timeline.verdict));
    assert_eq!(
        Trigger::RequeueAfter { delay_ms: 20 }.to_string(),
        "RequeueAfter 20 ms (objects still terminating)"
    );

    // Without the option and without the watch, nothing brings another pass:
    // the loop is done when the owner is, but it never looks again.
    let plain = SimConfig {
        watch_owned: false,
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &plain);
    assert_eq!(timeline.passes.len(), 1);
}

/// The same run on client-go's queue and on controller-runtime's priority
/// queue (v0.24.1's default). Pass 2 reads a stale cache and its CREATE d
/// gets 409: an error, so a rate-limited requeue for 5 ms later; d's watch
/// event arrived during pass 2 too. client-go keeps the delayed entry apart
/// from the queue, so after pass 3 (d's event) succeeds the requeue still
/// fires: a fourth pass. The priority queue keeps one item per key: the
/// requeue merges into the ready item, and there is no fourth pass.
#[test]
fn the_priority_queue_merges_a_requeue_into_the_ready_item() {
    let scenario = scenario(r#"{"a":1,"b":1,"c":1,"d":1}"#, "{}", "null");
    let client_go = simulate(&scenario, &SimConfig::default());
    let priority = simulate(
        &scenario,
        &SimConfig {
            queue: QueueModel::ControllerRuntimePriority,
            ..SimConfig::default()
        },
    );
    let starts = |t: &Timeline| -> Vec<(Millis, Trigger)> {
        t.passes
            .iter()
            .map(|p| (p.started_at, p.trigger.clone()))
            .collect()
    };
    assert_eq!(
        starts(&client_go),
        vec![
            (1, CR_ADDED),
            (41, owned("a", Change::Added)),
            (51, owned("d", Change::Added)),
            (56, Trigger::Requeue { failures: 1 }),
        ]
    );
    assert_eq!(
        starts(&priority),
        vec![
            (1, CR_ADDED),
            (41, owned("a", Change::Added)),
            (51, owned("d", Change::Added)),
        ]
    );
    assert!(converged(&priority.verdict));
    assert_eq!(priority.final_world.observed, scenario.desired);
}

#[test]
fn the_queue_setting_reads_and_takes_kube_rs_only_with_its_error_policy() {
    let config =
        reconcile_sim::options_from_json(&json(r#"{"queue": "controller-runtime-priority"}"#))
            .expect("valid");
    assert_eq!(config.queue, QueueModel::ControllerRuntimePriority);
    let error =
        reconcile_sim::options_from_json(&json(r#"{"queue": "kube-rs"}"#)).expect_err("refused");
    assert_eq!(error.path.to_string(), "$.backoff");
    assert!(
        error.message.contains("no rate limiter") && error.message.contains("fixed-delay"),
        "{}",
        error.message
    );
    let kube = reconcile_sim::options_from_json(&json(
        r#"{"queue": "kube-rs", "backoff": {"policy": "fixed-delay", "delayMs": 1000}}"#,
    ))
    .expect("kube-rs with its error_policy");
    assert_eq!(kube.queue, QueueModel::KubeRs);
}

fn kube_rs(delay_ms: Millis) -> SimConfig {
    SimConfig {
        queue: QueueModel::KubeRs,
        backoff: BackoffPolicy::FixedDelay { delay_ms },
        ..SimConfig::default()
    }
}

/// The run of the priority-queue test on kube-rs's runner (kube-runtime
/// 4.2.0). d's watch event comes due while pass 2 runs: the runner holds it
/// pending for the object's slot. Pass 2's CREATE d gets 409, and the
/// error_policy asks for a requeue 1 s later, which the scheduler drops,
/// as the object's message is pending (`schedule_message` ignores requests
/// for a pending object): pass 3 runs at once, and there is no fourth.
#[test]
fn kube_rs_holds_an_event_pending_while_the_object_runs_and_drops_the_requeue() {
    let scenario = scenario(r#"{"a":1,"b":1,"c":1,"d":1}"#, "{}", "null");
    let timeline = simulate(&scenario, &kube_rs(1_000));
    let starts: Vec<(Millis, Trigger)> = timeline
        .passes
        .iter()
        .map(|p| (p.started_at, p.trigger.clone()))
        .collect();
    assert_eq!(
        starts,
        vec![
            (1, CR_ADDED),
            (41, owned("a", Change::Added)),
            (51, owned("d", Change::Added)),
        ]
    );
    let ActionResult::Failed {
        code, requeued_at, ..
    } = &timeline.passes[1].actions[0].result
    else {
        panic!("pass 2 CREATEs d again: {:?}", timeline.passes[1].actions);
    };
    assert_eq!((*code, *requeued_at), (409, 51));
    assert!(converged(&timeline.verdict));
    // client-go with the same fixed delay runs the requeue a second later.
    let client_go = simulate(
        &scenario,
        &SimConfig {
            backoff: BackoffPolicy::FixedDelay { delay_ms: 1_000 },
            ..SimConfig::default()
        },
    );
    assert_eq!(client_go.passes.len(), 4);
    assert_eq!(client_go.passes[3].started_at, 1_051);
}

/// kube-rs has no rate limiter: every failure is requeued after the
/// error_policy's fixed delay, counted from the end of the pass.
#[test]
fn kube_rs_requeues_every_failure_after_the_error_policys_delay() {
    let scenario = scenario(r#"{"a":1}"#, "{}", "null");
    let config = SimConfig {
        failure_rate: 1.0,
        max_passes: 4,
        ..kube_rs(250)
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(requeue_delays(&timeline), vec![250; 4]);
    assert_eq!(
        triggers(&timeline)[1..],
        [
            Trigger::Requeue { failures: 1 },
            Trigger::Requeue { failures: 2 },
            Trigger::Requeue { failures: 3 },
        ]
    );
}

/// The event log: every step the controller takes part in, in time order.
#[test]
fn the_event_log_shows_each_request_watch_event_and_queue_add() {
    use reconcile_sim::events::{SimEvent, MAX_EVENTS};
    let scenario = scenario(
        r#"{"a":{"replicas":1},"b":{"replicas":3}}"#,
        r#"{"b":{"replicas":1},"c":{"replicas":1}}"#,
        "null",
    );
    let timeline = simulate(&scenario, &SimConfig::default());
    let events = &timeline.events.entries;
    assert!(!timeline.events.truncated);
    assert!(events.windows(2).all(|w| w[0].at <= w[1].at));
    let first: Vec<(Millis, SimEvent)> =
        events[..6].iter().map(|e| (e.at, e.what.clone())).collect();
    assert_eq!(
        first,
        vec![
            (
                1,
                SimEvent::Enqueued {
                    outcome: AddOutcome::Queued,
                    trigger: CR_ADDED
                }
            ),
            (
                1,
                SimEvent::ReconcileStarted {
                    pass: 1,
                    trigger: CR_ADDED,
                    actions: 3,
                    skipped: None
                }
            ),
            (
                11,
                SimEvent::Request {
                    pass: 1,
                    action: ActionKind::Create,
                    name: "a".into(),
                    code: 201
                }
            ),
            (
                16,
                SimEvent::WatchDelivered {
                    name: "a".into(),
                    change: Change::Added
                }
            ),
            (
                16,
                SimEvent::Enqueued {
                    outcome: AddOutcome::Deferred,
                    trigger: owned("a", Change::Added)
                }
            ),
            (
                21,
                SimEvent::Request {
                    pass: 1,
                    action: ActionKind::Update,
                    name: "b".into(),
                    code: 200
                }
            ),
        ]
    );
    // Pass 2's stale DELETE c is a 404 in the log.
    assert!(events.iter().any(|e| e.what
        == SimEvent::Request {
            pass: 2,
            action: ActionKind::Delete,
            name: "c".into(),
            code: 404
        }));
    let started = events
        .iter()
        .filter(|e| matches!(e.what, SimEvent::ReconcileStarted { .. }))
        .count();
    let ended = events
        .iter()
        .filter(|e| matches!(e.what, SimEvent::ReconcileEnded { .. }))
        .count();
    assert_eq!(
        (started, ended),
        (timeline.passes.len(), timeline.passes.len())
    );

    // A long run keeps the first events and says it stopped there.
    // (4,000 creates: a request, a watch event and a queue add each.)
    let many: String = (0..4_000)
        .map(|i| format!("\"p{i}\":1"))
        .collect::<Vec<_>>()
        .join(",");
    let long = simulate(&scenario_of(&format!("{{{many}}}")), &SimConfig::default());
    assert!(long.events.truncated);
    assert_eq!(long.events.entries.len(), MAX_EVENTS);
}

fn scenario_of(desired: &str) -> SimScenario {
    scenario(desired, "{}", "null")
}

// ---------------------------------------------------------------------------
// The garbage collector: another actor deletes the custom resource.

fn delete_custom_resource(propagation: PropagationPolicy) -> WorldEvent {
    WorldEvent::DeleteCustomResource { propagation }
}

/// What the garbage collector did, in order, as the timeline says it.
fn gc_log(timeline: &Timeline) -> Vec<String> {
    timeline
        .log
        .iter()
        .filter_map(|e| match &e.what {
            Happening::GarbageCollector { action } => Some(action.to_string()),
            _ => None,
        })
        .collect()
}

/// When a log entry reading like `text` happened first.
fn first_at(timeline: &Timeline, text: &str) -> Option<Millis> {
    let reads = |what: &Happening| match what {
        Happening::ActorEvent { event, .. } => event.to_string(),
        Happening::GarbageCollector { action } => action.to_string(),
        Happening::FinalizerRemoved {
            object, finalizer, ..
        } => format!("finalizer {finalizer} from {object}"),
        _ => String::new(),
    };
    timeline
        .log
        .iter()
        .find(|e| reads(&e.what).contains(text))
        .map(|e| e.at)
}

/// The objects whose controller owner is gone (or is another object now).
fn dangling(world: &World) -> Vec<String> {
    let owner_uid = world
        .get(&ObjectKey::the_custom_resource())
        .map(|cr| cr.meta.uid);
    world
        .observed
        .names()
        .filter(|name| {
            let uid = world
                .meta(name)
                .and_then(|m| m.owner_references.controller_uid());
            uid.is_some() && uid != owner_uid
        })
        .map(str::to_owned)
        .collect()
}

fn gc_run(propagation: PropagationPolicy, finalizers: &str) -> Timeline {
    let config = SimConfig {
        script: vec![after(1, delete_custom_resource(propagation))],
        ..SimConfig::default()
    };
    simulate(
        &scenario(r#"{"a":1,"b":2}"#, r#"{"a":1,"b":2}"#, finalizers),
        &config,
    )
}

#[test]
fn every_managed_object_is_controlled_by_the_custom_resource_and_strays_by_nobody() {
    let config = SimConfig {
        script: vec![after(
            1,
            WorldEvent::StrayCreate {
                name: "s".into(),
                spec: json("0"),
            },
        )],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario(r#"{"a":1,"b":2}"#, r#"{"a":1}"#, "{}"), &config);
    let world = &timeline.final_world;
    let cr = world
        .get(&ObjectKey::the_custom_resource())
        .expect("stored");
    let expected = OwnerRefs::controlled_by_custom_resource(CUSTOM_RESOURCE, cr.meta.uid);
    for name in ["a", "b"] {
        let meta = world.meta(name).expect("exists");
        assert_eq!(meta.owner_references, expected, "{name}");
        let reference = &meta.owner_references.as_slice()[0];
        assert!(reference.controller && reference.block_owner_deletion);
    }
    assert!(
        world.observed.contains("s"),
        "a stray's event queues nothing"
    );
}

/// `EnqueueRequestForOwner` with `OnlyControllerOwner()` (controller-runtime
/// `pkg/handler/enqueue_owner.go`): an object the custom resource does not
/// control maps to no key. A stray another actor creates queues nothing;
/// only a resync makes the level-triggered loop find and delete it.
#[test]
fn a_stray_object_queues_nothing_until_a_resync() {
    let stray = after(
        1,
        WorldEvent::StrayCreate {
            name: "s".into(),
            spec: json("0"),
        },
    );
    let scenario = scenario(r#"{"a":1}"#, r#"{"a":1}"#, "{}");
    let quiet = simulate(
        &scenario,
        &SimConfig {
            script: vec![stray.clone()],
            ..SimConfig::default()
        },
    );
    assert!(!triggers(&quiet)
        .iter()
        .any(|t| *t == owned("s", Change::Added)));
    assert_eq!(
        quiet.verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::NoTrigger { out_of_sync: 1 }
        }
    );
    let resynced = simulate(
        &scenario,
        &SimConfig {
            script: vec![stray],
            resync_period_ms: Some(1_000),
            generation_changed_predicate: false,
            ..SimConfig::default()
        },
    );
    assert!(converged(&resynced.verdict), "{}", resynced.verdict);
    assert!(!resynced.final_world.observed.contains("s"));
    assert!(triggers(&resynced).contains(&Trigger::Resync));
}

#[test]
fn background_deletion_deletes_the_owner_at_once_then_the_collector_its_dependents() {
    let timeline = gc_run(PropagationPolicy::Background, "{}");
    assert!(converged(&timeline.verdict), "{}", timeline.verdict);
    let world = &timeline.final_world;
    assert!(world.get(&ObjectKey::the_custom_resource()).is_none());
    assert!(world.observed.is_empty(), "nothing owned is left");
    assert_eq!(
        gc_log(&timeline),
        [
            "the garbage collector deletes a (background): gone",
            "the garbage collector deletes b (background): gone"
        ]
    );
    // The reconciler finds its custom resource gone and does nothing.
    let after_delete = &timeline.passes[1..];
    assert!(!after_delete.is_empty());
    assert!(after_delete.iter().all(|p| p.actions.is_empty()));
    assert_eq!(
        timeline.passes[1].trigger.to_string(),
        "custom resource deleted"
    );
    // Deleted right after pass 1 (t = 3); the collector acts a watch
    // latency (5 ms) and one request (10 ms) later.
    let at = |text: &str| first_at(&timeline, text);
    assert_eq!(at("deletes the custom resource"), Some(3));
    assert_eq!(at("deletes a"), Some(18));
}

#[test]
fn foreground_deletion_waits_for_every_blocking_dependent_and_its_finalizers() {
    let timeline = gc_run(PropagationPolicy::Foreground, r#"{"a":["example.com/x"]}"#);
    assert!(converged(&timeline.verdict), "{}", timeline.verdict);
    assert!(timeline
        .final_world
        .get(&ObjectKey::the_custom_resource())
        .is_none());
    assert!(timeline.final_world.observed.is_empty());
    assert_eq!(
        gc_log(&timeline),
        [
            "the garbage collector deletes a (background): terminating",
            "the garbage collector deletes b (background): gone",
            "the garbage collector removes finalizer foregroundDeletion from the custom resource; it is gone"
        ]
    );
    let removed = |text: &str| first_at(&timeline, text);
    // a's own finalizer goes first, then the owner.
    let a_gone = removed("finalizer example.com/x").expect("a's owner acted");
    let cr_gone = removed("foregroundDeletion").expect("the collector finished");
    assert!(a_gone < cr_gone, "{a_gone} < {cr_gone}");
    assert!(timeline
        .passes
        .iter()
        .any(|p| p.trigger == Trigger::CustomResourceDeleting));
}

#[test]
fn orphan_deletion_keeps_the_dependents_without_their_owner_reference() {
    let timeline = gc_run(PropagationPolicy::Orphan, "{}");
    assert!(converged(&timeline.verdict), "{}", timeline.verdict);
    let world = &timeline.final_world;
    assert!(world.get(&ObjectKey::the_custom_resource()).is_none());
    assert_eq!(
        world.observed,
        res(r#"{"a":1,"b":2}"#),
        "the dependents stay"
    );
    for name in ["a", "b"] {
        assert!(world.meta(name).expect(name).owner_references.is_empty());
    }
    assert_eq!(
        gc_log(&timeline),
        [
            "the garbage collector removes a's ownerReference (orphaned)",
            "the garbage collector removes b's ownerReference (orphaned)",
            "the garbage collector removes finalizer orphan from the custom resource; it is gone"
        ]
    );
}

#[test]
fn a_stuck_dependent_holds_a_foreground_deletion_forever() {
    let config = SimConfig {
        script: vec![after(
            1,
            delete_custom_resource(PropagationPolicy::Foreground),
        )],
        stuck_finalizers: vec![FinalizerRef {
            object: "a".into(),
            finalizer: "example.com/x".into(),
        }],
        ..SimConfig::default()
    };
    let timeline = simulate(
        &scenario(r#"{"a":1}"#, r#"{"a":1}"#, r#"{"a":["example.com/x"]}"#),
        &config,
    );
    assert_eq!(
        timeline.verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::StuckFinalizer {
                object: "a".into(),
                finalizer: "example.com/x".into()
            }
        }
    );
    let cr = timeline
        .final_world
        .get(&ObjectKey::the_custom_resource())
        .expect("still waiting");
    assert_eq!(cr.finalizers, ["foregroundDeletion"]);
}

#[test]
fn a_stray_object_survives_the_custom_resource_deletion() {
    let config = SimConfig {
        script: vec![after(
            1,
            delete_custom_resource(PropagationPolicy::Background),
        )],
        ..SimConfig::default()
    };
    // The controller would delete the stray, but its custom resource goes first.
    let timeline = simulate(&scenario(r#"{}"#, r#"{}"#, "{}"), &config);
    assert!(converged(&timeline.verdict));
    let with_stray = SimConfig {
        script: vec![
            after(1, delete_custom_resource(PropagationPolicy::Background)),
            after(
                1,
                WorldEvent::StrayCreate {
                    name: "s".into(),
                    spec: json("0"),
                },
            ),
        ],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario(r#"{"a":1}"#, r#"{"a":1}"#, "{}"), &with_stray);
    assert!(converged(&timeline.verdict), "{}", timeline.verdict);
    assert_eq!(timeline.final_world.observed, res(r#"{"s":0}"#));
}

#[test]
fn once_the_collector_has_acted_no_dependent_outlives_its_controller_owner() {
    for preset in presets() {
        let (scenario, base) = preset_scenario(&preset.id);
        for propagation in [PropagationPolicy::Background, PropagationPolicy::Foreground] {
            for pass in [0, 1, 2] {
                let mut config = base.clone();
                config
                    .script
                    .push(after(pass, delete_custom_resource(propagation)));
                let timeline = simulate(&scenario, &config);
                let world = &timeline.final_world;
                let what = format!("{} {propagation} after pass {pass}", preset.id);
                // Only a dependent held by its own finalizers may still refer to it.
                for name in dangling(world) {
                    assert!(world.is_terminating(&name), "{what}: {name} dangles");
                }
                if converged(&timeline.verdict) {
                    assert!(dangling(world).is_empty(), "{what}");
                    assert!(
                        world.get(&ObjectKey::the_custom_resource()).is_none(),
                        "{what}"
                    );
                }
            }
        }
    }
}

#[test]
fn delete_custom_resource_reads_with_a_default_propagation() {
    let config: SimConfig = serde_json::from_str(
        r#"{"script": [
            {"afterPass": 1, "event": {"kind": "delete-custom-resource"}},
            {"afterPass": 2, "event": {"kind": "delete-custom-resource", "propagation": "orphan"}}
        ]}"#,
    )
    .expect("valid");
    assert_eq!(
        config.script[0].event,
        delete_custom_resource(PropagationPolicy::Background)
    );
    assert_eq!(
        config.script[1].event.to_string(),
        "someone deletes the custom resource (orphan)"
    );
    let again: SimConfig =
        serde_json::from_str(&serde_json::to_string(&config).expect("serializes")).expect("reads");
    assert_eq!(again, config);
    let unknown = serde_json::from_str::<SimConfig>(
        r#"{"script": [{"afterPass": 1, "event": {"kind": "delete-custom-resource", "propagation": "sideways"}}]}"#,
    );
    assert!(unknown.is_err());
}

/// A manifest's `metadata.deletionTimestamp` (`SimConfig::terminating`):
/// the object is terminating from the start, before any pass; its
/// finalizer's owner removes its entry on its own, and that update deletes
/// it. An object listed with no finalizer pending is gone from the start.
#[test]
fn an_object_terminating_at_the_start_goes_when_its_finalizer_owner_is_done() {
    let scenario = scenario(
        "{}",
        r#"{"svc":{"type":"LoadBalancer"},"old":{}}"#,
        r#"{"svc":["cloud/lb"]}"#,
    );
    let config = SimConfig {
        terminating: vec!["svc".into(), "old".into()],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(timeline.initial.terminating.get("svc"), Some(&0));
    assert!(
        !timeline.initial.observed.contains("old"),
        "nothing pending: deleted at once"
    );
    let statuses = resource_statuses(&scenario.desired, &timeline.initial, &[]);
    assert_eq!(statuses.len(), 1);
    assert_eq!(statuses[0].state, SyncState::Terminating);
    let removed = timeline.log.iter().find_map(|entry| match &entry.what {
        Happening::FinalizerRemoved {
            object,
            object_deleted,
            ..
        } if object == "svc" => Some((entry.at, *object_deleted)),
        _ => None,
    });
    assert_eq!(
        removed,
        Some((50, true)),
        "the owner's delay after the start"
    );
    assert!(timeline.final_world.observed.is_empty());
    assert!(matches!(timeline.verdict, Verdict::Converged { .. }));

    // Without the mark, it only starts terminating at the controller's request (after deleting `old`).
    let unmarked = simulate(&scenario, &SimConfig::default());
    assert!(unmarked.initial.terminating.is_empty());
    assert_eq!(
        unmarked.passes[0].world_after.terminating.get("svc"),
        Some(&21)
    );
    // And the edge-triggered handler starts from the same world.
    let level_edge = compare_level_edge(&scenario, &config);
    assert!(
        level_edge.edge_final.is_empty(),
        "{:?}",
        level_edge.edge_final
    );
}

// ---------------------------------------------------------------------------
// The control-plane picture (`reconcile_sim::picture`) agrees with the timeline.

mod picture_checks;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..config() })]

    /// At every event of any run, the picture's store, cache, controller,
    /// queue and watch events in flight are what the timeline says.
    #[test]
    fn pictures_agree_with_the_timeline(scenario in any_scenario(), config in any_config()) {
        picture_checks::check_run(&scenario, &config);
    }
}

/// Lesson `deleted-while-down`: the delete of web-1 happens while the
/// controller is down, so neither model hears it; after the restart the loop
/// recreates web-1 in its first pass, and the edge-triggered handler only by
/// accident, through its blind creates on "custom resource added".
#[test]
fn a_delete_while_down_arrives_as_nothing_after_the_restart() {
    let (scenario, config) = preset_scenario("deleted-while-down");
    let level_edge = compare_level_edge(&scenario, &config);
    let heard: Vec<(&str, bool)> = level_edge
        .steps
        .iter()
        .map(|s| (s.event.as_str(), s.missed))
        .collect();
    assert_eq!(
        heard,
        vec![
            ("custom resource added", false),
            ("someone deletes web-1", true),
            ("the controller restarted and listed what exists", false),
        ]
    );
    assert_eq!(
        level_edge.steps[2].edge_actions[1],
        (
            Action::create("web-1", json(r#"{"image":"web:1"}"#)),
            "applied".to_owned()
        ),
        "the blind create on restart brings web-1 back"
    );
    let after_restart = &level_edge.level.passes[1];
    assert_eq!(
        after_restart.trigger.to_string(),
        "custom resource listed after the controller restarted"
    );
    assert_eq!(
        actions(after_restart),
        vec![(ActionKind::Create, "web-1".into(), ActionResult::Applied)]
    );
}

/// Lesson `hidden-reason`: a spec change and a pod's delete at the same
/// millisecond queue one key; pass 2 shows the first reason only and its
/// plan repairs both.
#[test]
fn two_reasons_share_one_pass_that_shows_the_first() {
    let (scenario, config) = preset_scenario("two-reasons");
    let timeline = simulate(&scenario, &config);
    let pass = &timeline.passes[1];
    assert_eq!(pass.trigger.to_string(), "custom resource spec changed");
    assert_eq!(
        actions(pass),
        vec![
            (ActionKind::Update, "web-0".into(), ActionResult::Applied),
            (ActionKind::Create, "web-1".into(), ActionResult::Applied),
        ]
    );
}

/// An event delivered before the informer's initial list has queued the key
/// (here: a delete at t = 0 with no watch latency) queues nothing of its
/// own: controller-runtime starts its workers once the caches have synced
/// (`WaitForCacheSync`), after the list's Adds, so pass 1 runs for the
/// list's reason and already reads the change.
#[test]
fn an_event_before_the_initial_list_merges_into_its_pass() {
    let scenario = scenario(r#"{"a":1,"b":1}"#, r#"{"a":1,"b":1}"#, "null");
    let config = SimConfig {
        action_ms: 0,
        watch_latency_ms: 0,
        script: vec![after(0, delete("b"))],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let first = &timeline.passes[0];
    assert_eq!(first.trigger.to_string(), "custom resource added");
    assert_eq!(
        actions(first),
        vec![(ActionKind::Create, "b".into(), ActionResult::Applied)]
    );
}

// ---------------------------------------------------------------------------
// Optimistic concurrency (lesson 18, preset `stale-update`).

/// An UPDATE's result code, or 0 for one that got no answer.
fn update_code(pass: &PassRecord) -> u16 {
    match pass.actions.first().map(|o| &o.result) {
        Some(ActionResult::Failed { code, .. }) => *code,
        Some(ActionResult::Applied) => 200,
        _ => 0,
    }
}

/// The autoscaler scales web-0 at 0 ms; pass 1 reads a cache that has not
/// heard of it (its event arrives at 5 ms), so its PUT carries the older
/// resourceVersion: 409 Conflict (apiserver `store.go` `Store.Update`). Pass
/// 2 runs on the autoscaler's event, reads web-0 again and writes the image
/// over the object it read: 200, and the 5 replicas stay. Pass 3, the
/// requeue of pass 1's error, reads the cache before pass 2's own event and
/// sends the same request as pass 2: 409 again. Pass 4 finds nothing to do.
#[test]
fn a_stale_update_gets_409_and_the_pass_that_reads_again_keeps_the_other_write() {
    let (scenario, config) = preset_scenario("stale-update");
    let timeline = simulate(&scenario, &config);
    let codes: Vec<u16> = timeline.passes.iter().map(update_code).collect();
    assert_eq!(codes, [409, 200, 409, 0, 0]);
    let ActionResult::Failed { error, .. } = &timeline.passes[0].actions[0].result else {
        panic!("pass 1's UPDATE fails");
    };
    assert!(error.ends_with(reconcile_sim::apiserver::OPTIMISTIC_LOCK_ERROR));
    assert_eq!(
        triggers(&timeline),
        vec![
            CR_ADDED,
            Trigger::OwnedObject {
                name: "web-0".into(),
                change: Change::Updated
            },
            Trigger::Requeue { failures: 1 },
            Trigger::OwnedObject {
                name: "web-0".into(),
                change: Change::Updated
            },
            Trigger::Requeue { failures: 1 },
        ]
    );
    // Pass 1 read before the scale-up reached its cache; pass 2 after.
    assert_eq!(timeline.actor_events[0].at, 0);
    assert_eq!(timeline.passes[0].started_at, 1);
    assert_eq!(timeline.passes[1].started_at, 11);
    let web_0 = json(r#"{"image":"web:2","replicas":5}"#);
    assert_eq!(
        timeline.passes[1].world_after.observed.get("web-0"),
        Some(&web_0)
    );
    assert_eq!(timeline.final_world.observed.get("web-0"), Some(&web_0));
    assert_eq!(
        timeline.verdict,
        Verdict::Converged {
            passes: 5,
            time: 37
        }
    );
}

/// The same run with the contract's whole-spec comparison: the UPDATE sends
/// the desired spec, so pass 2 (which read the 5 replicas again) writes
/// `{"image":"web:2"}` and the autoscaler's field is gone: a controller that
/// owns the whole spec decides that on purpose.
#[test]
fn a_whole_spec_controller_writes_its_spec_over_the_other_write() {
    let (scenario, mut config) = preset_scenario("stale-update");
    config.compare = SpecComparison::WholeSpec;
    let timeline = simulate(&scenario, &config);
    assert_eq!(update_code(&timeline.passes[0]), 409);
    assert_eq!(update_code(&timeline.passes[1]), 200);
    assert_eq!(
        timeline.final_world.observed.get("web-0"),
        Some(&json(r#"{"image":"web:2"}"#))
    );
    assert!(converged(&timeline.verdict));
}
