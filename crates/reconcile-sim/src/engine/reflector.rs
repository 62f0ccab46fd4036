//! The reflectors: one per kind the controller watches, each with its own
//! watch, its own latency and its own resourceVersion, as client-go runs
//! one per informer (`tools/cache/reflector.go`, v0.36).
//!
//! - A watch event of a kind reaches the cache that kind's latency after
//!   the write: `watchLatencyMs` for the objects,
//!   `customResourceWatchLatencyMs` (default: the same) for the custom
//!   resource. Events of two kinds may arrive out of store order.
//! - A watch that closes is started again at once from the reflector's
//!   `LastSyncResourceVersion` (`Reflector.watch`); the API server replays
//!   the events after it from that kind's watch cache.
//! - A watch error makes `ListAndWatch` return, and `RunWithContext` lists
//!   again after its backoff (`control_plane/reflector_backoff.rs`): here,
//!   410 Gone.
//! - Not modelled: `handleWatch`'s `VeryShortWatchError` (a watch that ends
//!   within a second with no event). The closes `watchBreakRate` stands for
//!   come from a server or proxy after the watch has run a while; simulated
//!   runs compress minutes into milliseconds, so a one-second rule would
//!   misfire on nearly every one.

use super::informer::Delivery;
use super::pass::client;
use super::{Engine, Key, Scheduled};
use crate::control_plane::reflector_backoff::ReflectorBackoff;
use crate::control_plane::watch_cache::WatchCache;
use crate::controllers::client::Client;
use crate::ownership::ObjectKey;
pub(super) use crate::run::record::WatchedKind as Kind;
use crate::workqueue::Millis;
use crate::world::{ObjectState, World};
use crate::{Happening, Trigger};

/// The kind a watch event is of.
pub(super) fn kind_of(delivery: &Delivery) -> Kind {
    match delivery {
        Delivery::CustomResource { .. } => Kind::CustomResource,
        Delivery::Object { .. } => Kind::Object,
    }
}

/// One reflector's own state.
#[derive(Debug, Clone)]
pub(super) struct Reflector {
    /// Bumped when the watch closes or the process restarts: events of an
    /// older watch never arrive.
    pub(super) epoch: u64,
    /// Between a closed watch and the next (resumed, or after a list), no events come.
    pub(super) broken: bool,
    /// `LastSyncResourceVersion`: a new watch starts from it.
    pub(super) last_resource_version: u64,
    /// `RunWithContext`'s wait before each new `ListAndWatch`.
    backoff: ReflectorBackoff,
}

impl Reflector {
    /// A reflector that listed `world` at `now` and watches from there.
    pub(super) fn new(world: &World, epoch: u64, now: Millis) -> Self {
        Self {
            epoch,
            broken: false,
            last_resource_version: world.last_resource_version,
            backoff: ReflectorBackoff::new(now),
        }
    }
}

/// The API server's watch caches, one per kind.
pub(super) type WatchCaches = [WatchCache<(u64, Delivery)>; 2];

pub(super) fn watch_caches(world: &World) -> WatchCaches {
    let at = world.last_resource_version;
    [WatchCache::new(at), WatchCache::new(at)]
}

impl Engine {
    /// How long a watch event of `kind` takes to reach the cache.
    fn latency(&self, kind: Kind) -> Millis {
        match kind {
            Kind::Object => self.config.watch_latency_ms,
            Kind::CustomResource => self
                .config
                .custom_resource_watch_latency_ms
                .unwrap_or(self.config.watch_latency_ms),
        }
    }

    /// The watch event of a write the store just made: the API server's
    /// watch cache keeps it; the reflector's watch carries it, unless the
    /// watch closes here (`breaks`) or is closed already.
    pub(super) fn send(
        &mut self,
        at: Millis,
        delivery: Delivery,
        breaks: bool,
        why: impl FnOnce() -> Happening,
    ) {
        let kind = kind_of(&delivery);
        let resource_version = self.world.last_resource_version;
        self.watch_caches[kind as usize].add(
            resource_version,
            at,
            (resource_version, delivery.clone()),
        );
        if self.informer.reflector(kind).broken {
            // The next watch, or the list, will bring it.
            return;
        }
        if breaks {
            self.note(at, why());
            self.close_watch(kind, at);
            return;
        }
        let (incarnation, epoch) = (self.incarnation, self.informer.reflector(kind).epoch);
        let deliver = Scheduled::Deliver {
            delivery,
            resource_version,
            incarnation,
            epoch,
        };
        let latency = self.latency(kind);
        if self.armed.delays(kind) {
            let due = self.delivery_time(kind, at, latency);
            self.schedule(due, deliver);
        } else {
            self.schedule_after(at, latency, deliver);
        }
    }

    /// The watch of `kind` closes: what was in flight on it never arrives
    /// there. The reflector starts a new one at once.
    pub(super) fn close_watch(&mut self, kind: Kind, at: Millis) {
        let reflector = self.informer.reflector_mut(kind);
        reflector.broken = true;
        reflector.epoch += 1;
        let (incarnation, epoch) = (self.incarnation, reflector.epoch);
        self.schedule_after(
            at,
            self.latency(kind),
            Scheduled::Rewatch {
                kind,
                incarnation,
                epoch,
            },
        );
    }

    /// The new watch reaches the API server: it replays every event after
    /// the reflector's resourceVersion from its watch cache, deletes
    /// included, or answers 410 Gone when the cache no longer reaches back
    /// that far.
    pub(super) fn rewatch(&mut self, kind: Kind, incarnation: u64, epoch: u64) {
        if incarnation != self.incarnation
            || self.down
            || epoch != self.informer.reflector(kind).epoch
        {
            return;
        }
        let from = self.informer.reflector(kind).last_resource_version;
        match self.watch_caches[kind as usize].since(from) {
            Ok(events) => {
                self.informer.reflector_mut(kind).broken = false;
                let resumed = Happening::WatchResumed {
                    informer: kind,
                    resource_version: from,
                    replayed: events.len(),
                };
                self.note(self.now, resumed);
                for (resource_version, delivery) in events {
                    let what = Scheduled::Deliver {
                        delivery,
                        resource_version,
                        incarnation,
                        epoch,
                    };
                    self.schedule(self.now, what);
                }
            }
            Err(gone) => {
                let expired = Happening::WatchExpired {
                    informer: kind,
                    resource_version: gone.requested,
                    oldest: gone.oldest,
                };
                self.note(self.now, expired);
                self.relist_after_backoff(kind, self.now);
            }
        }
    }

    /// `RunWithContext`: `ListAndWatch` returned, so its backoff runs before the next list.
    fn relist_after_backoff(&mut self, kind: Kind, at: Millis) {
        let reflector = &mut self.informer.reflectors[kind as usize];
        let delay = reflector.backoff.next(at, &mut self.relist_rng);
        let (incarnation, epoch) = (self.incarnation, reflector.epoch);
        let what = Scheduled::Relist {
            kind,
            incarnation,
            epoch,
        };
        self.schedule_after(at, delay, what);
    }

    /// The API server restarts: each watch cache starts again from a list
    /// at the store's current resourceVersion, and every watch on it
    /// closes. A reflector that had not seen every event then gets 410 Gone.
    /// The restart itself takes no time here.
    pub(super) fn restart_api_server(&mut self, at: Millis) {
        self.watch_caches = watch_caches(&self.world);
        for kind in [Kind::CustomResource, Kind::Object] {
            if !self.informer.reflector(kind).broken && !self.down {
                self.close_watch(kind, at);
            }
        }
    }

    /// The reflector of `kind` lists again: that part of the cache becomes
    /// the server's state, and what it held that the list lacks is
    /// synthesized as deleted (`RealFIFO.Replace`, `DeletedFinalStateUnknown`).
    pub(super) fn relist(&mut self, kind: Kind, incarnation: u64, epoch: u64) {
        if incarnation != self.incarnation
            || self.down
            || epoch != self.informer.reflector(kind).epoch
        {
            return;
        }
        let (deleted, changed) = match kind {
            Kind::Object => self.replace_objects(),
            Kind::CustomResource => self.replace_custom_resource(),
        };
        // What the list changes reaches the handlers; so do tombstones. An
        // unchanged object is an update with equal resourceVersions, which
        // `sharedIndexInformer.OnUpdate` marks as a sync: `distribute` gives
        // it only to a syncing listener, one whose resync has come due.
        let syncing = self.informer.resynced;
        let last = self.world.last_resource_version;
        let reflector = self.informer.reflector_mut(kind);
        reflector.last_resource_version = last;
        reflector.broken = false;
        if kind == Kind::Object {
            self.unseen.clear();
        }
        let distributed = changed || !deleted.is_empty();
        self.note(
            self.now,
            Happening::Relisted {
                informer: kind,
                deleted,
            },
        );
        // Every key comes, not only those whose objects changed: a
        // simplification for a rare event (an API server restart).
        if distributed || syncing {
            let keys: Vec<Key> = self.desired.keys().cloned().collect();
            for key in &keys {
                self.enqueue(key, Trigger::Relisted);
            }
        }
    }

    /// The objects' list replaces their part of the cache. Returns the
    /// tombstones and whether anything else changed.
    fn replace_objects(&mut self) -> (Vec<String>, bool) {
        let cache = &self.informer.cache;
        let deleted: Vec<String> = cache
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
            .filter(|name| !cache.observed.contains(name))
            .filter_map(|name| self.world.object(name))
            .collect();
        let changed = !added.is_empty() || !cache.same_objects(&self.world);
        for state in &added {
            self.controller.on_added(state, &client!(self));
        }
        let custom_resource = self.informer.cache.custom_resource.take();
        self.informer.cache = self.world.clone();
        self.informer.cache.custom_resource = custom_resource;
        (deleted, changed)
    }

    /// The custom resources' list replaces their part of the cache.
    fn replace_custom_resource(&mut self) -> (Vec<String>, bool) {
        let mut deleted = Vec::new();
        let mut changed = self.informer.desired != self.desired;
        for name in self.desired.keys() {
            let key = ObjectKey::CustomResource(Key::clone(name));
            let (cached, stored) = (self.informer.cache.get(&key), self.world.get(&key));
            if cached.is_some() && stored.is_none() {
                deleted.push(name.to_string());
            }
            changed |= cached != stored;
        }
        self.informer.cache.custom_resource = self.world.custom_resource.clone();
        self.informer.desired = self.desired.clone();
        (deleted, changed)
    }
}
