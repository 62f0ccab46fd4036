//! Controller exercises: a starting world, the kinds a learner's client
//! may name, a goal and a safety rule. Start at [`exercise_named`].
//!
//! - [`owned_configmap`]: one owned ConfigMap per custom resource;
//! - [`external_finalizer`]: a cloud load balancer behind your finalizer;
//! - [`replicas`]: keep N pods;
//! - [`status`]: observedGeneration and a Ready condition;
//! - [`conflicts`]: share an object with an autoscaler.

mod conflicts;
mod external_finalizer;
mod owned_configmap;
mod replicas;
mod status;

pub use conflicts::{conflicts, DEPLOYMENT};
pub use external_finalizer::{external_finalizer, FINALIZER};
pub use owned_configmap::{owned_configmap, CONFIG_MAP};
pub use replicas::{replicas, POD};
pub use status::status;

use std::sync::Arc;

use reconcile_core::json::Json;
use reconcile_core::model::{Resources, Scenario};

use super::kinds::{Kinds, Target};
use crate::control_plane::cloud::Cloud;
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
    /// Whether a world (the store, or the cache) and the cloud are at the goal.
    pub goal: fn(&World, &Cloud, DesiredOf<'_>) -> bool,
    /// The first breach of the safety rule in the store and the cloud, in
    /// plain words: an object without its controller reference, a leaked
    /// load balancer, more pods than replicas.
    pub breach: fn(&World, &Cloud, DesiredOf<'_>) -> Option<String>,
    /// What another writer changes in an object, under the fault schedule's
    /// `other-writer`.
    pub other_write: OtherWrite,
    /// A field another actor owns: the controller must never change it.
    pub foreign: Option<Foreign>,
}

/// A field another writer sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OtherWrite {
    pub path: &'static [&'static str],
    /// The value, as JSON text.
    pub value: &'static str,
}

impl OtherWrite {
    /// The value written.
    pub fn json(&self) -> Json {
        json(serde_json::from_str(self.value).unwrap_or(serde_json::Value::Null))
    }
}

/// A field of objects of one kind that another actor owns (the
/// autoscaler's `spec.replicas`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Foreign {
    pub kind: &'static str,
    pub path: &'static [&'static str],
    pub owner: &'static str,
}

impl Foreign {
    /// The field in the object `target` names, in `world`: `None` when
    /// the object is absent, of another kind, or has no such field.
    pub(crate) fn value(&self, world: &World, target: &Target) -> Option<Json> {
        let crate::ownership::ObjectKey::Object(key) = &target.key else {
            return None;
        };
        if target.kind.kind != self.kind {
            return None;
        }
        let path: Vec<String> = self.path.iter().map(|p| (*p).to_owned()).collect();
        world.observed.get(key)?.get_path(&path).cloned()
    }

    /// The breach when the controller's write changed the field: it was
    /// set `before`, and differs `after`.
    pub(crate) fn breach(
        &self,
        target: &Target,
        before: Option<Json>,
        after: Option<Json>,
    ) -> Option<String> {
        let before = before?;
        (after.as_ref() != Some(&before)).then(|| {
            format!(
                "your write changed {} of {} {}, which {} owns",
                self.path.join("."),
                target.kind.kind,
                target.name,
                self.owner
            )
        })
    }
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
pub const EXERCISES: [&str; 5] = [
    "owned-configmap",
    "external-finalizer",
    "replicas",
    "status",
    "conflicts",
];

/// The exercise named `name`, its settings overridden by `options` (JSON
/// text of a partial `SimConfig`, as `simulate` takes them); an unknown
/// name, or options that do not read, is an error in a sentence.
pub fn exercise_with(name: &str, options: Option<&str>) -> Result<Exercise, String> {
    let Some(mut exercise) = exercise_named(name) else {
        return Err(format!(
            "no exercise {name:?}; there are {}",
            EXERCISES.join(", ")
        ));
    };
    if let Some(options) = options {
        exercise.config = config_over(&exercise.config, options)?;
    }
    Ok(exercise)
}

/// The exercise's settings with `options` (JSON text of a partial
/// `SimConfig`) over them, read by the simulation's own options parser,
/// so an unknown or misspelt name is an error.
fn config_over(base: &SimConfig, options: &str) -> Result<SimConfig, String> {
    use serde_json::Value;
    let at = |error: &dyn std::fmt::Display| format!("Simulation options at $: {error}");
    let options: Value = serde_json::from_str(options).map_err(|e| at(&e))?;
    let Value::Object(options) = options else {
        return Err(at(&"expected an object"));
    };
    let mut merged = match serde_json::to_value(base).map_err(|e| at(&e))? {
        Value::Object(base) => base,
        _ => serde_json::Map::new(),
    };
    merged.extend(options);
    crate::parse_options(&Value::Object(merged).to_string()).map_err(|e| e.to_string())
}

/// The goal of exercise `name` alone: what a learner reads before a run,
/// without linking the exercise's run.
pub fn goal_text_named(name: &str) -> Option<&'static str> {
    match name {
        "owned-configmap" => Some(owned_configmap::GOAL_TEXT),
        "external-finalizer" => Some(external_finalizer::GOAL_TEXT),
        "replicas" => Some(replicas::GOAL_TEXT),
        "status" => Some(status::GOAL_TEXT),
        "conflicts" => Some(conflicts::GOAL_TEXT),
        _ => None,
    }
}

/// The exercise `name`, or `None` when there is none.
pub fn exercise_named(name: &str) -> Option<Exercise> {
    match name {
        "owned-configmap" => Some(owned_configmap()),
        "external-finalizer" => Some(external_finalizer()),
        "replicas" => Some(replicas()),
        "status" => Some(status()),
        "conflicts" => Some(conflicts()),
        _ => None,
    }
}

/// Custom resources of these names and specs (JSON objects), none of
/// them observed.
pub(crate) fn custom_resources(entries: &[(&str, serde_json::Value)]) -> CustomResources {
    let entry = |(name, spec): &(&str, serde_json::Value)| CustomResourceScenario {
        name: Arc::from(*name),
        scenario: Scenario {
            desired: Resources::from_iter(
                spec.as_object()
                    .into_iter()
                    .flatten()
                    .map(|(key, value)| (key.clone(), json(value.clone()))),
            ),
            observed: Resources::new(),
            finalizers: None,
        },
    };
    // The exercises' names are distinct: the list is valid.
    CustomResources::new(entries.iter().map(entry).collect()).unwrap_or_else(|_| {
        CustomResources::one(&Scenario {
            desired: Resources::new(),
            observed: Resources::new(),
            finalizers: None,
        })
    })
}

/// A JSON value as the store keeps it.
pub(crate) fn json(value: serde_json::Value) -> Json {
    crate::object::from_value(value)
}

/// The keys of `kind`'s objects in `world`.
pub(crate) fn objects_of<'w>(world: &'w World, kind: &str) -> impl Iterator<Item = &'w str> {
    let prefix = format!("{kind}/");
    world
        .observed
        .names()
        .filter(move |name| name.starts_with(&prefix))
}

/// The custom resource object `key` names as its controller, if any.
pub(crate) fn controller_of(world: &World, key: &str) -> Option<Arc<str>> {
    let meta = world.meta(key)?;
    meta.owner_references.controlling_custom_resource().cloned()
}

/// The settings every exercise starts from: one worker, resync every second.
pub(crate) fn settings(max_passes: usize) -> SimConfig {
    SimConfig {
        resync_period_ms: Some(1000),
        max_passes,
        ..SimConfig::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_go_over_the_exercise_settings_and_misspelt_ones_are_refused() {
        let exercise = owned_configmap();
        let config = config_over(&exercise.config, r#"{"seed": 7}"#).expect("valid");
        assert_eq!(config.seed, 7);
        assert_eq!(config.resync_period_ms, exercise.config.resync_period_ms);
        assert_eq!(config.max_passes, exercise.config.max_passes);
        let error = config_over(&exercise.config, r#"{"sed": 7}"#).expect_err("misspelt");
        assert!(error.contains("sed"), "{error}");
        let error = config_over(&exercise.config, "[1]").expect_err("not an object");
        assert!(error.contains("expected an object"), "{error}");
        let error = exercise_with("replica", None).expect_err("unknown");
        assert!(error.starts_with("no exercise \"replica\"; there are owned-configmap"));
    }
}
