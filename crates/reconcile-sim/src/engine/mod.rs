//! The discrete-event loop behind [`simulate`].

mod owners;
mod requeue;
mod script;
mod verdict;

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
    SimConfig, SimScenario, Timeline, Trigger, Verdict,
};
use reconcile_core::json::Json;
use reconcile_core::model::Resources;
use reconcile_core::reconcile::{reconcile, Action, ActionKind};
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
