//! A deterministic simulation of a controller applying its plan and reconciling again.
//!
//! # Expected flow
//! At t = 0 the controller's informer lists the custom resource and the
//! objects it owns into its cache, and queues the custom resource's key. Each
//! time the single worker takes the key it runs one **pass**: `reconcile` on
//! the informer's cache (never on the API server's store), then each action
//! as its own API request, `action_ms` apart. Every write produces a watch
//! event, which reaches the cache `watch_latency_ms` later and queues the key
//! again, so the loop runs until a pass finds nothing to do. The parts:
//! [`apiserver`] (the store and its rules), `engine::informer` (cache, watch
//! breaks and re-lists, resync), [`workqueue`] (client-go's queue and rate
//! limiters), `engine::requeue` (responses → result → queue, as
//! controller-runtime's `reconcileHandler`), `engine::owners` (finalizer
//! owners), `engine::script` (other actors), `engine::gc` (the garbage
//! collector), [`ownership`] (ownerReferences, the custom resource's key
//! space).
//!
//! The custom resource is in the store too, in a key space of its own, and
//! every object the controller manages refers to it (ownerReferences with
//! `controller` and `blockOwnerDeletion`). When another actor deletes it,
//! the garbage collector deletes or orphans what it owned, as the
//! propagation policy says.
//!
//! # Guarantees
//! - Deterministic: the same scenario and [`SimConfig`] (including `seed`) give
//!   an identical [`Timeline`]. No wall clock, no global RNG.
//! - `reconcile` never sees why a pass ran; the reason is only recorded.
//! - The work queue never processes the key twice at once (client-go's dirty
//!   and processing sets).
//!
//! # Finalizers
//! FINALIZE and DELETE are both a delete request; the API server
//! ([`apiserver`]) decides from the finalizers whether the object goes at once
//! or starts terminating (deletionTimestamp). The owner of each finalizer is
//! another controller: when an object starts terminating, each owner that is
//! not stuck removes its own entry `finalizer_owner_delay_ms` later, whatever
//! this controller does (even while it is down). The update that removes the
//! last entry deletes the object, as the API server's
//! `ShouldDeleteDuringUpdate` does, so no DELETE follows a FINALIZE.
//!
//! # Convergence bound
//! Without faults (no failures, drops, crash, stuck finalizers, other writers
//! or script; owned objects watched) a run converges within
//!
//! `passes ≤ 1 + n + Σf` (plus one per resync tick that fires first, and one
//! per pass with a failed request: its requeue waits in the delaying queue
//! and fires even after a later pass for the key has succeeded, as
//! client-go's `AddAfter` does)
//!
//! where `n` is the number of actions of the first plan and `Σf` the
//! finalizer entries of the objects it FINALIZEs. Why:
//! - pass 1 (the informer's initial list) applies all `n` actions; every
//!   write raises one watch event;
//! - owners remove the `Σf` entries, each removal raising an event (the last
//!   one of an object is its delete). Later FINALIZEs find the object
//!   terminating and write nothing, and nobody else writes: `n + Σf` events
//!   in all;
//! - a pass that reads a stale cache repeats actions whose events have not
//!   arrived: those write nothing (404 on a delete, an object already
//!   terminating) or fail (409), and a failure adds only its requeue;
//! - every later pass needs the key queued, which only a delivered event, a
//!   resync tick or a requeue does; the queue folds events (an add while
//!   queued or processing adds at most one pass) but never splits one.
//!
//! The bound is for deterministic names (`naming`'s default): when the API
//! server generates names ([`naming`], beyond the contract), a stale read's
//! second CREATE succeeds as a duplicate, and a later pass deletes it.
//!
//! With no watch latency no read is stale and no requeue happens. With the
//! default timing the events of a pass mostly arrive while it runs and fold
//! into one more pass, so runs are much shorter (the seed example: 3
//! actions, 3 passes, the second repeating a DELETE its cache had not seen).
//!
//! # Caveats
//! - A pass reads the cache, which lags the store by the watch latency: it
//!   may repeat an action whose event has not arrived yet (404 on a delete,
//!   taken as done; 409 AlreadyExists on a create, an error that requeues).
//! - `watchBreakRate` is the chance that the watch breaks at an event; the informer
//!   then lists again after the reflector's backoff (800 ms, jitter 1.0) and
//!   synthesizes the deletes it missed. Real watches rarely break this often.
//! - `world_after` is the store when the pass ended; of the cache only its
//!   differences from the store are recorded (`cache_lag`).
//! - There is one controller key (the custom resource); backoff is per key.
//! - A failing action ends the pass (the idiomatic `return err`); the rest are
//!   not attempted and the key is requeued with backoff.
//! - While the controller is down after a crash, events reach nobody; the
//!   restarted controller starts a fresh informer, which lists what exists.
//! - A finalizer owner has one worker: it cleans up after one object at a
//!   time, `finalizer_owner_delay_ms` each (or its own `finalizer_owners`
//!   delay), in the order the objects started terminating. The
//!   garbage collector (`engine::gc`) owns `orphan` and `foregroundDeletion`;
//!   it acts only on what a deleted owner owned (the custom resource, by a
//!   scripted `delete-custom-resource`), `watch_latency_ms + action_ms` after
//!   each write it must look at, its watch never breaking and its requests
//!   never failing. The controller's own deletes use the default propagation
//!   (background), which adds neither finalizer.
//! - Once its custom resource is being deleted or gone, the reconciler
//!   returns at once (controller-runtime: the Get is NotFound, or the object
//!   has a deletionTimestamp and no finalizer of this controller), so passes
//!   do nothing. The state to reach is then the collector's: the custom
//!   resource gone and no object referring to it (background and foreground
//!   delete the dependents, orphan keeps them without the reference); the
//!   verdict and `out_of_sync` count what is left of that.
//! - Only [`OtherWriter`]s can fight the controller: scripted events are
//!   finitely many, so a state they bring back is never called an oscillation.
//! - Simulated time ends at `Millis::MAX` ms: anything the settings would
//!   schedule later (a resync, requeue, restart, watch event...) never
//!   happens, and a pass still running then ends there.

pub mod apiserver;
mod backoff_series;
pub mod comparison;
pub mod defaulting;
#[cfg(feature = "level-edge")]
mod edge;
mod engine;
pub mod events;
pub mod expectations;
mod fault_input;
mod gc_record;
#[cfg(feature = "level-edge")]
mod lanes;
mod moments;
pub mod naming;
pub mod options;
pub mod own_reconcile;
pub mod ownership;
pub mod picture;
mod propagation;
pub mod rng;
pub mod sorted;
mod status;
pub mod status_writes;
mod swimlanes;
pub mod workqueue;
pub mod world;

use serde::{Deserialize, Serialize};

pub use apiserver::PropagationPolicy;
pub use backoff_series::{BackoffPoint, BackoffSeries, DelaySetBy, Retry};
pub use comparison::SpecComparison;
#[cfg(feature = "level-edge")]
pub use edge::{compare_level_edge, EdgeStep, LevelEdge};
pub use engine::{simulate, ReconcileCall, ResumeError, Simulation, Step};
pub use expectations::PassSkip;
pub use fault_input::DriftInputError;
pub use gc_record::GcAction;
#[cfg(feature = "level-edge")]
pub use lanes::{EdgeHearing, LaneColumn, Lanes, ObjectLanes};
pub use moments::{
    next_plan_view, pass_view, world_rows, ActorEventRecord, Moment, ObjectChange, PassViews,
    WorldRow,
};
pub use naming::ObjectNaming;
pub use options::{options_from_json, parse_options, OptionsError};
use reconcile_core::json::Json;
use reconcile_core::model::Resources;
use reconcile_core::path::JsonPath;
use reconcile_core::reconcile::Action;
pub use status::{resource_statuses, CacheLag, CacheLagEntry, ResourceStatus, SyncState};
pub use status_writes::{StatusWrite, StatusWrites};
pub use swimlanes::{column_label, column_window, SwimCell, SwimLane, Swimlanes};
pub use workqueue::{BackoffPolicy, Millis, QueueModel};
pub use world::{Change, World, NO_NEW_FINALIZERS};

/// The starting point of a simulation: the three documents, as everywhere else.
pub use reconcile_core::model::Scenario as SimScenario;

/// Everything that shapes a run besides the scenario. Missing fields take
/// their defaults when deserialized, so old share links keep working.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct SimConfig {
    pub seed: u64,
    /// Stop with "pass limit" after this many passes.
    pub max_passes: usize,
    /// Probability that one action fails transiently.
    pub failure_rate: f64,
    /// Probability that the watch breaks at one event (it and the events in
    /// flight are lost until the informer lists again). Links and options of
    /// earlier builds called it `dropRate`, when it meant lost events.
    #[serde(alias = "dropRate")]
    pub watch_break_rate: f64,
    /// Periodic resync; `None` turns it off.
    pub resync_period_ms: Option<Millis>,
    /// Whether the controller watches the objects it owns (ownerReferences).
    pub watch_owned: bool,
    pub backoff: BackoffPolicy,
    /// How long one action (one API call) takes.
    pub action_ms: Millis,
    /// Delay from a write to its watch event reaching the controller.
    pub watch_latency_ms: Millis,
    /// Delay from a pass ending to finalizer owners removing an entry each.
    pub finalizer_owner_delay_ms: Millis,
    /// Delay from a crash to the restarted controller listing the world again.
    pub restart_delay_ms: Millis,
    /// Finalizers whose owner never removes them.
    pub stuck_finalizers: Vec<FinalizerRef>,
    /// Owners with a speed of their own, by finalizer name; the others take
    /// `finalizer_owner_delay_ms`.
    pub finalizer_owners: Vec<FinalizerOwner>,
    pub crash: Option<CrashPlan>,
    /// Things other actors do, each right after a given pass.
    pub script: Vec<ScriptedEvent>,
    /// Other controllers that write a field of an object whenever it differs from their value.
    pub other_writers: Vec<OtherWriter>,
    /// After a pass whose FINALIZEd objects are still terminating, return
    /// `RequeueAfter` this long (the polling style), instead of waiting for
    /// the watch event of their deletion. `None`: never.
    pub requeue_while_terminating_ms: Option<Millis>,
    /// The controller's work queue: client-go's (the default) or
    /// controller-runtime's priority queue, each with `backoff`'s rate limiter.
    pub queue: QueueModel,
    /// What the controller compares to decide an UPDATE: the whole spec
    /// (the contract), or only the fields it sets (beyond the contract;
    /// see [`comparison`]).
    pub compare: SpecComparison,
    /// Observed objects that are terminating at the start: their manifests
    /// have a `metadata.deletionTimestamp`. This goes beyond the seed
    /// contract, whose documents cannot say so; an object here with no
    /// finalizer pending is gone at the start, as the API server deletes
    /// such an object at once.
    pub terminating: Vec<String>,
    /// How the controller names what it creates: the desired name (the
    /// contract), or `generateName` with or without a ReplicaSet's
    /// expectations (beyond the contract; see [`naming`]).
    pub naming: ObjectNaming,
    /// What the controller writes to its custom resource's status after each
    /// pass (beyond the seed's contract; see [`status_writes`]).
    pub status_writes: StatusWrites,
    /// Whether the watch on the custom resource drops update events that
    /// leave its generation unchanged (controller-runtime's
    /// `GenerationChangedPredicate`; beyond the seed's contract).
    pub generation_changed_predicate: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            max_passes: 100,
            failure_rate: 0.0,
            watch_break_rate: 0.0,
            resync_period_ms: None,
            watch_owned: true,
            backoff: BackoffPolicy::default(),
            action_ms: 10,
            watch_latency_ms: 5,
            finalizer_owner_delay_ms: 50,
            restart_delay_ms: 500,
            stuck_finalizers: Vec::new(),
            finalizer_owners: Vec::new(),
            crash: None,
            script: Vec::new(),
            other_writers: Vec::new(),
            requeue_while_terminating_ms: None,
            queue: QueueModel::ClientGo,
            compare: SpecComparison::WholeSpec,
            terminating: Vec::new(),
            naming: ObjectNaming::Deterministic,
            status_writes: StatusWrites::None,
            generation_changed_predicate: false,
        }
    }
}

/// One finalizer entry on one object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct FinalizerRef {
    pub object: String,
    pub finalizer: String,
}

/// The owner of one finalizer name: another controller, with its own work
/// queue and one worker, that takes `delay_ms` to clean up after each object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FinalizerOwner {
    pub finalizer: String,
    pub delay_ms: Millis,
}

/// Crash the controller in pass `at_pass` (1-based) after `after_actions` of its actions.
/// A pass that ends sooner (it has fewer actions, or one fails) crashes as it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CrashPlan {
    pub at_pass: usize,
    pub after_actions: usize,
}

/// An event by another actor, applied right after pass `afterPass` ends (0 = before the first pass).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScriptedEvent {
    pub after_pass: usize,
    pub event: WorldEvent,
}

/// What another actor can do to the world.
///
/// Deserializes through a flat struct (see [`BackoffPolicy`] for why).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "kebab-case", try_from = "RawWorldEvent")]
pub enum WorldEvent {
    /// Someone deletes an object (`kubectl delete`). Pending finalizers make it terminate instead.
    Delete { name: String },
    /// Someone edits one field of an object's spec.
    Drift {
        name: String,
        path: Vec<String>,
        value: Json,
    },
    /// Someone creates an object the controller does not want.
    StrayCreate { name: String, spec: Json },
    /// Someone adds a finalizer to an object.
    AddFinalizer { name: String, finalizer: String },
    /// The custom resource's spec changes: a new desired state.
    SetDesired {
        #[serde(serialize_with = "resources_as_json::serialize")]
        #[cfg_attr(feature = "ts", ts(as = "Resources"))]
        desired: Resources,
    },
    /// Someone deletes the custom resource (`kubectl delete --cascade=...`);
    /// the garbage collector then acts on what it owns, as `propagation` says.
    DeleteCustomResource { propagation: PropagationPolicy },
}

/// How an event reads in the timeline and the level-vs-edge table.
impl std::fmt::Display for WorldEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorldEvent::Delete { name } => write!(f, "someone deletes {name}"),
            WorldEvent::Drift { name, path, value } => {
                // The path as core prints it, after the object's name: `web.replicas`.
                let path = JsonPath::of_keys(path).to_string();
                write!(f, "someone sets {name}{} to {value}", &path[1..])
            }
            WorldEvent::StrayCreate { name, .. } => write!(f, "someone creates {name}"),
            WorldEvent::AddFinalizer { name, finalizer } => {
                write!(f, "someone adds finalizer {finalizer} to {name}")
            }
            WorldEvent::SetDesired { .. } => f.write_str("the custom resource's spec changes"),
            WorldEvent::DeleteCustomResource { propagation } => {
                write!(f, "someone deletes the custom resource ({propagation})")
            }
        }
    }
}

/// The wire form of [`WorldEvent`]: `{"kind": "delete" | "drift" | ..., ...}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorldEvent {
    kind: String,
    name: Option<String>,
    #[serde(default, deserialize_with = "bounded_optional_path")]
    path: Option<Vec<String>>,
    #[serde(default, deserialize_with = "present")]
    value: Option<Json>,
    #[serde(default, deserialize_with = "present")]
    spec: Option<Json>,
    finalizer: Option<String>,
    #[serde(default, with = "optional_resources_as_json")]
    desired: Option<Resources>,
    propagation: Option<PropagationPolicy>,
}

/// The most members a field path (of a drift or another writer) may name
/// when read from JSON, as the JS API, links and autosaves are. Each member
/// nests the written value one level deeper, and the recursive compare, hash,
/// serialize and drop of a value nested thousands deep overflow the stack: a
/// 10,000-member path overflows 1 MB, the stack wasm gets. The same limit as
/// the parser's nesting.
pub const MAX_PATH_LEN: usize = reconcile_core::parse::MAX_DEPTH;

fn bounded_path<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<String>, D::Error> {
    let path = Vec::<String>::deserialize(deserializer)?;
    if path.len() > MAX_PATH_LEN {
        return Err(serde::de::Error::custom(format!(
            "a field path names at most {MAX_PATH_LEN} members, not {}",
            path.len()
        )));
    }
    Ok(path)
}

fn bounded_optional_path<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Vec<String>>, D::Error> {
    bounded_path(deserializer).map(Some)
}

/// A member that is present, even as `null` (a drift to null, a stray object
/// with a null spec); `Option<Json>` alone would read `null` as missing, so such
/// settings did not read back from their own JSON (share links, the JS API).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Json>, D::Error> {
    Json::deserialize(deserializer).map(Some)
}

impl TryFrom<RawWorldEvent> for WorldEvent {
    type Error = String;

    fn try_from(raw: RawWorldEvent) -> Result<Self, String> {
        let kind = raw.kind;
        let missing = |field: &str| format!("event \"{kind}\" needs \"{field}\"");
        let name = || raw.name.clone().ok_or_else(|| missing("name"));
        Ok(match kind.as_str() {
            "delete" => WorldEvent::Delete { name: name()? },
            "drift" => WorldEvent::Drift {
                name: name()?,
                path: raw.path.clone().ok_or_else(|| missing("path"))?,
                value: raw.value.clone().ok_or_else(|| missing("value"))?,
            },
            "stray-create" => WorldEvent::StrayCreate {
                name: name()?,
                spec: raw.spec.clone().ok_or_else(|| missing("spec"))?,
            },
            "add-finalizer" => WorldEvent::AddFinalizer {
                name: name()?,
                finalizer: raw.finalizer.clone().ok_or_else(|| missing("finalizer"))?,
            },
            "set-desired" => WorldEvent::SetDesired {
                desired: raw.desired.clone().ok_or_else(|| missing("desired"))?,
            },
            // Without a policy, the default of custom resources: background.
            "delete-custom-resource" => WorldEvent::DeleteCustomResource {
                propagation: raw.propagation.unwrap_or_default(),
            },
            other => {
                return Err(format!(
                    "unknown event kind \"{other}\"; expected delete, drift, stray-create, add-finalizer, set-desired or delete-custom-resource"
                ))
            }
        })
    }
}

mod optional_resources_as_json {
    use std::fmt;

    use serde::de::{MapAccess, Visitor};
    use serde::{Deserialize, Deserializer};

    use reconcile_core::json::Json;
    use reconcile_core::model::Resources;

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Resources>, D::Error> {
        let members = Option::<Members>::deserialize(deserializer)?;
        // A name that repeats keeps its last spec, as a map read would.
        Ok(members.map(|Members(members)| members.into_iter().collect()))
    }

    /// An object's members in the order written: read as a `BTreeMap` reads
    /// them, with its error messages, but without its code (the simulation
    /// keeps no other map of that type).
    struct Members(Vec<(String, Json)>);

    impl<'de> Deserialize<'de> for Members {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_map(MembersVisitor)
        }
    }

    struct MembersVisitor;

    impl<'de> Visitor<'de> for MembersVisitor {
        type Value = Members;

        fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
            formatter.write_str("a map")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
            let mut members = Vec::new();
            while let Some(member) = map.next_entry()? {
                members.push(member);
            }
            Ok(Members(members))
        }
    }
}

/// A competing writer, such as an autoscaler that sets `replicas`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OtherWriter {
    pub name: String,
    pub object: String,
    /// At most [`MAX_PATH_LEN`] members when read from JSON.
    #[serde(deserialize_with = "bounded_path")]
    pub path: Vec<String>,
    pub value: Json,
    pub reaction_ms: Millis,
}

/// Why a pass ran. `reconcile` never sees this.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum Trigger {
    /// The custom resource was added (initial list, also after a restart) or its spec changed.
    CustomResource { change: Change, after_restart: bool },
    /// A watched object the controller owns changed (ownerReferences).
    OwnedObject { name: String, change: Change },
    /// The periodic resync, the safety net for anything missed.
    Resync,
    /// A requeue with backoff after a failed pass.
    Requeue { failures: u32 },
    /// The informer listed again after its watch broke (every listed object
    /// reaches the handlers again).
    Relisted,
    /// The `RequeueAfter` a successful pass returned.
    RequeueAfter { delay_ms: Millis },
    /// The custom resource got its deletionTimestamp (a foreground or orphan
    /// deletion waits for the garbage collector).
    CustomResourceDeleting,
    /// The custom resource was updated with its generation unchanged: its
    /// status was written (by this controller's own status write).
    CustomResourceStatus,
}

impl std::fmt::Display for Trigger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Trigger::CustomResource {
                change: Change::Added,
                after_restart: true,
            } => f.write_str("custom resource listed after the controller restarted"),
            Trigger::CustomResource {
                change: Change::Added,
                ..
            } => f.write_str("custom resource added"),
            Trigger::CustomResource {
                change: Change::Deleted,
                ..
            } => f.write_str("custom resource deleted"),
            Trigger::CustomResource { .. } => f.write_str("custom resource spec changed"),
            Trigger::CustomResourceDeleting => f.write_str("custom resource is being deleted"),
            Trigger::CustomResourceStatus => {
                f.write_str("custom resource status written (generation unchanged)")
            }
            Trigger::OwnedObject { name, change } => {
                let change = match change {
                    Change::Added => "added",
                    Change::Updated => "updated",
                    Change::Deleted => "deleted",
                };
                write!(f, "owned object {name} {change}")
            }
            Trigger::Resync => f.write_str("periodic resync"),
            Trigger::Relisted => f.write_str("the informer re-listed after its watch broke"),
            Trigger::Requeue { failures } => write!(f, "requeue after failure #{failures}"),
            Trigger::RequeueAfter { delay_ms } => {
                write!(
                    f,
                    "RequeueAfter {} (objects still terminating)",
                    format_millis(*delay_ms)
                )
            }
        }
    }
}

/// What became of one action of a pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "result",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum ActionResult {
    Applied,
    /// FINALIZE on an object already terminating: the delete request
    /// succeeds and writes nothing.
    AlreadyTerminating,
    /// UPDATE whose object, once the API server has filled in its defaults,
    /// is what it stores: 200, nothing written, no new resourceVersion and
    /// no watch event (`TestNoOpUpdates`).
    Unchanged,
    /// DELETE or FINALIZE of an object that is gone already (404): what the
    /// controller wanted, so a success.
    AlreadyGone,
    /// The API request failed with `code` and the server's message `error`;
    /// the key is requeued for `requeuedAt` (unless the controller crashes
    /// in the same pass, which loses the requeue).
    Failed {
        requeued_at: Millis,
        code: u16,
        error: String,
    },
    /// Not tried: an earlier action of the pass failed.
    NotAttempted,
    /// Not tried: the controller crashed before it.
    LostInCrash,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ActionOutcome {
    pub action: Action,
    /// The object the request went to, when it is not the action's name: the
    /// name the API server generated for a CREATE, or the object a desired
    /// name stood for (see [`naming`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<String>"))]
    pub object: Option<std::sync::Arc<str>>,
    #[serde(flatten)]
    pub result: ActionResult,
}

/// One pass of the loop.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PassRecord {
    /// 1-based.
    pub index: usize,
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
    pub world_after: std::rc::Rc<World>,
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

/// Something that happened between passes, for the timeline's log.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum Happening {
    /// The watch broke at the event of this write: it and every event in
    /// flight are lost, until the informer lists again.
    WatchBroken {
        name: String,
        change: Change,
    },
    /// The informer listed again: its cache is the server's state, and the
    /// objects it held that the list lacks were synthesized as deleted
    /// (`DeletedFinalStateUnknown`).
    Relisted {
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

/// How the run ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    Converged { passes: usize, time: Millis },
    NotConverging { reason: NotConvergingReason },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum NotConvergingReason {
    /// An object can never finish terminating: its owner never removes this finalizer.
    StuckFinalizer {
        object: String,
        finalizer: String,
    },
    /// Two writers keep undoing each other: the same state comes back again and again.
    Oscillation {
        object: String,
        field: String,
        other_writer: Option<String>,
    },
    PassLimit {
        limit: usize,
    },
    /// Out of sync, but nothing will ever trigger another pass (missed events, no resync).
    NoTrigger {
        out_of_sync: usize,
    },
    /// In sync, but each pass writes a new `field` to the custom resource's
    /// status, whose watch event starts the next pass: `passes` in a row so far.
    StatusHotLoop {
        field: String,
        passes: usize,
    },
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Converged { passes, time } => {
                let plural = if *passes == 1 { "" } else { "es" };
                write!(
                    f,
                    "Converged after {passes} pass{plural} (t = {})",
                    format_millis(*time)
                )
            }
            Verdict::NotConverging { reason } => write!(f, "Not converging: {reason}"),
        }
    }
}

impl std::fmt::Display for NotConvergingReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotConvergingReason::StuckFinalizer { object, finalizer } => write!(
                f,
                "{object} is stuck terminating; finalizer {finalizer} is never removed"
            ),
            NotConvergingReason::Oscillation {
                object,
                field,
                other_writer,
            } => {
                let who = other_writer.as_deref().unwrap_or("another writer");
                write!(
                    f,
                    "oscillation: this controller and {who} keep overwriting {field} of {object}"
                )
            }
            NotConvergingReason::PassLimit { limit } => {
                write!(f, "still planning actions after the pass limit of {limit}")
            }
            NotConvergingReason::NoTrigger { out_of_sync } => write!(
                f,
                "{out_of_sync} out of sync, but no event or resync will trigger another pass"
            ),
            NotConvergingReason::StatusHotLoop { field, passes } => write!(
                f,
                "hot loop: nothing is out of sync, but every pass writes a new {field} to the \
                 custom resource, and the watch event of that write starts the next pass \
                 ({passes} passes in a row did only that; it never stops)"
            ),
        }
    }
}

/// "850 ms", "12.5 s", "16 min 40 s".
pub fn format_millis(ms: Millis) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        let tenths = ms / 100;
        format!("{}.{} s", tenths / 10, tenths % 10)
    } else {
        format!("{} min {} s", ms / 60_000, (ms % 60_000) / 1_000)
    }
}

/// A whole run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timeline {
    pub passes: Vec<PassRecord>,
    pub log: Vec<LogEntry>,
    pub verdict: Verdict,
    /// The world before the first pass.
    pub initial: World,
    #[serde(serialize_with = "resources_as_json::serialize")]
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

/// Resources (de)serialize as a plain `{name: spec}` object.
mod resources_as_json {
    use serde::{Serialize, Serializer};

    use reconcile_core::model::Resources;

    pub fn serialize<S: Serializer>(value: &Resources, serializer: S) -> Result<S::Ok, S::Error> {
        value.serialize(serializer)
    }
}

#[cfg(test)]
mod wire_tests {
    use super::*;

    #[test]
    fn config_round_trips_through_json_with_every_event_kind() {
        let text = r#"{
            "seed": 7,
            "backoff": {"policy": "fixed-delay", "delayMs": 250},
            "script": [
                {"afterPass": 1, "event": {"kind": "delete", "name": "a"}},
                {"afterPass": 2, "event": {"kind": "drift", "name": "a", "path": ["replicas"], "value": 7}},
                {"afterPass": 2, "event": {"kind": "stray-create", "name": "s", "spec": {}}},
                {"afterPass": 3, "event": {"kind": "add-finalizer", "name": "a", "finalizer": "x/y"}},
                {"afterPass": 4, "event": {"kind": "set-desired", "desired": {"a": 1}}}
            ]
        }"#;
        let config: SimConfig = serde_json::from_str(text).expect("valid config");
        assert_eq!(config.backoff, BackoffPolicy::FixedDelay { delay_ms: 250 });
        assert_eq!(config.script.len(), 5);
        assert_eq!(
            config.max_passes,
            SimConfig::default().max_passes,
            "missing fields default"
        );
        let again: SimConfig =
            serde_json::from_str(&serde_json::to_string(&config).expect("serializes"))
                .expect("round trip");
        assert_eq!(again, config);
        let client_go: SimConfig = serde_json::from_str(
            r#"{"backoff": {"policy": "client-go", "baseMs": 5, "maxMs": 1000000, "qps": 10, "burst": 100}}"#,
        )
        .expect("client-go");
        assert_eq!(client_go.backoff, BackoffPolicy::default());
    }

    #[test]
    fn bad_wire_values_name_the_problem() {
        let unknown = serde_json::from_str::<SimConfig>(r#"{"backoff": {"policy": "linear"}}"#);
        assert!(unknown
            .expect_err("rejected")
            .to_string()
            .contains("unknown backoff policy \"linear\""));
        let missing = serde_json::from_str::<SimConfig>(
            r#"{"script": [{"afterPass": 1, "event": {"kind": "drift", "name": "a"}}]}"#,
        );
        assert!(missing
            .expect_err("rejected")
            .to_string()
            .contains("event \"drift\" needs \"path\""));
    }
}
