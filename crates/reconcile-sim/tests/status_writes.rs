//! The controller's status writes (`statusWrites`, `generationChangedPredicate`;
//! `reconcile_sim::status_writes`): what each mode does to the loop.

use reconcile_core::{parse_finalizers, parse_resources, Document, Json};
use reconcile_sim::ownership::{ObjectKey, CUSTOM_RESOURCE};
use reconcile_sim::status::stored_status;
use reconcile_sim::{
    parse_options, simulate, ActionResult, NotConvergingReason, ScriptedEvent, SimConfig,
    SimScenario, StatusWrites, Timeline, Trigger, Verdict, WorldEvent,
};

/// The seed example: a and b wanted, b drifted, c extra.
fn seed() -> SimScenario {
    SimScenario {
        desired: parse_resources(
            Document::Desired,
            r#"{"a":{"replicas":1},"b":{"replicas":3}}"#,
        )
        .expect("valid"),
        observed: parse_resources(
            Document::Observed,
            r#"{"b":{"replicas":1},"c":{"replicas":1}}"#,
        )
        .expect("valid"),
        finalizers: parse_finalizers("{}").expect("valid"),
    }
}

fn run(options: &str) -> Timeline {
    simulate(&seed(), &parse_options(options).expect("valid options"))
}

fn status_results(timeline: &Timeline) -> Vec<Option<ActionResult>> {
    timeline
        .passes
        .iter()
        .map(|p| p.status_write.as_ref().map(|w| w.result.clone()))
        .collect()
}

fn custom_resource_meta(timeline: &Timeline) -> (u64, u64) {
    let cr = timeline
        .final_world
        .get(&ObjectKey::the_custom_resource())
        .expect("the custom resource");
    (cr.meta.generation, cr.meta.resource_version)
}

#[test]
fn without_status_writes_the_run_is_unchanged() {
    let plain = run("{}");
    let none = run(r#"{"statusWrites":"none","generationChangedPredicate":true}"#);
    assert_eq!(plain.verdict, none.verdict);
    assert_eq!(plain.passes, none.passes);
    assert!(plain.passes.iter().all(|p| p.status_write.is_none()));
    assert_eq!(stored_status(&plain.final_world, CUSTOM_RESOURCE), None);
}

#[test]
fn observed_generation_writes_once_more_then_the_same_status_is_a_no_op() {
    let timeline = run(r#"{"statusWrites":"observed-generation"}"#);
    let Verdict::Converged { passes, .. } = timeline.verdict else {
        panic!("converges: {}", timeline.verdict);
    };
    let results = status_results(&timeline);
    assert_eq!(results.len(), passes);
    assert_eq!(
        results.last(),
        Some(&Some(ActionResult::Unchanged)),
        "the last pass writes the status already stored: nothing written, no event"
    );
    assert!(results.contains(&Some(ActionResult::Applied)));
    // A pass that ran on its own status write wrote the same status: no event.
    assert!(timeline
        .passes
        .iter()
        .any(|p| p.trigger == Trigger::CustomResourceStatus
            && p.actions.is_empty()
            && p.status_write.as_ref().map(|w| &w.result) == Some(&ActionResult::Unchanged)));
    // Pass 2 read a cache without pass 1's status write: 409, as Status().Update gets.
    assert!(matches!(
        results[1],
        Some(ActionResult::Failed { code: 409, .. })
    ));
    // The status write moved the resourceVersion, never the generation.
    let (generation, resource_version) = custom_resource_meta(&timeline);
    assert_eq!(generation, 1);
    assert!(resource_version > 1);
    let status = stored_status(&timeline.final_world, CUSTOM_RESOURCE).expect("written");
    assert_eq!(
        status
            .get("observedGeneration")
            .map(Json::to_compact_string)
            .as_deref(),
        Some("1")
    );
    let ready = &status
        .get("conditions")
        .and_then(Json::as_array)
        .expect("conditions")[0];
    assert_eq!(ready.get("status").and_then(Json::as_str), Some("True"));
    assert_eq!(status.get("lastReconcileTime"), None);
}

#[test]
fn with_a_timestamp_every_status_write_wakes_the_controller_for_ever() {
    let timeline = run(r#"{"statusWrites":"with-timestamp"}"#);
    let Verdict::NotConverging {
        reason: NotConvergingReason::StatusHotLoop { field, passes },
    } = &timeline.verdict
    else {
        panic!("a hot loop: {}", timeline.verdict);
    };
    assert_eq!(field, "status.lastReconcileTime");
    assert_eq!(*passes, 3);
    // Since the world settled, every pass ran on a status write (or the
    // requeue of one that read a stale cache and conflicted), found nothing
    // to do and wrote a new status, or tried to.
    let settled = timeline.passes.iter().skip(2);
    for pass in settled.clone() {
        assert!(matches!(
            pass.trigger,
            Trigger::CustomResourceStatus | Trigger::Requeue { .. }
        ));
        assert!(pass.actions.is_empty());
        assert_eq!(pass.out_of_sync, 0);
        assert_ne!(
            pass.status_write.as_ref().map(|w| &w.result),
            Some(&ActionResult::Unchanged)
        );
    }
    let applied_on_status = settled
        .filter(|p| {
            p.trigger == Trigger::CustomResourceStatus
                && p.status_write.as_ref().map(|w| &w.result) == Some(&ActionResult::Applied)
        })
        .count();
    assert_eq!(applied_on_status, 3);
    assert!(timeline
        .verdict
        .to_string()
        .starts_with("Not converging: hot loop"));
    assert_eq!(custom_resource_meta(&timeline).0, 1, "generation unchanged");
}

#[test]
fn the_generation_changed_predicate_ignores_status_writes() {
    let timeline = run(r#"{"statusWrites":"with-timestamp","generationChangedPredicate":true}"#);
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{}",
        timeline.verdict
    );
    assert!(timeline
        .passes
        .iter()
        .all(|p| p.trigger != Trigger::CustomResourceStatus));
    assert!(stored_status(&timeline.final_world, CUSTOM_RESOURCE)
        .and_then(|s| s.get("lastReconcileTime").cloned())
        .is_some());
}

#[test]
fn a_spec_change_passes_the_predicate_and_is_observed() {
    let mut config = parse_options(
        r#"{"statusWrites":"observed-generation","generationChangedPredicate":true}"#,
    )
    .expect("valid");
    config.script.push(ScriptedEvent {
        after_pass: 1,
        event: WorldEvent::SetDesired {
            desired: parse_resources(Document::Desired, r#"{"a":{"replicas":2}}"#).expect("valid"),
        },
    });
    let timeline = simulate(&seed(), &config);
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{}",
        timeline.verdict
    );
    assert!(timeline
        .passes
        .iter()
        .any(|p| matches!(p.trigger, Trigger::CustomResource { .. }) && p.index > 1));
    let (generation, _) = custom_resource_meta(&timeline);
    assert_eq!(generation, 2);
    let status = stored_status(&timeline.final_world, CUSTOM_RESOURCE).expect("written");
    assert_eq!(
        status
            .get("observedGeneration")
            .map(Json::to_compact_string)
            .as_deref(),
        Some("2")
    );
}

#[test]
fn a_failed_status_write_fails_the_pass_and_requeues() {
    let timeline = simulate(
        &seed(),
        &SimConfig {
            status_writes: StatusWrites::ObservedGeneration,
            failure_rate: 0.5,
            seed: 3,
            ..SimConfig::default()
        },
    );
    let failed = timeline.passes.iter().find_map(|p| match &p.status_write {
        Some(w) => match w.result {
            ActionResult::Failed {
                code, requeued_at, ..
            } => Some((p.index, code, requeued_at)),
            _ => None,
        },
        None => None,
    });
    let (index, code, requeued_at) = failed.expect("seed 3 fails a status write");
    assert_eq!(code, 503);
    assert!(
        requeued_at > 0,
        "the requeue time is shown on the status write"
    );
    assert!(timeline.passes[index..]
        .iter()
        .any(|p| matches!(p.trigger, Trigger::Requeue { .. })));
}

#[test]
fn the_options_read_and_round_trip() {
    let config =
        parse_options(r#"{"statusWrites":"with-timestamp","generationChangedPredicate":true}"#)
            .expect("valid");
    assert_eq!(config.status_writes, StatusWrites::WithTimestamp);
    assert!(config.generation_changed_predicate);
    let written = serde_json::to_string(&config).expect("serializes");
    assert!(
        written.contains(r#""statusWrites":"with-timestamp""#),
        "{written}"
    );
    assert_eq!(parse_options(&written), Ok(config));
    let bad = parse_options(r#"{"statusWrites":"always"}"#).expect_err("unknown mode");
    assert_eq!(bad.path.to_string(), "$.statusWrites");
    assert!(
        bad.message.contains("observed-generation"),
        "{}",
        bad.message
    );
    assert_eq!(SimConfig::default().status_writes, StatusWrites::None);
}

/// Found by the fuzzer: the resync skips the ticks that come while the
/// worker is busy, and a pass with nothing to do is busy with its status
/// write. Counting only the actions, an hours-long write with a 1 s resync
/// scheduled a tick per second until it ended: billions of events.
#[test]
fn a_long_status_write_holds_the_resync_ticks_back() {
    let empty = SimScenario {
        desired: parse_resources(Document::Desired, "{}").expect("valid"),
        observed: parse_resources(Document::Observed, "{}").expect("valid"),
        finalizers: parse_finalizers("{}").expect("valid"),
    };
    let config = SimConfig {
        status_writes: StatusWrites::ObservedGeneration,
        action_ms: 1 << 60,
        resync_period_ms: Some(1_000),
        max_passes: 4,
        ..SimConfig::default()
    };
    let timeline = simulate(&empty, &config);
    assert_eq!(timeline.passes.len(), 4);
    assert!(
        timeline.events.entries.len() < 100,
        "{}",
        timeline.events.entries.len()
    );
}

/// A resync re-delivers every cached object as an update with an unchanged
/// generation (client-go `sharedIndexInformer`, `OnUpdate` during a resync),
/// so `GenerationChangedPredicate` drops the custom resource's (controller-
/// runtime `pkg/predicate/predicate.go`, `GenerationChangedPredicate.Update`).
/// Here nothing watches the owned objects, so only a resync could repair a
/// delete: without the predicate it does; with it, nothing ever will.
#[test]
fn the_generation_changed_predicate_drops_the_custom_resources_resync() {
    let options = r#""resyncPeriodMs":50,"watchOwned":false,
        "script":[{"afterPass":1,"event":{"kind":"delete","name":"a"}}]"#;
    let plain = run(&format!("{{{options}}}"));
    assert!(
        plain.passes.iter().any(|p| p.trigger == Trigger::Resync),
        "a resync repairs the delete"
    );
    assert!(
        matches!(plain.verdict, Verdict::Converged { .. }),
        "{}",
        plain.verdict
    );
    let filtered = run(&format!(
        r#"{{{options},"generationChangedPredicate":true}}"#
    ));
    assert!(filtered.passes.iter().all(|p| p.trigger != Trigger::Resync));
    assert!(
        matches!(
            filtered.verdict,
            Verdict::NotConverging {
                reason: NotConvergingReason::NoTrigger { out_of_sync: 1 }
            }
        ),
        "{}",
        filtered.verdict
    );
}
