//! A reconcile written elsewhere (a learner's), run in the loop: three
//! verdicts, each from runs of the engine that this reconcile answers.
//!
//! - **Converges**: the simulation under the given settings, worded as
//!   [`Verdict`] always is.
//! - **Idempotent**: reconcile on the state that its own actions produce
//!   returns nothing that writes again. Its first answer is applied to the
//!   observed state as the API server would take it (CREATE and UPDATE set
//!   the spec, DELETE removes a name with no pending finalizers, FINALIZE
//!   leaves the name terminating), and reconcile runs again on that state:
//!   a FINALIZE of a name still terminating is fine, and anything else is not.
//! - **Survives a restart**: for every point of the first pass, a crash
//!   after that many actions and a restart; the loop must still converge,
//!   and do no work twice that the contract's own reconcile does not do in
//!   the same run (a CREATE answered 409 AlreadyExists, a name created
//!   twice). The comparison matters: a restarted controller's cache can be
//!   stale, and then even the contract's reconcile repeats a CREATE that the
//!   API server refuses.
//!
//! Like [`Simulation`], a [`LoopCheck`] is a state machine: it names the call
//! to answer and takes the answer, so the reconcile may run in a worker.
//!
//! Caveats: a reconcile that raises, or returns a malformed list, ends the
//! check with its message; the controller-runtime behaviour (an error is
//! requeued with backoff) would hide the bug it reveals.

use std::fmt;

use reconcile_core::model::{Finalizers, Resources};
use reconcile_core::reconcile::{Action, ActionKind};
use serde::Serialize;

use crate::{
    ActionResult, CrashPlan, ReconcileCall, SimConfig, SimScenario, Simulation, Step, Timeline,
    Verdict,
};

/// Whether reconcile, run again on what its own actions produced, writes again.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum Idempotence {
    Idempotent,
    /// The second call returned these writes.
    NotIdempotent {
        again: Vec<Action>,
    },
}

/// Whether the loop recovers from a crash at any point of its first pass.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum RestartSurvival {
    /// Crashes after 0..`points` actions were all survived.
    Survives { points: usize },
    /// After a crash that followed `after_actions` actions, the restarted
    /// loop did not converge, or did `repeated` work twice.
    Fails {
        after_actions: usize,
        verdict: Verdict,
        repeated: Option<String>,
    },
}

/// The three verdicts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LoopVerdicts {
    pub converges: Verdict,
    pub idempotence: Idempotence,
    pub restart: RestartSurvival,
}

impl fmt::Display for Idempotence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Idempotence::Idempotent => f.write_str(
                "Idempotent: run again on the state its own actions produce, reconcile writes nothing more",
            ),
            Idempotence::NotIdempotent { again } => {
                f.write_str("Not idempotent: run again on the state its own actions produce, reconcile returns ")?;
                write_actions(f, again)
            }
        }
    }
}

impl fmt::Display for RestartSurvival {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestartSurvival::Survives { points } => write!(
                f,
                "Survives a restart: after a crash at any of {points} point(s) of the first pass, \
                 the restarted loop converges with no work done twice"
            ),
            RestartSurvival::Fails {
                after_actions,
                repeated: Some(work),
                ..
            } => write!(
                f,
                "Does not survive a restart: after a crash that followed {after_actions} action(s), \
                 the restarted loop does work twice: {work}"
            ),
            RestartSurvival::Fails {
                after_actions,
                verdict,
                ..
            } => write!(
                f,
                "Does not survive a restart: after a crash that followed {after_actions} action(s), \
                 the restarted loop ends so: {verdict}"
            ),
        }
    }
}

fn write_actions(f: &mut fmt::Formatter<'_>, actions: &[Action]) -> fmt::Result {
    for (i, action) in actions.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{} {}", action.kind, action.name)?;
    }
    Ok(())
}

/// What the reconcile is called with now.
#[derive(Debug, Clone, Copy)]
pub struct LoopCall<'s> {
    pub desired: &'s Resources,
    pub observed: &'s Resources,
    pub finalizers: Option<&'s Finalizers>,
    /// Which controller process calls: it changes with every run and every
    /// restart. A reconcile that keeps state between calls (a closure, a
    /// module global) must start afresh when it changes, as a restarted
    /// process does; the driver reloads it.
    pub process: u64,
}

/// Where a loop check stands.
#[derive(Debug)]
enum Phase {
    Converge(Box<Simulation>),
    /// The two calls of the idempotence check.
    FirstCall,
    SecondCall {
        after: SimScenario,
    },
    Restart {
        after_actions: usize,
        simulation: Box<Simulation>,
    },
    Done,
}

/// The three verdicts in the making.
#[derive(Debug)]
pub struct LoopCheck {
    scenario: SimScenario,
    config: SimConfig,
    phase: Phase,
    converges: Option<Verdict>,
    /// The first pass's plan, whose every point a crash is tried at.
    first_plan_len: usize,
    idempotence: Option<Idempotence>,
    restart: Option<RestartSurvival>,
    /// The reconcile raised or answered something that is not an action list.
    broken: Option<String>,
    /// Runs started so far: each is a new process.
    runs: u64,
}

impl LoopCheck {
    pub fn new(scenario: &SimScenario, config: SimConfig) -> Self {
        let simulation = Simulation::new(scenario, config.clone());
        Self {
            scenario: scenario.clone(),
            config,
            phase: Phase::Converge(Box::new(simulation)),
            converges: None,
            first_plan_len: 0,
            idempotence: None,
            restart: None,
            broken: None,
            runs: 0,
        }
    }

    /// The call to answer, or `None` when the check is over.
    pub fn call(&mut self) -> Option<LoopCall<'_>> {
        // Runs that end start the next phase, until one waits for a call.
        while let Phase::Converge(simulation) | Phase::Restart { simulation, .. } = &mut self.phase
        {
            if let Step::Reconcile(_) = simulation.step() {
                break;
            }
            self.run_ended();
        }
        let run = self.runs;
        let call = |desired, observed, finalizers, incarnation: u64| LoopCall {
            desired,
            observed,
            finalizers,
            process: run.wrapping_mul(1 << 32).wrapping_add(incarnation),
        };
        match &mut self.phase {
            Phase::Converge(simulation) | Phase::Restart { simulation, .. } => {
                match simulation.step() {
                    Step::Reconcile(ReconcileCall {
                        desired,
                        observed,
                        finalizers,
                        incarnation,
                        ..
                    }) => Some(call(desired, observed, Some(finalizers), incarnation)),
                    Step::Finished(_) => None,
                }
            }
            Phase::FirstCall => Some(call(
                &self.scenario.desired,
                &self.scenario.observed,
                self.scenario.finalizers.as_ref(),
                0,
            )),
            Phase::SecondCall { after } => Some(call(
                &after.desired,
                &after.observed,
                after.finalizers.as_ref(),
                1,
            )),
            Phase::Done => None,
        }
    }

    /// The answer to [`LoopCheck::call`]: the plan, or what went wrong.
    pub fn answer(&mut self, answer: Result<Vec<Action>, String>) {
        let plan = match answer {
            Ok(plan) => plan,
            Err(message) => {
                self.broken = Some(message);
                self.phase = Phase::Done;
                return;
            }
        };
        match std::mem::replace(&mut self.phase, Phase::Done) {
            Phase::Converge(mut simulation) => {
                if self.first_plan_len == 0 && simulation_is_at_first_pass(&mut simulation) {
                    self.first_plan_len = plan.len();
                }
                simulation.resume(plan);
                self.phase = Phase::Converge(simulation);
            }
            Phase::Restart {
                after_actions,
                mut simulation,
            } => {
                simulation.resume(plan);
                self.phase = Phase::Restart {
                    after_actions,
                    simulation,
                };
            }
            Phase::FirstCall => {
                let after = applied(&self.scenario, &plan);
                self.phase = Phase::SecondCall { after };
            }
            Phase::SecondCall { after } => {
                let again: Vec<Action> = plan
                    .into_iter()
                    .filter(|action| {
                        !(action.kind == ActionKind::Finalize
                            && after
                                .finalizers
                                .as_ref()
                                .is_some_and(|f| !f.pending(&action.name).is_empty())
                            && after.observed.contains(&action.name))
                    })
                    .collect();
                self.runs += 1;
                self.idempotence = Some(if again.is_empty() {
                    Idempotence::Idempotent
                } else {
                    Idempotence::NotIdempotent { again }
                });
                self.start_restart(0);
            }
            Phase::Done => {}
        }
    }

    /// A simulation ran to its end: record it and start the next phase.
    fn run_ended(&mut self) {
        self.runs += 1;
        match std::mem::replace(&mut self.phase, Phase::Done) {
            Phase::Converge(simulation) => {
                self.converges = Some(simulation.into_timeline().verdict);
                self.phase = Phase::FirstCall;
            }
            Phase::Restart {
                after_actions,
                simulation,
            } => {
                let timeline = simulation.into_timeline();
                let reference = crate::simulate(&self.scenario, &self.crash_config(after_actions));
                let repeated = beyond(&repeated_work(&timeline), &repeated_work(&reference));
                // A run the contract's own reconcile cannot finish either
                // (a stuck finalizer, say) is not held against this one.
                let converged = matches!(timeline.verdict, Verdict::Converged { .. })
                    || !matches!(reference.verdict, Verdict::Converged { .. });
                if converged && repeated.is_none() {
                    self.start_restart(after_actions + 1);
                } else {
                    self.restart = Some(RestartSurvival::Fails {
                        after_actions,
                        verdict: timeline.verdict,
                        repeated,
                    });
                }
            }
            other => self.phase = other,
        }
    }

    fn start_restart(&mut self, after_actions: usize) {
        if after_actions >= self.first_plan_len.max(1) {
            self.restart = Some(RestartSurvival::Survives {
                points: self.first_plan_len.max(1),
            });
            self.phase = Phase::Done;
            return;
        }
        let config = self.crash_config(after_actions);
        self.phase = Phase::Restart {
            after_actions,
            simulation: Box::new(Simulation::new(&self.scenario, config)),
        };
    }

    fn crash_config(&self, after_actions: usize) -> SimConfig {
        SimConfig {
            crash: Some(CrashPlan {
                at_pass: 1,
                after_actions,
            }),
            ..self.config.clone()
        }
    }

    /// The three verdicts, once the check is over; or the reconcile's failure.
    pub fn outcome(&self) -> Option<Result<LoopVerdicts, &str>> {
        if let Some(message) = &self.broken {
            return Some(Err(message));
        }
        Some(Ok(LoopVerdicts {
            converges: self.converges.clone()?,
            idempotence: self.idempotence.clone()?,
            restart: self.restart.clone()?,
        }))
    }
}

fn simulation_is_at_first_pass(simulation: &mut Simulation) -> bool {
    matches!(simulation.step(), Step::Reconcile(call) if call.pass == 1)
}

/// The scenario after the API server took `plan`, as the idempotence check
/// applies it: specs set, deletes done unless finalizers are pending.
fn applied(scenario: &SimScenario, plan: &[Action]) -> SimScenario {
    let mut observed = scenario.observed.clone();
    let pending = |name: &str| {
        scenario
            .finalizers
            .as_ref()
            .is_some_and(|f| !f.pending(name).is_empty())
    };
    for action in plan {
        match action.kind {
            ActionKind::Create | ActionKind::Update => {
                let spec = action
                    .spec
                    .clone()
                    .unwrap_or(reconcile_core::json::Json::Null);
                observed.insert(&*action.name, spec);
            }
            ActionKind::Delete | ActionKind::Finalize if !pending(&action.name) => {
                observed.remove(&action.name);
            }
            ActionKind::Delete | ActionKind::Finalize => {}
        }
    }
    SimScenario {
        desired: scenario.desired.clone(),
        observed,
        finalizers: scenario.finalizers.clone(),
    }
}

/// Work the run did twice, one entry per repetition: a CREATE refused as
/// AlreadyExists, or a name created successfully more than once.
fn repeated_work(timeline: &Timeline) -> Vec<String> {
    let mut created: Vec<&str> = Vec::new();
    let mut repeated = Vec::new();
    for outcome in timeline.passes.iter().flat_map(|pass| &pass.actions) {
        if outcome.action.kind != ActionKind::Create {
            continue;
        }
        let name = &*outcome.action.name;
        match &outcome.result {
            ActionResult::Failed { code: 409, .. } => {
                repeated.push(format!("CREATE {name} again (409 AlreadyExists)"));
            }
            ActionResult::Applied if created.contains(&name) => {
                repeated.push(format!("{name} created a second time"));
            }
            ActionResult::Applied => created.push(name),
            _ => {}
        }
    }
    repeated
}

/// The first repetition in `learner` that `reference` does not also have.
fn beyond(learner: &[String], reference: &[String]) -> Option<String> {
    let mut reference = reference.to_vec();
    learner
        .iter()
        .find_map(|work| match reference.iter().position(|r| r == work) {
            Some(at) => {
                reference.remove(at);
                None
            }
            None => Some(work.clone()),
        })
}
