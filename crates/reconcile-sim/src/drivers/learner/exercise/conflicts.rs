//! `conflicts`: a Deployment the controller shares with an autoscaler,
//! which owns `spec.replicas`.

use serde_json::json;

use super::{controller_of, custom_resources, json, objects_of, settings};
use super::{DesiredOf, Exercise, Foreign, OtherWrite};
use crate::control_plane::cloud::Cloud;
use crate::drivers::learner::kinds::{Kind, Kinds, CUSTOM_RESOURCE};
use crate::world::World;
use crate::{OtherWriter, ScriptedEvent, WorldEvent};
use reconcile_core::model::Resources;

/// `apps/v1` `Deployment`.
pub const DEPLOYMENT: Kind = Kind {
    api_version: "apps/v1",
    kind: "Deployment",
};

/// The Deployment's path to its one container's image.
const IMAGE: [&str; 6] = ["spec", "template", "spec", "containers", "0", "image"];

/// The goal in plain words, for a learner.
pub const GOAL_TEXT: &str = "Each custom resource controls a Deployment of its name whose one container runs spec.image; spec.replicas is the autoscaler's, never yours to change.";

/// `conflicts`: custom resource `web` wants Deployment `web` running
/// `spec.image`. An autoscaler sets the Deployment's `spec.replicas` to 3
/// whenever it differs; the image changes after the sixth reconcile.
pub fn conflicts() -> Exercise {
    let mut config = settings(120);
    config.other_writers = vec![OtherWriter {
        name: "autoscaler".to_owned(),
        object: "Deployment/default/web".to_owned(),
        path: vec!["spec".to_owned(), "replicas".to_owned()],
        value: json(json!(3)),
        reaction_ms: 200,
        writes: crate::ObjectWrites::Update,
    }];
    let changed = Resources::from_iter([("image".to_owned(), json(json!("nginx:1.28")))]);
    config.script = vec![ScriptedEvent {
        after_pass: 6,
        event: WorldEvent::SetDesired { desired: changed },
    }];
    Exercise {
        name: "conflicts",
        goal_text: GOAL_TEXT,
        kinds: Kinds(vec![CUSTOM_RESOURCE, DEPLOYMENT]),
        scenario: custom_resources(&[("web", json!({ "image": "nginx:1.27" }))]),
        config,
        goal: image_matches,
        breach: deployment_without_controller,
        other_write: OtherWrite {
            path: &["spec", "replicas"],
            value: "5",
        },
        foreign: Some(Foreign {
            kind: DEPLOYMENT.kind,
            path: &["spec", "replicas"],
            owner: "the autoscaler",
        }),
    }
}

fn image_of(world: &World, key: &str) -> Option<serde_json::Value> {
    let spec = world.observed.get(key)?;
    let value = crate::object::to_value(spec);
    let mut at = &value;
    for step in IMAGE {
        at = match step.parse::<usize>() {
            Ok(index) => at.get(index)?,
            Err(_) => at.get(step)?,
        };
    }
    Some(at.clone())
}

fn image_matches(world: &World, _: &Cloud, desired: DesiredOf<'_>) -> bool {
    world
        .custom_resource_names()
        .filter(|name| world.custom_resource_live(name))
        .all(|name| {
            let wanted = desired(name)
                .and_then(|spec| spec.get("image").cloned())
                .map(|image| crate::object::to_value(&image));
            let mut controlled = objects_of(world, DEPLOYMENT.kind)
                .filter(|key| controller_of(world, key).as_deref() == Some(&**name));
            let (Some(first), None) = (controlled.next(), controlled.next()) else {
                return false;
            };
            wanted.is_some() && image_of(world, first) == wanted
        })
}

fn deployment_without_controller(world: &World, _: &Cloud, _: DesiredOf<'_>) -> Option<String> {
    objects_of(world, DEPLOYMENT.kind).find_map(|key| {
        let name = key.rsplit('/').next().unwrap_or(key);
        controller_of(world, key)
            .is_none()
            .then(|| format!("Deployment {name} has no controller ownerReference"))
    })
}
