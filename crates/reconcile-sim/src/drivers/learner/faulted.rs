//! A driven run under a fault schedule. Start at [`FaultedRun`].
//!
//! It counts the controller's requests and fires each placed fault at its
//! point, through the engine's injection hooks (`engine/injected.rs`).
//! A lost response is the one fault made here alone: the engine applies
//! the request, and the answer the controller sees becomes 504 Timeout,
//! as apimachinery's `NewTimeoutError` (`StatusReasonTimeout`) reads.

use serde_json::Value;

use super::call::{ApiFailure, CallError, ClientCall};
use super::exercise::Exercise;
use super::record::ReconcileOutcome;
use super::requests::Planned;
use super::run::{AtQuiet, DrivenRun, Finish, Request};
use super::schedule::{Fault, Moment, Placed, Schedule, CACHE_LAG_MS};
use crate::ownership::ObjectKey;
use crate::picture::Picture;
use crate::{Injection, WorldEvent};

/// A fault that fired, and what it hit: for the story.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fired {
    pub placed: Placed,
    /// The request it hit (`create ConfigMap shop-config`); `None` when it
    /// fired at the end, after the last request.
    pub request: Option<String>,
    /// The custom resource being reconciled then.
    pub reconciling: String,
}

/// Whether a crash waits for the controller's next step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NextStep {
    Runs,
    Crashes,
}

/// A [`DrivenRun`] with a fault schedule.
#[derive(Debug)]
pub struct FaultedRun {
    run: DrivenRun,
    pending: Vec<Placed>,
    fired: Vec<Fired>,
    requests: usize,
    next_step: NextStep,
    /// The custom resource of the reconcile in progress.
    reconciling: String,
}

impl FaultedRun {
    /// A run of `exercise` under `schedule`.
    pub fn new(exercise: Exercise, schedule: &Schedule) -> Self {
        Self {
            run: DrivenRun::new(exercise),
            pending: schedule.0.clone(),
            fired: Vec::new(),
            requests: 0,
            next_step: NextStep::Runs,
            reconciling: String::new(),
        }
    }

    /// The next reconcile, as [`DrivenRun::next_reconcile`]; faults left
    /// for the world fire when the run would end quietly.
    pub fn next_reconcile(&mut self) -> Option<Request> {
        let hold = self.pending.iter().any(|p| p.fault.fires_at_quiet());
        self.run.set_at_quiet(if hold {
            AtQuiet::HoldOpen
        } else {
            AtQuiet::End
        });
        let request = self.run.next_reconcile();
        let held = self.run.set_at_quiet(AtQuiet::End) == AtQuiet::Held;
        if let Some(request) = &request {
            self.reconciling.clone_from(&request.name);
        }
        if held && request.is_some() {
            let late: Vec<Placed> = self
                .pending
                .iter()
                .copied()
                .filter(|p| p.fault.fires_at_quiet())
                .collect();
            self.pending.retain(|p| !p.fault.fires_at_quiet());
            for placed in late {
                self.fire(placed, None);
            }
        }
        request
    }

    /// The process incarnation of the reconcile in progress.
    pub fn incarnation(&self) -> u64 {
        self.run.record().last().map_or(0, |r| r.incarnation)
    }

    /// One call, with the faults placed at it.
    pub fn call(&mut self, call: ClientCall) -> Result<Value, CallError> {
        let Planned::Send { target, .. } = self.run.plan(&call) else {
            return self.run.call(call);
        };
        let crashed = self.run.record().last().and_then(|r| r.outcome.as_ref())
            == Some(&ReconcileOutcome::Crashed);
        if crashed {
            return self.run.call(call);
        }
        let at = self.requests;
        self.requests += 1;
        let what = describe(&call, &target.name);
        if self.next_step == NextStep::Crashes {
            self.next_step = NextStep::Runs;
            self.run.sim_mut().inject(Injection::CrashBeforeNextStep);
        }
        let now = self.take(at, Moment::Before);
        let mut lose = false;
        for placed in now {
            lose |= placed.fault == Fault::LostResponse;
            self.fire_before(placed, &what, &target.key);
        }
        let mut answer = self.run.call(call);
        if lose && !matches!(answer, Err(CallError::Crashed { .. })) {
            answer = Err(CallError::Api(timeout(&target.name)));
            if let Some(last) = self.run.current_mut().and_then(|r| r.calls.last_mut()) {
                last.answer = answer.clone();
            }
        }
        for placed in self.take(at, Moment::After) {
            self.fire(placed, Some(&what));
        }
        answer
    }

    /// The reconcile in progress returns; a crash armed for its next step
    /// loses the result.
    pub fn finish(&mut self, result: Finish) {
        let crash = self.next_step == NextStep::Crashes;
        self.next_step = NextStep::Runs;
        if crash {
            self.run.sim_mut().inject(Injection::CrashBeforeNextStep);
        }
        self.run.finish(result);
        if crash {
            if let Some(current) = self.run.current_mut() {
                let returned = current.outcome.replace(ReconcileOutcome::Crashed);
                current.returned = returned.filter(|r| *r != ReconcileOutcome::Crashed);
            }
        }
    }

    /// The faults placed at request `at` that act at `moment`.
    fn take(&mut self, at: usize, moment: Moment) -> Vec<Placed> {
        let due = |p: &Placed| p.at == at && p.fault.moment() == moment;
        let now: Vec<Placed> = self.pending.iter().copied().filter(due).collect();
        self.pending.retain(|p| !due(p));
        now
    }

    fn fire_before(&mut self, placed: Placed, what: &str, key: &ObjectKey) {
        let sim = self.run.sim_mut();
        match placed.fault {
            Fault::CrashBefore => sim.inject(Injection::CrashBeforeNextStep),
            Fault::CrashAfterApplied => sim.inject(Injection::CrashAfterApplied),
            Fault::Unavailable => sim.inject(Injection::Unavailable),
            Fault::CacheLag => sim.inject(Injection::LagOwnWrite { ms: CACHE_LAG_MS }),
            Fault::OtherWriter => {
                if let ObjectKey::Object(name) = key {
                    let write = self.run.exercise().other_write;
                    let path = write.path.iter().map(|p| (*p).to_owned()).collect();
                    let value = write.json();
                    let event = WorldEvent::Drift {
                        name: name.to_string(),
                        path,
                        value,
                    };
                    self.run.sim_mut().world_event_now(event);
                }
            }
            _ => return self.fire(placed, Some(what)),
        }
        self.note(placed, Some(what));
    }

    /// A fault that acts on the world, or arms the next step's crash.
    fn fire(&mut self, placed: Placed, what: Option<&str>) {
        let reconciling = self.reconciling.clone();
        let sim = self.run.sim_mut();
        match placed.fault {
            Fault::WatchBroken => sim.break_watches(),
            Fault::ApiServerRestart => sim.world_event_now(WorldEvent::RestartApiServer),
            Fault::CustomResourceDeleted => sim.delete_custom_resource_now(&reconciling),
            Fault::CrashAfterResponse => self.next_step = NextStep::Crashes,
            // Request faults reach here only through `fire_before`.
            _ => {}
        }
        self.note(placed, what);
    }

    fn note(&mut self, placed: Placed, what: Option<&str>) {
        self.fired.push(Fired {
            placed,
            request: what.map(str::to_owned),
            reconciling: self.reconciling.clone(),
        });
    }

    /// The faults that fired, in order.
    pub fn fired(&self) -> &[Fired] {
        &self.fired
    }

    /// The requests the controller sent.
    pub fn requests(&self) -> usize {
        self.requests
    }

    /// From now on the run keeps the control plane's picture at every
    /// event, for a replay's views; returns the start's.
    pub(super) fn keep_pictures(&mut self) -> Picture {
        let sim = self.run.sim_mut();
        sim.keep_every_picture();
        sim.picture_now()
    }

    /// The pictures kept since [`Self::keep_pictures`], in order.
    pub(super) fn take_pictures(&mut self) -> Vec<Picture> {
        self.run.sim_mut().take_pictures()
    }

    /// The run itself: its record, its end, its properties.
    pub fn run(&self) -> &DrivenRun {
        &self.run
    }

    /// The run, for its timeline.
    pub fn into_run(self) -> DrivenRun {
        self.run
    }
}

/// A call in a few words: `create ConfigMap shop-config`.
fn describe(call: &ClientCall, name: &str) -> String {
    let kind = match call {
        ClientCall::Get { kind, .. }
        | ClientCall::List { kind, .. }
        | ClientCall::Patch { kind, .. }
        | ClientCall::Delete { kind, .. }
        | ClientCall::PatchStatus { kind, .. } => kind.clone(),
        ClientCall::EnsureLoadBalancer { .. }
        | ClientCall::GetLoadBalancer { .. }
        | ClientCall::DeleteLoadBalancer { .. } => "LoadBalancer".to_owned(),
        ClientCall::Create { object }
        | ClientCall::Update { object }
        | ClientCall::Apply { object, .. }
        | ClientCall::UpdateStatus { object } => {
            object["kind"].as_str().unwrap_or("object").to_owned()
        }
    };
    format!("{} {kind} {name}", call.method())
}

/// The answer of a request whose response was lost: apimachinery's
/// `NewTimeoutError` (504, `StatusReasonTimeout`).
fn timeout(name: &str) -> ApiFailure {
    ApiFailure {
        status: 504,
        reason: "Timeout",
        message: format!("the request for {name:?} timed out; the server may have applied it"),
    }
}
