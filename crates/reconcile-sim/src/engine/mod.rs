//! The engine: the discrete-event loop behind [`simulate`]. It runs the
//! control plane's actors and the controller on one simulated clock, one
//! actor per file. Start at [`simulate`], then [`Simulation`].
//!
//! # Expected flow
//! At t = 0 the controller's informer lists the custom resource and the
//! objects it owns into its cache, and queues the custom resource's key. Each
//! time a worker takes the key it runs one **pass**: `reconcile` on
//! the informer's cache (never on the API server's store), then each action
//! as its own API request, `action_ms` apart. Every write produces a watch
//! event, which reaches the cache `watch_latency_ms` later and queues the key
//! again, so the loop runs until a pass finds nothing to do. The parts:
//! [`crate::apiserver`] (the store and its rules), `engine::informer` (cache, watch
//! breaks and re-lists, resync), [`crate::workqueue`] (client-go's queue and rate
//! limiters), `engine::workers` (`MaxConcurrentReconciles`), `engine::answers`
//! (the API server's and the cloud's answers), `engine::requeue` (responses → result → queue, as
//! controller-runtime's `reconcileHandler`), `engine::owners` (finalizer
//! owners), `engine::script` (other actors), `engine::gc` (the garbage
//! collector), [`crate::ownership`] (ownerReferences, the custom resource's key
//! space).
//!
//! The custom resource is in the store too, in a key space of its own, and
//! every object the controller manages refers to it (ownerReferences with
//! `controller` and `blockOwnerDeletion`). When another actor deletes it,
//! the garbage collector deletes or orphans what it owned, as the
//! propagation policy says.
//!
//! # Guarantees
//! - Deterministic: the same scenario and [`SimConfig`] (including `seed`) give
//!   an identical [`Timeline`]. No wall clock, no global RNG.
//! - `reconcile` never sees why a pass ran; the reason is only recorded.
//! - The work queue never processes the key twice at once (client-go's dirty
//!   and processing sets).
//!
//! # Finalizers
//! FINALIZE and DELETE are both a delete request; the API server
//! ([`crate::apiserver`]) decides from the finalizers whether the object goes at once
//! or starts terminating (deletionTimestamp). The owner of each finalizer is
//! another controller: when an object starts terminating, each owner that is
//! not stuck removes its own entry `finalizer_owner_delay_ms` later, whatever
//! this controller does (even while it is down). The update that removes the
//! last entry deletes the object, as the API server's
//! `ShouldDeleteDuringUpdate` does, so no DELETE follows a FINALIZE.
//!
//! # Convergence bound
//! Without faults (no failures, drops, crash, stuck finalizers, other writers
//! or script; owned objects watched) a run converges within
//!
//! `passes ≤ 1 + n + Σf` (plus one per resync tick that fires first, and one
//! per pass with a failed request: its requeue waits in the delaying queue
//! and fires even after a later pass for the key has succeeded, as
//! client-go's `AddAfter` does)
//!
//! where `n` is the number of actions of the first plan and `Σf` the
//! finalizer entries of the objects it FINALIZEs. Why:
//! - pass 1 (the informer's initial list) applies all `n` actions; every
//!   write raises one watch event;
//! - owners remove the `Σf` entries, each removal raising an event (the last
//!   one of an object is its delete). Later FINALIZEs find the object
//!   terminating and write nothing, and nobody else writes: `n + Σf` events
//!   in all;
//! - a pass that reads a stale cache repeats actions whose events have not
//!   arrived: those write nothing (404 on a delete, an object already
//!   terminating) or fail (409), and a failure adds only its requeue;
//! - every later pass needs the key queued, which only a delivered event, a
//!   resync tick or a requeue does; the queue folds events (an add while
//!   queued or processing adds at most one pass) but never splits one.
//!
//! The bound is for deterministic names (`naming`'s default): when the API
//! server generates names ([`crate::naming`], beyond the contract), a stale read's
//! second CREATE succeeds as a duplicate, and a later pass deletes it.
//!
//! With no watch latency no read is stale and no requeue happens. With the
//! default timing the events of a pass mostly arrive while it runs and fold
//! into one more pass, so runs are much shorter (the seed example: 3
//! actions, 3 passes, the second repeating a DELETE its cache had not seen).
//!
//! # Caveats
//! - A pass reads the cache, which lags the store by the watch latency: it
//!   may repeat an action whose event has not arrived yet (404 on a delete,
//!   taken as done; 409 AlreadyExists on a create, an error that requeues).
//! - `watchBreakRate` is the chance that the watch closes before an event;
//!   the reflector resumes from its last resourceVersion and the API
//!   server replays the gap from its watch cache (`informer.rs`). Only 410
//!   Gone (after an API server restart) makes the
//!   informer list again, after the reflector's backoff (800 ms, jitter 1.0), and
//!   synthesizes the deletes it missed. Real watches rarely break this often.
//! - `world_after` is the store when the pass ended; of the cache only its
//!   differences from the store are recorded (`cache_lag`).
//! - Each custom resource is a key; backoff is per key, client-go's token
//!   bucket shared by all. `workers` run passes of different keys at once.
//! - A failing action ends the pass (the idiomatic `return err`); the rest are
//!   not attempted and the key is requeued with backoff.
//! - While the controller is down after a crash, events reach nobody; the
//!   restarted controller starts a fresh informer, which lists what exists.
//! - A finalizer owner has one worker: it cleans up after one object at a
//!   time, `finalizer_owner_delay_ms` each (or its own `finalizer_owners`
//!   delay), in the order the objects started terminating. The
//!   garbage collector (`engine::gc`) owns `orphan` and `foregroundDeletion`;
//!   it acts only on what a deleted owner owned (the custom resource, by a
//!   scripted `delete-custom-resource`), `watch_latency_ms + action_ms` after
//!   each write it must look at, its watch never breaking and its requests
//!   never failing. The controller's own deletes use the default propagation
//!   (background), which adds neither finalizer.
//! - Once its custom resource is being deleted or gone, the reconciler
//!   returns at once (controller-runtime: the Get is NotFound, or the object
//!   has a deletionTimestamp and no finalizer of this controller), so passes
//!   do nothing. The state to reach is then the collector's: the custom
//!   resource gone and no object referring to it (background and foreground
//!   delete the dependents, orphan keeps them without the reference); the
//!   verdict and `out_of_sync` count what is left of that.
//! - Only [`OtherWriter`]s can fight the controller: scripted events are
//!   finitely many, so a state they bring back is never called an oscillation.
//! - Simulated time ends at `Millis::MAX` ms: anything the settings would
//!   schedule later (a resync, requeue, restart, watch event...) never
//!   happens, and a pass still running then ends there.

mod answers;
mod cloud;
mod driven;
mod gc;
mod informer;
mod injected;
mod kubelet;
mod names;
mod owners;
mod pass;
mod probe;
mod reflector;
mod requests;
mod requeue;
mod script;
mod snapshot;
mod stepping;
mod verdict;
mod workers;

use std::rc::Rc;
use std::sync::Arc;

use crate::apiserver::UpdateOutcome;
use crate::comparison::controller_plan;
use crate::control_plane::agenda::Agenda;
use crate::control_plane::queue::{ControllerQueue, Key};
use crate::control_plane::sorted::SortedMap;
use crate::controllers::controller::Controller;
use crate::controllers::controller::Worker;
use crate::events::{EventLog, SimEvent};
use crate::ownership::ObjectKey;
use crate::rng::{SimRng, Stream};
use crate::workqueue::{AddOutcome, Millis};
use crate::world::{Change, World};
use crate::CustomResources;
use crate::{
    Happening, LogEntry, OtherWriter, PassRecord, SimConfig, SimScenario, Timeline, Trigger,
    Verdict,
};
use informer::{Delivery, Informer};
use reconcile_core::model::Resources;
use reconcile_core::stable::{SplitMix64, StableHasher};
use reflector::Kind;
use requeue::PassResult;

/// How long the world stays idle before the next scripted event, when nothing else is pending.
const IDLE_GAP_MS: Millis = 100;
/// A state that comes back this many times, undone each time, is an oscillation.
const OSCILLATION_REPEATS: u32 = 3;

pub use driven::Driven;
pub use injected::Injection;
pub(crate) use probe::Probed;
pub use snapshot::{
    CollectorTask, CollectorWork, ControllerPicture, InFlight, KeyPicture, KeyState, OwnerTask,
    Picture, Position, QueuePicture,
};
pub use stepping::{ReconcileCall, ResumeError, Simulation, Step};

/// Runs the loop until it converges, provably won't, or hits the pass limit,
/// with the contract's own `reconcile` answering every call.
pub fn simulate(scenario: &SimScenario, config: &SimConfig) -> Timeline {
    simulate_custom_resources(&CustomResources::one(scenario), config)
}

/// [`simulate`] for a scenario of several custom resources.
pub fn simulate_custom_resources(scenario: &CustomResources, config: &SimConfig) -> Timeline {
    let mut simulation = Simulation::of_custom_resources(scenario, config.clone());
    while let Step::Reconcile(call) = simulation.step() {
        let plan = controller_plan(
            config.comparison(),
            call.desired,
            call.observed,
            call.finalizers,
        );
        simulation.resume(plan);
    }
    simulation.into_timeline()
}

/// Where [`Engine::advance`] stopped.
enum Advance {
    /// A pass waits for its reconcile's plan, or for its controller's next
    /// step from outside (`engine::driven`).
    Reconcile,
    /// The probe has the pictures it was armed for (never without one).
    Paused,
    Finished(Verdict),
}

/// Things scheduled on the simulated clock.
#[derive(Debug, Clone)]
enum Scheduled {
    /// The informer lists the custom resource at start: it queues the key.
    /// `incarnation`: the controller process that listed; a crash before
    /// the list lands loses it (the restart lists again).
    Listed {
        incarnation: u64,
    },
    /// A watch event reaches the controller's informer.
    Deliver {
        delivery: Delivery,
        /// The resourceVersion of the write: the reflector's last one once taken.
        resource_version: u64,
        incarnation: u64,
        epoch: u64,
    },
    /// The reflector's new watch, from its last resourceVersion, reaches the
    /// API server after the old one closed.
    Rewatch {
        kind: Kind,
        incarnation: u64,
        epoch: u64,
    },
    /// The reflector lists again after a watch error.
    Relist {
        kind: Kind,
        incarnation: u64,
        epoch: u64,
    },
    Resync {
        incarnation: u64,
    },
    /// The delaying queue's waiting loop wakes: entries due by now move into
    /// the queue. `periodic` when the entry it was set for is a RequeueAfter
    /// of a successful pass, which repeats like a resync.
    QueueWake {
        incarnation: u64,
        periodic: bool,
    },
    /// The owner of one finalizer of a terminating object, its cleanup done,
    /// removes its entry.
    OwnerActs {
        object: String,
        finalizer: String,
    },
    /// The kubelet has stopped a deleted pod's containers (`uid`: that pod,
    /// not one created again under its name).
    PodStopped {
        object: String,
        uid: u64,
    },
    Script {
        index: usize,
    },
    OtherWriter {
        index: usize,
    },
    Restart,
    /// The response to request number `sent` of `worker`'s pass `pass` arrives.
    Request {
        worker: Worker,
        pass: usize,
        sent: usize,
    },
    /// `worker` finishes pass `pass`: `reconcileHandler` maps its result
    /// to the queue, then `Done`. A crash since voids it (`incarnation`).
    PassDone {
        worker: Worker,
        pass: usize,
        key: Key,
        result: PassResult,
        incarnation: u64,
    },
    /// A garbage collector worker takes an item from one of its queues.
    GcWork {
        queue: gc::Queue,
        key: ObjectKey,
    },
}

struct Engine {
    /// Shared with the driver that owns the run ([`Simulation`]).
    config: Rc<SimConfig>,
    /// Each custom resource's spec, by name (the controller's keys).
    desired: SortedMap<Key, Resources>,
    desired_hash: u64,
    /// The API server's store: the truth.
    world: World,
    /// What the controller reads: its informer's cache.
    informer: Informer,
    /// The API server's watch caches, one per kind: recent events, from
    /// which a watch resumes.
    watch_caches: reflector::WatchCaches,
    initial: World,
    now: Millis,
    seq: u64,
    events: Agenda<Scheduled>,
    /// The work queue the setting `queue` names, with the backoff policy's rate limiter.
    queue: ControllerQueue,
    /// Objects with watch events the cache has not taken yet, and how many,
    /// sorted by name.
    unseen: Vec<(Arc<str>, u32)>,
    /// The earliest queue wake-up scheduled, so that one is not doubled.
    wake_at: Option<Millis>,
    /// Why each key is waiting, queued or due again.
    triggers: requeue::Triggers,
    /// The controller's workers and the passes they run.
    workers: workers::Workers,
    /// Each key's out-of-sync count, with the stamp of what it counted
    /// (`World::owned_stamp`): a pass recounts only the keys it changed.
    out_of_sync_memo: std::cell::RefCell<SortedMap<Key, (u64, usize)>>,
    /// The controller process's incarnation: 0 at start, bumped by each crash.
    /// Timers and in-flight events of an older incarnation are void.
    incarnation: u64,
    /// Between a crash and the restart no controller runs: events reach nobody.
    down: bool,
    /// The initial list's Add has queued the key. Until then events update
    /// the cache but queue nothing: controller-runtime's `Controller.Start`
    /// (`pkg/internal/controller/controller.go`) waits for each source's
    /// `WaitForSync` before "Starting workers", and the list's Adds come
    /// first, so the first pass runs for the list's reason, whatever
    /// arrived with it.
    listed: bool,
    failures_rng: SimRng,
    drops_rng: SimRng,
    relist_rng: SimRng,
    /// Draws each new informer's resync jitter.
    resync_rng: SimRng,
    passes: Vec<PassRecord>,
    /// In time order, an entry after the ones noted earlier at the same time
    /// (see [`Engine::note`]).
    log: Vec<LogEntry>,
    event_log: EventLog,
    /// The scripted events of other actors, each with the world it left.
    actor_events: Vec<crate::ActorEventRecord>,
    /// Other actors: what of theirs is scheduled, and what they last wrote.
    actors: script::Actors,
    /// What the verdict watches for: oscillations and status hot loops.
    watch: verdict::Watch,
    /// The finalizer owners' turns and workers.
    owners: owners::FinalizerOwners,
    /// kube-controller-manager's garbage collector.
    gc: gc::GarbageCollector,
    /// Takes pictures of the control plane for [`crate::picture`]; `None` in `simulate`.
    probe: Option<Box<probe::Probe>>,
    /// Draws the names the API server generates (`generateName`).
    names_rng: SimRng,
    /// The controller process running now; a crash replaces it with a new one.
    controller: Box<dyn Controller>,
    /// Makes the controller of each process (its memory starts empty).
    new_controller: NewController,
    /// The external system the controller may keep a load balancer in.
    cloud: cloud::CloudActor,
    /// Faults a caller armed for the controller's next request.
    armed: injected::Armed,
}

/// Makes a controller, for each process of a run.
pub type NewController = Rc<dyn Fn() -> Box<dyn Controller>>;

impl Engine {
    fn new(
        scenario: &CustomResources,
        config: Rc<SimConfig>,
        new_controller: NewController,
    ) -> Self {
        let mut world = scenario.world();
        world.start_terminating(&config.terminating);
        let mut resync_rng = SimRng::stream(config.seed, Stream::ResyncJitter);
        let desired = scenario.desired();
        let informer = Informer::list(&world, &desired, 0, 0, &mut resync_rng);
        let mut engine = Self {
            watch_caches: reflector::watch_caches(&world),
            informer,
            resync_rng,
            relist_rng: SimRng::stream(config.seed, Stream::RelistJitter),
            desired_hash: desired_hash(&desired),
            desired,
            initial: world.clone(),
            world,
            now: 0,
            seq: 0,
            events: Agenda::new(),
            queue: ControllerQueue::new(config.queue, &config.backoff),
            unseen: Vec::new(),
            wake_at: None,
            triggers: requeue::Triggers::default(),
            workers: workers::Workers::new(config.workers, 0),
            out_of_sync_memo: std::cell::RefCell::default(),
            incarnation: 0,
            down: false,
            listed: false,
            failures_rng: SimRng::stream(config.seed, Stream::ActionFailures),
            drops_rng: SimRng::stream(config.seed, Stream::WatchDrops),
            passes: Vec::new(),
            log: Vec::new(),
            event_log: EventLog::default(),
            actor_events: Vec::new(),
            actors: script::Actors::new(config.script.len()),
            watch: verdict::Watch::default(),
            owners: owners::FinalizerOwners::default(),
            gc: gc::GarbageCollector::default(),
            probe: None,
            names_rng: SimRng::stream(config.seed, Stream::GeneratedNames),
            controller: new_controller(),
            new_controller,
            cloud: cloud::CloudActor::new(config.seed),
            armed: injected::Armed::default(),
            config,
        };
        // The owners of what is terminating from the start clean up from the start.
        for name in &engine.config.terminating.clone() {
            if engine.world.is_terminating(name) {
                engine.schedule_owners_of(name, 0);
            }
        }
        engine.gc_list();
        engine.schedule_script_after(0, 0);
        // The informer's initial list delivers the custom resources.
        engine.schedule(
            1,
            Scheduled::Listed {
                incarnation: engine.incarnation,
            },
        );
        engine.schedule_resync(1);
        engine.schedule_other_writers(0);
        engine
    }

    /// Runs the clock until a pass waits for its reconcile's plan, or the run ends.
    fn advance(&mut self) -> Advance {
        Advance::Finished(loop {
            if self.probe_paused() {
                return Advance::Paused;
            }
            if self.workers.awaiting().is_some() || self.workers.held().is_some() {
                return Advance::Reconcile;
            }
            let busy = self.workers.any_busy();
            let limit = self.passes.len() >= self.config.max_passes;
            if limit && !busy {
                let last = self.passes.len();
                break self
                    .verdict_after_pass(last)
                    .unwrap_or_else(|| Verdict::NotConverging {
                        reason: self.watch.at_pass_limit(self.config.max_passes),
                    });
            }
            if let (false, false, Some((worker, free_at))) =
                (limit, self.queue.is_empty(), self.workers.free())
            {
                let start = self.now.max(free_at);
                // Events due before the worker is free happen first.
                if self
                    .events
                    .first_key_value()
                    .is_none_or(|(&(at, _), _)| start < at)
                {
                    let then = std::mem::replace(&mut self.now, start);
                    if self.start_pass(worker) {
                        continue;
                    }
                    self.now = then;
                }
            }
            if !busy && self.is_idle() {
                if let Some(index) = self.next_unscheduled_script() {
                    self.actors.scheduled_script[index] = true;
                    self.schedule_after(self.now, IDLE_GAP_MS, Scheduled::Script { index });
                    continue;
                }
                if let Some(verdict) = self.idle_verdict() {
                    break verdict;
                }
            }
            let Some(((at, _), scheduled)) = self.events.pop_first() else {
                // Nothing at all is pending: the world stays as it is.
                break self.idle_verdict().unwrap_or_else(|| self.no_trigger());
            };
            self.now = self.now.max(at);
            let ended = match &scheduled {
                Scheduled::PassDone {
                    pass, incarnation, ..
                } if *incarnation == self.incarnation => Some(*pass),
                _ => None,
            };
            self.handle(scheduled);
            if let Some(pass) = ended {
                if let Some(verdict) = self.verdict_after_pass(pass) {
                    break verdict;
                }
            }
        })
    }

    fn schedule(&mut self, at: Millis, what: Scheduled) {
        self.seq += 1;
        self.events.insert((at, self.seq), what);
    }

    /// Schedules `what` for `delay` after `from`. Durations come from users
    /// (the JS API takes any u64), so the sum may pass the end of simulated
    /// time, `Millis::MAX`: what would happen then never happens.
    fn schedule_after(&mut self, from: Millis, delay: Millis, what: Scheduled) {
        if let Some(at) = from.checked_add(delay) {
            self.schedule(at, what);
        }
    }

    /// Logs `what` at `at`, after the entries noted at `at` or earlier: the
    /// order a stable sort by time would give, kept as the log grows, so no
    /// sort of `LogEntry`s is linked (docs/SIZE.md). Notes come in time order
    /// in every run the tests make (the insertion is at the end); one noted
    /// ahead of time would still land in its place.
    fn note(&mut self, at: Millis, what: Happening) {
        let index = self.log.partition_point(|entry| entry.at <= at);
        self.log.insert(
            index,
            LogEntry {
                at,
                after_pass: self.passes.len(),
                what,
            },
        );
    }

    /// The next resync tick after `from`, skipping the ticks that would come
    /// while the worker is busy: the key is queued or its next pass deferred
    /// by then, so those ticks change nothing. Without the skip, a long pass
    /// with a short period (an hour of actions, a 1 ms resync) costs millions
    /// of events and the run never ends in practice.
    fn schedule_resync(&mut self, from: Millis) {
        if let Some(period) = self.config.resync_period_ms.filter(|p| *p > 0) {
            let period = self.informer.resync_period(period);
            let ticks = self
                .workers
                .hold_every_key_until(self.desired.len())
                .saturating_sub(from)
                .div_ceil(period)
                .max(1);
            if let Some(delay) = period.checked_mul(ticks) {
                self.schedule_after(
                    from,
                    delay,
                    Scheduled::Resync {
                        incarnation: self.incarnation,
                    },
                );
            }
        }
    }

    /// A tick that queued nothing: the next can queue something only once
    /// another event has changed the cache, so the ticks before it are
    /// skipped (each would do nothing, and a far event would take millions).
    /// With nothing else pending, no tick follows.
    fn schedule_resync_after_next_event(&mut self) {
        let Some(period) = self.config.resync_period_ms.filter(|p| *p > 0) else {
            return;
        };
        let period = self.informer.resync_period(period);
        let next = self
            .events
            .iter()
            .filter(|(_, e)| !matches!(e, Scheduled::Resync { .. }))
            .map(|(&(at, _), _)| at)
            .min();
        let Some(next) = next else { return };
        let ticks = next.saturating_sub(self.now).div_ceil(period).max(1);
        if let Some(delay) = period.checked_mul(ticks) {
            let what = Scheduled::Resync {
                incarnation: self.incarnation,
            };
            self.schedule_after(self.now, delay, what);
        }
    }

    fn handle(&mut self, scheduled: Scheduled) {
        match scheduled {
            Scheduled::Listed { incarnation } => {
                if incarnation == self.incarnation {
                    self.listed = true;
                    self.enqueue_listed(false);
                }
            }
            Scheduled::Deliver {
                delivery,
                resource_version,
                incarnation,
                epoch,
            } => self.deliver(delivery, resource_version, incarnation, epoch),
            Scheduled::Rewatch {
                kind,
                incarnation,
                epoch,
            } => self.rewatch(kind, incarnation, epoch),
            Scheduled::Relist {
                kind,
                incarnation,
                epoch,
            } => self.relist(kind, incarnation, epoch),
            Scheduled::Resync { incarnation } => {
                if incarnation == self.incarnation {
                    self.informer.resynced = true;
                    let keys = self.resync_keys();
                    if !keys.is_empty() {
                        for key in keys {
                            self.enqueue(&key, Trigger::Resync);
                        }
                        self.schedule_resync(self.now);
                    } else {
                        self.schedule_resync_after_next_event();
                    }
                }
            }
            Scheduled::QueueWake { incarnation, .. } => {
                if incarnation == self.incarnation {
                    self.queue_wakes();
                }
            }
            Scheduled::OwnerActs { object, finalizer } => self.owner_acts(object, finalizer),
            Scheduled::PodStopped { object, uid } => self.pod_stopped(object, uid),
            Scheduled::Script { index } => self.apply_script(index),
            Scheduled::OtherWriter { index } => self.other_writer_acts(index),
            Scheduled::Request { worker, pass, sent } => self.answer_request(worker, pass, sent),
            Scheduled::GcWork { queue, key } => self.gc_work(queue, key),
            Scheduled::PassDone {
                worker,
                pass,
                key,
                result,
                incarnation,
            } => {
                if incarnation == self.incarnation {
                    self.pass_done(worker, pass, &key, result);
                }
            }
            Scheduled::Restart => {
                self.down = false;
                self.listed = true;
                self.note(self.now, Happening::Restarted);
                self.workers.reset(self.now);
                // A fresh informer lists everything again: the custom resource arrives as added.
                let epoch = self.informer.epoch() + 1;
                self.informer = Informer::list(
                    &self.world,
                    &self.desired,
                    epoch,
                    self.now,
                    &mut self.resync_rng,
                );
                self.unseen.clear();
                self.enqueue_listed(true);
                self.schedule_resync(self.now);
            }
        }
    }

    /// The informer listed: each custom resource it holds arrives as
    /// added (after a restart, those deleted meanwhile are not there).
    fn enqueue_listed(&mut self, after_restart: bool) {
        let keys: Vec<Key> = self.world.custom_resource_names().cloned().collect();
        for key in keys {
            let trigger = Trigger::CustomResource {
                change: Change::Added,
                after_restart,
            };
            self.enqueue(&key, trigger);
        }
    }

    fn enqueue(&mut self, key: &Key, trigger: Trigger) {
        let added = self.queue.add(Key::clone(key), requeue::instant(self.now));
        self.record_add(key, added, trigger);
    }

    /// Remembers why the key was queued (the first reason), or why it will be
    /// queued again after the pass that is processing it.
    fn record_add(&mut self, key: &Key, added: AddOutcome, trigger: Trigger) {
        let event = SimEvent::Enqueued {
            outcome: added,
            trigger: trigger.clone(),
        };
        match added {
            AddOutcome::Queued => self.triggers.of(key).queued = Some(trigger),
            AddOutcome::AlreadyQueued => {}
            AddOutcome::Deferred => {
                if self.triggers.of(key).deferred.is_none() {
                    self.note(
                        self.now,
                        Happening::Deferred {
                            trigger: trigger.clone(),
                        },
                    );
                    self.triggers.of(key).deferred = Some(trigger);
                }
            }
        }
        // Recorded once the queue's reasons are up to date, for a picture taken here.
        self.push_event(self.now, event);
    }

    /// `worker` finished pass `pass`: `reconcileHandler` maps its result
    /// to the queue, then `Done`. The worker holds the key until then, as
    /// the queue sees it.
    fn pass_done(&mut self, worker: Worker, pass: usize, key: &Key, result: PassResult) {
        let requeued_at = self.handle_result(key, result);
        if let Some(record) = pass.checked_sub(1).and_then(|i| self.passes.get_mut(i)) {
            result.show_requeue(record, requeued_at);
        }
        let deferred = self.triggers.of(key).deferred.take();
        if self.queue.done(key, requeue::instant(self.now)) {
            self.triggers.of(key).queued = deferred;
        }
        if let Some(slot) = self.workers.slot_mut(worker) {
            slot.doing = workers::Doing::Nothing;
        }
    }

    fn crash(&mut self, pass: usize, at: Millis) {
        self.note(at, Happening::Crashed { pass });
        // The other workers' reconciles die with the process.
        self.abort_passes(at);
        // Everything in memory is gone: the queue, backoff state, timers, in-flight events.
        self.incarnation += 1;
        self.down = true;
        self.queue = ControllerQueue::new(self.config.queue, &self.config.backoff);
        self.wake_at = None;
        self.triggers = requeue::Triggers::default();
        // A new process: whatever the controller kept in memory is gone.
        self.controller = (self.new_controller)();
        // A restart after the end of simulated time never comes.
        self.workers
            .reset(at.saturating_add(self.config.restart_delay_ms));
        self.schedule_after(at, self.config.restart_delay_ms, Scheduled::Restart);
    }
}

/// Whether the watch event of scripted event `index` is dropped: one draw per
/// event from its own stream, shared by the level- and edge-triggered models.
pub(super) fn external_event_dropped(config: &SimConfig, index: usize) -> bool {
    let seed = config
        .seed
        .wrapping_add((index as u64 + 1).wrapping_mul(SplitMix64::GOLDEN_GAMMA));
    SimRng::stream(seed, Stream::ExternalDrops).chance(config.watch_break_rate)
}

/// The watch event an update raises, if it wrote anything.
fn update_change(outcome: UpdateOutcome) -> Option<Change> {
    match outcome {
        UpdateOutcome::Updated => Some(Change::Updated),
        UpdateOutcome::Deleted => Some(Change::Deleted),
        UpdateOutcome::Unchanged => None,
    }
}

pub(super) fn writer_disagrees(world: &World, writer: &OtherWriter) -> bool {
    world
        .observed
        .get(&writer.object)
        .is_some_and(|spec| spec.get_path(&writer.path) != Some(&writer.value))
}

/// The custom resources' specs, hashed for the oscillation watch: with one,
/// its [`resources_hash`].
pub(super) fn desired_hash(desired: &SortedMap<Key, Resources>) -> u64 {
    desired
        .values()
        .fold(0u64, |sum, spec| sum.wrapping_add(resources_hash(spec)))
}

pub(super) fn resources_hash(resources: &Resources) -> u64 {
    resources.iter().fold(0u64, |sum, (name, spec)| {
        let mut hasher = StableHasher::default();
        hasher.write(name.as_bytes());
        hasher.write(&spec.stable_hash().to_le_bytes());
        sum.wrapping_add(hasher.finish())
    })
}
