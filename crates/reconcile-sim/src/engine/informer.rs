//! The controller's informer: a local cache of the objects and of the custom
//! resources, fed by a watch, as client-go's reflector, RealFIFO and shared
//! informer keep it (client-go v0.36). Every read the controller makes comes
//! from this cache.
//!
//! - Watch events arrive `watch_latency_ms` after the write; the cache takes
//!   each one, then the event handler queues the key (for an owned object only
//!   with `watch_owned`: without it the informer still caches, as
//!   controller-runtime's cached client does, but no handler listens). An
//!   object queues the key of the custom resource its controller
//!   reference names, before or after the event (`EnqueueRequestForOwner`
//!   with `OnlyControllerOwner()`; both when they differ): a stray queues
//!   nothing.
//! - A watch can close (`watchBreakRate` per event, and a scripted event's
//!   drop): what was in flight on it never arrives there. The reflector
//!   starts a new watch from its last resourceVersion (`reflector.go`,
//!   `Reflector.watch`), and the API server replays every event after it
//!   from its watch cache (`control_plane/watch_cache.rs`). A closed watch
//!   delays events; it loses none.
//! - The reflector lists again only after a watch error: 410 Gone, when the
//!   watch cache no longer reaches back to its resourceVersion (after an API
//!   server restart). It waits its backoff first (`RunWithContext`: 800 ms,
//!   jitter 1.0). The list replaces that kind's part of the cache: what it
//!   held and the list lacks is synthesized as deleted (`the_real_fifo.go`
//!   `RealFIFO.Replace`, `DeletedFinalStateUnknown`). Unchanged objects
//!   reach the handlers only once a resync has come due
//!   (`sharedIndexInformer.OnUpdate`, `distribute`). One reflector per kind:
//!   `reflector.rs`.
//! - The API server restarts without downtime here; the garbage collector's
//!   and the finalizer owners' watches never close.
//! - A resync replays the cache to the handlers; it never reads the server
//!   (controller-runtime `pkg/cache`: "SyncPeriod does not sync between the
//!   local cache and the server"). Its period is jittered by a factor in
//!   [0.9, 1.1) drawn when the informer starts (`calculateResyncPeriod`).
//! - A restarted controller starts a fresh informer: it lists what exists,
//!   so what was deleted while it was down is never announced.

use std::sync::Arc;

use super::pass::client;
use super::reflector::{kind_of, Kind, Reflector};
use super::{Engine, Key};
use crate::control_plane::sorted::SortedMap;
use crate::controllers::client::Client;
use crate::events::SimEvent;
use crate::ownership::ObjectKey;
use crate::rng::SimRng;
use crate::workqueue::Millis;
use crate::world::{Change, ObjectState, World};
use crate::{CacheLag, CacheLagEntry, Happening, Trigger};
use reconcile_core::model::Resources;

/// The controller's informers of the custom resource and of the objects it
/// owns: one cache, fed by one reflector per kind.
#[derive(Debug, Clone)]
pub(super) struct Informer {
    /// The objects as the watch last showed them.
    pub(super) cache: World,
    /// Each custom resource's spec as the watch last showed it.
    pub(super) desired: SortedMap<Key, Resources>,
    /// One reflector per kind, by [`Kind`]: each watches on its own.
    pub(super) reflectors: [Reflector; 2],
    /// A resync has come due: the handlers' listener is syncing.
    pub(super) resynced: bool,
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
    /// A custom resource: its spec (the desired state) and its metadata;
    /// `None` once it is deleted.
    CustomResource {
        name: Key,
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
        desired: &SortedMap<Key, Resources>,
        epoch: u64,
        now: Millis,
        jitter: &mut SimRng,
    ) -> Self {
        Self {
            cache: world.clone(),
            desired: desired.clone(),
            reflectors: [
                Reflector::new(world, epoch, now),
                Reflector::new(world, epoch, now),
            ],
            resynced: false,
            resync_factor: 0.9 + jitter.next_f64() / 5.0,
        }
    }

    /// Each kind's `LastStoreSyncResourceVersion`, by [`Kind`]: the version
    /// of the last event or list its store took.
    pub(super) fn synced(&self) -> [u64; 2] {
        [
            self.reflectors[0].last_resource_version,
            self.reflectors[1].last_resource_version,
        ]
    }

    pub(super) fn reflector(&self, kind: Kind) -> &Reflector {
        &self.reflectors[kind as usize]
    }

    pub(super) fn reflector_mut(&mut self, kind: Kind) -> &mut Reflector {
        &mut self.reflectors[kind as usize]
    }

    /// The newest epoch of either reflector: a new informer starts past it.
    pub(super) fn epoch(&self) -> u64 {
        self.reflectors[0].epoch.max(self.reflectors[1].epoch)
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

    /// The watch event of a write to custom resource `name` (its spec, or its deletion).
    pub(super) fn custom_resource_event(
        &mut self,
        at: Millis,
        name: &Key,
        change: Change,
        breaks: bool,
    ) {
        let key = ObjectKey::CustomResource(Key::clone(name));
        let state = self.world.get(&key);
        self.gc_observe(at, &key, state.as_ref());
        let delivery = Delivery::CustomResource {
            name: Key::clone(name),
            desired: self.desired.get(name).cloned().unwrap_or_default(),
            state,
        };
        self.send(at, delivery, breaks, || Happening::WatchBroken {
            name: key.to_string(),
            change,
        });
    }

    /// A watch event reaches the informer: the cache takes it, then the
    /// handler queues the key.
    pub(super) fn deliver(
        &mut self,
        delivery: Delivery,
        resource_version: u64,
        incarnation: u64,
        epoch: u64,
    ) {
        // Nobody hears events while the controller is down, nor those of a
        // watch that closed; the next watch or list brings what they said.
        let reflector = self.informer.reflector_mut(kind_of(&delivery));
        if incarnation != self.incarnation || self.down || epoch != reflector.epoch {
            return;
        }
        reflector.last_resource_version = resource_version;
        match delivery {
            Delivery::Object {
                name,
                change,
                state,
            } => {
                if let (Change::Added, Some(state)) = (change, &state) {
                    self.controller.on_added(state, &client!(self));
                }
                // `EnqueueRequestForOwner` with `OnlyControllerOwner()`: an
                // update maps both the old and the new object's owner.
                let controller = |state: Option<&ObjectState>| {
                    let refs = &state?.meta.owner_references;
                    refs.controlling_custom_resource().cloned()
                };
                let old = controller(self.informer.cache.object(&name).as_ref());
                let new = controller(state.as_ref()).filter(|new| old.as_ref() != Some(new));
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
                    for key in old.iter().chain(&new) {
                        let name = name.to_string();
                        self.enqueue(key, Trigger::OwnedObject { name, change });
                    }
                }
            }
            Delivery::CustomResource {
                name: key,
                desired,
                state,
            } => {
                let object_key = ObjectKey::CustomResource(Key::clone(&key));
                let cached = self.informer.cache.get(&object_key);
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
                self.informer.desired.insert(Key::clone(&key), desired);
                let cache = &mut self.informer.cache;
                cache.in_key_space(&object_key, |space, name| match state {
                    Some(state) => space.put_object(name, state),
                    None => space.forget_object(name),
                });
                if self.listed && !filtered {
                    self.enqueue(&key, trigger);
                }
            }
        }
    }
}

impl Engine {
    /// The keys a resync queues, in the order it re-delivers: every cached
    /// object as an update. A custom resource's passes the predicate only
    /// without `GenerationChangedPredicate` (the generation is unchanged);
    /// an owned object's queues its controller, when the controller watches them.
    pub(super) fn resync_keys(&self) -> Vec<Key> {
        let cache = &self.informer.cache;
        let mut keys: Vec<Key> = Vec::new();
        // Without the predicate every key comes, even one whose custom
        // resource the cache no longer holds: a simplification kept from
        // the one-key engine (its passes return at once).
        if !self.config.generation_changed_predicate {
            keys.extend(self.desired.keys().cloned());
        }
        if self.config.watch_owned {
            for meta in cache.meta.values() {
                let owner = meta.owner_references.controlling_custom_resource();
                if let Some(owner) = owner.filter(|o| !keys.contains(o)) {
                    keys.push(Key::clone(owner));
                }
            }
        }
        keys
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
