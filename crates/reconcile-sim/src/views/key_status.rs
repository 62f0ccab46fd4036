//! Each custom resource of a run of several, for the status grid and the
//! chart: its objects as its controller lists them, against its spec.
//!
//! A pure function of the record: the store at a moment
//! ([`Timeline::world_at`]) and the scenario. Each key is held to its spec
//! as written; a scripted spec change (which writes the first) shows in
//! the whole grid only.

use std::sync::Arc;

use crate::naming::named_world;
use crate::views::status::{resource_statuses, ResourceStatus, SyncState};
use crate::world::World;
use crate::{CacheLagEntry, CustomResources, Moment, ObjectNaming, Timeline};

/// One custom resource at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyStatus {
    pub key: Arc<str>,
    /// Its objects (desired, or listed by its controller), by name.
    pub statuses: Vec<ResourceStatus>,
}

impl KeyStatus {
    /// Objects missing, extra or drifted.
    pub fn out_of_sync(&self) -> usize {
        let out = |s: &&ResourceStatus| {
            matches!(
                s.state,
                SyncState::Missing | SyncState::Extra | SyncState::Drifted
            )
        };
        self.statuses.iter().filter(out).count()
    }

    /// Every object in sync: nothing left for its controller to do.
    pub fn converged(&self) -> bool {
        self.statuses.iter().all(|s| s.state == SyncState::InSync)
    }
}

/// Each custom resource of `scenario`, in its order, in store `world`.
pub fn key_statuses(
    scenario: &CustomResources,
    world: &World,
    lags: &[CacheLagEntry],
    naming: ObjectNaming,
) -> Vec<KeyStatus> {
    scenario
        .entries()
        .iter()
        .map(|entry| {
            let desired = &entry.scenario.desired;
            let owned = world.owned_by_custom_resource(&entry.name);
            let listed = owned.as_ref().unwrap_or(world);
            let named = named_world(naming, desired, listed);
            KeyStatus {
                key: Arc::clone(&entry.name),
                statuses: resource_statuses(desired, &named, lags),
            }
        })
        .collect()
}

/// Custom resource `key`'s objects out of sync, and terminating, at each
/// of the first `count` moments of `timeline`; `None` when `scenario` has
/// no such key.
pub fn key_out_of_sync_series(
    timeline: &Timeline,
    scenario: &CustomResources,
    key: &str,
    count: usize,
) -> Option<(Vec<usize>, Vec<usize>)> {
    let entry = scenario.entries().iter().find(|e| &*e.name == key)?;
    let one = CustomResources::new(vec![entry.clone()]).ok()?;
    let terminating = |s: &&ResourceStatus| s.state == SyncState::Terminating;
    let at = |moment: Moment| {
        let world = timeline.world_at(moment);
        let statuses = key_statuses(&one, world, &[], timeline.naming);
        statuses.first().map_or((0, 0), |k| {
            (
                k.out_of_sync(),
                k.statuses.iter().filter(terminating).count(),
            )
        })
    };
    let moments = timeline.moments.iter().take(count);
    Some(moments.map(|m| at(*m)).unzip())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{simulate_custom_resources, CustomResourceScenario, SimConfig};
    use reconcile_core::{parse_resources, Document, Scenario};

    fn entry(name: &str, desired: &str, observed: &str) -> CustomResourceScenario {
        CustomResourceScenario {
            name: Arc::from(name),
            scenario: Scenario {
                desired: parse_resources(Document::Desired, desired).expect("valid"),
                observed: parse_resources(Document::Observed, observed).expect("valid"),
                finalizers: None,
            },
        }
    }

    /// cache-b names cache-a's pod: its CREATE gets AlreadyExists for
    /// ever, so it alone stays out of sync while cache-a converges.
    fn copied_name() -> CustomResources {
        CustomResources::new(vec![
            entry(
                "cache-a",
                r#"{"cache-a-0": {"image": "redis:7"}}"#,
                r#"{"cache-a-0": {"image": "redis:6"}}"#,
            ),
            entry("cache-b", r#"{"cache-a-0": {"image": "redis:7"}}"#, "{}"),
        ])
        .expect("unique names")
    }

    #[test]
    fn each_key_is_held_to_its_own_spec_and_objects() {
        let scenario = copied_name();
        let config = SimConfig {
            max_passes: 12,
            ..SimConfig::default()
        };
        let timeline = simulate_custom_resources(&scenario, &config);
        let start = key_statuses(&scenario, &timeline.initial, &[], timeline.naming);
        let states = |keys: &[KeyStatus]| -> Vec<(String, usize, bool)> {
            keys.iter()
                .map(|k| (k.key.to_string(), k.out_of_sync(), k.converged()))
                .collect()
        };
        assert_eq!(
            states(&start),
            [("cache-a".into(), 1, false), ("cache-b".into(), 1, false)]
        );
        let end = key_statuses(&scenario, &timeline.final_world, &[], timeline.naming);
        assert_eq!(
            states(&end),
            [("cache-a".into(), 0, true), ("cache-b".into(), 1, false)]
        );
        let (b, terminating) = key_out_of_sync_series(&timeline, &scenario, "cache-b", usize::MAX)
            .expect("a key of the run");
        assert!(terminating.iter().all(|&n| n == 0));
        assert_eq!(b.len(), timeline.moments.len());
        assert!(b.iter().all(|&n| n == 1), "{b:?}");
        let (a, _) = key_out_of_sync_series(&timeline, &scenario, "cache-a", 2).expect("a key");
        assert_eq!(a, [1, 0]);
        assert!(key_out_of_sync_series(&timeline, &scenario, "nope", 1).is_none());
    }
}
