//! A run driven by a learner's synchronous controller, one call at a time.
//! Start at [`DrivenRun`].
//!
//! The learner's code holds the thread: it asks for the next reconcile,
//! makes plain calls, and returns. Each call runs the simulated clock until
//! its answer arrives, as a real controller's goroutine blocks on its HTTP
//! request while the cluster moves on.
//!
//! # Guarantees
//! - Deterministic: the same exercise, settings and calls give the same
//!   answers, record and timeline.
//! - Objects handed out are deep copies: changing one changes nothing else.
//! - No call panics: misuse is a [`CallError::Misuse`] naming the call.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use super::call::{ApiFailure, CallError, ClientCall};
use super::exercise::Exercise;
use super::record::{CallRecord, ReconcileOutcome, ReconcileRecord};
use super::requests::{plan, rendered, Planned};
use crate::controllers::controller::Returned;
use crate::controllers::driven::{DrivenController, Exchange, SharedExchange, Step};
use crate::object::NAMESPACE;
use crate::workqueue::{Millis, ReconcileError};
use crate::{Driven, NewController, Simulation};
use crate::{NotConvergingReason, Timeline, Verdict};

/// The key a reconcile is for: controller-runtime's `reconcile.Request`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReconcileRequest"))]
pub struct Request {
    pub name: String,
    pub namespace: String,
}

/// What a learner's reconcile returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finish {
    /// Returned nothing, or `{ requeueAfter: ms }`.
    Ok(Option<Millis>),
    /// Threw or raised: retried with backoff.
    Error(String),
    /// Threw a `TerminalError`: not retried.
    Terminal(String),
}

/// How a driven run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEnd {
    /// The goal held and the controller changed nothing for the quiet period.
    Quiet { at: Millis },
    /// Nothing more could happen: the engine's own verdict.
    Idle(Verdict),
    /// The pass limit (`maxPasses`), or the engine found a hot loop.
    Limit(Verdict),
}

/// Where the run stands between calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No reconcile runs: `next_reconcile` is next.
    Between,
    /// A reconcile runs: calls and `finish` are next.
    Reconciling,
    /// A crash ended the reconcile; the learner's code must stop.
    Crashed,
}

/// A run of an exercise whose controller's steps come from the caller.
pub struct DrivenRun {
    sim: Simulation,
    exchange: SharedExchange,
    exercise: Exercise,
    phase: Phase,
    record: Vec<ReconcileRecord>,
    /// When the controller last changed the store.
    last_change: Millis,
    /// The first breach of the exercise's safety, as seen, and the pass at
    /// whose end it shows.
    unsafe_seen: Option<(String, usize)>,
    end: Option<RunEnd>,
    /// What reaching the quiet rule does: end the run, or (with faults
    /// still to fire) hold it open. See `drivers/learner/faulted.rs`.
    at_quiet: AtQuiet,
}

/// What the quiet rule does when it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AtQuiet {
    /// The run ends.
    End,
    /// The run goes on once, for faults placed after the last request.
    HoldOpen,
    /// It went on: the faults are due now.
    Held,
}

impl DrivenRun {
    /// A run of `exercise` under its own settings.
    pub fn new(exercise: Exercise) -> Self {
        let exchange: SharedExchange = Rc::new(RefCell::new(Exchange::default()));
        let shared = Rc::clone(&exchange);
        let controller: NewController =
            Rc::new(move || Box::new(DrivenController::new(Rc::clone(&shared))));
        let config = exercise.config.clone();
        let sim = Simulation::with_controller_of(&exercise.scenario, config, controller);
        Self {
            sim,
            exchange,
            exercise,
            phase: Phase::Between,
            record: Vec::new(),
            last_change: 0,
            unsafe_seen: None,
            end: None,
            at_quiet: AtQuiet::End,
        }
    }

    /// Runs the control plane until a worker takes a key, or the run ends
    /// (`None`). A reconcile still running is finished as `Ok(None)` first.
    pub fn next_reconcile(&mut self) -> Option<Request> {
        if self.phase == Phase::Reconciling {
            self.finish(Finish::Ok(None));
        }
        self.phase = Phase::Between;
        if self.end.is_some() {
            return None;
        }
        let key = match self.sim.drive() {
            Driven::Reconcile { key } => Arc::clone(key),
            Driven::Finished(verdict) => {
                self.end = Some(end_of(verdict.clone()));
                self.note_safety();
                return None;
            }
            // Only a call leaves an answer waiting; carry on without one.
            Driven::Answered => return self.skip_answer(),
        };
        self.note_safety();
        let quiet = self.exercise.quiet_ms();
        let now = self.sim.now();
        if self.goal_holds() && now.saturating_sub(self.last_change) >= quiet && now >= quiet {
            if self.at_quiet != AtQuiet::HoldOpen {
                self.end = Some(RunEnd::Quiet { at: now });
                return None;
            }
            self.at_quiet = AtQuiet::Held;
            self.last_change = now;
        }
        let converged = self.goal_holds() && self.goal_holds_in_cache();
        self.record.push(ReconcileRecord {
            pass: self.sim.passes() + 1,
            name: key.to_string(),
            namespace: NAMESPACE.to_owned(),
            started_at: now,
            incarnation: self.sim.incarnation(),
            converged_at_start: converged,
            calls: Vec::new(),
            outcome: None,
            returned: None,
        });
        self.phase = Phase::Reconciling;
        Some(Request {
            name: key.to_string(),
            namespace: NAMESPACE.to_owned(),
        })
    }

    fn skip_answer(&mut self) -> Option<Request> {
        self.exchange.borrow_mut().step = Step::Return(Returned::default());
        self.sim.carry_on();
        self.next_reconcile()
    }

    /// One client call of the reconcile in progress: its answer, after the
    /// simulated time a request takes (none for a cache read).
    pub fn call(&mut self, call: ClientCall) -> Result<Value, CallError> {
        let method = call.method();
        match self.phase {
            Phase::Reconciling => {}
            Phase::Crashed => return Err(CallError::Crashed { method }),
            Phase::Between => return Err(CallError::NotReconciling { method }),
        }
        let at = self.sim.now();
        let planned = plan(&call, &self.exercise.kinds, NAMESPACE, &self.sim.client());
        let (answer, changed) = match planned {
            Planned::Now(answer) => (answer, false),
            Planned::Send { request, target } => {
                let foreign = self.exercise.foreign;
                let before = foreign.and_then(|f| f.value(self.sim.store(), &target));
                self.exchange.borrow_mut().step = Step::Send(request);
                self.sim.carry_on();
                let answer = match self.sim.drive() {
                    Driven::Answered => self.take_answer(&target),
                    _ => {
                        self.phase = Phase::Crashed;
                        self.end_record(ReconcileOutcome::Crashed);
                        (Err(CallError::Crashed { method }), false)
                    }
                };
                if let (true, Some(foreign), None) = (answer.1, foreign, &self.unsafe_seen) {
                    let after = foreign.value(self.sim.store(), &target);
                    let pass = self.pass_now();
                    self.unsafe_seen = foreign
                        .breach(&target, before, after)
                        .map(|detail| (detail, pass));
                }
                answer
            }
        };
        if changed {
            self.last_change = self.sim.now();
        }
        self.note_safety();
        if let Some(current) = self.record.last_mut() {
            current.calls.push(CallRecord {
                at,
                answered_at: self.sim.now(),
                call,
                answer: answer.clone(),
                changed_store: changed,
            });
        }
        answer
    }

    /// The answer the engine left: the object as the server returns it.
    fn take_answer(&mut self, target: &super::kinds::Target) -> (Result<Value, CallError>, bool) {
        let answer = self.exchange.borrow_mut().answer.take();
        if target.kind == super::kinds::LOAD_BALANCER {
            return super::cloud_calls::answer(self.sim.cloud(), answer, target);
        }
        match answer {
            Some(Ok(response)) => {
                let key = match &target.key {
                    crate::ownership::ObjectKey::CustomResource(_) => target.key.clone(),
                    crate::ownership::ObjectKey::Object(_) => {
                        crate::ownership::ObjectKey::Object(Arc::clone(&response.name))
                    }
                };
                let store = self.sim.store();
                let object = rendered(store, &self.sim.client(), &key).unwrap_or(Value::Null);
                (Ok(object), response.written)
            }
            Some(Err(error)) => {
                let failure = ApiFailure::of(&error, target.key_text(), &target.name);
                (Err(CallError::Api(failure)), false)
            }
            None => (Ok(Value::Null), false),
        }
    }

    /// The reconcile in progress returns `result`, which the queue takes
    /// as `reconcileHandler` does. After a crash, or between reconciles,
    /// nothing happens.
    pub fn finish(&mut self, result: Finish) {
        if self.phase != Phase::Reconciling {
            self.phase = Phase::Between;
            return;
        }
        let (returned, outcome) = match result {
            Finish::Ok(None) => (Returned::default(), ReconcileOutcome::Done),
            Finish::Ok(Some(ms)) => (
                Returned {
                    error: None,
                    requeue_after: Some(ms),
                },
                ReconcileOutcome::RequeueAfter { ms },
            ),
            Finish::Error(message) => (
                Returned {
                    error: Some(ReconcileError::Transient),
                    requeue_after: None,
                },
                ReconcileOutcome::Error { message },
            ),
            Finish::Terminal(message) => (
                Returned {
                    error: Some(ReconcileError::Terminal),
                    requeue_after: None,
                },
                ReconcileOutcome::Terminal { message },
            ),
        };
        self.exchange.borrow_mut().step = Step::Return(returned);
        self.sim.carry_on();
        self.end_record(outcome);
        self.phase = Phase::Between;
    }

    fn end_record(&mut self, outcome: ReconcileOutcome) {
        if let Some(current) = self.record.last_mut() {
            current.outcome = Some(outcome);
        }
    }

    fn goal_holds(&self) -> bool {
        let desired = |name: &str| self.sim.stored_desired(name).cloned();
        (self.exercise.goal)(self.sim.store(), self.sim.cloud(), &desired)
    }

    fn goal_holds_in_cache(&self) -> bool {
        let client = self.sim.client();
        let desired = |name: &str| client.desired(name).cloned();
        (self.exercise.goal)(client.cache(), self.sim.cloud(), &desired)
    }

    fn note_safety(&mut self) {
        if self.unsafe_seen.is_none() {
            let desired = |name: &str| self.sim.stored_desired(name).cloned();
            let breach = (self.exercise.breach)(self.sim.store(), self.sim.cloud(), &desired);
            self.unsafe_seen = breach.map(|detail| (detail, self.pass_now()));
        }
    }

    /// The pass whose end shows the world now: the reconcile's in progress,
    /// else the last that ended (0 before the first).
    fn pass_now(&self) -> usize {
        match (self.phase, self.record.last()) {
            (Phase::Reconciling | Phase::Crashed, Some(current)) => current.pass,
            _ => self.sim.passes(),
        }
    }

    /// How the run ended, once it has.
    pub fn end(&self) -> Option<&RunEnd> {
        self.end.as_ref()
    }

    /// Whether the exercise's goal holds in the store now.
    pub fn goal_holds_now(&self) -> bool {
        self.goal_holds()
    }

    /// The first breach of the exercise's safety seen, if any, and the
    /// pass at whose end it shows (0: the start).
    pub fn breach(&self) -> Option<(&str, usize)> {
        self.unsafe_seen
            .as_ref()
            .map(|(detail, pass)| (detail.as_str(), *pass))
    }

    /// Each reconcile's calls, answers and result.
    pub fn record(&self) -> &[ReconcileRecord] {
        &self.record
    }

    /// The simulated time now.
    pub fn now(&self) -> Millis {
        self.sim.now()
    }

    /// The exercise it runs.
    pub fn exercise(&self) -> &Exercise {
        &self.exercise
    }

    /// The engine's record of the run, for the views.
    pub fn into_timeline(self) -> Timeline {
        self.sim.into_timeline()
    }
}

/// Hooks for fault schedules (`faulted.rs`), kept apart from the run.
impl DrivenRun {
    /// What would answer `call` now: the cache, or a request.
    pub(super) fn plan(&self, call: &ClientCall) -> Planned {
        plan(call, &self.exercise.kinds, NAMESPACE, &self.sim.client())
    }

    /// The engine, for injecting faults between calls.
    pub(super) fn sim_mut(&mut self) -> &mut Simulation {
        &mut self.sim
    }

    /// The reconcile in progress, for a fault that rewrites what it saw.
    pub(super) fn current_mut(&mut self) -> Option<&mut ReconcileRecord> {
        self.record.last_mut()
    }

    /// Sets what the quiet rule does next; returns what it did.
    pub(super) fn set_at_quiet(&mut self, at_quiet: AtQuiet) -> AtQuiet {
        std::mem::replace(&mut self.at_quiet, at_quiet)
    }
}

/// A verdict the engine reached by itself.
fn end_of(verdict: Verdict) -> RunEnd {
    match &verdict {
        Verdict::NotConverging {
            reason:
                NotConvergingReason::PassLimit { .. }
                | NotConvergingReason::ApplyConflict { .. }
                | NotConvergingReason::StatusHotLoop { .. },
        } => RunEnd::Limit(verdict),
        _ => RunEnd::Idle(verdict),
    }
}

impl std::fmt::Debug for DrivenRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DrivenRun")
            .field("exercise", &self.exercise.name)
            .field("reconciles", &self.record.len())
            .field("end", &self.end)
            .finish_non_exhaustive()
    }
}
