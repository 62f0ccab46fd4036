//! The controller's own finalizer and an external system (issue 29 step 7):
//! kubebuilder's "Using Finalizers" pattern, with a cloud load balancer per
//! custom resource.

use reconcile_core::{parse_resources, Document};
use reconcile_sim::cloud::FINALIZER;
use reconcile_sim::events::SimEvent;
use reconcile_sim::ownership::ObjectKey;
use reconcile_sim::{
    simulate, CloudSettings, PropagationPolicy, ScriptedEvent, SimConfig, SimScenario, Timeline,
    Verdict, WorldEvent,
};

fn scenario() -> SimScenario {
    SimScenario {
        desired: parse_resources(Document::Desired, r#"{"web": {"replicas": 2}}"#).expect("valid"),
        observed: parse_resources(Document::Observed, "{}").expect("valid"),
        finalizers: None,
    }
}

fn config(failure_rate: f64, delete_after: Option<usize>) -> SimConfig {
    SimConfig {
        cloud: Some(CloudSettings {
            latency_ms: 100,
            failure_rate,
        }),
        script: delete_after
            .map(|after_pass| ScriptedEvent {
                after_pass,
                event: WorldEvent::DeleteCustomResource {
                    propagation: PropagationPolicy::Background,
                },
            })
            .into_iter()
            .collect(),
        ..SimConfig::default()
    }
}

/// `(pass, event text)` of the finalizer patches and cloud calls.
fn setup_events(timeline: &Timeline) -> Vec<(usize, String, u16)> {
    timeline
        .events
        .entries
        .iter()
        .filter_map(|e| match &e.what {
            SimEvent::FinalizerWrite { pass, added, code } => {
                Some((*pass, format!("finalizer added={added}"), *code))
            }
            SimEvent::Cloud { pass, call, code } => Some((*pass, call.to_string(), *code)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_first_pass_adds_the_finalizer_and_the_load_balancer_before_its_actions() {
    let timeline = simulate(&scenario(), &config(0.0, None));
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{:?}",
        timeline.verdict
    );
    let events = setup_events(&timeline);
    assert_eq!(
        events[..2],
        [
            (1, "finalizer added=true".to_owned(), 200),
            (1, "ensure load balancer lb-custom-resource".to_owned(), 200),
        ]
    );
    // Later passes ensure again (idempotent) and add no finalizer.
    assert!(events[2..]
        .iter()
        .all(|(_, what, _)| what.starts_with("ensure")));
    let cr = timeline
        .final_world
        .get(&ObjectKey::the_custom_resource())
        .expect("live");
    assert_eq!(cr.finalizers, [FINALIZER]);
    assert_eq!(timeline.final_world.observed, scenario().desired);
    // The cloud answers after its latency: pass 1 lasts it out.
    assert!(timeline.passes[0].finished_at >= 100);
}

#[test]
fn deleting_the_custom_resource_waits_for_the_cleanup_then_the_collector() {
    let timeline = simulate(&scenario(), &config(0.0, Some(2)));
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{:?}",
        timeline.verdict
    );
    let events = setup_events(&timeline);
    let cleanup: Vec<_> = events
        .iter()
        .filter(|(_, what, _)| what.starts_with("delete") || what == "finalizer added=false")
        .collect();
    assert_eq!(cleanup.len(), 2, "{events:?}");
    assert_eq!(cleanup[0].1, "delete load balancer lb-custom-resource");
    assert_eq!(cleanup[1].1, "finalizer added=false");
    assert_eq!(cleanup[0].0, cleanup[1].0, "one pass cleans up");
    // The custom resource is gone, and so are its dependents.
    assert!(timeline
        .final_world
        .get(&ObjectKey::the_custom_resource())
        .is_none());
    assert!(timeline.final_world.observed.is_empty());
    let effect = timeline
        .actor_events
        .first()
        .map(|e| e.effect.clone())
        .expect("the delete");
    assert!(
        effect.contains("waits for the controller's cleanup"),
        "{effect}"
    );
}

#[test]
fn a_cleanup_that_fails_keeps_the_custom_resource_terminating_until_a_retry_succeeds() {
    // Seeds whose cleanup fails at least once before it succeeds.
    let failing = (1..200u64)
        .map(|seed| {
            let config = SimConfig {
                seed,
                ..config(0.5, Some(2))
            };
            simulate(&scenario(), &config)
        })
        .find(|t| {
            setup_events(t)
                .iter()
                .any(|(_, what, code)| what.starts_with("delete") && *code == 503)
        })
        .expect("a seed whose cleanup fails");
    assert!(
        matches!(failing.verdict, Verdict::Converged { .. }),
        "{:?}",
        failing.verdict
    );
    let events = setup_events(&failing);
    let failed_at = events
        .iter()
        .find(|(_, what, code)| what.starts_with("delete") && *code == 503)
        .map(|(pass, ..)| *pass)
        .expect("a failure");
    // The pass that failed left the custom resource terminating, finalizer kept.
    let after = &failing.passes[failed_at - 1].world_after;
    let cr = after
        .get(&ObjectKey::the_custom_resource())
        .expect("still there");
    assert!(cr.deletion_timestamp.is_some() && cr.finalizers == [FINALIZER]);
    assert!(failing
        .final_world
        .get(&ObjectKey::the_custom_resource())
        .is_none());
}

#[test]
fn without_the_cloud_the_custom_resource_goes_at_once() {
    let config = SimConfig {
        cloud: None,
        ..config(0.0, Some(2))
    };
    let timeline = simulate(&scenario(), &config);
    assert!(setup_events(&timeline).is_empty());
    assert!(timeline
        .final_world
        .get(&ObjectKey::the_custom_resource())
        .is_none());
    let effect = &timeline.actor_events[0].effect;
    assert!(effect.starts_with("deleted"), "{effect}");
}
