//! `status`: report `status.observedGeneration` and a `Ready` condition,
//! without waking yourself forever.

use reconcile_core::model::Resources;
use serde_json::{json, Value};

use super::{custom_resources, json, settings, DesiredOf, Exercise, OtherWrite};
use crate::control_plane::cloud::Cloud;
use crate::control_plane::status::stored_status;
use crate::drivers::learner::kinds::{Kinds, CUSTOM_RESOURCE};
use crate::ownership::ObjectKey;
use crate::world::World;
use crate::{ScriptedEvent, WorldEvent};

/// The goal in plain words, for a learner.
pub const GOAL_TEXT: &str = "Each custom resource's status has observedGeneration equal to its metadata.generation and a condition of type Ready with status \"True\".";

/// `status`: custom resources `blog` and `shop`; `blog`'s spec changes
/// after the sixth reconcile (generation 2), so its status must follow.
pub fn status() -> Exercise {
    let mut config = settings(120);
    let changed = Resources::from_iter([("message".to_owned(), json(json!("hello again")))]);
    config.script = vec![ScriptedEvent {
        after_pass: 6,
        event: WorldEvent::SetDesired { desired: changed },
    }];
    Exercise {
        name: "status",
        goal_text: GOAL_TEXT,
        kinds: Kinds(vec![CUSTOM_RESOURCE]),
        scenario: custom_resources(&[
            ("blog", json!({ "message": "hello" })),
            ("shop", json!({ "message": "welcome" })),
        ]),
        config,
        goal: reported,
        breach: |_, _, _| None,
        other_write: OtherWrite {
            path: &["metadata", "annotations", "edited-by"],
            value: "\"another-writer\"",
        },
        foreign: None,
    }
}

fn reported(world: &World, _: &Cloud, _: DesiredOf<'_>) -> bool {
    world
        .custom_resource_names()
        .filter(|name| world.custom_resource_live(name))
        .all(|name| {
            let Some(state) = world.get(&ObjectKey::custom_resource(name)) else {
                return true;
            };
            let status = stored_status(world, name).map(|s| crate::object::to_value(&s));
            let status = status.unwrap_or(Value::Null);
            let observed = status["observedGeneration"].as_u64();
            let ready = status["conditions"].as_array().is_some_and(|conditions| {
                conditions
                    .iter()
                    .any(|c| c["type"] == "Ready" && c["status"] == "True")
            });
            observed == Some(state.meta.generation) && ready
        })
}
