//! `owned-configmap`: one ConfigMap per custom resource, with a
//! controller ownerReference.

use serde_json::json;

use super::{controller_of, custom_resources, objects_of, settings};
use super::{DesiredOf, Exercise, OtherWrite};
use crate::control_plane::cloud::Cloud;
use crate::drivers::learner::kinds::{Kind, Kinds, CUSTOM_RESOURCE};
use crate::world::World;

/// `v1` `ConfigMap`.
pub const CONFIG_MAP: Kind = Kind {
    api_version: "v1",
    kind: "ConfigMap",
};

/// The goal in plain words, for a learner.
pub const GOAL_TEXT: &str =
    "Each custom resource has exactly one ConfigMap it controls, whose data is its spec.data.";

/// `owned-configmap`: one ConfigMap per custom resource, its `data` the
/// custom resource's `spec.data`, with a controller ownerReference to it.
/// Two custom resources, `blog` and `shop`, and no ConfigMap at first.
pub fn owned_configmap() -> Exercise {
    Exercise {
        name: "owned-configmap",
        goal_text: GOAL_TEXT,
        kinds: Kinds(vec![CUSTOM_RESOURCE, CONFIG_MAP]),
        scenario: custom_resources(&[
            ("blog", json!({ "data": { "theme": "dark" } })),
            ("shop", json!({ "data": { "color": "blue" } })),
        ]),
        config: settings(80),
        goal: configmaps_match,
        breach: configmap_without_controller,
        other_write: OtherWrite {
            path: &["data", "edited-by"],
            value: "\"another-writer\"",
        },
        foreign: None,
    }
}

fn configmaps_match(world: &World, _: &Cloud, desired: DesiredOf<'_>) -> bool {
    world.custom_resource_names().all(|name| {
        if !world.custom_resource_live(name) {
            return true;
        }
        let wanted = desired(name).and_then(|spec| spec.get("data").cloned());
        let mut controlled = objects_of(world, CONFIG_MAP.kind)
            .filter(|key| controller_of(world, key).as_deref() == Some(&**name));
        let (Some(first), None) = (controlled.next(), controlled.next()) else {
            return false;
        };
        let data = world.observed.get(first).and_then(|spec| spec.get("data"));
        data == wanted.as_ref()
    })
}

fn configmap_without_controller(world: &World, _: &Cloud, _: DesiredOf<'_>) -> Option<String> {
    objects_of(world, CONFIG_MAP.kind).find_map(|key| {
        let name = key.rsplit('/').next().unwrap_or(key);
        match controller_of(world, key) {
            Some(_) => None,
            None => Some(format!(
                "ConfigMap {name} has no controller ownerReference to a custom resource"
            )),
        }
    })
}
