//! The controller's informer: a local cache of the objects and of the custom
//! resource, fed by a watch, as client-go's reflector, DeltaFIFO and shared
//! informer keep it. Every read the controller makes comes from this cache.
//!
//! - Watch events arrive `watch_latency_ms` after the write; the cache takes
//!   each one, then the event handler queues the key (for an owned object only
//!   with `watch_owned`: without it the informer still caches, as
//!   controller-runtime's cached client does, but no handler listens).
//! - A watch can break (`watchBreakRate` per event, and a scripted event's drop):
//!   the events in flight are lost, and the reflector lists again after its
//!   backoff (`reflector.go`: 800 ms, jitter 1.0). The list replaces the
//!   cache: what the cache holds and the list lacks is synthesized as deleted
//!   (`delta_fifo.go` `Replace`, `DeletedFinalStateUnknown`), so a broken
//!   watch delays events, it does not lose them.
//! - A resync replays the cache to the handlers; it never reads the server
//!   (controller-runtime `pkg/cache`: "SyncPeriod does not sync between the
//!   local cache and the server"). Its period is jittered by a factor in
//!   [0.9, 1.1) drawn when the informer starts (`calculateResyncPeriod`).
//! - A restarted controller starts a fresh informer: it lists what exists,
//!   so what was deleted while it was down is never announced.

use std::sync::Arc;

use super::pass::client;
use super::{Engine, Scheduled};
use crate::controllers::client::Client;
use crate::events::SimEvent;
use crate::ownership::ObjectKey;
use crate::rng::SimRng;
use crate::workqueue::Millis;
use crate::world::{Change, ObjectState, World};
use crate::{CacheLag, CacheLagEntry, Happening, Trigger};
use reconcile_core::model::Resources;

/// client-go reflector's `defaultBackoffInit`: the wait before listing again.
const RELIST_BACKOFF_MS: Millis = 800;

/// One informer (of the custom resource and the objects it owns).
#[derive(Debug, Clone)]
pub(super) struct Informer {
    /// The objects as the watch last showed them.
    pub(super) cache: World,
    /// The custom resource's spec as the watch last showed it.
    pub(super) desired: Resources,
    /// Bumped when the watch breaks or the process restarts: events of an
    /// older watch never arrive.
    pub(super) epoch: u64,
    /// Between a break and the list, no events come.
    broken: bool,
    /// The resync period's jitter factor, drawn when the informer starts.
    resync_factor: f64,
}

/// What a watch event carries.
#[derive(Debug, Clone)]
pub(super) enum Delivery {
    Object {
        name: Arc<str>,
        change: Change,
        /// The object after the write; `None` for a delete.
        state: Option<ObjectState>,
    },
    /// The custom resource: its spec (the desired state) and its metadata;
    /// `None` once it is deleted.
    CustomResource {
        desired: Resources,
        state: Option<ObjectState>,
    },
}

impl Delivery {
    /// Which object the event is about (`None`: the custom resource) and what changed.
    pub(super) fn what(&self) -> (Option<String>, Change) {
        match self {
            Delivery::Object { name, change, .. } => (Some(name.to_string()), *change),
            Delivery::CustomResource { state: None, .. } => (None, Change::Deleted),
            Delivery::CustomResource { .. } => (None, Change::Updated),
        }
    }
}

impl Informer {
    /// Lists the server (the store and the custom resource) into a new cache.
    pub(super) fn list(
        world: &World,
        desired: &Resources,
        epoch: u64,
        jitter: &mut SimRng,
    ) -> Self {
        Self {
            cache: world.clone(),
            desired: desired.clone(),
            epoch,
            broken: false,
            resync_factor: 0.9 + jitter.next_f64() / 5.0,
        }
    }

    /// The reflector's list after a broken watch (`Replace`): the cache
    /// becomes what was listed; the same informer, so the same resync jitter.
    fn replace(&mut self, world: &World, desired: &Resources) {
        self.cache = world.clone();
        self.desired = desired.clone();
        self.broken = false;
    }

    /// The jittered resync period.
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )]
    pub(super) fn resync_period(&self, period: Millis) -> Millis {
        ((period as f64) * self.resync_factor).max(1.0) as Millis
    }
}

impl Engine {
    /// The watch event of a write to `name` the store just made; at this
    /// event the watch may break.
    pub(super) fn watch_event(&mut self, at: Millis, name: &str, change: Change) {
        let breaks = self.drops_rng.chance(self.config.watch_break_rate);
        self.deliver_unless_broken(at, name, change, breaks);
    }

    /// Sends the event on its way, unless the watch is down or breaks here.
    pub(super) fn deliver_unless_broken(
        &mut self,
        at: Millis,
        name: &str,
        change: Change,
        breaks: bool,
    ) {
        let name: Arc<str> = Arc::from(name);
        self.note_unseen(&name);
        let state = self.world.object(&name);
        let key = ObjectKey::Object(Arc::clone(&name));
        // The garbage collector's own watch sees every write.
        self.gc_observe(at, &key, state.as_ref());
        let broken = || Happening::WatchBroken {
            name: name.to_string(),
            change,
        };
        let delivery = Delivery::Object {
            name: Arc::clone(&name),
            change,
            state,
        };
        self.send(at, delivery, breaks, broken);
    }

    /// The watch event of a write to the custom resource (its spec, or its deletion).
    pub(super) fn custom_resource_event(&mut self, at: Millis, change: Change, breaks: bool) {
        let state = self.world.get(&ObjectKey::CustomResource);
        self.gc_observe(at, &ObjectKey::CustomResource, state.as_ref());
        let delivery = Delivery::CustomResource {
            desired: self.desired.clone(),
            state,
        };
        self.send(at, delivery, breaks, || Happening::WatchBroken {
            name: "the custom resource".to_owned(),
            change,
        });
    }

    fn send(
        &mut self,
        at: Millis,
        delivery: Delivery,
        breaks: bool,
        why: impl FnOnce() -> Happening,
    ) {
        if self.informer.broken {
            // The list after the break will show it.
            return;
        }
        if breaks {
            self.note(at, why());
            self.break_watch(at);
            return;
        }
        let (incarnation, epoch) = (self.incarnation, self.informer.epoch);
        self.schedule_after(
            at,
            self.config.watch_latency_ms,
            Scheduled::Deliver {
                delivery,
                incarnation,
                epoch,
            },
        );
    }

    /// The watch ends with an error: events in flight are lost, and the
    /// reflector lists again after its backoff.
    fn break_watch(&mut self, at: Millis) {
        self.informer.broken = true;
        self.informer.epoch += 1;
        let jitter = self.relist_rng.next_f64();
        #[allow(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss
        )]
        let delay = RELIST_BACKOFF_MS + (RELIST_BACKOFF_MS as f64 * jitter) as Millis;
        let (incarnation, epoch) = (self.incarnation, self.informer.epoch);
        self.schedule_after(at, delay, Scheduled::Relist { incarnation, epoch });
    }

    /// A watch event reaches the informer: the cache takes it, then the
    /// handler queues the key.
    pub(super) fn deliver(&mut self, delivery: Delivery, incarnation: u64, epoch: u64) {
        // Nobody hears events while the controller is down, nor those of a
        // watch that broke; the next list shows what they said.
        if incarnation != self.incarnation || self.down || epoch != self.informer.epoch {
            return;
        }
        match delivery {
            Delivery::Object {
                name,
                change,
                state,
            } => {
                if let (Change::Added, Some(state)) = (change, &state) {
                    self.controller.on_added(state, &client!(self));
                }
                match state {
                    Some(state) => self.informer.cache.put_object(&name, state),
                    None => self.informer.cache.forget_object(&name),
                }
                self.note_seen(&name);
                let delivered = SimEvent::WatchDelivered {
                    name: name.to_string(),
                    change,
                };
                self.push_event(self.now, delivered);
                if self.config.watch_owned && self.listed {
                    let name = name.to_string();
                    self.enqueue(Trigger::OwnedObject { name, change });
                }
            }
            Delivery::CustomResource { desired, state } => {
                let cached = self.informer.cache.get(&ObjectKey::CustomResource);
                let same_generation = matches!(
                    (&cached, &state),
                    (Some(old), Some(new)) if old.meta.generation == new.meta.generation
                );
                let trigger = match &state {
                    None => Trigger::CustomResource {
                        change: Change::Deleted,
                        after_restart: false,
                    },
                    Some(cr) if cr.deletion_timestamp.is_some() => Trigger::CustomResourceDeleting,
                    Some(_) if same_generation => Trigger::CustomResourceStatus,
                    Some(_) => Trigger::CustomResource {
                        change: Change::Updated,
                        after_restart: false,
                    },
                };
                // GenerationChangedPredicate: an update that left the
                // generation alone passes no key to the queue.
                let filtered = self.config.generation_changed_predicate
                    && trigger == Trigger::CustomResourceStatus;
                self.informer.desired = desired;
                let cache = &mut self.informer.cache;
                cache.in_key_space(&ObjectKey::CustomResource, |space, name| match state {
                    Some(state) => space.put_object(name, state),
                    None => space.forget_object(name),
                });
                if self.listed && !filtered {
                    self.enqueue(trigger);
                }
            }
        }
    }

    /// The reflector lists again: the cache becomes the server's state, and
    /// what it held that the list lacks is synthesized as deleted.
    pub(super) fn relist(&mut self, incarnation: u64, epoch: u64) {
        if incarnation != self.incarnation || self.down || epoch != self.informer.epoch {
            return;
        }
        let deleted: Vec<String> = self
            .informer
            .cache
            .observed
            .names()
            .filter(|name| !self.world.observed.contains(name))
            .map(str::to_owned)
            .collect();
        // Objects new to the cache reach the handlers as added.
        let added: Vec<ObjectState> = self
            .world
            .observed
            .names()
            .filter(|name| !self.informer.cache.observed.contains(name))
            .filter_map(|name| self.world.object(name))
            .collect();
        for state in &added {
            self.controller.on_added(state, &client!(self));
        }
        self.informer.replace(&self.world, &self.desired);
        self.unseen.clear();
        self.note(self.now, Happening::Relisted { deleted });
        // Every listed object reaches the handlers again (Replaced): the
        // custom resource's handler queues its key.
        self.enqueue(Trigger::Relisted);
    }
}

/// Writes the cache has not heard of yet, for the status grid's "cache
/// against store": a few names at a time, so each pass compares only these.
impl Engine {
    /// A write to `name` raised a watch event, which the cache has yet to take.
    fn note_unseen(&mut self, name: &Arc<str>) {
        match self.unseen.binary_search_by(|(n, _)| (**n).cmp(name)) {
            Ok(i) => self.unseen[i].1 += 1,
            Err(i) => self.unseen.insert(i, (Arc::clone(name), 1)),
        }
    }

    /// The cache took one event of `name`.
    fn note_seen(&mut self, name: &str) {
        if let Ok(i) = self.unseen.binary_search_by(|(n, _)| (**n).cmp(name)) {
            self.unseen[i].1 -= 1;
            if self.unseen[i].1 == 0 {
                self.unseen.remove(i);
            }
        }
    }

    /// Where the cache differs from the store now, sorted by name.
    pub(super) fn cache_lag(&self) -> Vec<CacheLagEntry> {
        self.unseen
            .iter()
            .filter_map(|(name, _)| {
                let lag = CacheLag::of(name, &self.informer.cache, &self.world)?;
                Some(CacheLagEntry {
                    name: name.to_string(),
                    lag,
                })
            })
            .collect()
    }
}
