//! `external-finalizer`: a cloud load balancer per custom resource, kept
//! behind the controller's own finalizer (kubebuilder's "Using
//! Finalizers"; `docs/design/control-plane.md`, the cloud).

use serde_json::json;

use super::{custom_resources, settings, DesiredOf, Exercise, OtherWrite};
use crate::control_plane::cloud::{load_balancer_of, Cloud};
use crate::drivers::learner::kinds::{Kinds, CUSTOM_RESOURCE, LOAD_BALANCER};
use crate::ownership::ObjectKey;
use crate::world::World;
use crate::CloudSettings;
use crate::{PropagationPolicy, ScriptedEvent, WorldEvent};

/// The learner's finalizer: the one the control plane's cloud model uses.
pub const FINALIZER: &str = crate::control_plane::cloud::FINALIZER;

/// The goal in plain words, for a learner.
pub const GOAL_TEXT: &str = "Each live custom resource has your finalizer and its load balancer lb-<name>; a deleted one is gone, its load balancer deleted first.";

/// `external-finalizer`: custom resources `blog` and `shop`, each wanting
/// load balancer `lb-<name>` in the cloud. Someone deletes `blog` after
/// the sixth reconcile, so cleanup runs in the fault-free run too.
pub fn external_finalizer() -> Exercise {
    let mut config = settings(120);
    config.cloud = Some(CloudSettings {
        latency_ms: 100,
        failure_rate: 0.0,
    });
    config.script = vec![ScriptedEvent {
        after_pass: 6,
        event: WorldEvent::DeleteCustomResource {
            propagation: PropagationPolicy::Background,
        },
    }];
    Exercise {
        name: "external-finalizer",
        goal_text: GOAL_TEXT,
        kinds: Kinds(vec![CUSTOM_RESOURCE, LOAD_BALANCER]),
        scenario: custom_resources(&[
            ("blog", json!({ "port": 80 })),
            ("shop", json!({ "port": 443 })),
        ]),
        config,
        goal: balanced,
        breach: leaked,
        other_write: OtherWrite {
            path: &["metadata", "annotations", "edited-by"],
            value: "\"another-writer\"",
        },
        foreign: None,
    }
}

/// Every custom resource is live, with the finalizer and its load
/// balancer; every load balancer belongs to one.
fn balanced(world: &World, cloud: &Cloud, _: DesiredOf<'_>) -> bool {
    let wanted: Vec<String> = world
        .custom_resource_names()
        .map(|name| load_balancer_of(name))
        .collect();
    let each_live = world.custom_resource_names().all(|name| {
        let Some(state) = world.get(&ObjectKey::custom_resource(name)) else {
            return true;
        };
        state.deletion_timestamp.is_none()
            && state.finalizers.iter().any(|f| f == FINALIZER)
            && cloud.has(&load_balancer_of(name))
    });
    each_live && cloud.load_balancers().iter().all(|lb| wanted.contains(lb))
}

/// A load balancer whose custom resource is gone: leaked, since only the
/// controller deletes load balancers, and it no longer can be asked to.
fn leaked(world: &World, cloud: &Cloud, _: DesiredOf<'_>) -> Option<String> {
    cloud.load_balancers().iter().find_map(|lb| {
        let owner = lb.strip_prefix("lb-").unwrap_or(lb);
        let present = world.get(&ObjectKey::custom_resource(owner)).is_some();
        (!present).then(|| {
            format!(
                "load balancer {lb} leaked: custom resource {owner} is gone, its finalizer removed before cleanup"
            )
        })
    })
}
