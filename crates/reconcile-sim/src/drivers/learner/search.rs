//! The check that tries to break a learner's controller. Start at [`check`].
//!
//! It runs the controller fault-free first, then under every schedule of
//! one fault, then two-fault schedules, then seeded random ones of up to
//! three, until the budget is spent or a property breaks. A failure is
//! shrunk ([`super::shrink`]) and told as a story ([`super::story`]).
//! Deterministic: the same exercise, controller and seed explore the same
//! schedules in the same order.

use serde::Serialize;
use serde_json::Value;

use super::call::{CallError, ClientCall};
use super::exercise::Exercise;
use super::faulted::{FaultedRun, Fired};
use super::properties::{self, Property};
use super::record::ReconcileRecord;
use super::run::{Finish, Request};
use super::schedule::Schedule;
use super::session::CheckSession;
use crate::workqueue::Millis;

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

    /// The simulated time now, in milliseconds from the Unix epoch: the
    /// clock of the objects' timestamps. The learner's `Date.now()` and
    /// `time.time()` read it. Reading it changes nothing, so the same
    /// calls still give the same run, and a replay needs no clock.
    pub fn now(&self) -> Millis {
        self.run.run().now()
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", ts(rename = "ControllerCounterexample"))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", ts(rename = "ControllerCheckReport"))]
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
        properties::first_broken(&self.properties)
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
    let mut session = CheckSession::new(budget, seed);
    while let Some(schedule) = session.next() {
        let outcome = run_schedule(exercise, factory, schedule);
        session.record(outcome);
    }
    session.report()
}
