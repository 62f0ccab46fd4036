//! A controller whose every step comes from outside: a learner's
//! synchronous `reconcile(request, client)` (issue 30). Start at
//! [`DrivenController`].
//!
//! The caller and the controller share an [`Exchange`]. The caller puts
//! the next step there; the engine takes it, and leaves the answer there.
//! A restarted process gets a new controller over the same exchange.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use reconcile_core::model::{Finalizers, Resources};
use reconcile_core::reconcile::Action;

use super::client::{Answer, Client};
use super::controller::{Controller, PlanInput, Planned, Recorded, Returned, Sent, Start, Worker};
use super::outcome::ActionResult;

/// The next step of the reconcile in progress.
#[derive(Debug, Clone, Default)]
pub enum Step {
    /// Not given yet: the engine holds the worker.
    #[default]
    Waiting,
    /// Send this request.
    Send(super::client::Request),
    /// Return this result.
    Return(Returned),
}

/// What the caller and the controller pass each other.
#[derive(Debug, Default)]
pub struct Exchange {
    pub step: Step,
    /// The answer to the last request sent, until the caller takes it.
    pub answer: Option<Answer>,
}

/// The exchange, shared by the caller and each process's controller.
pub type SharedExchange = Rc<RefCell<Exchange>>;

/// A controller that does what its caller says, one step at a time.
#[derive(Debug)]
pub struct DrivenController {
    exchange: SharedExchange,
    /// What `plan_input` shows: nothing (a driven controller plans nothing).
    empty: (Resources, Finalizers),
}

impl DrivenController {
    pub fn new(exchange: SharedExchange) -> Self {
        Self {
            exchange,
            empty: (Resources::new(), Finalizers::new()),
        }
    }
}

impl Controller for DrivenController {
    fn start(&mut self, _worker: Worker, _request: &Arc<str>, _client: &Client<'_>) -> Start {
        let mut exchange = self.exchange.borrow_mut();
        exchange.step = Step::Waiting;
        exchange.answer = None;
        Start::Plan
    }

    fn plan_input<'s>(&'s self, _worker: Worker, _client: &Client<'s>) -> PlanInput<'s> {
        PlanInput {
            desired: &self.empty.0,
            observed: &self.empty.0,
            finalizers: &self.empty.1,
        }
    }

    fn planned(&mut self, _worker: Worker, _plan: Vec<Action>, _client: &Client<'_>) -> Planned {
        Planned::default()
    }

    fn sends_more(&self, _worker: Worker) -> bool {
        matches!(self.exchange.borrow().step, Step::Send(_))
    }

    fn request(&mut self, _worker: Worker, _client: &Client<'_>) -> Option<Sent> {
        let mut exchange = self.exchange.borrow_mut();
        match std::mem::take(&mut exchange.step) {
            Step::Send(request) => Some(Sent {
                request,
                serves: None,
            }),
            other => {
                exchange.step = other;
                None
            }
        }
    }

    fn answered(&mut self, _worker: Worker, answer: &Answer, _client: &Client<'_>) -> Recorded {
        self.exchange.borrow_mut().answer = Some(answer.clone());
        let result = match answer {
            Ok(_) => ActionResult::Applied,
            Err(error) => ActionResult::Failed {
                requeued_at: 0,
                code: error.code(),
                error: error.to_string(),
            },
        };
        let object = answer
            .as_ref()
            .ok()
            .map(|response| Arc::clone(&response.name));
        Recorded { result, object }
    }

    fn result(&mut self, _worker: Worker) -> Returned {
        match self.exchange.borrow().step {
            Step::Return(returned) => returned,
            // Cut short by a crash: nothing is returned.
            _ => Returned::default(),
        }
    }

    fn awaits_caller(&self, _worker: Worker) -> bool {
        matches!(self.exchange.borrow().step, Step::Waiting)
    }
}
