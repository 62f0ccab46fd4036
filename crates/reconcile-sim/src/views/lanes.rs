//! Level vs edge as lanes: for each object, where the edge-triggered
//! handler's world and the level-triggered loop's store stand at each moment
//! of the run, so both can be walked through with the run's own Step.
//!
//! # Guarantees
//! - One column per moment of the level loop's run ([`crate::Timeline::moments`]),
//!   up to the one asked for: the store at an actor's event is the store
//!   right after it, before any pass reacted, so an object an event removed
//!   is missing there until the pass that puts it back.
//! - The handler's world in a column is the one its last step at or before
//!   that moment left (see [`EdgeStep::moment`]).
//! - Each cell is the object's [`SyncState`] against the desired state in
//!   force at that moment, or `None` where the object is neither desired nor
//!   there.
//!
//! # Caveats
//! - The handler reacts at the moment of the event itself; the loop reacts
//!   in its next pass. Real handlers also run later than the event, on a
//!   worker; the order of what each does is what the lanes compare.

use std::collections::BTreeSet;

use crate::drivers::edge::{EdgeStep, LevelEdge};
use crate::views::status::{resource_statuses, SyncState};
use crate::world::World;
use crate::Moment;

/// A world's objects, each with its state against the desired state.
type WorldStates = Vec<(String, SyncState)>;

/// One moment of the run, as both lanes show it.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneColumn {
    /// Its position in [`crate::Timeline::moments`].
    pub position: usize,
    pub moment: Moment,
    /// What the edge-triggered handler heard and did at this moment, if anything.
    pub edge: Option<EdgeHearing>,
    /// The two worlds' objects differ here.
    pub diverged: bool,
}

/// An event as the edge-triggered handler met it.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeHearing {
    pub event: String,
    /// Nobody was listening (the controller was down): a broken arrow.
    pub missed: bool,
    /// "CREATE web-1: applied", or empty when it did nothing.
    pub did: Vec<String>,
}

/// One object's two lanes, a cell per column.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectLanes {
    pub name: String,
    pub edge: Vec<Option<SyncState>>,
    pub level: Vec<Option<SyncState>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Lanes {
    pub columns: Vec<LaneColumn>,
    pub objects: Vec<ObjectLanes>,
}

impl LevelEdge {
    /// The lanes from the start up to the moment at `last` (a position in
    /// the level run's moments; clamped to the run).
    pub fn lanes(&self, last: usize) -> Lanes {
        let level = &self.level;
        let last = last.min(level.moments.len().saturating_sub(1));
        let step_positions: Vec<Option<usize>> = self
            .steps
            .iter()
            .map(|step| level.position_of(step.moment))
            .collect();
        let mut columns = Vec::new();
        // Per column, each world's objects with their states.
        let mut cells: Vec<(WorldStates, WorldStates)> = Vec::new();
        for (position, moment) in level.moments.iter().enumerate().take(last + 1) {
            let edge_world = self.edge_world_at(position, &step_positions);
            let level_world = level.world_at(*moment);
            let desired = level.desired_at(*moment);
            let states = |world: &World| {
                resource_statuses(&desired, world, &[])
                    .into_iter()
                    .map(|status| (status.name, status.state))
                    .collect::<Vec<_>>()
            };
            let hearing = self
                .steps
                .iter()
                .zip(&step_positions)
                .filter(|(_, at)| **at == Some(position))
                .map(|(step, _)| hearing(step))
                .next_back();
            columns.push(LaneColumn {
                position,
                moment: *moment,
                edge: hearing,
                diverged: edge_world.observed != level_world.observed,
            });
            cells.push((states(edge_world), states(level_world)));
        }
        let names: BTreeSet<&str> = cells
            .iter()
            .flat_map(|(edge, level)| edge.iter().chain(level))
            .map(|(name, _)| name.as_str())
            .collect();
        let lane = |column: &[(String, SyncState)], name: &str| {
            column.iter().find(|(n, _)| n == name).map(|(_, s)| *s)
        };
        let objects = names
            .into_iter()
            .map(|name| ObjectLanes {
                name: name.to_owned(),
                edge: cells.iter().map(|(edge, _)| lane(edge, name)).collect(),
                level: cells.iter().map(|(_, level)| lane(level, name)).collect(),
            })
            .collect();
        Lanes { columns, objects }
    }

    /// The handler's world at `position`: its last step's at or before it,
    /// else the world the run started from.
    fn edge_world_at(&self, position: usize, step_positions: &[Option<usize>]) -> &World {
        self.steps
            .iter()
            .zip(step_positions)
            .filter(|(_, at)| at.is_some_and(|at| at <= position))
            .map(|(step, _)| &step.edge_world)
            .next_back()
            .unwrap_or(&self.level.initial)
    }
}

fn hearing(step: &EdgeStep) -> EdgeHearing {
    EdgeHearing {
        event: step.event.clone(),
        missed: step.missed,
        did: step
            .edge_actions
            .iter()
            .map(|(action, result)| format!("{} {}: {result}", action.kind, action.name))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use reconcile_core::{parse_finalizers, parse_resources, Document};

    use super::*;
    use crate::{
        column_label, compare_level_edge, ScriptedEvent, SimConfig, SimScenario, WorldEvent,
    };

    fn two_pods() -> SimScenario {
        let pods = r#"{"web-0":{"image":"web:1"},"web-1":{"image":"web:1"}}"#;
        let res = |text| parse_resources(Document::Desired, text).expect("valid");
        SimScenario {
            desired: res(pods),
            observed: res(pods),
            finalizers: parse_finalizers("null").expect("valid"),
        }
    }

    fn lane_of<'a>(lanes: &'a Lanes, name: &str) -> &'a ObjectLanes {
        lanes
            .objects
            .iter()
            .find(|o| o.name == name)
            .expect("object")
    }

    #[test]
    fn a_deleted_pod_is_missing_from_the_level_store_until_the_pass_that_recreates_it() {
        let config = SimConfig {
            script: vec![ScriptedEvent {
                after_pass: 1,
                event: WorldEvent::Delete {
                    name: "web-1".into(),
                },
            }],
            ..SimConfig::default()
        };
        let level_edge = compare_level_edge(&two_pods(), &config);
        let lanes = level_edge.lanes(usize::MAX);
        let delete = lanes
            .columns
            .iter()
            .position(|c| c.moment == Moment::AfterActorEvent(0))
            .expect("the delete is a moment");
        let web1 = lane_of(&lanes, "web-1");
        assert_eq!(web1.level[delete], Some(SyncState::Missing));
        // The handler heard "web-1 deleted" and created it at once.
        assert_eq!(web1.edge[delete], Some(SyncState::InSync));
        let heard = lanes.columns[delete].edge.as_ref().expect("heard");
        assert!(!heard.missed);
        assert_eq!(heard.did, ["CREATE web-1: applied"]);
        // The next pass puts it back in the store.
        assert_eq!(web1.level[delete + 1], Some(SyncState::InSync));
        assert!(lanes.columns[delete].diverged && !lanes.columns[delete + 1].diverged);
    }

    #[test]
    fn a_change_while_the_controller_is_down_is_a_broken_arrow_and_the_edge_lane_keeps_the_extra_pod(
    ) {
        let mut desired_after = two_pods().desired;
        desired_after.remove("web-1");
        let config = SimConfig {
            crash: Some(crate::CrashPlan {
                at_pass: 1,
                after_actions: 0,
            }),
            script: vec![ScriptedEvent {
                after_pass: 1,
                event: WorldEvent::SetDesired {
                    desired: desired_after,
                },
            }],
            ..SimConfig::default()
        };
        let level_edge = compare_level_edge(&two_pods(), &config);
        let lanes = level_edge.lanes(usize::MAX);
        let scale_down = lanes
            .columns
            .iter()
            .find(|c| c.moment == Moment::AfterActorEvent(0))
            .expect("the scale-down is a moment");
        assert!(scale_down.edge.as_ref().expect("an event").missed);
        let web1 = lane_of(&lanes, "web-1");
        // At pass 1, before the scale-down, web-1 was still desired.
        let pass1 = lanes
            .columns
            .iter()
            .position(|c| c.moment == Moment::AfterPass(1))
            .expect("pass 1");
        assert_eq!(web1.level[pass1], Some(SyncState::InSync));
        assert_eq!(web1.edge.last(), Some(&Some(SyncState::Extra)));
        assert_eq!(web1.level.last(), Some(&None));
        // Up to a chosen moment only.
        assert_eq!(level_edge.lanes(0).columns.len(), 1);
        assert_eq!(
            column_label(&level_edge.level, Moment::AfterPass(2)),
            "pass 2"
        );
    }
}
