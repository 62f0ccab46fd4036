//! The controller's naming option on a stale cache (`reconcile_sim::naming`,
//! `reconcile_sim::expectations`): deterministic names, generateName, and
//! generateName with a ReplicaSet's expectations.
//!
//! The scenario: web-0 has an old image and web-1 is missing. Pass 1 sends
//! UPDATE web-0, then CREATE web-1. The watch event of the UPDATE arrives
//! while pass 1 still runs, so the key is queued again and pass 2 starts as
//! pass 1 ends, before the event of the CREATE reaches the cache (5 ms):
//! pass 2's cache still lacks web-1.

use reconcile_core::{parse_resources, ActionKind, Document, Resources};
use reconcile_sim::naming::generated_from;
use reconcile_sim::{
    simulate, ActionResult, ObjectNaming, PassSkip, SimConfig, SimScenario, Timeline, Verdict,
};

fn res(text: &str) -> Resources {
    parse_resources(Document::Desired, text).expect("test resources are valid")
}

fn stale_cache_scenario() -> SimScenario {
    SimScenario {
        desired: res(r#"{"web-0": {"image": "v2"}, "web-1": {"image": "v2"}}"#),
        observed: res(r#"{"web-0": {"image": "v1"}}"#),
        finalizers: None,
    }
}

fn run(naming: ObjectNaming) -> Timeline {
    let config = SimConfig {
        naming,
        ..SimConfig::default()
    };
    simulate(&stale_cache_scenario(), &config)
}

/// `(KIND, name, object written, result code)` of each action of pass `pass` (1-based).
fn requests(timeline: &Timeline, pass: usize) -> Vec<(ActionKind, String, String, u16)> {
    timeline.passes[pass - 1]
        .actions
        .iter()
        .map(|outcome| {
            let code = match &outcome.result {
                ActionResult::Failed { code, .. } => *code,
                ActionResult::Applied => 200,
                other => panic!("unexpected result {other:?}"),
            };
            let object = outcome.object.as_deref().unwrap_or(&outcome.action.name);
            (
                outcome.action.kind,
                outcome.action.name.to_string(),
                object.to_owned(),
                code,
            )
        })
        .collect()
}

/// How many CREATEs the run sent.
fn creates(timeline: &Timeline) -> usize {
    timeline
        .passes
        .iter()
        .flat_map(|p| &p.actions)
        .filter(|a| a.action.kind == ActionKind::Create)
        .count()
}

#[test]
fn deterministic_names_make_the_second_create_fail_with_already_exists() {
    let timeline = run(ObjectNaming::Deterministic);
    assert_eq!(
        requests(&timeline, 1),
        [
            (ActionKind::Update, "web-0".into(), "web-0".into(), 200),
            (ActionKind::Create, "web-1".into(), "web-1".into(), 200),
        ]
    );
    assert_eq!(
        requests(&timeline, 2),
        [(ActionKind::Create, "web-1".into(), "web-1".into(), 409)],
        "pass 2's cache has not seen web-1 yet"
    );
    // Pass 3 (web-1's event) finds nothing to do; pass 4 is the 409's requeue.
    assert_eq!(timeline.final_world.observed.len(), 2);
    assert!(matches!(
        timeline.verdict,
        Verdict::Converged { passes: 4, .. }
    ));
}

#[test]
fn generate_name_makes_a_duplicate_that_a_later_pass_deletes() {
    let timeline = run(ObjectNaming::GenerateName);
    let first = requests(&timeline, 1);
    let second = requests(&timeline, 2);
    assert_eq!(first[1].0, ActionKind::Create);
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].0, ActionKind::Create);
    assert_eq!(second[0].3, 200, "no conflict: the server names it");
    let (one, two) = (&first[1].2, &second[0].2);
    assert_ne!(one, two);
    assert_eq!(generated_from(one), Some("web-1"));
    assert_eq!(generated_from(two), Some("web-1"));
    // Pass 3 (the first object's event) finds nothing to do: its cache
    // has not seen the duplicate yet. Its event starts pass 4, and the
    // newer one is surplus: pass 4 deletes it.
    assert_eq!(requests(&timeline, 3), []);
    assert_eq!(
        requests(&timeline, 4),
        [(ActionKind::Delete, two.clone(), two.clone(), 200)]
    );
    let names: Vec<&str> = timeline.final_world.observed.names().collect();
    assert_eq!(names, ["web-0", one.as_str()]);
    assert!(matches!(
        timeline.verdict,
        Verdict::Converged { passes: 5, .. }
    ));
}

#[test]
fn expectations_skip_the_stale_pass_and_no_duplicate_is_made() {
    let timeline = run(ObjectNaming::GenerateNameWithExpectations);
    assert_eq!(
        timeline.passes[1].skipped,
        Some(PassSkip::ExpectingCreations { pending: 1 })
    );
    assert!(timeline.passes[1].actions.is_empty());
    assert_eq!(creates(&timeline), 1);
    assert_eq!(timeline.final_world.observed.len(), 2);
    assert!(matches!(
        timeline.verdict,
        Verdict::Converged { passes: 3, .. }
    ));
}

#[test]
fn a_failed_create_is_observed_at_once_so_the_next_pass_is_not_skipped() {
    // Every request fails: the CREATE's expectation is lowered as the pass
    // ends (manageReplicas' skipped pods), so the requeue reconciles.
    let config = SimConfig {
        naming: ObjectNaming::GenerateNameWithExpectations,
        failure_rate: 1.0,
        max_passes: 3,
        ..SimConfig::default()
    };
    let timeline = simulate(&stale_cache_scenario(), &config);
    assert!(timeline.passes.iter().all(|p| p.skipped.is_none()));
    assert!(timeline.passes.iter().all(|p| !p.actions.is_empty()));
}

#[test]
fn a_restart_forgets_the_expectations() {
    // The crash comes right after pass 1's CREATE: the restarted process
    // keeps no expectations, and its fresh informer lists what exists.
    let config = SimConfig {
        naming: ObjectNaming::GenerateNameWithExpectations,
        crash: Some(reconcile_sim::CrashPlan {
            at_pass: 1,
            after_actions: 2,
        }),
        ..SimConfig::default()
    };
    let timeline = simulate(&stale_cache_scenario(), &config);
    assert!(timeline.passes.iter().all(|p| p.skipped.is_none()));
    assert_eq!(timeline.final_world.observed.len(), 2);
    assert!(matches!(timeline.verdict, Verdict::Converged { .. }));
}

#[test]
fn deterministic_naming_is_the_default_and_changes_nothing() {
    let default = simulate(&stale_cache_scenario(), &SimConfig::default());
    assert_eq!(default, run(ObjectNaming::Deterministic));
    assert!(default
        .passes
        .iter()
        .flat_map(|p| &p.actions)
        .all(|a| a.object.is_none()));
}

fn run_with_consistency_store(naming: ObjectNaming) -> Timeline {
    let config = SimConfig {
        naming,
        consistency_store: true,
        ..SimConfig::default()
    };
    simulate(&stale_cache_scenario(), &config)
}

/// KEP-5647 (kubernetes `pkg/controller/util/consistency`): the controller
/// remembers the resourceVersion of its CREATE, and pass 2's cache has not
/// synced it, so pass 2 returns an error and plans nothing. No 409, no
/// duplicate, whatever the naming.
#[test]
fn the_consistency_store_defers_the_stale_pass() {
    for naming in [ObjectNaming::Deterministic, ObjectNaming::GenerateName] {
        let timeline = run_with_consistency_store(naming);
        let Some(PassSkip::StaleCache { read, wrote, .. }) = timeline.passes[1].skipped else {
            panic!(
                "{naming:?}: pass 2 is not deferred: {:?}",
                timeline.passes[1]
            );
        };
        assert!(read < wrote, "{naming:?}: {read} < {wrote}");
        assert!(timeline.passes[1].actions.is_empty());
        let failed = timeline
            .passes
            .iter()
            .flat_map(|p| &p.actions)
            .any(|a| matches!(a.result, ActionResult::Failed { .. }));
        assert!(!failed, "{naming:?}: no 409");
        assert_eq!(creates(&timeline), 1, "{naming:?}");
        assert_eq!(timeline.final_world.observed.len(), 2, "{naming:?}");
        assert!(
            matches!(timeline.verdict, Verdict::Converged { .. }),
            "{naming:?}: {:?}",
            timeline.verdict
        );
    }
}

/// A semantic guard: the setting compares resourceVersions. With no watch
/// latency the cache has synced every write before the next pass, so no
/// pass is deferred and the run is the one without the setting.
#[test]
fn the_consistency_store_compares_resource_versions() {
    let scenario = stale_cache_scenario();
    let instant = SimConfig {
        watch_latency_ms: 0,
        ..SimConfig::default()
    };
    let with_store = SimConfig {
        consistency_store: true,
        ..instant.clone()
    };
    let (plain, guarded) = (
        simulate(&scenario, &instant),
        simulate(&scenario, &with_store),
    );
    assert!(guarded.passes.iter().all(|p| p.skipped.is_none()));
    assert_eq!(plain.passes.len(), guarded.passes.len());
    assert_eq!(plain.verdict, guarded.verdict);
}
