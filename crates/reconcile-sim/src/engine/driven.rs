//! The engine driven from outside one call at a time: the inverted drive
//! behind a learner's synchronous controller (issue 30). Start at
//! [`Simulation::drive`].
//!
//! A controller whose steps come from outside answers `Start::Plan` when a
//! worker takes a key, and `awaits_caller` after each answer. The engine
//! then stops, simulated time standing still, until the caller gives the
//! next step ([`Simulation::carry_on`]): a request, which goes out
//! `action_ms` after the last answer, or the reconcile's result. Everything
//! else (watches, the queue, other actors, faults) runs as for any
//! controller, on the same engine.

use std::sync::Arc;

use super::workers::{Doing, HeldPass};
use super::{Advance, Engine, Simulation};
use crate::controllers::client::{Cache, Client};
use crate::controllers::controller::Worker;
use crate::workqueue::Millis;
use crate::Verdict;

/// Where a driven run stopped.
#[derive(Debug)]
pub enum Driven<'s> {
    /// A worker took `key`: a reconcile starts and waits for its first step.
    Reconcile { key: &'s Arc<str> },
    /// The reconcile's last request has its answer (the controller holds it).
    Answered,
    /// The run is over.
    Finished(&'s Verdict),
}

impl Engine {
    /// `worker`'s pass has its answer at `at`, after `sent` requests: it
    /// waits for the caller's next step.
    pub(super) fn hold_for_caller(&mut self, worker: Worker, at: Millis, sent: usize) {
        let Some(slot) = self.workers.slot_mut(worker) else {
            return;
        };
        if let Doing::Sending(pass) = std::mem::replace(&mut slot.doing, Doing::Nothing) {
            slot.doing = Doing::Held(HeldPass { pass, at, sent });
        }
    }

    /// The held pass goes on with the step its controller now has.
    fn resume_caller(&mut self, worker: Worker) -> bool {
        let Some(slot) = self.workers.slot_mut(worker) else {
            return false;
        };
        let Doing::Held(held) = std::mem::replace(&mut slot.doing, Doing::Nothing) else {
            return false;
        };
        let HeldPass { pass, at, sent } = held;
        slot.doing = Doing::Sending(pass);
        self.next_request(worker, at, sent);
        true
    }
}

impl Simulation {
    /// Runs until a worker takes a key, a held reconcile has its answer,
    /// or the run ends. While a reconcile waits, calling again returns the
    /// same stop.
    pub fn drive(&mut self) -> Driven<'_> {
        while self.verdict.is_none() {
            match self.engine.advance() {
                Advance::Finished(verdict) => self.verdict = Some(verdict),
                Advance::Reconcile => break,
                // Only a probed run pauses, and it is not driven.
                Advance::Paused => {}
            }
        }
        if let Some(verdict) = &self.verdict {
            return Driven::Finished(verdict);
        }
        match self.engine.workers.awaiting() {
            Some((_, pass)) => Driven::Reconcile { key: &pass.key },
            None => Driven::Answered,
        }
    }

    /// The waiting or held reconcile goes on with the step its controller
    /// now has. Returns `false` when none waits, and changes nothing.
    pub fn carry_on(&mut self) -> bool {
        if self.engine.awaits_plan() {
            return self.engine.resume_pass(Vec::new());
        }
        match self.engine.workers.held() {
            Some(worker) => self.engine.resume_caller(worker),
            None => false,
        }
    }

    /// What the controller reads now: the informer's cache and the clock.
    pub fn client(&self) -> Client<'_> {
        super::pass::client!(self.engine)
    }

    /// The API server's store now: the truth, which a live read returns.
    pub fn store(&self) -> &Cache {
        &self.engine.world
    }

    /// The simulated time now.
    pub fn now(&self) -> Millis {
        self.engine.now
    }

    /// The passes run so far.
    pub fn passes(&self) -> usize {
        self.engine.passes.len()
    }

    /// The controller process's incarnation: bumped by each crash.
    pub fn incarnation(&self) -> u64 {
        self.engine.incarnation
    }

    /// The cloud, the external system: its load balancers now.
    pub fn cloud(&self) -> &crate::control_plane::cloud::Cloud {
        &self.engine.cloud.state
    }

    /// The spec of custom resource `name` as the store holds it.
    pub fn stored_desired(&self, name: &str) -> Option<&reconcile_core::model::Resources> {
        self.engine.desired.get(name)
    }
}
