//! Driving the engine one reconcile call at a time, with the plan supplied
//! from outside: a learner's reconcile in a worker, which answers later.
//!
//! # Guarantees
//! - [`simulate`](crate::simulate) is this driver answered by the contract's
//!   `reconcile`: a caller that answers each call the same way gets the same
//!   [`Timeline`].
//! - Between [`Simulation::step`] and [`Simulation::resume`] simulated time
//!   stands still, however long the answer takes in real time: the worker
//!   holds the key, and nothing else happens.
//! - An answer is validated before the engine takes it:
//!   [`Simulation::resume_json`] reads it with core's one action reader, and a
//!   malformed list is a located [`InputError`] that leaves the pass waiting.
//!
//! # Caveats
//! - A well-formed plan that breaks the contract is sent as it is: the API
//!   server answers it (AlreadyExists, NotFound, 409), as it would a real
//!   controller's requests.

use std::rc::Rc;

use reconcile_core::model::{Finalizers, Resources};
use reconcile_core::parse_actions;
use reconcile_core::reconcile::Action;
use reconcile_core::InputError;

use super::{Advance, Engine, NewController};
use crate::controllers::contract::ContractController;
use crate::workqueue::Millis;
use crate::{CustomResources, NotConvergingReason, SimConfig, SimScenario, Timeline, Verdict};

/// A simulation that stops at every reconcile call.
pub struct Simulation {
    pub(super) engine: Engine,
    desired_initial: Resources,
    pub(super) verdict: Option<Verdict>,
}

/// What the controller's reconcile is called with: the informer's view.
#[derive(Debug, Clone, Copy)]
pub struct ReconcileCall<'s> {
    /// The pass this call starts, from 1.
    pub pass: usize,
    /// When the worker took the key, in simulated ms.
    pub at: Millis,
    pub desired: &'s Resources,
    /// The cache's observed objects, which may lag the store.
    pub observed: &'s Resources,
    /// The cache's pending finalizers.
    pub finalizers: &'s Finalizers,
    /// The controller process's incarnation (its restarts so far): a
    /// reconcile that keeps state between calls must lose it when this changes.
    pub incarnation: u64,
}

/// Where a simulation stopped.
#[derive(Debug)]
pub enum Step<'s> {
    /// A pass waits for the plan of this reconcile call: answer with
    /// [`Simulation::resume`] or [`Simulation::resume_json`].
    Reconcile(ReconcileCall<'s>),
    /// The run is over: [`Simulation::into_timeline`] has everything.
    Finished(&'s Verdict),
}

/// Why an answer was not taken.
#[derive(Debug, Clone, PartialEq)]
pub enum ResumeError {
    /// No pass is waiting: call [`Simulation::step`] first.
    NotWaiting,
    /// The answer is not an action list; the pass still waits.
    Malformed(InputError),
}

impl Simulation {
    /// A run of `scenario` under `config`, which it owns (a driver may keep
    /// it across many calls, from a worker's answers).
    pub fn new(scenario: &SimScenario, config: SimConfig) -> Self {
        Self::of_custom_resources(&CustomResources::one(scenario), config)
    }

    /// A run of a scenario of several custom resources.
    pub fn of_custom_resources(scenario: &CustomResources, config: SimConfig) -> Self {
        let options = config.contract_options();
        let controller: NewController = Rc::new(move || Box::new(ContractController::new(options)));
        Self::with_controller_of(scenario, config, controller)
    }

    /// A run whose controller is not the contract controller: each process
    /// gets a new one from `controller`. It reaches the control plane only
    /// through the client, as the contract controller does.
    pub fn with_controller(
        scenario: &SimScenario,
        config: SimConfig,
        controller: NewController,
    ) -> Self {
        Self::with_controller_of(&CustomResources::one(scenario), config, controller)
    }

    /// [`Simulation::with_controller`] for several custom resources.
    pub fn with_controller_of(
        scenario: &CustomResources,
        config: SimConfig,
        controller: NewController,
    ) -> Self {
        Self {
            engine: Engine::new(scenario, Rc::new(config), controller),
            desired_initial: scenario.first().desired.clone(),
            verdict: None,
        }
    }

    /// Runs until a pass waits for its plan, or the run ends. While a pass
    /// waits, calling again returns the same call.
    pub fn step(&mut self) -> Step<'_> {
        while self.verdict.is_none() {
            match self.engine.advance() {
                Advance::Finished(verdict) => self.verdict = Some(verdict),
                Advance::Reconcile => break,
                // Only a probed run pauses (`probe.rs`), and it is not stepped here.
                Advance::Paused => {}
            }
        }
        // `advance` returns only when a pass waits or the run ends.
        match &self.verdict {
            Some(verdict) => Step::Finished(verdict),
            None => Step::Reconcile(self.engine.reconcile_call()),
        }
    }

    /// The waiting pass's reconcile returned `plan`. Returns `false` when no
    /// pass was waiting, and then changes nothing.
    pub fn resume(&mut self, plan: Vec<Action>) -> bool {
        self.engine.resume_pass(plan)
    }

    /// [`Simulation::resume`] with the plan as JSON text, `[[kind, name, spec], …]`.
    pub fn resume_json(&mut self, plan: &str) -> Result<(), ResumeError> {
        if !self.engine.awaits_plan() {
            return Err(ResumeError::NotWaiting);
        }
        let plan = parse_actions(plan).map_err(ResumeError::Malformed)?;
        self.engine.resume_pass(plan);
        Ok(())
    }

    /// Everything recorded so far. A run stopped before its end (a pass still
    /// waiting) ends as it stands: its verdict is the pass limit, at the
    /// passes it ran.
    pub fn into_timeline(self) -> Timeline {
        let engine = self.engine;
        let verdict = self.verdict.unwrap_or(Verdict::NotConverging {
            reason: NotConvergingReason::PassLimit {
                limit: engine.passes.len(),
            },
        });
        Timeline {
            moments: crate::run::record::moments_of(engine.passes.len(), &engine.actor_events),
            passes: engine.passes,
            log: engine.log,
            verdict,
            initial: engine.initial,
            desired_initial: self.desired_initial,
            final_world: engine.world,
            events: engine.event_log,
            actor_events: engine.actor_events,
            compare: engine.config.comparison(),
            naming: engine.config.naming,
        }
    }
}

impl std::fmt::Debug for Simulation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Simulation")
            .field("passes", &self.engine.passes.len())
            .field("verdict", &self.verdict)
            .finish_non_exhaustive()
    }
}
