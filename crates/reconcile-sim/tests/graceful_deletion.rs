//! Graceful deletion of pods in a run: a scheduled pod stays, terminating,
//! until the kubelet has stopped it; an unscheduled one goes at once; a
//! foreground owner waits for its pods (`crate::pods`, `engine/kubelet.rs`).

use reconcile_core::{parse_finalizers, parse_resources, Document};
use reconcile_sim::ownership::CUSTOM_RESOURCE;
use reconcile_sim::{
    simulate, Change, Happening, Millis, PropagationPolicy, ScriptedEvent, SimConfig, SimScenario,
    Timeline, Trigger, WorldEvent,
};

const WEB_0: &str = "Pod/default/web-0";

/// A `{key: manifest}` document of pods named web-0.., each on `node`
/// (none: not scheduled) with `grace` seconds of termination grace, if given.
fn pods(count: usize, node: Option<&str>, grace: Option<u32>) -> String {
    let members: Vec<String> = (0..count)
        .map(|i| {
            let node = node.map_or(String::new(), |n| format!(r#""nodeName":"{n}","#));
            let grace = grace.map_or(String::new(), |g| {
                format!(r#""terminationGracePeriodSeconds":{g},"#)
            });
            format!(
                r#""Pod/default/web-{i}":{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"web-{i}","namespace":"default"}},"spec":{{{node}{grace}"containers":[{{"name":"web","image":"web:1"}}]}}}}"#
            )
        })
        .collect();
    format!("{{{}}}", members.join(","))
}

fn scenario(document: &str) -> SimScenario {
    SimScenario {
        desired: parse_resources(Document::Desired, document).expect("valid"),
        observed: parse_resources(Document::Observed, document).expect("valid"),
        finalizers: parse_finalizers("null").expect("valid"),
    }
}

fn deleted_after_pass_1(event: WorldEvent) -> SimConfig {
    SimConfig {
        script: vec![ScriptedEvent {
            after_pass: 1,
            event,
        }],
        ..SimConfig::default()
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

/// When the kubelet stopped each pod, and whether that removed it.
fn stops(timeline: &Timeline) -> Vec<(Millis, String, bool)> {
    timeline
        .log
        .iter()
        .filter_map(|entry| match &entry.what {
            Happening::PodStopped {
                object,
                object_deleted,
            } => Some((entry.at, object.clone(), *object_deleted)),
            _ => None,
        })
        .collect()
}

fn triggers(timeline: &Timeline) -> Vec<Trigger> {
    timeline.passes.iter().map(|p| p.trigger.clone()).collect()
}

/// When the scripted delete happened (right after pass 1).
fn delete_time(timeline: &Timeline) -> Millis {
    timeline
        .log
        .iter()
        .find(|entry| matches!(entry.what, Happening::ActorEvent { .. }))
        .map(|entry| entry.at)
        .expect("the scripted delete ran")
}

#[test]
fn a_running_pod_terminates_until_the_kubelet_stops_it_then_comes_back() {
    let scenario = scenario(&pods(1, Some("node-1"), None));
    let config = deleted_after_pass_1(delete(WEB_0));
    let timeline = simulate(&scenario, &config);
    let deleted_at = delete_time(&timeline);
    assert_eq!(
        stops(&timeline),
        vec![(deleted_at + 1000, WEB_0.to_owned(), true)],
        "podStopMs (1 s) after the delete, within the 30 s grace period"
    );
    // The delete is an update carrying a deletionTimestamp; the removal comes
    // with the kubelet, and only then is the name free to create again.
    assert_eq!(
        triggers(&timeline)[1..],
        [
            owned(WEB_0, Change::Updated),
            owned(WEB_0, Change::Deleted),
            owned(WEB_0, Change::Added),
        ]
    );
    let terminating = &timeline.passes[1].world_after;
    assert_eq!(
        terminating.terminating.get(WEB_0),
        Some(&(deleted_at + 30_000)),
        "deletionTimestamp: the end of the grace period"
    );
    assert!(
        timeline.passes[1].actions.is_empty(),
        "it waits for the pod"
    );
    assert_eq!(timeline.final_world.observed, scenario.desired);
}

#[test]
fn an_unscheduled_pod_goes_at_once() {
    let scenario = scenario(&pods(1, None, None));
    let timeline = simulate(&scenario, &deleted_after_pass_1(delete(WEB_0)));
    assert!(stops(&timeline).is_empty(), "no kubelet runs it");
    assert_eq!(
        triggers(&timeline)[1..],
        [owned(WEB_0, Change::Deleted), owned(WEB_0, Change::Added)]
    );
}

#[test]
fn a_grace_period_shorter_than_the_stop_ends_it() {
    let scenario = scenario(&pods(1, Some("node-1"), Some(0)));
    let timeline = simulate(&scenario, &deleted_after_pass_1(delete(WEB_0)));
    assert!(
        stops(&timeline).is_empty(),
        "grace 0: removed by the delete"
    );
    let config = SimConfig {
        pod_stop_ms: 5_000,
        ..deleted_after_pass_1(delete(WEB_0))
    };
    let scenario = self::scenario(&pods(1, Some("node-1"), Some(2)));
    let timeline = simulate(&scenario, &config);
    let deleted_at = delete_time(&timeline);
    assert_eq!(
        stops(&timeline),
        vec![(deleted_at + 2_000, WEB_0.to_owned(), true)],
        "killed when its 2 s run out"
    );
}

#[test]
fn a_foreground_owner_waits_for_its_pods_to_stop() {
    let scenario = scenario(&pods(2, Some("node-1"), None));
    let event = WorldEvent::DeleteCustomResource {
        propagation: PropagationPolicy::Foreground,
    };
    let timeline = simulate(&scenario, &deleted_after_pass_1(event));
    let stopped: Vec<Millis> = stops(&timeline).iter().map(|(at, ..)| *at).collect();
    assert_eq!(
        stopped.len(),
        2,
        "the collector deleted both; the kubelet stopped both"
    );
    let last_stop = *stopped.iter().max().expect("two");
    let owner_gone = timeline
        .log
        .iter()
        .filter(|entry| matches!(entry.what, Happening::GarbageCollector { .. }))
        .map(|entry| entry.at)
        .max()
        .expect("the collector acted");
    assert!(
        owner_gone > last_stop,
        "foregroundDeletion is removed after the pods are gone ({owner_gone} > {last_stop})"
    );
    assert!(timeline.final_world.observed.is_empty());
    assert!(!timeline.final_world.custom_resource_live(CUSTOM_RESOURCE));
}
