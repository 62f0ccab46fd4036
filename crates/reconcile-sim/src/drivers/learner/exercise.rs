//! Controller exercises: a starting world, the kinds a learner's client
//! may name, a goal and a safety rule. Start at [`owned_configmap`].

use std::sync::Arc;

use reconcile_core::json::Json;
use reconcile_core::model::{Resources, Scenario};

use super::kinds::{Kind, Kinds, CUSTOM_RESOURCE};
use crate::workqueue::Millis;
use crate::world::World;
use crate::{CustomResourceScenario, CustomResources, SimConfig};

/// The spec of custom resource `name`, looked up where the check looks.
pub type DesiredOf<'a> = &'a dyn Fn(&str) -> Option<Resources>;

/// One exercise.
#[derive(Clone)]
pub struct Exercise {
    /// Its id, as links name it: `owned-configmap`.
    pub name: &'static str,
    /// The goal in plain words.
    pub goal_text: &'static str,
    pub kinds: Kinds,
    pub scenario: CustomResources,
    /// The run's settings: one worker, a resync period.
    pub config: SimConfig,
    /// Whether a world (the store, or the cache) is at the goal.
    pub goal: fn(&World, DesiredOf<'_>) -> bool,
    /// The first breach of the safety rule in the store, in plain words.
    /// The hook for later exercises' rules too: no leaked external
    /// resource, none deleted early, a finalizer removed only after cleanup.
    pub breach: fn(&World) -> Option<String>,
    /// What another writer changes in an object, under the fault schedule's
    /// `other-writer`.
    pub other_write: OtherWrite,
}

/// A field another writer sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OtherWrite {
    pub path: &'static [&'static str],
    pub value: &'static str,
}

impl Exercise {
    /// How long a converged run stays quiet before it ends: three resync
    /// periods, as issue 30's "eventually stable" asks.
    pub fn quiet_ms(&self) -> Millis {
        self.config
            .resync_period_ms
            .unwrap_or(1000)
            .saturating_mul(3)
    }
}

impl std::fmt::Debug for Exercise {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exercise")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// The exercises' names, as links and the JS API name them.
pub const EXERCISES: [&str; 1] = ["owned-configmap"];

/// The exercise named `name`, or `None` when there is none.
pub fn exercise_named(name: &str) -> Option<Exercise> {
    match name {
        "owned-configmap" => Some(owned_configmap()),
        _ => None,
    }
}

/// `v1` `ConfigMap`.
pub const CONFIG_MAP: Kind = Kind {
    api_version: "v1",
    kind: "ConfigMap",
};

/// `owned-configmap`: one ConfigMap per custom resource, its `data` the
/// custom resource's `spec.data`, with a controller ownerReference to it.
/// Two custom resources, `blog` and `shop`, and no ConfigMap at first.
pub fn owned_configmap() -> Exercise {
    let entry = |name: &str, data: Json| CustomResourceScenario {
        name: Arc::from(name),
        scenario: Scenario {
            desired: Resources::from_iter([("data".to_owned(), data)]),
            observed: Resources::new(),
            finalizers: None,
        },
    };
    let data = |key: &str, value: &str| Json::object(vec![(key.into(), Json::string(value))]);
    let entries = vec![
        entry("blog", data("theme", "dark")),
        entry("shop", data("color", "blue")),
    ];
    // Two names, never repeated: the list is valid.
    let scenario = CustomResources::new(entries).unwrap_or_else(|_| {
        CustomResources::one(&Scenario {
            desired: Resources::new(),
            observed: Resources::new(),
            finalizers: None,
        })
    });
    let config = SimConfig {
        resync_period_ms: Some(1000),
        max_passes: 80,
        ..SimConfig::default()
    };
    Exercise {
        name: "owned-configmap",
        goal_text: "Each custom resource has exactly one ConfigMap it controls, whose data is its spec.data.",
        kinds: Kinds(vec![CUSTOM_RESOURCE, CONFIG_MAP]),
        scenario,
        config,
        goal: configmaps_match,
        breach: configmap_without_controller,
        other_write: OtherWrite {
            path: &["data", "edited-by"],
            value: "another-writer",
        },
    }
}

/// The ConfigMaps in `world`: their keys.
fn configmaps(world: &World) -> impl Iterator<Item = &str> {
    let prefix = format!("{}/", CONFIG_MAP.kind);
    world
        .observed
        .names()
        .filter(move |name| name.starts_with(&prefix))
}

fn configmaps_match(world: &World, desired: DesiredOf<'_>) -> bool {
    world.custom_resource_names().all(|name| {
        if !world.custom_resource_live(name) {
            return true;
        }
        let wanted = desired(name).and_then(|spec| spec.get("data").cloned());
        let mut controlled = configmaps(world).filter(|key| {
            let meta = world.meta(key);
            let owner = meta
                .as_ref()
                .and_then(|m| m.owner_references.controlling_custom_resource().cloned());
            owner.as_deref() == Some(&**name)
        });
        let (Some(first), None) = (controlled.next(), controlled.next()) else {
            return false;
        };
        let data = world.observed.get(first).and_then(|spec| spec.get("data"));
        data == wanted.as_ref()
    })
}

fn configmap_without_controller(world: &World) -> Option<String> {
    configmaps(world).find_map(|key| {
        let meta = world.meta(key)?;
        let controller = meta.owner_references.controlling_custom_resource();
        let name = key.rsplit('/').next().unwrap_or(key);
        match controller {
            Some(_) => None,
            None => Some(format!(
                "ConfigMap {name} has no controller ownerReference to a custom resource"
            )),
        }
    })
}
