//! `replicas`: keep N pods per custom resource, as a ReplicaSet does.

use serde_json::json;

use super::{controller_of, custom_resources, objects_of, settings};
use super::{DesiredOf, Exercise, OtherWrite};
use crate::control_plane::cloud::Cloud;
use crate::drivers::learner::kinds::{Kind, Kinds, CUSTOM_RESOURCE};
use crate::world::World;

/// `v1` `Pod`.
pub const POD: Kind = Kind {
    api_version: "v1",
    kind: "Pod",
};

/// The goal in plain words, for a learner.
pub const GOAL_TEXT: &str =
    "Each custom resource controls exactly spec.replicas running pods, and never more.";

/// `replicas`: `blog` wants 2 pods and `shop` 1 (`spec.replicas`), each
/// with a controller ownerReference. No pod at first.
pub fn replicas() -> Exercise {
    Exercise {
        name: "replicas",
        goal_text: GOAL_TEXT,
        kinds: Kinds(vec![CUSTOM_RESOURCE, POD]),
        scenario: custom_resources(&[
            ("blog", json!({ "replicas": 2 })),
            ("shop", json!({ "replicas": 1 })),
        ]),
        config: settings(120),
        goal: replicas_match,
        breach: too_many,
        other_write: OtherWrite {
            path: &["metadata", "annotations", "edited-by"],
            value: "\"another-writer\"",
        },
        foreign: None,
    }
}

/// The pods custom resource `name` controls that are not terminating.
fn pods_of(world: &World, name: &str) -> usize {
    objects_of(world, POD.kind)
        .filter(|key| !world.is_terminating(key))
        .filter(|key| controller_of(world, key).as_deref() == Some(name))
        .count()
}

/// `spec.replicas` of custom resource `name`.
fn wanted(desired: DesiredOf<'_>, name: &str) -> usize {
    let spec = desired(name);
    let replicas = spec.as_ref().and_then(|s| s.get("replicas")).cloned();
    let count = replicas.map_or(0.0, |r| crate::object::to_value(&r).as_f64().unwrap_or(0.0));
    // A small whole number in the exercise's specs.
    count.max(0.0) as usize
}

fn replicas_match(world: &World, _: &Cloud, desired: DesiredOf<'_>) -> bool {
    world
        .custom_resource_names()
        .filter(|name| world.custom_resource_live(name))
        .all(|name| pods_of(world, name) == wanted(desired, name))
}

fn too_many(world: &World, _: &Cloud, desired: DesiredOf<'_>) -> Option<String> {
    world
        .custom_resource_names()
        .filter(|name| world.custom_resource_live(name))
        .find_map(|name| {
            let (have, want) = (pods_of(world, name), wanted(desired, name));
            (have > want).then(|| {
                format!(
                    "custom resource {name} has {have} running pods, more than its {want} replicas"
                )
            })
        })
}
