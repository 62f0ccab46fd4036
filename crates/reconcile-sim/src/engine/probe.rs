//! The probe behind [`crate::picture`]: armed for one position of the run,
//! it reads the engine's state there (and at every event the same scheduled
//! step records after it), then pauses the run. Unarmed, as in
//! [`crate::simulate`], it costs one check per event.

use std::rc::Rc;

use super::reflector::kind_of;
use super::snapshot::{
    CollectorTask, CollectorWork, ControllerPicture, InFlight, KeyPicture, KeyState, OwnerTask,
    Picture, Position, QueuePicture,
};
use super::{Advance, Engine, Key, Scheduled, Simulation};
use crate::control_plane::gc_graph::Queue;
use crate::events::{EventEntry, SimEvent};
use crate::ownership::ObjectKey;
use crate::workqueue::{to_millis, Millis};
use crate::world::World;
use crate::{ActionResult, ReconcileCall};

#[derive(Debug)]
pub(super) struct Probe {
    target: Option<Position>,
    keep: Keep,
    pictures: Vec<Picture>,
    /// [`Engine::picture`], reached only through a probe: a run that is
    /// never probed (the JS API's `simulate`) links none of the picture
    /// code (docs/SIZE.md).
    take: fn(&Engine, Position) -> Picture,
}

impl Probe {
    fn new() -> Box<Self> {
        Box::new(Self {
            target: None,
            keep: Keep::UntilTaken,
            pictures: Vec::new(),
            take: Engine::picture,
        })
    }
}

/// Which pictures a probe keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// From its target to the end of that step; then the run pauses until
    /// they are taken ([`Simulation::probe`]).
    UntilTaken,
    /// Every one, and the run never pauses: a short run replayed once for
    /// its views ([`Simulation::keep_every_picture`]).
    Every,
}

/// Where a probed run stopped.
#[derive(Debug)]
pub(crate) enum Probed<'s> {
    /// The pictures from the position asked for to the end of its step.
    Pictures(Vec<Picture>),
    /// A pass waits for its plan first.
    Reconcile(ReconcileCall<'s>),
    Finished,
}

impl Engine {
    /// Records an event, and the picture there when the probe asks for it.
    pub(super) fn push_event(&mut self, at: Millis, what: SimEvent) {
        self.event_log.push(at, what);
        if self.probe.is_some() && !self.event_log.truncated {
            let index = self.event_log.entries.len() - 1;
            self.probe_at(Position::Event(index));
        }
    }

    /// The probe at an actor's event (an index into `actor_events`).
    pub(super) fn probe_actor_event(&mut self) {
        if self.probe.is_some() {
            self.probe_at(Position::ActorEvent(self.actor_events.len() - 1));
        }
    }

    /// Whether the probe has pictures to hand over: the run pauses.
    pub(super) fn probe_paused(&self) -> bool {
        self.probe
            .as_ref()
            .is_some_and(|p| p.keep == Keep::UntilTaken && !p.pictures.is_empty())
    }

    fn probe_at(&mut self, position: Position) {
        let wanted = self.probe.as_ref().is_some_and(|p| {
            p.keep == Keep::Every || !p.pictures.is_empty() || p.target == Some(position)
        });
        if let (true, Some(take)) = (wanted, self.probe.as_ref().map(|p| p.take)) {
            let picture = take(self, position);
            if let Some(probe) = &mut self.probe {
                probe.pictures.push(picture);
            }
        }
    }

    /// What each part of the control plane holds now.
    fn picture(&self, position: Position) -> Picture {
        let event = match position {
            Position::Event(i) => self.event_log.entries.get(i).cloned(),
            _ => None,
        };
        let previous = self.probe.as_ref().and_then(|p| p.pictures.last());
        let share = |now: &World, before: Option<&Rc<World>>| match before {
            Some(before) if before.same_snapshot(now) => Rc::clone(before),
            _ => Rc::new(now.clone()),
        };
        let mut picture = Picture {
            position,
            // A pass's end can be recorded ahead of the clock (at least 1 ms after its start).
            at: event.as_ref().map_or(self.now, |e| e.at),
            store: share(&self.world, previous.map(|p| &p.store)),
            cache: share(&self.informer.cache, previous.map(|p| &p.cache)),
            in_flight: Vec::new(),
            relist_at: None,
            queue: self.queue_picture(event.as_ref()),
            controller: self.controller_picture(event.as_ref()),
            owners: Vec::new(),
            collector: Vec::new(),
            event,
        };
        self.pending_into(&mut picture);
        picture
    }

    fn queue_picture(&self, event: Option<&EventEntry>) -> QueuePicture {
        let added = match event.map(|e| &e.what) {
            Some(SimEvent::Enqueued { outcome, .. }) => Some(*outcome),
            _ => None,
        };
        // The key of the pass in progress, else the first: a picture shows one.
        let key = self
            .current_key()
            .or_else(|| self.desired.keys().next())
            .cloned()
            .unwrap_or_else(|| Key::from(""));
        let triggers = self.triggers.get(&key);
        let several = self.desired.len() > 1 || self.workers.count() > 1;
        QueuePicture {
            queued: !self.queue.is_empty(),
            processing: self.workers.any_busy(),
            dirty: triggers.is_some_and(|t| t.deferred.is_some()),
            waiting_until: self.queue.next_ready_at().map(to_millis),
            requeues: self.queue.num_requeues(&key),
            key,
            added,
            keys: if several {
                self.key_pictures()
            } else {
                Vec::new()
            },
            workers: if several {
                self.workers.keys().map(|key| key.cloned()).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// Every key: those the workers hold, then the ready ones in line,
    /// then the waiting ones soonest first, then the rest by name.
    fn key_pictures(&self) -> Vec<KeyPicture> {
        let picture = |key: &Key, state| KeyPicture {
            key: key.clone(),
            state,
            requeues: self.queue.num_requeues(key),
        };
        let waiting = |key: &Key| self.queue.waiting_until(key).map(to_millis);
        let mut keys: Vec<KeyPicture> = Vec::with_capacity(self.desired.len());
        for (worker, key) in self.workers.keys().enumerate() {
            if let Some(key) = key {
                let dirty = self.triggers.get(key).is_some_and(|t| t.deferred.is_some());
                let state = KeyState::Held {
                    worker,
                    dirty,
                    waiting_until: waiting(key),
                };
                keys.push(picture(key, state));
            }
        }
        let listed = |keys: &[KeyPicture], key: &Key| keys.iter().any(|k| k.key == *key);
        for (place, key) in self.queue.ready_keys().iter().enumerate() {
            if !listed(&keys, key) {
                keys.push(picture(key, KeyState::Ready { place }));
            }
        }
        let from = keys.len();
        for key in self.desired.keys() {
            if listed(&keys, key) {
                continue;
            }
            let state = match waiting(key) {
                Some(until) => KeyState::Waiting { until },
                None => KeyState::Idle,
            };
            keys.push(picture(key, state));
        }
        // Waiting ones soonest first, the idle ones after, each by name
        // (stable; an insertion sort: few keys wait at once).
        let order = |k: &KeyPicture| match k.state {
            KeyState::Waiting { until } => until,
            _ => Millis::MAX,
        };
        let rest = &mut keys[from..];
        for i in 1..rest.len() {
            let mut j = i;
            while j > 0 && order(&rest[j - 1]) > order(&rest[j]) {
                rest.swap(j - 1, j);
                j -= 1;
            }
        }
        keys
    }

    fn controller_picture(&self, event: Option<&EventEntry>) -> ControllerPicture {
        if let Some(SimEvent::ReconcileEnded {
            pass,
            error,
            crashed,
        }) = event.map(|e| &e.what)
        {
            return ControllerPicture::Returned {
                pass: *pass,
                error: *error,
                crashed: *crashed,
            };
        }
        // The first worker sending requests: a picture shows one reconcile.
        let sending = self.workers.sending().next();
        let record = sending.and_then(|(_, running)| self.passes.get(running.pass.checked_sub(1)?));
        match (sending, record) {
            (Some(_), Some(pass)) => ControllerPicture::Reconciling {
                pass: pass.index,
                trigger: pass.trigger.clone(),
                plan: pass.actions.clone(),
                // Each answer is written into the pass's record as it comes.
                sent: pass
                    .actions
                    .iter()
                    .take_while(|a| a.result != ActionResult::NotAttempted)
                    .count(),
            },
            _ if self.down => ControllerPicture::Down { restarts_at: None },
            _ => ControllerPicture::Idle,
        }
    }

    /// What is scheduled: watch events in flight, the relist, the restart,
    /// the owners' and the collector's work.
    fn pending_into(&self, picture: &mut Picture) {
        // In time order; an insertion sort, as a few are pending at a time.
        let mut pending: Vec<(&(Millis, u64), &Scheduled)> = Vec::new();
        for (due, scheduled) in self.events.iter() {
            let at = pending.partition_point(|(d, _)| *d < due);
            pending.insert(at, (due, scheduled));
        }
        for (&(at, _), scheduled) in pending {
            match scheduled {
                Scheduled::Deliver {
                    delivery,
                    incarnation,
                    epoch,
                    ..
                } if *incarnation == self.incarnation
                    && *epoch == self.informer.reflector(kind_of(delivery)).epoch
                    && !self.down =>
                {
                    let (object, change) = delivery.what();
                    picture.in_flight.push(InFlight {
                        object,
                        change,
                        arrives_at: at,
                    });
                }
                Scheduled::Relist {
                    kind,
                    incarnation,
                    epoch,
                } if *incarnation == self.incarnation
                    && *epoch == self.informer.reflector(*kind).epoch =>
                {
                    picture.relist_at = Some(at);
                }
                Scheduled::Restart => {
                    picture.controller = ControllerPicture::Down {
                        restarts_at: Some(at),
                    };
                }
                Scheduled::OwnerActs { object, finalizer } => picture.owners.push(OwnerTask {
                    object: object.clone(),
                    finalizer: finalizer.clone(),
                    at: Some(at),
                }),
                Scheduled::GcWork { queue, key } => picture.collector.push(CollectorTask {
                    object: match key {
                        ObjectKey::CustomResource(_) => None,
                        ObjectKey::Object(name) => Some(name.to_string()),
                    },
                    work: match queue {
                        Queue::AttemptToDelete => CollectorWork::AttemptToDelete,
                        Queue::AttemptToOrphan => CollectorWork::AttemptToOrphan,
                    },
                    at,
                }),
                _ => {}
            }
        }
        // Stuck owners never act: shown on the terminating objects they hold.
        for stuck in &self.config.stuck_finalizers {
            if self.world.is_terminating(&stuck.object)
                && self.world.pending(&stuck.object).contains(&stuck.finalizer)
            {
                picture.owners.push(OwnerTask {
                    object: stuck.object.clone(),
                    finalizer: stuck.finalizer.clone(),
                    at: None,
                });
            }
        }
    }
}

impl Simulation {
    /// The picture of the run as it stands (a fresh run: the start).
    pub(crate) fn picture_now(&self) -> Picture {
        self.engine.picture(Position::Start)
    }

    /// From now on, the run keeps the picture at every event and actor's
    /// event, and never pauses for them: a driven run (a replay) keeps them
    /// all for its views ([`Simulation::take_pictures`]).
    pub(crate) fn keep_every_picture(&mut self) {
        let mut probe = Probe::new();
        probe.keep = Keep::Every;
        self.engine.probe = Some(probe);
    }

    /// The pictures kept so far, in order.
    pub(crate) fn take_pictures(&mut self) -> Vec<Picture> {
        match &mut self.engine.probe {
            Some(probe) => std::mem::take(&mut probe.pictures),
            None => Vec::new(),
        }
    }

    /// Whether the run is past `position` already.
    pub(crate) fn has_passed(&self, position: Position) -> bool {
        match position {
            Position::Start => true,
            Position::Event(i) => self.engine.event_log.entries.len() > i,
            Position::ActorEvent(i) => self.engine.actor_events.len() > i,
        }
    }

    /// Runs on until the pictures from `position` on are taken (to the end
    /// of the step that records it), a pass waits for its plan, or the run ends.
    pub(crate) fn probe(&mut self, position: Position) -> Probed<'_> {
        let probe = self.engine.probe.get_or_insert_with(Probe::new);
        probe.target = Some(position);
        if !self.engine.probe_paused() && self.verdict.is_none() {
            if let Advance::Finished(verdict) = self.engine.advance() {
                self.verdict = Some(verdict);
            }
        }
        if self.engine.probe_paused() {
            let probe = self.engine.probe.get_or_insert_with(Probe::new);
            probe.target = None;
            return Probed::Pictures(std::mem::take(&mut probe.pictures));
        }
        if self.verdict.is_some() {
            return Probed::Finished;
        }
        Probed::Reconcile(self.engine.reconcile_call())
    }
}
