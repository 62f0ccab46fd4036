//! The check that tries to break a learner's controller. Start at [`check`].
//!
//! It runs the controller fault-free first, then under every schedule of
//! one fault, then two-fault schedules, then seeded random ones of up to
//! three, until the budget is spent or a property breaks. A failure is
//! shrunk ([`super::shrink`]) and told as a story ([`super::story`]).
//! Deterministic: the same exercise, controller and seed explore the same
//! schedules in the same order.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

use super::call::{CallError, ClientCall};
use super::exercise::Exercise;
use super::faulted::{FaultedRun, Fired};
use super::properties::{self, Property};
use super::record::ReconcileRecord;
use super::run::{Finish, Request};
use super::schedule::{single_faults, Fault, Placed, Schedule};
use reconcile_core::stable::SplitMix64;

/// The most calls one reconcile may make: beyond, each call is refused,
/// so a loop in the learner's code cannot hold the check forever.
pub const MAX_CALLS_PER_RECONCILE: usize = 200;

/// A controller the check can drive: a learner's synchronous
/// `reconcile(request, client)`. A Rust value in tests; later a JS or
/// Python module behind the wasm binding. Its state is its process's
/// memory: a crash drops it, and the factory makes a fresh one.
pub trait Reconciler {
    /// One reconcile: calls on `client`, then the result.
    fn reconcile(&mut self, request: &Request, client: &mut Client<'_>) -> Finish;
}

/// Makes the controller of each process of a run.
pub type Factory<'f> = &'f dyn Fn() -> Box<dyn Reconciler>;

/// The client a [`Reconciler`] gets for one reconcile.
pub struct Client<'r> {
    run: &'r mut FaultedRun,
    calls: usize,
}

impl Client<'_> {
    /// One call: its answer, after the simulated time it takes.
    pub fn call(&mut self, call: ClientCall) -> Result<Value, CallError> {
        self.calls += 1;
        if self.calls > MAX_CALLS_PER_RECONCILE {
            let message = format!("more than {MAX_CALLS_PER_RECONCILE} calls in one reconcile");
            return Err(CallError::Misuse {
                method: call.method(),
                message,
            });
        }
        self.run.call(call)
    }
}

/// How much the search may explore.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Schedules to run, the fault-free one included.
    pub schedules: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Self { schedules: 1000 }
    }
}

/// The schedule that broke a property, shrunk, and its run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counterexample {
    /// The property that broke, and why, in plain words.
    pub property: &'static str,
    pub detail: String,
    pub schedule: Schedule,
    /// The schedule as a short story, one sentence a fault.
    pub story: Vec<String>,
    /// Each reconcile's calls and answers, to replay without the code.
    pub record: Vec<ReconcileRecord>,
    /// The runs shrinking took.
    pub shrink_runs: usize,
}

/// What the check found.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    pub passed: bool,
    pub schedules_explored: usize,
    /// The properties: all held, or those of the failing run.
    pub properties: Vec<Property>,
    pub counterexample: Option<Counterexample>,
    /// The requests of the fault-free run: the points of single faults.
    pub fault_free_requests: usize,
    /// The schedules run, in order.
    pub explored: Vec<Schedule>,
}

/// One run of a schedule.
pub struct Outcome {
    pub run: FaultedRun,
    pub properties: [Property; 3],
}

impl Outcome {
    /// The first property that broke.
    pub fn broken(&self) -> Option<&Property> {
        self.properties.iter().find(|p| !p.held)
    }

    /// The faults that fired.
    pub fn fired(&self) -> &[Fired] {
        self.run.fired()
    }
}

/// Runs `factory`'s controller on `exercise` under `schedule`.
pub fn run_schedule(exercise: &Exercise, factory: Factory<'_>, schedule: &Schedule) -> Outcome {
    let mut run = FaultedRun::new(exercise.clone(), schedule);
    let mut controller = factory();
    let mut incarnation = 0;
    while let Some(request) = run.next_reconcile() {
        if run.incarnation() != incarnation {
            incarnation = run.incarnation();
            controller = factory();
        }
        let mut client = Client {
            run: &mut run,
            calls: 0,
        };
        let finish = controller.reconcile(&request, &mut client);
        run.finish(finish);
    }
    let properties = properties::check(run.run());
    Outcome { run, properties }
}

/// Checks `factory`'s controller on `exercise`: the fault-free run, then
/// fault schedules up to `budget`, the random ones drawn from `seed`.
pub fn check(exercise: &Exercise, factory: Factory<'_>, budget: Budget, seed: u64) -> CheckReport {
    let mut explored = Vec::new();
    let free = run_schedule(exercise, factory, &Schedule::none());
    let requests = free.run.requests();
    let mut schedules = Candidates::new(requests, seed);
    let mut outcome = free;
    let mut schedule = Schedule::none();
    loop {
        explored.push(schedule.clone());
        if outcome.broken().is_some() || explored.len() >= budget.schedules.max(1) {
            break;
        }
        let Some(next) = schedules.next_new() else {
            break;
        };
        outcome = run_schedule(exercise, factory, &next);
        schedule = next;
    }
    let Some(broken) = outcome.broken().map(|p| p.name) else {
        return CheckReport {
            passed: true,
            schedules_explored: explored.len(),
            properties: outcome.properties.to_vec(),
            counterexample: None,
            fault_free_requests: requests,
            explored,
        };
    };
    let shrunk = super::shrink::shrink(exercise, factory, schedule, outcome, broken);
    let property = shrunk.outcome.broken().cloned();
    let story = super::story::tell(&shrunk.schedule, shrunk.outcome.fired());
    CheckReport {
        passed: false,
        schedules_explored: explored.len(),
        properties: shrunk.outcome.properties.to_vec(),
        counterexample: Some(Counterexample {
            property: broken,
            detail: property.map(|p| p.detail).unwrap_or_default(),
            schedule: shrunk.schedule,
            story,
            record: shrunk.outcome.run.run().record().to_vec(),
            shrink_runs: shrunk.runs,
        }),
        fault_free_requests: requests,
        explored,
    }
}

/// The schedules to try, in order: single faults, pairs, then random.
struct Candidates {
    singles: Vec<Schedule>,
    next_single: usize,
    pair: (usize, usize),
    rng: SplitMix64,
    /// The points random faults are drawn from.
    points: usize,
    seen: BTreeSet<Schedule>,
}

impl Candidates {
    fn new(requests: usize, seed: u64) -> Self {
        Self {
            singles: single_faults(requests),
            next_single: 0,
            pair: (0, 1),
            rng: SplitMix64::new(seed),
            points: requests.saturating_mul(2).saturating_add(2),
            seen: BTreeSet::from([Schedule::none()]),
        }
    }

    /// The next schedule not yet run; `None` when none is left to draw.
    fn next_new(&mut self) -> Option<Schedule> {
        for _ in 0..10_000 {
            let candidate = self.next_candidate();
            if self.seen.insert(candidate.clone()) {
                return Some(candidate);
            }
        }
        None
    }

    fn next_candidate(&mut self) -> Schedule {
        if let Some(single) = self.singles.get(self.next_single) {
            self.next_single += 1;
            return single.clone();
        }
        let (i, j) = self.pair;
        if let (Some(a), Some(b)) = (self.singles.get(i), self.singles.get(j)) {
            self.pair = if j + 1 < self.singles.len() {
                (i, j + 1)
            } else {
                (i + 1, i + 2)
            };
            return Schedule::of(a.0.iter().chain(&b.0).copied().collect());
        }
        self.random()
    }

    fn random(&mut self) -> Schedule {
        let count = 1 + self.draw(3);
        let faults = (0..count)
            .map(|_| Placed {
                at: self.draw(self.points + 1),
                fault: Fault::ALL[self.draw(Fault::ALL.len())],
            })
            .collect();
        Schedule::of(faults)
    }

    /// A number below `below`.
    fn draw(&mut self, below: usize) -> usize {
        let below = u64::try_from(below.max(1)).unwrap_or(u64::MAX);
        usize::try_from(self.rng.next_u64() % below).unwrap_or(0)
    }
}
