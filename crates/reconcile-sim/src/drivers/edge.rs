//! An edge-triggered handler run on the same event trace as the level-triggered loop.
//!
//! The handler acts only on event payloads: "custom resource added" creates
//! every desired name without looking, "object deleted" recreates that one
//! name, a spec change creates, updates and deletes what the old and new
//! specs differ in, and so on. It has no resync and never re-reads the world.
//!
//! A closed watch does not lose its events for this handler either: the
//! resumed watch delivers them late (the API server replays them from its
//! watch cache), so they are handled, only later. What a handler really never hears is what happens
//! while the controller is down: the restarted process lists what exists,
//! and the custom resource arrives as added with its current spec. Nothing
//! announces what changed or was deleted meanwhile. The trace is the initial
//! list, every scripted event (missed when it happened while the level
//! loop's controller was down) and every restart.

use serde::Serialize;

use crate::apiserver::PropagationPolicy;
use crate::ownership::{OwnerRefs, CUSTOM_RESOURCE};
use crate::simulate;
use crate::views::status::{resource_statuses, ResourceStatus};
use crate::world::{Change, World};
use crate::{Happening, LogEntry, Moment, SimConfig, SimScenario, Timeline, WorldEvent};
use reconcile_core::json::Json;
use reconcile_core::model::Resources;
use reconcile_core::reconcile::{Action, ActionKind};

/// One event of the trace and where each model stands after it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EdgeStep {
    /// "custom resource added", a scripted event, or a restart.
    pub event: String,
    /// It happened while the controller was down: the event reached nobody.
    pub missed: bool,
    /// What the edge-triggered handler did, with the API server's answer.
    pub edge_actions: Vec<(Action, String)>,
    #[serde(serialize_with = "crate::resources_as_json::serialize")]
    pub edge_observed: Resources,
    #[serde(serialize_with = "crate::resources_as_json::serialize")]
    pub level_observed: Resources,
    /// Passes the level-triggered loop had run when this step's state was taken.
    pub level_passes: usize,
    pub diverged: bool,
    /// The moment of the level loop's run at which the handler's world is
    /// this step's: the event's own moment; the loop's first pass for the
    /// initial "added" and for a restart (both react to the same news then).
    #[serde(skip)]
    pub moment: Moment,
    /// The handler's whole world after the step (terminating objects too).
    #[serde(skip)]
    pub edge_world: World,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelEdge {
    pub level: Timeline,
    pub steps: Vec<EdgeStep>,
    /// Index into `steps` of the first step where the two worlds differ.
    pub first_divergence: Option<usize>,
    pub edge_final: Vec<ResourceStatus>,
    pub level_final: Vec<ResourceStatus>,
}

/// Runs both models on the scenario and its scripted events.
pub fn compare_level_edge(scenario: &SimScenario, config: &SimConfig) -> LevelEdge {
    let level = simulate(scenario, config);
    let mut edge = EdgeHandler {
        world: World::with_custom_resource(scenario.observed.clone(), scenario.finalizers.clone()),
        desired: scenario.desired.clone(),
        config,
        gone: false,
    };
    // What is terminating from the start is deleted, and its owners (at once
    // in this model) clear what they can, before the handler starts.
    for name in &config.terminating {
        edge.apply_to_world(&WorldEvent::Delete { name: name.clone() });
    }
    // The level loop's state before the first event of the trace.
    let first = level
        .log
        .iter()
        .find(|e| matches!(e.what, Happening::ActorEvent { .. } | Happening::Restarted))
        .map_or(level.passes.len(), |e| e.after_pass);
    let actions = edge.on_custom_resource_added(&scenario.desired);
    let initial = "custom resource added".to_owned();
    let first_pass = pass_moment(&level, 1);
    let level_at = (first, level.world_after(first));
    let mut steps = vec![edge.step(initial, false, actions, level_at, first_pass)];
    let mut actor_events = 0;
    let trace: Vec<&LogEntry> = level
        .log
        .iter()
        .filter(|e| {
            matches!(
                e.what,
                Happening::ActorEvent { .. } | Happening::Restarted | Happening::Crashed { .. }
            )
        })
        .collect();
    let mut down = false;
    for (i, entry) in trace.iter().enumerate() {
        // The level loop's state just after this entry, before the next one.
        let passes = trace
            .get(i + 1)
            .map_or(level.passes.len(), |next| next.after_pass);
        let level_at = (passes, level.world_after(passes));
        match &entry.what {
            Happening::Crashed { .. } => down = true,
            Happening::Restarted => {
                down = false;
                let spec = level.desired_after(entry.after_pass, config);
                let actions = edge.on_custom_resource_added(&spec);
                let event = "the controller restarted and listed what exists".to_owned();
                let moment = pass_moment(&level, entry.after_pass + 1);
                steps.push(edge.step(event, false, actions, level_at, moment));
            }
            Happening::ActorEvent { event, .. } => {
                let actions = edge.on_external(event, down);
                let moment = Moment::AfterActorEvent(actor_events);
                actor_events += 1;
                steps.push(edge.step(event.to_string(), down, actions, level_at, moment));
            }
            _ => {}
        }
    }
    let first_divergence = steps.iter().position(|s| s.diverged);
    let final_desired = level.desired_after(level.passes.len(), config);
    let edge_final = resource_statuses(&final_desired, &edge.world, &[]);
    let level_final = resource_statuses(&final_desired, &level.final_world, &[]);
    LevelEdge {
        level,
        steps,
        first_divergence,
        edge_final,
        level_final,
    }
}

/// Pass `pass`'s moment, or the run's last moment when it has fewer passes.
fn pass_moment(level: &Timeline, pass: usize) -> Moment {
    if pass <= level.passes.len() {
        Moment::AfterPass(pass)
    } else {
        level.moments.last().copied().unwrap_or(Moment::Start)
    }
}

struct EdgeHandler<'a> {
    world: World,
    desired: Resources,
    config: &'a SimConfig,
    /// The custom resource was deleted: no handler runs for it any more.
    gone: bool,
}

impl EdgeHandler<'_> {
    fn step(
        &self,
        event: String,
        missed: bool,
        edge_actions: Vec<(Action, String)>,
        (level_passes, level_world): (usize, &World),
        moment: Moment,
    ) -> EdgeStep {
        let level_observed = level_world.observed.clone();
        let diverged = level_observed != self.world.observed;
        EdgeStep {
            event,
            missed,
            edge_actions,
            edge_observed: self.world.observed.clone(),
            level_observed,
            level_passes,
            diverged,
            moment,
            edge_world: self.world.clone(),
        }
    }

    /// The payload is the desired state: create each name, without checking what exists.
    fn on_custom_resource_added(&mut self, desired: &Resources) -> Vec<(Action, String)> {
        if self.gone {
            return Vec::new();
        }
        self.desired = desired.clone();
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

    fn on_external(&mut self, event: &WorldEvent, missed: bool) -> Vec<(Action, String)> {
        // The world changes whether or not the controller hears about it.
        let previous_desired = self.desired.clone();
        let changed = self.apply_to_world(event);
        if self.gone {
            return Vec::new();
        }
        if missed || !changed {
            // A missed spec change is not in the handler's memory either.
            self.desired = previous_desired;
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
            // Not this controller's object: its event maps to no key
            // (`EnqueueRequestForOwner` with `OnlyControllerOwner()`).
            WorldEvent::StrayCreate { .. } => Vec::new(),
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
            WorldEvent::DeleteCustomResource { propagation } => {
                self.collect_garbage(*propagation);
                true
            }
            // The world stays as it is; a resumed watch or a list brings the
            // handler what it missed, as for the level-triggered loop.
            WorldEvent::RestartApiServer => false,
        }
    }

    /// The garbage collector's end state after the custom resource's
    /// deletion, which happens whatever the handler does: its dependents
    /// deleted (their owners clear what they can), or orphaned.
    fn collect_garbage(&mut self, propagation: PropagationPolicy) {
        if std::mem::replace(&mut self.gone, true) {
            return;
        }
        let Some(uid) = self
            .world
            .controller_owner_refs(CUSTOM_RESOURCE)
            .controller_uid()
        else {
            return;
        };
        let owned: Vec<String> = self
            .world
            .names_owned_by(uid)
            .map(|name| name.to_string())
            .collect();
        for name in owned {
            if propagation == PropagationPolicy::Orphan {
                self.world.put_owner_references(&name, OwnerRefs::default());
            } else {
                self.delete(&name);
            }
        }
    }

    fn create(&mut self, name: String, spec: Json) -> (Action, String) {
        let action = Action::create(name.clone(), spec.clone());
        let owners = self.world.controller_owner_refs(CUSTOM_RESOURCE);
        match self
            .world
            .create_owned(&name.into(), spec, Vec::new(), owners)
        {
            Ok(()) => (action, "applied".to_owned()),
            Err(_) => (action, "rejected: AlreadyExists".to_owned()),
        }
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
