//! An edge-triggered handler run on the same event trace as the level-triggered loop.
//!
//! The handler acts only on event payloads: "custom resource added" creates
//! every desired name without looking, "object deleted" recreates that one
//! name, and so on. It has no resync and never re-reads the world, so a
//! dropped event is lost for good. The trace is the initial list plus every
//! scripted event, and a scripted event's watch notification is dropped for
//! both models alike.

use serde::Serialize;

use super::engine::{external_event_dropped, simulate};
use super::status::{resource_statuses, ResourceStatus};
use super::world::{Change, World};
use super::{Happening, SimConfig, SimScenario, Timeline, WorldEvent};
use reconcile_core::json::Json;
use reconcile_core::model::Resources;
use reconcile_core::reconcile::{Action, ActionKind};

/// One event of the trace and where each model stands after it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EdgeStep {
    /// "custom resource added", or the scripted event.
    pub event: String,
    pub dropped: bool,
    /// What the edge-triggered handler did, with the API server's answer.
    pub edge_actions: Vec<(Action, String)>,
    #[serde(serialize_with = "crate::serialize_resources")]
    pub edge_observed: Resources,
    #[serde(serialize_with = "crate::serialize_resources")]
    pub level_observed: Resources,
    /// Passes the level-triggered loop had run when this step's state was taken.
    pub level_passes: usize,
    pub diverged: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub level: Timeline,
    pub steps: Vec<EdgeStep>,
    /// Index into `steps` of the first step where the two worlds differ.
    pub first_divergence: Option<usize>,
    pub edge_final: Vec<ResourceStatus>,
    pub level_final: Vec<ResourceStatus>,
}

/// Runs both models on the scenario and its scripted events.
pub fn compare_level_edge(scenario: &SimScenario, config: &SimConfig) -> Comparison {
    let level = simulate(scenario, config);
    // The events by pass, in script order within a pass: each goes after
    // those of its pass or earlier. (No sort: one costs the page ~1 KB gzipped.)
    let mut order: Vec<usize> = Vec::with_capacity(config.script.len());
    for (i, event) in config.script.iter().enumerate() {
        let at = order.partition_point(|&j| config.script[j].after_pass <= event.after_pass);
        order.insert(at, i);
    }

    // When each scripted event happened in the level run: passes finished by then.
    let applied_after: Vec<usize> = level
        .log
        .iter()
        .filter(|e| matches!(e.what, Happening::ExternalEvent { .. }))
        .map(|e| e.after_pass)
        .collect();
    // The state just before the next scripted event, or the final state.
    let level_at_step = |step: usize| -> (usize, &World) {
        match applied_after.get(step) {
            Some(&passes) => (passes, level.world_after(passes)),
            None => (level.passes.len(), &level.final_world),
        }
    };

    let mut edge = EdgeHandler {
        world: World::new(scenario.observed.clone(), scenario.finalizers.clone()),
        desired: scenario.desired.clone(),
        config,
    };
    let mut steps = Vec::new();
    let actions = edge.on_custom_resource_added();
    steps.push(edge.step(
        "custom resource added".to_owned(),
        false,
        actions,
        level_at_step(0),
    ));
    for (position, index) in order.iter().enumerate() {
        let event = config.script[*index].event.clone();
        let dropped = external_event_dropped(config, *index);
        let actions = edge.on_external(&event, dropped);
        let description = event.to_string();
        steps.push(edge.step(description, dropped, actions, level_at_step(position + 1)));
    }
    let first_divergence = steps.iter().position(|s| s.diverged);
    let final_desired = level.desired_after(level.passes.len(), config);
    let edge_final = resource_statuses(&final_desired, &edge.world);
    let level_final = resource_statuses(&final_desired, &level.final_world);
    Comparison {
        level,
        steps,
        first_divergence,
        edge_final,
        level_final,
    }
}

struct EdgeHandler<'a> {
    world: World,
    desired: Resources,
    config: &'a SimConfig,
}

impl EdgeHandler<'_> {
    fn step(
        &self,
        event: String,
        dropped: bool,
        edge_actions: Vec<(Action, String)>,
        (level_passes, level_world): (usize, &World),
    ) -> EdgeStep {
        let level_observed = level_world.observed.clone();
        let diverged = level_observed != self.world.observed;
        EdgeStep {
            event,
            dropped,
            edge_actions,
            edge_observed: self.world.observed.clone(),
            level_observed,
            level_passes,
            diverged,
        }
    }

    /// The payload is the desired state: create each name, without checking what exists.
    fn on_custom_resource_added(&mut self) -> Vec<(Action, String)> {
        let desired: Vec<_> = self
            .desired
            .iter()
            .map(|(n, s)| (n.to_owned(), s.clone()))
            .collect();
        desired
            .into_iter()
            .map(|(name, spec)| self.create(name, spec))
            .collect()
    }

    fn on_external(&mut self, event: &WorldEvent, dropped: bool) -> Vec<(Action, String)> {
        // The world changes whether or not the controller hears about it.
        let previous_desired = self.desired.clone();
        let changed = self.apply_to_world(event);
        if dropped || !changed {
            return Vec::new();
        }
        match event {
            WorldEvent::Delete { name } => match self.desired.get(name).cloned() {
                Some(spec) if !self.world.observed.contains(name) => {
                    vec![self.create(name.clone(), spec)]
                }
                _ => Vec::new(),
            },
            WorldEvent::Drift { name, .. } => {
                match (self.desired.get(name), self.world.observed.get(name)) {
                    (Some(want), Some(have)) if want != have => {
                        let action = Action::update(name.clone(), want.clone());
                        self.world.write_spec(name, want.clone());
                        vec![(action, "applied".to_owned())]
                    }
                    _ => Vec::new(),
                }
            }
            WorldEvent::StrayCreate { name, .. } if !self.desired.contains(name) => {
                vec![self.delete(name)]
            }
            WorldEvent::SetDesired { desired } => {
                let mut actions = Vec::new();
                for (name, spec) in desired.iter() {
                    match previous_desired.get(name) {
                        None => actions.push(self.create(name.to_owned(), spec.clone())),
                        Some(old) if old != spec => {
                            actions
                                .push((Action::update(name, spec.clone()), "applied".to_owned()));
                            self.world.write_spec(name, spec.clone());
                        }
                        Some(_) => {}
                    }
                }
                for (name, _) in previous_desired.iter() {
                    if !desired.contains(name) {
                        actions.push(self.delete(name));
                    }
                }
                actions
            }
            _ => Vec::new(),
        }
    }

    /// The event's effect on the world itself; false if it changed nothing.
    fn apply_to_world(&mut self, event: &WorldEvent) -> bool {
        match event {
            WorldEvent::Delete { name } => {
                if self.world.pending(name).is_empty() {
                    return self.world.remove(name) == Some(Change::Deleted);
                }
                if !self.world.mark_terminating(name, 0) {
                    return false;
                }
                // Owners clear what they can; the API server removes the
                // object once nothing is pending, and the handler hears "deleted".
                self.clear_removable_finalizers(name);
                if self.world.pending(name).is_empty() {
                    self.world.remove(name);
                }
                true
            }
            WorldEvent::Drift { name, path, value } => match self.world.observed.get(name) {
                Some(spec) => {
                    let mut spec = spec.clone();
                    spec.set_path(path, value.clone());
                    self.world.write_spec(name, spec).is_some()
                }
                None => false,
            },
            WorldEvent::StrayCreate { name, spec } => {
                !self.world.observed.contains(name)
                    && self.world.write_spec(name, spec.clone()).is_some()
            }
            WorldEvent::AddFinalizer { name, finalizer } => {
                self.world.add_finalizer(name, finalizer).unwrap_or(false)
            }
            WorldEvent::SetDesired { desired } => {
                self.desired = desired.clone();
                true
            }
        }
    }

    fn create(&mut self, name: String, spec: Json) -> (Action, String) {
        let action = Action::create(name.clone(), spec.clone());
        if self.world.observed.contains(&name) {
            return (action, "rejected: AlreadyExists".to_owned());
        }
        self.world.write_spec(&name, spec);
        (action, "applied".to_owned())
    }

    /// Every owner that is not stuck removes its entry from `name`.
    fn clear_removable_finalizers(&mut self, name: &str) {
        let pending: Vec<String> = self
            .world
            .pending(name)
            .iter()
            .filter(|f| {
                !self
                    .config
                    .stuck_finalizers
                    .iter()
                    .any(|s| s.object == name && &s.finalizer == *f)
            })
            .cloned()
            .collect();
        for finalizer in pending {
            self.world.remove_finalizer(name, &finalizer);
        }
    }

    fn delete(&mut self, name: &str) -> (Action, String) {
        let action = Action {
            kind: ActionKind::Delete,
            name: name.into(),
            spec: None,
        };
        // Owners clear what they can; the API server removes the object once nothing is pending.
        self.clear_removable_finalizers(name);
        if self.world.pending(name).is_empty() {
            self.world.remove(name);
            (action, "applied".to_owned())
        } else {
            self.world.mark_terminating(name, 0);
            (action, "terminating: a finalizer is stuck".to_owned())
        }
    }
}
