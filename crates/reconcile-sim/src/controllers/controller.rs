//! What the engine asks of a controller during one reconcile. Start at
//! [`Controller`].
//!
//! A reconcile is a sequence of steps on the simulated clock: the worker
//! takes the key ([`Controller::start`]), the controller may wait for a
//! plan from outside ([`Start::Plan`]), then sends its requests one at a
//! time, each `action_ms` after the last answer, and returns a result that
//! the engine maps to the queue as controller-runtime's `reconcileHandler`
//! does. A crash ends the reconcile anywhere; the restarted process is a new
//! instance, so whatever a controller keeps in memory is lost with it.

use std::sync::Arc;

use reconcile_core::model::{Finalizers, Resources};
use reconcile_core::reconcile::Action;

use super::client::{Answer, Client, Millis, ObjectState, ReconcileError, Request};
use super::expectations::PassSkip;
use super::outcome::ActionResult;

/// Which worker a reconcile runs on, from 0: one of controller-runtime's
/// `MaxConcurrentReconciles` goroutines. A worker runs one reconcile at a
/// time; the calls of one reconcile all name its worker.
pub type Worker = usize;

/// A controller, driven by the engine one step at a time. One instance
/// serves every worker; what it keeps per reconcile, it keeps per worker.
pub trait Controller {
    /// `worker` took the key `request` (a custom resource's name):
    /// reconcile starts, reading the cache.
    fn start(&mut self, worker: Worker, request: &Arc<str>, client: &Client<'_>) -> Start;

    /// What a plan function reads, for a controller whose `start` asked for
    /// a plan: the contract's `reconcile`, or a learner's.
    fn plan_input<'s>(&'s self, worker: Worker, client: &Client<'s>) -> PlanInput<'s>;

    /// The plan asked for arrived.
    fn planned(&mut self, worker: Worker, plan: Vec<Action>, client: &Client<'_>) -> Planned;

    /// Whether another request follows the last answer (`false`: reconcile returns).
    fn sends_more(&self, worker: Worker) -> bool;

    /// The next request, built as it goes out (`None`: none after all).
    fn request(&mut self, worker: Worker, client: &Client<'_>) -> Option<Sent>;

    /// The answer to the request just sent, and what the record shows of it.
    fn answered(&mut self, worker: Worker, answer: &Answer, client: &Client<'_>) -> Recorded;

    /// What reconcile returns, as it stands (also when a crash cuts it short).
    fn result(&mut self, worker: Worker) -> Returned;

    /// The informer's event handler sees `state` added, from a watch event
    /// or a list.
    fn on_added(&mut self, _state: &ObjectState, _client: &Client<'_>) {}

    /// Whether its next step, after the answer just given, comes from
    /// outside and is not there yet: the engine then holds the worker and
    /// stops until the caller gives it. A learner's synchronous code
    /// decides its next call only once it has the answer (issue 30).
    fn awaits_caller(&self, _worker: Worker) -> bool {
        false
    }
}

/// How a reconcile begins.
#[derive(Debug)]
pub enum Start {
    /// It waits for a plan: [`Controller::plan_input`], then [`Controller::planned`].
    Plan,
    /// It knows what it will do.
    Planned(Planned),
}

/// What a reconcile will do, as the run's record shows it.
#[derive(Debug, Default)]
pub struct Planned {
    /// The actions it will carry out, in order (empty for a controller
    /// that plans none).
    pub actions: Vec<Action>,
    /// Why it plans nothing, when it skipped its plan.
    pub skipped: Option<PassSkip>,
    /// How many requests it expects to send: a bound on when the worker is
    /// free, which lets the engine skip resync ticks that would change
    /// nothing. 0 when unknown.
    pub requests: usize,
    /// How many of them go out before its first action (a finalizer, an
    /// external system's call), so the record can tell them apart.
    pub before: usize,
}

/// What a plan function reads: the desired state and the cache as the
/// controller shows it.
#[derive(Debug, Clone, Copy)]
pub struct PlanInput<'s> {
    pub desired: &'s Resources,
    pub observed: &'s Resources,
    pub finalizers: &'s Finalizers,
}

/// A request going out.
#[derive(Debug, Clone)]
pub struct Sent {
    pub request: Request,
    /// The planned action it carries out, by index.
    pub serves: Option<usize>,
}

/// What the record shows of an answer.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub result: ActionResult,
    /// The object the request went to, where it is not the action's name.
    pub object: Option<Arc<str>>,
}

/// What a reconcile returns: controller-runtime's `(Result, error)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Returned {
    /// An error: requeued with the rate limiter, unless terminal.
    pub error: Option<ReconcileError>,
    /// `RequeueAfter`, ignored with an error.
    pub requeue_after: Option<Millis>,
}
