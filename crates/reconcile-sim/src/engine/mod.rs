//! The discrete-event loop behind [`simulate`].

mod requeue;

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::apiserver::{
    ApiError, DeleteOptions, DeleteOutcome, DeleteStrategy, Update, UpdateOutcome,
};
use super::rng::{SimRng, Stream};
use super::workqueue::{AddOutcome, Millis, RateLimitingQueue};
use super::world::{Change, World};
use super::{
    ActionOutcome, ActionResult, Happening, LogEntry, NotConvergingReason, OtherWriter, PassRecord,
    SimConfig, SimScenario, Timeline, Trigger, Verdict, WorldEvent,
};
use reconcile_core::explain::diff;
use reconcile_core::json::Json;
use reconcile_core::model::Resources;
use reconcile_core::reconcile::{count_out_of_sync, reconcile, Action, ActionKind};
use reconcile_core::stable::{SplitMix64, StableHasher};
use requeue::PassResult;

/// The controller's one key: the custom resource it reconciles.
const KEY: &str = "custom-resource";
/// How long the world stays idle before the next scripted event, when nothing else is pending.
const IDLE_GAP_MS: Millis = 100;
/// A state that comes back this many times, undone each time, is an oscillation.
const OSCILLATION_REPEATS: u32 = 3;

/// Runs the loop until it converges, provably won't, or hits the pass limit.
pub fn simulate(scenario: &SimScenario, config: &SimConfig) -> Timeline {
    let mut engine = Engine::new(scenario, config);
    let verdict = engine.run();
    let mut log = engine.log;
    log.sort_by_key(|entry| entry.at);
    Timeline {
        passes: engine.passes,
        log,
        verdict,
        initial: engine.initial,
        desired_initial: scenario.desired.clone(),
        final_world: engine.world,
    }
}

/// Things scheduled on the simulated clock.
#[derive(Debug, Clone)]
enum Scheduled {
    /// An event reaches the controller's informer and queues the key.
    Deliver {
        trigger: Trigger,
        generation: u64,
    },
    Resync {
        generation: u64,
    },
    /// The delaying queue's waiting loop wakes: entries due by now move into
    /// the queue. `periodic` when the entry it was set for is a RequeueAfter
    /// of a successful pass, which repeats like a resync.
    QueueWake {
        generation: u64,
        periodic: bool,
    },
    /// The owner of one finalizer of a terminating object, its cleanup done,
    /// removes its entry.
    OwnerActs {
        object: String,
        finalizer: String,
    },
    Script {
        index: usize,
    },
    OtherWriter {
        index: usize,
    },
    Restart,
    /// The worker finishes the pass it is processing: `reconcileHandler`
    /// maps its result to the queue, then `Done`.
    PassDone {
        result: PassResult,
    },
}

struct Engine<'a> {
    config: &'a SimConfig,
    desired: Resources,
    desired_hash: u64,
    world: World,
    initial: World,
    now: Millis,
    seq: u64,
    events: BTreeMap<(Millis, u64), Scheduled>,
    /// client-go's rate-limiting queue: the dirty and processing sets, one
    /// waiting entry per key, and the backoff policy's rate limiter.
    queue: RateLimitingQueue<&'static str>,
    /// The earliest queue wake-up scheduled, so that one is not doubled.
    wake_at: Option<Millis>,
    /// Why the queued key is queued.
    queued_trigger: Option<Trigger>,
    /// Why a key that arrived during processing will be queued again.
    deferred_trigger: Option<Trigger>,
    worker_free_at: Millis,
    /// Bumped by a crash: timers and in-flight events of the old process are void.
    generation: u64,
    /// Between a crash and the restart no controller runs: events reach nobody.
    down: bool,
    failures_rng: SimRng,
    drops_rng: SimRng,
    passes: Vec<PassRecord>,
    log: Vec<LogEntry>,
    scheduled_script: Vec<bool>,
    scheduled_writers: BTreeSet<usize>,
    last_other_writer: BTreeMap<String, String>,
    controller_writes: usize,
    /// Writes by `other_writers`: only they can undo this controller's work forever.
    other_writes: usize,
    /// Start-of-pass states with work to do: how often seen, and both write counts then.
    start_states: BTreeMap<u64, (u32, usize, usize)>,
    oscillation: Option<NotConvergingReason>,
    pass_in_progress: bool,
    /// Finalizer owners whose turn is scheduled, by (object, finalizer): one each.
    owners_pending: BTreeSet<(String, String)>,
}

impl<'a> Engine<'a> {
    fn new(scenario: &SimScenario, config: &'a SimConfig) -> Self {
        let world = World::new(scenario.observed.clone(), scenario.finalizers.clone());
        let mut engine = Self {
            config,
            desired: scenario.desired.clone(),
            desired_hash: resources_hash(&scenario.desired),
            initial: world.clone(),
            world,
            now: 0,
            seq: 0,
            events: BTreeMap::new(),
            queue: RateLimitingQueue::new(config.backoff.rate_limiter()),
            wake_at: None,
            queued_trigger: None,
            deferred_trigger: None,
            worker_free_at: 0,
            generation: 0,
            down: false,
            failures_rng: SimRng::stream(config.seed, Stream::ActionFailures),
            drops_rng: SimRng::stream(config.seed, Stream::WatchDrops),
            passes: Vec::new(),
            log: Vec::new(),
            scheduled_script: vec![false; config.script.len()],
            scheduled_writers: BTreeSet::new(),
            last_other_writer: BTreeMap::new(),
            controller_writes: 0,
            other_writes: 0,
            start_states: BTreeMap::new(),
            oscillation: None,
            pass_in_progress: false,
            owners_pending: BTreeSet::new(),
        };
        engine.schedule_script_after(0, 0);
        // The informer's initial list delivers the custom resource.
        let trigger = Trigger::CustomResource {
            change: Change::Added,
            after_restart: false,
        };
        engine.schedule(
            1,
            Scheduled::Deliver {
                trigger,
                generation: 0,
            },
        );
        engine.schedule_resync(1);
        engine.schedule_other_writers(0);
        engine
    }

    fn run(&mut self) -> Verdict {
        loop {
            if !self.pass_in_progress {
                if self.passes.len() >= self.config.max_passes {
                    return self.verdict_after_pass().unwrap_or(Verdict::NotConverging {
                        reason: NotConvergingReason::PassLimit {
                            limit: self.config.max_passes,
                        },
                    });
                }
                if !self.queue.is_empty() {
                    let start = self.now.max(self.worker_free_at);
                    // Events due before the worker is free happen first.
                    if self
                        .events
                        .first_key_value()
                        .is_none_or(|(&(at, _), _)| start < at)
                    {
                        self.now = start;
                        self.run_pass();
                        continue;
                    }
                }
                if self.is_idle() {
                    if let Some(index) = self.next_unscheduled_script() {
                        self.scheduled_script[index] = true;
                        self.schedule_after(self.now, IDLE_GAP_MS, Scheduled::Script { index });
                        continue;
                    }
                    if let Some(verdict) = self.idle_verdict() {
                        return verdict;
                    }
                }
            }
            let Some(((at, _), scheduled)) = self.events.pop_first() else {
                // Nothing at all is pending: the world stays as it is.
                return self.idle_verdict().unwrap_or_else(|| self.no_trigger());
            };
            self.now = self.now.max(at);
            let pass_ended = matches!(scheduled, Scheduled::PassDone { .. });
            self.handle(scheduled);
            if pass_ended {
                if let Some(verdict) = self.verdict_after_pass() {
                    return verdict;
                }
            }
        }
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

    fn note(&mut self, at: Millis, what: Happening) {
        self.log.push(LogEntry {
            at,
            after_pass: self.passes.len(),
            what,
        });
    }

    /// The next resync tick after `from`, skipping the ticks that would come
    /// while the worker is busy: the key is queued or its next pass deferred
    /// by then, so those ticks change nothing. Without the skip, a long pass
    /// with a short period (an hour of actions, a 1 ms resync) costs millions
    /// of events and the run never ends in practice.
    fn schedule_resync(&mut self, from: Millis) {
        if let Some(period) = self.config.resync_period_ms.filter(|p| *p > 0) {
            let ticks = self
                .worker_free_at
                .saturating_sub(from)
                .div_ceil(period)
                .max(1);
            if let Some(delay) = period.checked_mul(ticks) {
                self.schedule_after(
                    from,
                    delay,
                    Scheduled::Resync {
                        generation: self.generation,
                    },
                );
            }
        }
    }

    /// A watch event about an owned object, unless it is dropped on the way.
    fn watch_event(&mut self, at: Millis, name: &str, change: Change) {
        let dropped = self.drops_rng.chance(self.config.drop_rate);
        self.deliver_unless_dropped(at, name, change, dropped);
    }

    fn deliver_unless_dropped(&mut self, at: Millis, name: &str, change: Change, dropped: bool) {
        if dropped {
            self.note(
                at,
                Happening::WatchEventDropped {
                    name: name.to_owned(),
                    change,
                },
            );
            return;
        }
        let trigger = Trigger::OwnedObject {
            name: name.to_owned(),
            change,
        };
        self.schedule_after(
            at,
            self.config.watch_latency_ms,
            Scheduled::Deliver {
                trigger,
                generation: self.generation,
            },
        );
    }

    fn handle(&mut self, scheduled: Scheduled) {
        match scheduled {
            Scheduled::Deliver {
                trigger,
                generation,
            } => {
                // Nobody hears events while the controller is down; the
                // restarted one lists everything instead.
                if generation != self.generation || self.down {
                    return;
                }
                if matches!(trigger, Trigger::OwnedObject { .. }) && !self.config.watch_owned {
                    return;
                }
                self.enqueue(trigger);
            }
            Scheduled::Resync { generation } => {
                if generation == self.generation {
                    self.enqueue(Trigger::Resync);
                    self.schedule_resync(self.now);
                }
            }
            Scheduled::QueueWake { generation, .. } => {
                if generation == self.generation {
                    self.queue_wakes();
                }
            }
            Scheduled::OwnerActs { object, finalizer } => self.owner_acts(object, finalizer),
            Scheduled::Script { index } => self.apply_script(index),
            Scheduled::OtherWriter { index } => self.other_writer_acts(index),
            Scheduled::PassDone { result } => {
                self.pass_in_progress = false;
                let requeued_at = self.handle_result(KEY, result);
                if let Some(pass) = self.passes.last_mut() {
                    result.show_requeue(&mut pass.actions, requeued_at);
                }
                if self.queue.done(&KEY) {
                    self.queued_trigger = self.deferred_trigger.take();
                }
                self.deferred_trigger = None;
            }
            Scheduled::Restart => {
                self.down = false;
                self.note(self.now, Happening::Restarted);
                self.worker_free_at = self.now;
                // A fresh informer lists everything again: the custom resource arrives as added.
                self.enqueue(Trigger::CustomResource {
                    change: Change::Added,
                    after_restart: true,
                });
                self.schedule_resync(self.now);
            }
        }
    }

    fn enqueue(&mut self, trigger: Trigger) {
        let added = self.queue.add(KEY);
        self.record_add(added, trigger);
    }

    /// Remembers why the key was queued (the first reason), or why it will be
    /// queued again after the pass that is processing it.
    fn record_add(&mut self, added: AddOutcome, trigger: Trigger) {
        match added {
            AddOutcome::Queued => self.queued_trigger = Some(trigger),
            AddOutcome::AlreadyQueued => {}
            AddOutcome::Deferred => {
                if self.deferred_trigger.is_none() {
                    self.note(
                        self.now,
                        Happening::Deferred {
                            trigger: trigger.clone(),
                        },
                    );
                    self.deferred_trigger = Some(trigger);
                }
            }
        }
    }

    fn run_pass(&mut self) {
        let Some(key) = self.queue.get() else { return };
        let index = self.passes.len() + 1;
        let trigger = self.queued_trigger.take().unwrap_or(Trigger::Resync);
        let start = self.now;
        let actions = reconcile(
            &self.desired,
            &self.world.observed,
            Some(&self.world.finalizers),
        );
        if !actions.is_empty() {
            self.watch_for_oscillation(&actions);
        }
        let crash_after = self
            .config
            .crash
            .filter(|c| c.at_pass == index)
            .map(|c| c.after_actions);
        let mut outcomes = Vec::with_capacity(actions.len());
        let mut clock = start;
        let mut failed_at = None;
        let mut crashed = false;
        for (i, action) in actions.into_iter().enumerate() {
            let result = if crashed {
                ActionResult::LostInCrash
            } else if failed_at.is_some() {
                // The pass already returned its error; the crash point is never reached.
                ActionResult::NotAttempted
            } else if crash_after == Some(i) {
                crashed = true;
                ActionResult::LostInCrash
            } else {
                // A pass still running at the end of simulated time ends there.
                clock = clock.saturating_add(self.config.action_ms);
                let result = if self.failures_rng.chance(self.config.failure_rate) {
                    Err(ApiError::Unavailable)
                } else {
                    self.apply(&action, clock)
                };
                result.unwrap_or_else(|error| {
                    failed_at = Some(outcomes.len());
                    ActionResult::Failed {
                        requeued_at: 0,
                        code: error.code(),
                        error: error.to_string(),
                    }
                })
            };
            outcomes.push(ActionOutcome { action, result });
        }
        // A pass that ends before its crash point (fewer actions, or a failure)
        // crashes as it ends.
        crashed |= crash_after.is_some();
        let end = clock.max(start.saturating_add(1));
        // The clock stays at `start`: events during the pass still happen at their own time.
        self.worker_free_at = end;

        // The responses decide the result, which the queue takes as the pass ends.
        let result = PassResult::of(&outcomes, failed_at, end);
        if crashed {
            // The process is gone before it could requeue: shown as the
            // requeue it would have made, which the crash then voids.
            let requeued_at = self.handle_result(key, result);
            result.show_requeue(&mut outcomes, requeued_at);
            self.crash(index, end);
        } else {
            // The key stays processing until then: events meanwhile are deferred.
            self.pass_in_progress = true;
            self.schedule(end, Scheduled::PassDone { result });
        }

        self.schedule_script_after(index, end.saturating_add(1));
        self.schedule_other_writers(end);

        let out_of_sync = self.out_of_sync();
        let world_after = match self.passes.last() {
            Some(last) if *last.world_after == self.world => Rc::clone(&last.world_after),
            _ => Rc::new(self.world.clone()),
        };
        self.passes.push(PassRecord {
            index,
            started_at: start,
            finished_at: end,
            trigger,
            actions: outcomes,
            crashed,
            terminating: world_after.terminating.len(),
            world_after,
            out_of_sync,
        });
    }

    /// Sends one action as its API request; a write raises a watch event.
    /// CREATE is a POST, UPDATE a PUT of the version the pass read, FINALIZE
    /// and DELETE are both a DELETE request: the server decides from the
    /// finalizers whether the object goes or starts terminating.
    fn apply(&mut self, action: &Action, at: Millis) -> Result<ActionResult, ApiError> {
        let name = &action.name;
        let spec = || action.spec.clone().unwrap_or(Json::Null);
        let change = match action.kind {
            ActionKind::Create => {
                self.world.create(name, spec(), Vec::new())?;
                Some(Change::Added)
            }
            ActionKind::Update => {
                // The pass read the world as it is now (there is no cache
                // yet), so the version it sends is the stored one.
                let update = Update {
                    spec: Some(spec()),
                    resource_version: self.world.meta(name).map(|m| m.resource_version),
                    ..Update::default()
                };
                update_change(self.world.update(name, update)?)
            }
            ActionKind::Finalize | ActionKind::Delete => {
                match self.delete(name, at) {
                    Ok(change) => change,
                    // Already gone: what the controller wanted.
                    Err(ApiError::NotFound { .. }) => return Ok(ActionResult::AlreadyGone),
                    Err(error) => return Err(error),
                }
            }
        };
        let Some(change) = change else {
            return Ok(ActionResult::AlreadyTerminating);
        };
        self.controller_writes += 1;
        self.watch_event(at, name, change);
        Ok(ActionResult::Applied)
    }

    /// A DELETE request with the default propagation; when it starts a
    /// termination, every finalizer's owner hears of it. The change it
    /// makes, if any.
    fn delete(&mut self, name: &str, at: Millis) -> Result<Option<Change>, ApiError> {
        let outcome = self.world.delete(
            name,
            &DeleteOptions::default(),
            &DeleteStrategy::default(),
            at,
        )?;
        Ok(match outcome {
            DeleteOutcome::Deleted => Some(Change::Deleted),
            DeleteOutcome::Terminating { written: true } => {
                self.schedule_owners_of(name, at);
                Some(Change::Updated)
            }
            DeleteOutcome::Terminating { written: false } => None,
        })
    }

    fn crash(&mut self, pass: usize, at: Millis) {
        self.note(at, Happening::Crashed { pass });
        // Everything in memory is gone: the queue, backoff state, timers, in-flight events.
        self.generation += 1;
        self.down = true;
        self.queue = RateLimitingQueue::new(self.config.backoff.rate_limiter());
        self.wake_at = None;
        self.queued_trigger = None;
        self.deferred_trigger = None;
        // A restart after the end of simulated time never comes.
        self.worker_free_at = at.saturating_add(self.config.restart_delay_ms);
        self.schedule_after(at, self.config.restart_delay_ms, Scheduled::Restart);
    }

    fn is_stuck(&self, object: &str, finalizer: &str) -> bool {
        self.config
            .stuck_finalizers
            .iter()
            .any(|s| s.object == object && s.finalizer == finalizer)
    }

    /// The owners of `name`'s finalizers learn that it is terminating and
    /// start their cleanup, each on its own, whatever this controller does:
    /// they are other controllers. Each removes its entry
    /// `finalizer_owner_delay_ms` later; stuck ones never do.
    fn schedule_owners_of(&mut self, name: &str, from: Millis) {
        let owners: Vec<String> = self
            .world
            .pending(name)
            .iter()
            .filter(|f| !self.is_stuck(name, f))
            .cloned()
            .collect();
        for finalizer in owners {
            // An owner's queue holds one entry per object.
            if self
                .owners_pending
                .insert((name.to_owned(), finalizer.clone()))
            {
                let object = name.to_owned();
                let turn = Scheduled::OwnerActs { object, finalizer };
                self.schedule_after(from, self.config.finalizer_owner_delay_ms, turn);
            }
        }
    }

    /// One owner's turn: it removes its finalizer with an update. The
    /// update that removes the last one deletes the object (the API
    /// server's `ShouldDeleteDuringUpdate`), and the watch says so.
    fn owner_acts(&mut self, object: String, finalizer: String) {
        self.owners_pending
            .remove(&(object.clone(), finalizer.clone()));
        if !self.world.is_terminating(&object) || !self.world.pending(&object).contains(&finalizer)
        {
            return;
        }
        let rest: Vec<String> = self
            .world
            .pending(&object)
            .iter()
            .filter(|f| **f != finalizer)
            .cloned()
            .collect();
        let update = Update {
            finalizers: Some(rest),
            resource_version: self.world.meta(&object).map(|m| m.resource_version),
            ..Update::default()
        };
        let Ok(outcome) = self.world.update(&object, update) else {
            // The owner read the object just now, so nothing can refuse it.
            return;
        };
        let what = Happening::FinalizerRemoved {
            object: object.clone(),
            finalizer,
            object_deleted: outcome == UpdateOutcome::Deleted,
        };
        self.note(self.now, what);
        if let Some(change) = update_change(outcome) {
            self.watch_event(self.now, &object, change);
        }
    }

    fn schedule_script_after(&mut self, pass: usize, at: Millis) {
        for index in 0..self.config.script.len() {
            if self.config.script[index].after_pass == pass && !self.scheduled_script[index] {
                self.scheduled_script[index] = true;
                self.schedule(at, Scheduled::Script { index });
            }
        }
    }

    fn next_unscheduled_script(&self) -> Option<usize> {
        (0..self.config.script.len())
            .filter(|i| !self.scheduled_script[*i])
            .min_by_key(|i| (self.config.script[*i].after_pass, *i))
    }

    fn apply_script(&mut self, index: usize) {
        let event = self.config.script[index].event.clone();
        let now = self.now;
        // Decided per scripted event, so the edge-triggered model sees the same drops.
        let dropped = external_event_dropped(self.config, index);
        let effect = match &event {
            WorldEvent::Delete { name } => match self.delete(name, now) {
                Err(_) => "not found; nothing deleted".to_owned(),
                Ok(change) => {
                    if let Some(change) = change {
                        self.deliver_unless_dropped(now, name, change, dropped);
                    }
                    if change == Some(Change::Deleted) {
                        "deleted".to_owned()
                    } else {
                        "has finalizers, so it is terminating".to_owned()
                    }
                }
            },
            WorldEvent::Drift { name, path, value } => match self.world.observed.get(name) {
                Some(spec) => {
                    let mut spec = spec.clone();
                    spec.set_path(path, value.clone());
                    if let Some(change) = self.world.write_spec(name, spec) {
                        self.deliver_unless_dropped(now, name, change, dropped);
                    }
                    self.last_other_writer
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
                    self.deliver_unless_dropped(now, name, Change::Added, dropped);
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
                        self.deliver_unless_dropped(now, name, Change::Updated, dropped);
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
                self.desired = desired.clone();
                self.desired_hash = resources_hash(desired);
                if dropped {
                    "spec changed; its watch event was dropped".to_owned()
                } else {
                    let trigger = Trigger::CustomResource {
                        change: Change::Updated,
                        after_restart: false,
                    };
                    self.schedule_after(
                        now,
                        self.config.watch_latency_ms,
                        Scheduled::Deliver {
                            trigger,
                            generation: self.generation,
                        },
                    );
                    "spec changed".to_owned()
                }
            }
        };
        self.note(now, Happening::ExternalEvent { event, effect });
        self.schedule_other_writers(now);
    }

    fn schedule_other_writers(&mut self, from: Millis) {
        for (index, writer) in self.config.other_writers.iter().enumerate() {
            if !self.scheduled_writers.contains(&index) && writer_disagrees(&self.world, writer) {
                self.scheduled_writers.insert(index);
                let delay = writer.reaction_ms.max(1);
                self.schedule_after(from, delay, Scheduled::OtherWriter { index });
            }
        }
    }

    fn other_writer_acts(&mut self, index: usize) {
        self.scheduled_writers.remove(&index);
        let writer = &self.config.other_writers[index];
        if !writer_disagrees(&self.world, writer) {
            return;
        }
        let Some(spec) = self.world.observed.get(&writer.object) else {
            return;
        };
        let mut spec = spec.clone();
        spec.set_path(&writer.path, writer.value.clone());
        let (name, object) = (writer.name.clone(), writer.object.clone());
        let path = writer
            .path
            .iter()
            .fold(reconcile_core::path::JsonPath::root(), |p, k| p.key(k))
            .to_string();
        if let Some(change) = self.world.write_spec(&object, spec) {
            self.note(
                self.now,
                Happening::OtherWriterWrote {
                    writer: name.clone(),
                    object: object.clone(),
                    path,
                    value: writer.value.clone(),
                },
            );
            self.last_other_writer.insert(object.clone(), name);
            self.other_writes += 1;
            self.watch_event(self.now, &object, change);
        }
    }

    /// Notes a start-of-pass state; the same state with work to do coming back
    /// after this controller's writes took effect, and another writer wrote
    /// meanwhile, means that writer undoes them. Scripted events alone never
    /// count: there are finitely many, so they cannot keep the loop busy.
    fn watch_for_oscillation(&mut self, actions: &[Action]) {
        let state = self.world.fingerprint() ^ self.desired_hash.rotate_left(17);
        let (writes, others) = (self.controller_writes, self.other_writes);
        let entry = self
            .start_states
            .entry(state)
            .or_insert((0, writes, others));
        if entry.0 > 0 && writes > entry.1 && others > entry.2 {
            entry.0 += 1;
        } else if entry.0 == 0 {
            entry.0 = 1;
        }
        entry.1 = writes;
        entry.2 = others;
        if entry.0 < OSCILLATION_REPEATS || self.oscillation.is_some() {
            return;
        }
        let contested = actions
            .iter()
            .find(|a| a.kind == ActionKind::Update)
            .or(actions.first());
        if let Some(action) = contested {
            let field = match (self.world.observed.get(&action.name), &action.spec) {
                (Some(observed), Some(desired)) => diff(observed, desired)
                    .first()
                    .map_or_else(|| "$".to_owned(), |d| d.path.to_string()),
                _ => "the whole object".to_owned(),
            };
            self.oscillation = Some(NotConvergingReason::Oscillation {
                object: action.name.to_string(),
                field,
                other_writer: self.last_other_writer.get(&*action.name).cloned(),
            });
        }
    }

    /// Nothing will happen unless a resync comes: the queue is empty and no other event is pending.
    fn is_idle(&self) -> bool {
        self.queue.is_empty()
            && self.events.values().all(|e| {
                matches!(
                    e,
                    Scheduled::Resync { .. } | Scheduled::QueueWake { periodic: true, .. }
                )
            })
    }

    fn verdict_after_pass(&self) -> Option<Verdict> {
        if let Some(reason) = &self.oscillation {
            return Some(Verdict::NotConverging {
                reason: reason.clone(),
            });
        }
        let pass = self.passes.last()?;
        if !self.is_idle() || self.next_unscheduled_script().is_some() {
            return None;
        }
        // Something may have changed the world since the pass read it (a
        // scripted event whose watch event was dropped, right as it ended).
        if pass.actions.is_empty() && self.out_of_sync() == 0 {
            return Some(Verdict::Converged {
                passes: pass.index,
                time: pass.finished_at,
            });
        }
        self.stuck_finalizer()
            .map(|reason| Verdict::NotConverging { reason })
    }

    /// What `reconcile` would do now.
    fn remaining(&self) -> Vec<Action> {
        reconcile(
            &self.desired,
            &self.world.observed,
            Some(&self.world.finalizers),
        )
    }

    fn idle_verdict(&self) -> Option<Verdict> {
        if self.out_of_sync() == 0 {
            let time = self.passes.last().map_or(0, |p| p.finished_at);
            return Some(Verdict::Converged {
                passes: self.passes.len(),
                time,
            });
        }
        if let Some(reason) = self.stuck_finalizer() {
            return Some(Verdict::NotConverging { reason });
        }
        let resync_on = self.config.resync_period_ms.is_some_and(|p| p > 0);
        let periodic = self
            .events
            .values()
            .any(|e| matches!(e, Scheduled::QueueWake { periodic: true, .. }));
        (!resync_on && !periodic).then(|| self.no_trigger())
    }

    /// How many actions `reconcile` would return now, counted without building them.
    fn out_of_sync(&self) -> usize {
        count_out_of_sync(
            &self.desired,
            &self.world.observed,
            Some(&self.world.finalizers),
        )
    }

    fn no_trigger(&self) -> Verdict {
        let out_of_sync = self.out_of_sync();
        Verdict::NotConverging {
            reason: NotConvergingReason::NoTrigger { out_of_sync },
        }
    }

    /// All remaining work is waiting on finalizers that are never removed.
    fn stuck_finalizer(&self) -> Option<NotConvergingReason> {
        let mut first = None;
        for action in &self.remaining() {
            let stuck_only = action.kind == ActionKind::Finalize
                && self.world.is_terminating(&action.name)
                && self
                    .world
                    .pending(&action.name)
                    .iter()
                    .all(|f| self.is_stuck(&action.name, f));
            if !stuck_only {
                return None;
            }
            if first.is_none() {
                first = self
                    .world
                    .pending(&action.name)
                    .first()
                    .map(|f| (action.name.to_string(), f.clone()));
            }
        }
        first.map(|(object, finalizer)| NotConvergingReason::StuckFinalizer { object, finalizer })
    }
}

/// Whether the watch event of scripted event `index` is dropped: one draw per
/// event from its own stream, shared by the level- and edge-triggered models.
pub(super) fn external_event_dropped(config: &SimConfig, index: usize) -> bool {
    let seed = config
        .seed
        .wrapping_add((index as u64 + 1).wrapping_mul(SplitMix64::GOLDEN_GAMMA));
    SimRng::stream(seed, Stream::ExternalDrops).chance(config.drop_rate)
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

pub(super) fn resources_hash(resources: &Resources) -> u64 {
    resources.iter().fold(0u64, |sum, (name, spec)| {
        let mut hasher = StableHasher::default();
        hasher.write(name.as_bytes());
        hasher.write(&spec.stable_hash().to_le_bytes());
        sum.wrapping_add(hasher.finish())
    })
}
