//! Built-in starting scenarios. Texts are kept as the user will see them in the editors.

use reconcile_core::json::Json;
use reconcile_sim::{CrashPlan, FinalizerRef, OtherWriter, ScriptedEvent, SimConfig, WorldEvent};

/// A named scenario for the presets menu.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Stable identifier, used in URLs.
    pub id: &'static str,
    pub title: &'static str,
    /// One sentence on what to look at.
    pub summary: &'static str,
    pub desired: &'static str,
    pub observed: &'static str,
    pub finalizers: &'static str,
    /// The simulation settings that go with it.
    pub sim: fn() -> SimConfig,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        id: "basics",
        title: "Create, update, delete",
        summary: "The seed example: one missing, one drifted, one extra.",
        desired: "{\n  \"a\": {\"replicas\": 1},\n  \"b\": {\"replicas\": 3}\n}\n",
        observed: "{\n  \"b\": {\"replicas\": 1},\n  \"c\": {\"replicas\": 1}\n}\n",
        finalizers: "null\n",
        sim: SimConfig::default,
    },
    Preset {
        id: "load-balancer-finalizer",
        title: "LoadBalancer finalizer",
        summary: "A deleted Service must release its cloud load balancer before it can go.",
        desired: "{}\n",
        observed: "{\n  \"svc\": {\"type\": \"LoadBalancer\"}\n}\n",
        finalizers: "{\n  \"svc\": [\"cloud/lb-cleanup\"]\n}\n",
        sim: SimConfig::default,
    },
    Preset {
        id: "cache-2-replicas",
        title: "Cache with 2 replicas",
        summary: "A Cache wants 2 pods and 1 is running: reconcile creates the second.",
        desired: "{\n  \"cache-0\": {\"app\": \"cache\", \"image\": \"redis:7\"},\n  \"cache-1\": {\"app\": \"cache\", \"image\": \"redis:7\"}\n}\n",
        observed: "{\n  \"cache-0\": {\"app\": \"cache\", \"image\": \"redis:7\"}\n}\n",
        finalizers: "null\n",
        sim: cache_pod_deleted,
    },
    Preset {
        id: "stuck-namespace",
        title: "Stuck finalizer",
        summary: "A namespace stays Terminating: its kubernetes finalizer is never removed.",
        desired: "{}\n",
        observed: "{\n  \"team-a\": {\"kind\": \"Namespace\"}\n}\n",
        finalizers: "{\n  \"team-a\": [\"example.com/backup\", \"kubernetes\"]\n}\n",
        sim: stuck_namespace,
    },
    Preset {
        id: "fighting-controllers",
        title: "Fighting controllers",
        summary: "GitOps wants 3 replicas, an autoscaler wants 5: the loop never settles.",
        desired: "{\n  \"web\": {\"replicas\": 3, \"image\": \"web:1.4\"}\n}\n",
        observed: "{\n  \"web\": {\"replicas\": 3, \"image\": \"web:1.4\"}\n}\n",
        finalizers: "null\n",
        sim: fighting_controllers,
    },
    Preset {
        id: "flaky-api",
        title: "Flaky API",
        summary: "Half of all API calls fail; failed passes are requeued with exponential backoff.",
        desired: "{\n  \"pod-a\": {\"image\": \"app:2\"},\n  \"pod-b\": {\"image\": \"app:2\"},\n  \"pod-c\": {\"image\": \"app:2\"}\n}\n",
        observed: "{}\n",
        finalizers: "null\n",
        sim: flaky_api,
    },
    Preset {
        id: "crash-mid-pass",
        title: "Crash mid-pass",
        summary: "The controller crashes after its first action; after the restart it does only what is left.",
        desired: "{\n  \"cache-0\": {\"image\": \"redis:7\"},\n  \"cache-1\": {\"image\": \"redis:7\"},\n  \"cache-2\": {\"image\": \"redis:7\"}\n}\n",
        observed: "{}\n",
        finalizers: "null\n",
        sim: crash_mid_pass,
    },
    Preset {
        id: "missed-events",
        title: "Missed events",
        summary: "A pod's delete event is dropped: the edge-triggered handler never recovers, resync saves the level-triggered loop.",
        desired: "{\n  \"web-0\": {\"image\": \"web:1\"},\n  \"web-1\": {\"image\": \"web:1\"}\n}\n",
        observed: "{\n  \"web-0\": {\"image\": \"web:1\"},\n  \"web-1\": {\"image\": \"web:1\"}\n}\n",
        finalizers: "null\n",
        sim: missed_events,
    },
];

fn json(text: &str) -> Json {
    reconcile_core::parse::parse_json_value(text).unwrap_or(Json::Null)
}

/// Someone deletes a pod after the loop settles; the owned-object watch brings it back.
fn cache_pod_deleted() -> SimConfig {
    SimConfig {
        script: vec![ScriptedEvent {
            after_pass: 3,
            event: WorldEvent::Delete {
                name: "cache-0".into(),
            },
        }],
        ..SimConfig::default()
    }
}

fn stuck_namespace() -> SimConfig {
    SimConfig {
        stuck_finalizers: vec![FinalizerRef {
            object: "team-a".into(),
            finalizer: "kubernetes".into(),
        }],
        ..SimConfig::default()
    }
}

fn fighting_controllers() -> SimConfig {
    SimConfig {
        other_writers: vec![OtherWriter {
            name: "autoscaler".into(),
            object: "web".into(),
            path: vec!["replicas".into()],
            value: json("5"),
            reaction_ms: 30,
        }],
        ..SimConfig::default()
    }
}

fn flaky_api() -> SimConfig {
    SimConfig {
        failure_rate: 0.5,
        seed: 3,
        ..SimConfig::default()
    }
}

fn crash_mid_pass() -> SimConfig {
    SimConfig {
        crash: Some(CrashPlan {
            at_pass: 1,
            after_actions: 1,
        }),
        ..SimConfig::default()
    }
}

/// Seed 2 drops the delete event of web-1 (and the loop's own create event later).
fn missed_events() -> SimConfig {
    SimConfig {
        seed: 2,
        drop_rate: 0.5,
        resync_period_ms: Some(10_000),
        script: vec![ScriptedEvent {
            after_pass: 1,
            event: WorldEvent::Delete {
                name: "web-1".into(),
            },
        }],
        ..SimConfig::default()
    }
}

/// The preset shown on first load.
pub const DEFAULT_PRESET: &Preset = &PRESETS[0];

/// Looks a preset up by its identifier.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|preset| preset.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_reaches_its_verdict() {
        use reconcile_sim::{simulate, NotConvergingReason as Why, SimScenario, Verdict};
        for preset in PRESETS {
            let scenario = SimScenario {
                desired: reconcile_core::parse_resources(
                    reconcile_core::Document::Desired,
                    preset.desired,
                )
                .expect("desired"),
                observed: reconcile_core::parse_resources(
                    reconcile_core::Document::Observed,
                    preset.observed,
                )
                .expect("observed"),
                finalizers: reconcile_core::parse_finalizers(preset.finalizers)
                    .expect("finalizers"),
            };
            let verdict = simulate(&scenario, &(preset.sim)()).verdict;
            let expected_ok = match preset.id {
                "stuck-namespace" => matches!(
                    &verdict,
                    Verdict::NotConverging { reason: Why::StuckFinalizer { object, finalizer } }
                        if object == "team-a" && finalizer == "kubernetes"
                ),
                "fighting-controllers" => matches!(
                    &verdict,
                    Verdict::NotConverging { reason: Why::Oscillation { object, field, .. } }
                        if object == "web" && field == "$.replicas"
                ),
                _ => matches!(verdict, Verdict::Converged { .. }),
            };
            assert!(expected_ok, "preset {}: {verdict}", preset.id);
        }
        assert!(find("basics").is_some());
        assert!(find("nope").is_none());
    }
}
