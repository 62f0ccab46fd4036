//! What the probe hands out: the engine's state at one position of a run,
//! as plain data. [`crate::picture`] turns it into cards and replays runs
//! for it; start there.

use std::rc::Rc;

use crate::events::EventEntry;
use crate::workqueue::{AddOutcome, Millis};
use crate::world::{Change, World};
use crate::{ActionOutcome, Trigger};

/// Where in a run a picture stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// Before anything happened: the informer has listed, nothing is queued.
    Start,
    /// Right after event `index` of the run's event log.
    Event(usize),
    /// Right after another actor's event (an index into `Timeline::actor_events`).
    ActorEvent(usize),
}

/// The whole control plane at one position.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    pub position: Position,
    pub at: Millis,
    /// The event this position follows, when it is one of the event log's.
    pub event: Option<EventEntry>,
    /// The API server's store: the truth.
    pub store: Rc<World>,
    /// The controller's informer cache, which the controller reads.
    pub cache: Rc<World>,
    /// Watch events written and not yet taken by the cache, in arrival order.
    pub in_flight: Vec<InFlight>,
    /// The watch broke: what is in flight is lost, and the informer lists
    /// again at this time.
    pub relist_at: Option<Millis>,
    pub queue: QueuePicture,
    pub controller: ControllerPicture,
    /// Finalizer owners' next removals, soonest first; stuck ones last.
    pub owners: Vec<OwnerTask>,
    /// The garbage collector's queued items, soonest first.
    pub collector: Vec<CollectorTask>,
}

/// One watch event on its way to the informer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InFlight {
    /// `None`: the custom resource.
    pub object: Option<String>,
    pub change: Change,
    pub arrives_at: Millis,
}

/// The controller's work queue and its one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuePicture {
    pub key: std::sync::Arc<str>,
    /// Ready for the worker.
    pub queued: bool,
    /// The worker holds the key (a pass is running).
    pub processing: bool,
    /// An add came while processing: the key is queued again when the pass is done.
    pub dirty: bool,
    /// A delayed requeue waits until then.
    pub waiting_until: Option<Millis>,
    /// Failures the rate limiter counts for the key.
    pub requeues: u32,
    /// What the add this position follows did, when it is one.
    pub added: Option<AddOutcome>,
    /// With several custom resources or workers: every key, in the order
    /// the queue hands them out (held ones first, then ready, then waiting).
    /// Empty with one of each, whose picture is the fields above.
    pub keys: Vec<KeyPicture>,
    /// With several custom resources or workers: the key each worker holds.
    pub workers: Vec<Option<std::sync::Arc<str>>>,
}

/// One key of the work queue, in a run of several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPicture {
    pub key: std::sync::Arc<str>,
    pub state: KeyState,
    /// Failures the rate limiter counts for it.
    pub requeues: u32,
}

/// Where one key stands in the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyState {
    /// A worker holds it; `dirty`: an add came meanwhile, so it is queued
    /// again when the pass is done. `waiting_until`: a delayed requeue of
    /// it waits apart (client-go's delaying queue keeps one while it runs).
    Held {
        worker: usize,
        dirty: bool,
        waiting_until: Option<Millis>,
    },
    /// Ready, at this place in line (0: next).
    Ready { place: usize },
    /// A delayed requeue (backoff, the bucket, `RequeueAfter`) waits until then.
    Waiting { until: Millis },
    /// Not in the queue.
    Idle,
}

/// What the controller's one worker is doing.
#[derive(Debug, Clone, PartialEq)]
pub enum ControllerPicture {
    Idle,
    /// Crashed; the restarted process lists the world again at `restarts_at`.
    Down {
        restarts_at: Option<Millis>,
    },
    /// Pass `pass` runs the plan reconcile computed from the cache: `sent`
    /// requests have been answered (their results in `plan`).
    Reconciling {
        pass: usize,
        trigger: Trigger,
        plan: Vec<ActionOutcome>,
        sent: usize,
    },
    /// Pass `pass` returned; the key goes back to the queue.
    Returned {
        pass: usize,
        error: bool,
        crashed: bool,
    },
}

/// A finalizer owner's next removal; `at: None` for a stuck one (never).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerTask {
    pub object: String,
    pub finalizer: String,
    pub at: Option<Millis>,
}

/// An item queued in the garbage collector (`None`: the custom resource).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectorTask {
    pub object: Option<String>,
    pub work: CollectorWork,
    pub at: Millis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollectorWork {
    /// `attemptToDeleteItem`: deletes it, removes references or waits.
    AttemptToDelete,
    /// `attemptToOrphanWorker`: its dependents lose their references.
    AttemptToOrphan,
}
