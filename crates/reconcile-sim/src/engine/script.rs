//! What other actors do: the scripted events (a person deleting, editing,
//! creating, adding a finalizer, changing the custom resource's spec) and the
//! other writers that fight over a field.

use std::rc::Rc;

use super::{desired_hash, external_event_dropped, writer_disagrees, Engine, Key, Scheduled};
use crate::apiserver::{ApiError, DeleteOptions, PropagationPolicy, Update, UpdateOutcome};
use crate::ownership::ObjectKey;
use crate::sorted::{SortedMap, SortedSet};
use crate::workqueue::Millis;
use crate::world::Change;
use crate::{Happening, WorldEvent};
use reconcile_core::model::Resources;

/// Other actors' own state: the scripted events and other writers.
#[derive(Debug)]
pub(super) struct Actors {
    /// Which scripted events are scheduled, by index.
    pub(super) scheduled_script: Vec<bool>,
    pub(super) scheduled_writers: SortedSet<usize>,
    /// Each object's last other writer, by object name.
    pub(super) last_other_writer: SortedMap<String, String>,
}

impl Actors {
    pub(super) fn new(scripted: usize) -> Self {
        Self {
            scheduled_script: vec![false; scripted],
            scheduled_writers: SortedSet::new(),
            last_other_writer: SortedMap::new(),
        }
    }
}

impl Engine {
    pub(super) fn schedule_script_after(&mut self, pass: usize, at: Millis) {
        for index in 0..self.config.script.len() {
            if self.config.script[index].after_pass == pass && !self.actors.scheduled_script[index]
            {
                self.actors.scheduled_script[index] = true;
                self.schedule(at, Scheduled::Script { index });
            }
        }
    }

    pub(super) fn next_unscheduled_script(&self) -> Option<usize> {
        (0..self.config.script.len())
            .filter(|i| !self.actors.scheduled_script[*i])
            .min_by_key(|i| (self.config.script[*i].after_pass, *i))
    }

    pub(super) fn apply_script(&mut self, index: usize) {
        let event = self.config.script[index].event.clone();
        let now = self.now;
        // Decided per scripted event, so the edge-triggered model sees the same drops.
        let dropped = external_event_dropped(&self.config, index);
        let effect = match &event {
            WorldEvent::Delete { name } => match self.delete(name, None, now) {
                Err(_) => "not found; nothing deleted".to_owned(),
                Ok(change) => {
                    if let Some(change) = change {
                        self.deliver_unless_broken(now, name, change, dropped);
                    }
                    let grace = self
                        .world
                        .meta(name)
                        .and_then(|m| m.deletion_grace_period_seconds);
                    match (change, grace) {
                        (Some(Change::Deleted), _) => "deleted".to_owned(),
                        // A pod on a node: the kubelet has to stop it first.
                        (_, Some(seconds)) if seconds > 0 => {
                            format!("a pod on a node, so it is terminating for up to {seconds} s")
                        }
                        _ => "has finalizers, so it is terminating".to_owned(),
                    }
                }
            },
            WorldEvent::Drift { name, path, value } => match self.world.observed.get(name) {
                Some(spec) => {
                    let mut spec = spec.clone();
                    spec.set_path(path, value.clone());
                    if let Some(change) = self.world.write_spec(name, spec) {
                        self.deliver_unless_broken(now, name, change, dropped);
                    }
                    self.actors
                        .last_other_writer
                        .insert(name.clone(), "an external actor".to_owned());
                    "field changed".to_owned()
                }
                None => "not found; nothing changed".to_owned(),
            },
            WorldEvent::StrayCreate { name, spec } => {
                if self.world.observed.contains(name) {
                    "already exists; nothing created".to_owned()
                } else {
                    self.world.write_spec(name, spec.clone());
                    self.deliver_unless_broken(now, name, Change::Added, dropped);
                    "created".to_owned()
                }
            }
            WorldEvent::AddFinalizer { name, finalizer } => {
                let mut list = self.world.pending(name).to_vec();
                if !list.contains(finalizer) {
                    list.push(finalizer.clone());
                }
                let update = Update {
                    finalizers: Some(list),
                    ..Update::default()
                };
                match self.world.update(name, update) {
                    Ok(UpdateOutcome::Updated) => {
                        self.deliver_unless_broken(now, name, Change::Updated, dropped);
                        "finalizer added".to_owned()
                    }
                    Ok(_) | Err(ApiError::NotFound { .. }) => {
                        "not found or already present; nothing changed".to_owned()
                    }
                    Err(error) => {
                        let reason = error.to_string();
                        let what = Happening::Rejected {
                            object: name.clone(),
                            reason: reason.clone(),
                        };
                        self.note(now, what);
                        format!("rejected: {reason}")
                    }
                }
            }
            WorldEvent::SetDesired { desired } => {
                // A spec write: a new resourceVersion and generation.
                let scripted = self.scripted_key();
                let key = ObjectKey::CustomResource(Key::clone(&scripted));
                let written = self.world.in_key_space(&key, |space, name| {
                    space
                        .observed
                        .contains(name)
                        .then(|| space.written(name, true))
                });
                if written.is_none() {
                    "not found; nothing changed".to_owned()
                } else {
                    self.desired.insert(Key::clone(&scripted), desired.clone());
                    self.out_of_sync_memo.borrow_mut().remove(&scripted);
                    self.desired_hash = desired_hash(&self.desired);
                    self.custom_resource_event(now, &scripted, Change::Updated, dropped);
                    if dropped {
                        "spec changed; the watch broke at its event".to_owned()
                    } else {
                        "spec changed".to_owned()
                    }
                }
            }
            WorldEvent::DeleteCustomResource { propagation } => {
                self.delete_custom_resource(*propagation, now, dropped)
            }
            WorldEvent::RestartApiServer => {
                self.restart_api_server(now);
                "its watch cache starts again; every watch closes".to_owned()
            }
        };
        // A moment of its own for the page's views: the world it left.
        self.actor_events.push(crate::ActorEventRecord {
            at: now,
            after_pass: self.passes.len(),
            script_index: index,
            event: event.clone(),
            effect: effect.clone(),
            world_after: Rc::new(self.world.clone()),
            desired_after: self.scripted_desired(),
            out_of_sync: self.out_of_sync(),
        });
        self.probe_actor_event();
        self.note(now, Happening::ActorEvent { event, effect });
        self.schedule_other_writers(now);
    }

    /// Another actor deletes the custom resource with `propagation`; the
    /// store adds the garbage collector's finalizer for foreground and orphan.
    fn delete_custom_resource(
        &mut self,
        propagation: PropagationPolicy,
        now: Millis,
        dropped: bool,
    ) -> String {
        let options = DeleteOptions {
            propagation_policy: Some(propagation),
            ..DeleteOptions::default()
        };
        let scripted = self.scripted_key();
        let key = ObjectKey::CustomResource(Key::clone(&scripted));
        match self.delete_key(&key, &options, now) {
            Err(_) => "not found; nothing deleted".to_owned(),
            Ok(None) => "already being deleted; nothing changed".to_owned(),
            Ok(Some(change)) => {
                self.custom_resource_event(now, &scripted, change, dropped);
                let cleanup = self
                    .world
                    .get(&key)
                    .is_some_and(|cr| cr.finalizers.iter().any(|f| f == crate::cloud::FINALIZER));
                if cleanup {
                    return format!(
                        "terminating: its finalizer {} waits for the controller's cleanup",
                        crate::cloud::FINALIZER
                    );
                }
                match propagation {
                    PropagationPolicy::Background => {
                        "deleted; the garbage collector deletes its dependents".to_owned()
                    }
                    PropagationPolicy::Foreground => {
                        "terminating until the garbage collector has deleted its dependents"
                            .to_owned()
                    }
                    PropagationPolicy::Orphan => {
                        "terminating until the garbage collector has orphaned its dependents"
                            .to_owned()
                    }
                }
            }
        }
    }

    pub(super) fn schedule_other_writers(&mut self, from: Millis) {
        let config = Rc::clone(&self.config);
        for (index, writer) in config.other_writers.iter().enumerate() {
            if !self.actors.scheduled_writers.contains(&index)
                && writer_disagrees(&self.world, writer)
            {
                self.actors.scheduled_writers.insert(index);
                let delay = writer.reaction_ms.max(1);
                self.schedule_after(from, delay, Scheduled::OtherWriter { index });
            }
        }
    }

    pub(super) fn other_writer_acts(&mut self, index: usize) {
        self.actors.scheduled_writers.remove(&index);
        let config = Rc::clone(&self.config);
        let writer = &config.other_writers[index];
        if !writer_disagrees(&self.world, writer) {
            return;
        }
        let Some(before) = self.world.observed.get(&writer.object).cloned() else {
            return;
        };
        let object = writer.object.clone();
        let written = match writer.writes.applies() {
            None => {
                let mut spec = before.clone();
                spec.set_path(&writer.path, writer.value.clone());
                let change = self.world.write_spec(&object, spec);
                self.world
                    .record_update(&object, Some(&before), &writer.name);
                Ok(change)
            }
            Some(force) => self.other_writer_applies(writer, &before, force),
        };
        match written {
            Ok(Some(change)) => {
                let path = writer
                    .path
                    .iter()
                    .fold(reconcile_core::path::JsonPath::root(), |p, k| p.key(k))
                    .to_string();
                let what = Happening::OtherWriterWrote {
                    writer: writer.name.clone(),
                    object: object.clone(),
                    path,
                    value: writer.value.clone(),
                };
                self.note(self.now, what);
                self.actors
                    .last_other_writer
                    .insert(object.clone(), writer.name.clone());
                self.watch.other_writes += 1;
                self.watch_event(self.now, &object, change);
            }
            Ok(None) => {}
            Err(error) => {
                let reason = error.to_string();
                self.note(self.now, Happening::Rejected { object, reason });
            }
        }
    }

    /// A server-side apply of the writer's one field, under its name.
    fn other_writer_applies(
        &mut self,
        writer: &crate::OtherWriter,
        live: &reconcile_core::json::Json,
        force: bool,
    ) -> Result<Option<Change>, ApiError> {
        let mut config = crate::apply::skeleton(live);
        config.set_path(&writer.path, writer.value.clone());
        let apply = crate::apply::Apply {
            config,
            field_manager: writer.name.as_str().into(),
            force,
        };
        let name: std::sync::Arc<str> = writer.object.as_str().into();
        let owners = crate::ownership::OwnerRefs::default();
        Ok(match self.world.apply(&name, &apply, &owners)? {
            crate::apply::ApplyOutcome::Unchanged => None,
            _ => Some(Change::Updated),
        })
    }
}

/// Which custom resource a scripted event writes: the first by name (a
/// scenario's one custom resource, when it has one).
impl Engine {
    pub(super) fn scripted_key(&self) -> Key {
        let first = self.desired.keys().next().cloned();
        first.unwrap_or_else(|| Key::from(crate::ownership::CUSTOM_RESOURCE))
    }

    /// The spec of [`Engine::scripted_key`]'s custom resource.
    pub(super) fn scripted_desired(&self) -> Resources {
        let first = self.desired.values().next().cloned();
        first.unwrap_or_default()
    }
}
