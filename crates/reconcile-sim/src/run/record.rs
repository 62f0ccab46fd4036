//! The run's record: [`Timeline`], its passes, its log and its moments.
//! The engine writes it; every view reads it. Start at [`Timeline`].

use std::rc::Rc;
use std::sync::Arc;

use reconcile_core::json::Json;
use reconcile_core::model::Resources;
use serde::Serialize;

use crate::comparison::SpecComparison;
use crate::control_plane::ownership::CUSTOM_RESOURCE;
use crate::expectations::PassSkip;
use crate::naming::ObjectNaming;
use crate::status_writes::StatusWrite;
use crate::workqueue::Millis;
use crate::world::{Change, World};
use crate::{events, ActionOutcome, GcAction, SimConfig, Trigger, Verdict, WorldEvent};

/// One pass of the loop.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PassRecord {
    /// 1-based.
    pub index: usize,
    /// The key the pass reconciled: its custom resource's name. Left out
    /// of the JSON for a scenario's one custom resource.
    #[serde(skip_serializing_if = "is_the_custom_resource")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<String>"))]
    pub custom_resource: Arc<str>,
    pub started_at: Millis,
    pub finished_at: Millis,
    pub trigger: Trigger,
    /// Set when the controller planned nothing without calling `reconcile`
    /// (its expectations were not satisfied).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub skipped: Option<PassSkip>,
    pub actions: Vec<ActionOutcome>,
    pub crashed: bool,
    /// The world right after the pass (shared with the previous pass when unchanged).
    pub world_after: Rc<World>,
    /// How many actions `reconcile` would return right after the pass.
    pub out_of_sync: usize,
    pub terminating: usize,
    /// Where the controller's cache differed from `world_after` as the pass
    /// ended, sorted by name: what the next pass may read stale.
    #[serde(skip)]
    pub cache_lag: Vec<CacheLagEntry>,
    /// The status the pass wrote to its custom resource, after its actions
    /// (only with `statusWrites`; see [`status_writes`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub status_write: Option<StatusWrite>,
}

pub use crate::control_plane::consistency::WatchedKind;

fn is_the_custom_resource(name: &Arc<str>) -> bool {
    &**name == CUSTOM_RESOURCE
}

/// Something that happened between passes, for the timeline's log.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum Happening {
    /// The watch closed before the event of this write: the events in
    /// flight on it never arrive there. The reflector starts a new watch
    /// from its last resourceVersion.
    WatchBroken {
        name: String,
        change: Change,
    },
    /// The new watch started from `resource_version`: the API server
    /// replayed the events after it from its watch cache, deletes included.
    WatchResumed {
        /// Whose reflector: the custom resource's informer or the objects'.
        informer: WatchedKind,
        resource_version: u64,
        replayed: usize,
    },
    /// 410 Gone: the watch cache no longer reaches back to `resource_version`
    /// (it holds history after `oldest`). The reflector lists again after its backoff.
    WatchExpired {
        /// Whose reflector: the custom resource's informer or the objects'.
        informer: WatchedKind,
        resource_version: u64,
        oldest: u64,
    },
    /// The informer listed again: its cache is the server's state, and the
    /// objects it held that the list lacks were synthesized as deleted
    /// (`DeletedFinalStateUnknown`).
    Relisted {
        /// Whose reflector: the custom resource's informer or the objects'.
        informer: WatchedKind,
        deleted: Vec<String>,
    },
    /// A watch event arrived while the key was processing; it is queued again when the pass ends.
    Deferred {
        trigger: Trigger,
    },
    /// Another actor's scripted event. Its wire name is the old one.
    #[serde(rename = "external-event")]
    ActorEvent {
        event: WorldEvent,
        effect: String,
    },
    FinalizerRemoved {
        object: String,
        finalizer: String,
        /// It was the last one: the API server deleted the object in that update.
        object_deleted: bool,
    },
    /// A node's kubelet stopped a deleted pod's containers and deleted it
    /// with grace period 0: gone, or left to its finalizers.
    PodStopped {
        object: String,
        /// Gone from the store; false while finalizers are pending.
        object_deleted: bool,
    },
    /// The API server refused a write.
    Rejected {
        object: String,
        reason: String,
    },
    OtherWriterWrote {
        writer: String,
        object: String,
        path: String,
        value: Json,
    },
    Crashed {
        pass: usize,
    },
    Restarted,
    /// A requeue for `requested_at` found the key waiting already: the
    /// delaying queue keeps one entry per key, at the earlier time.
    RequeueMerged {
        requested_at: Millis,
        ready_at: Millis,
    },
    /// kube-controller-manager's garbage collector wrote to the store.
    GarbageCollector {
        action: GcAction,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    pub at: Millis,
    /// The number of passes finished when it happened.
    pub after_pass: usize,
    #[serde(flatten)]
    pub what: Happening,
}

/// A whole run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timeline {
    pub passes: Vec<PassRecord>,
    pub log: Vec<LogEntry>,
    pub verdict: Verdict,
    /// The world before the first pass.
    pub initial: World,
    #[serde(serialize_with = "crate::resources_as_json::serialize")]
    pub desired_initial: Resources,
    /// The world when the run ended. Later than the last pass's `world_after`
    /// when other actors changed it afterwards (say, a delete nobody heard of).
    pub final_world: World,
    /// Every step the controller took part in, for stepping by event.
    pub events: events::EventLog,
    /// Each scripted event of another actor, with the world it left.
    #[serde(skip)]
    pub actor_events: Vec<ActorEventRecord>,
    /// The moments a view can show, in time order (see [`Moment`]).
    #[serde(skip)]
    pub moments: Vec<Moment>,
    /// What the controller compared (its out-of-sync counts are by it).
    #[serde(skip)]
    pub compare: SpecComparison,
    /// How the controller named what it created (its out-of-sync counts see
    /// the store through [`naming::named_view`]).
    #[serde(skip)]
    pub naming: ObjectNaming,
}

impl Timeline {
    /// The desired state in force after `passes` passes: the scripted spec
    /// changes the log shows by then. (A change scripted after pass 5 of a run
    /// that settled after 2 happens when the loop is idle, after pass 2.)
    /// `config` is not needed any more; the parameter stays for callers.
    pub fn desired_after(&self, passes: usize, _config: &SimConfig) -> Resources {
        let mut desired = &self.desired_initial;
        for entry in self.log.iter().filter(|e| e.after_pass <= passes) {
            if let Happening::ActorEvent {
                event: WorldEvent::SetDesired { desired: next },
                ..
            } = &entry.what
            {
                desired = next;
            }
        }
        desired.clone()
    }

    /// The world after `passes` passes (0 = the start).
    pub fn world_after(&self, passes: usize) -> &World {
        match passes.checked_sub(1).and_then(|i| self.passes.get(i)) {
            Some(pass) => &pass.world_after,
            None => &self.initial,
        }
    }

    /// Where the controller's cache differed from [`Timeline::world_after`]
    /// `passes`; none at the start, when the informer has just listed.
    pub fn cache_lag_after(&self, passes: usize) -> &[CacheLagEntry] {
        passes
            .checked_sub(1)
            .and_then(|i| self.passes.get(i))
            .map_or(&[], |pass| &pass.cache_lag)
    }
}

/// A point of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// Before the first pass: the scenario as written.
    Start,
    /// Right after pass `n` (1-based) ended.
    AfterPass(usize),
    /// Right after another actor's event: an index into [`Timeline::actor_events`].
    AfterActorEvent(usize),
}

/// One scripted event of another actor, with the world it left.
#[derive(Debug, Clone, PartialEq)]
pub struct ActorEventRecord {
    pub at: Millis,
    /// Passes finished when it happened.
    pub after_pass: usize,
    /// Its entry in `SimConfig::script`.
    pub script_index: usize,
    pub event: WorldEvent,
    /// What it did ("deleted", "has finalizers, so it is terminating"...).
    pub effect: String,
    pub world_after: Rc<World>,
    /// The desired state in force right after it (a `set-desired` changes it).
    pub desired_after: Resources,
    /// How many actions `reconcile` would return right after it.
    pub out_of_sync: usize,
}

/// The moments of a run with `passes` passes and these actor events, in order.
pub(crate) fn moments_of(passes: usize, actor_events: &[ActorEventRecord]) -> Vec<Moment> {
    let mut moments = Vec::with_capacity(1 + passes + actor_events.len());
    moments.push(Moment::Start);
    let mut events = actor_events.iter().enumerate().peekable();
    for pass in 0..=passes {
        if pass > 0 {
            moments.push(Moment::AfterPass(pass));
        }
        while let Some((index, _)) = events.next_if(|(_, e)| e.after_pass <= pass) {
            moments.push(Moment::AfterActorEvent(index));
        }
    }
    moments
}

/// How the controller's informer cache differs from the API server's store
/// for one object: watch events still on their way, or lost with a broken
/// watch until the informer lists again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CacheLag {
    /// The store has it; the cache has not heard of it yet.
    NotYetSeen,
    /// Gone from the store; the cache still has it.
    StillCached,
    /// The cache holds an older spec.
    OlderSpec,
    /// The cache has not heard yet that its deletion started.
    DeletionNotYetSeen,
    /// The cache holds an older list of pending finalizers.
    OlderFinalizers,
}

impl CacheLag {
    /// How `cache` differs from `store` for `name`, if it does in what the
    /// controller reads: presence, spec, deletion and finalizers.
    pub fn of(name: &str, cache: &World, store: &World) -> Option<CacheLag> {
        match (cache.observed.get(name), store.observed.get(name)) {
            (None, None) => None,
            (None, Some(_)) => Some(CacheLag::NotYetSeen),
            (Some(_), None) => Some(CacheLag::StillCached),
            (Some(cached), Some(stored)) if cached != stored => Some(CacheLag::OlderSpec),
            _ if cache.is_terminating(name) != store.is_terminating(name) => {
                Some(CacheLag::DeletionNotYetSeen)
            }
            _ if cache.pending(name) != store.pending(name) => Some(CacheLag::OlderFinalizers),
            _ => None,
        }
    }

    /// Words for the grid.
    pub fn describe(self) -> &'static str {
        match self {
            CacheLag::NotYetSeen => "the controller's cache has not seen it yet",
            CacheLag::StillCached => "deleted, but the controller's cache still has it",
            CacheLag::OlderSpec => "the controller's cache still has its older spec",
            CacheLag::DeletionNotYetSeen => {
                "the controller's cache has not seen its deletion start yet"
            }
            CacheLag::OlderFinalizers => "the controller's cache has older finalizers",
        }
    }
}

/// One object whose cached copy differs from the store's, when a pass ended
/// (a pass's list of them is sorted by name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheLagEntry {
    pub name: String,
    pub lag: CacheLag,
}
