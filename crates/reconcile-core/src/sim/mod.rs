//! A deterministic simulation of a controller applying its plan and reconciling again.
//!
//! # Expected flow
//! At t = 0 the controller's informer lists the custom resource, which queues
//! its key. Each time the single worker takes the key it runs one **pass**:
//! `reconcile` on the current world, then the actions one by one. Every write
//! produces a watch event on an owned object, which (unless dropped) queues the
//! key again, so the loop runs until a pass finds nothing to do.
//!
//! # Guarantees
//! - Deterministic: the same scenario and [`SimConfig`] (including `seed`) give
//!   an identical [`Timeline`]. No wall clock, no global RNG.
//! - `reconcile` never sees why a pass ran; the reason is only recorded.
//! - The work queue never processes the key twice at once (client-go's dirty
//!   and processing sets).
//!
//! # Caveats
//! - Each pass reads the world directly, as if the informer cache were always
//!   current: a dropped watch event loses the *trigger*, never the data.
//! - There is one controller key (the custom resource); backoff is per key.
//! - A failing action ends the pass (the idiomatic `return err`); the rest are
//!   not attempted and the key is requeued with backoff.

mod edge;
mod engine;
pub mod rng;
mod status;
pub mod workqueue;
pub mod world;

use serde::{Deserialize, Serialize};

use crate::json::Json;
use crate::model::{Finalizers, Resources};
use crate::reconcile::Action;
pub use edge::{compare_level_edge, Comparison, EdgeStep};
pub use engine::simulate;
pub use status::{resource_statuses, ResourceStatus, SyncState};
pub use workqueue::{BackoffPolicy, Millis};
pub use world::{Change, World, NO_NEW_FINALIZERS};

/// The starting point of a simulation: the three documents.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimScenario {
    pub desired: Resources,
    pub observed: Resources,
    pub finalizers: Option<Finalizers>,
}

/// Everything that shapes a run besides the scenario. Missing fields take
/// their defaults when deserialized, so old share links keep working.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SimConfig {
    pub seed: u64,
    /// Stop with "pass limit" after this many passes.
    pub max_passes: usize,
    /// Probability that one action fails transiently.
    pub failure_rate: f64,
    /// Probability that one watch event never reaches the controller.
    pub drop_rate: f64,
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
    pub crash: Option<CrashPlan>,
    /// Things other actors do, each right after a given pass.
    pub script: Vec<ScriptedEvent>,
    /// Other controllers that write a field of an object whenever it differs from their value.
    pub other_writers: Vec<OtherWriter>,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            max_passes: 100,
            failure_rate: 0.0,
            drop_rate: 0.0,
            resync_period_ms: None,
            watch_owned: true,
            backoff: BackoffPolicy::default(),
            action_ms: 10,
            watch_latency_ms: 5,
            finalizer_owner_delay_ms: 50,
            restart_delay_ms: 500,
            stuck_finalizers: Vec::new(),
            crash: None,
            script: Vec::new(),
            other_writers: Vec::new(),
        }
    }
}

/// One finalizer entry on one object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalizerRef {
    pub object: String,
    pub finalizer: String,
}

/// Crash the controller in pass `at_pass` (1-based) after `after_actions` of its actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CrashPlan {
    pub at_pass: usize,
    pub after_actions: usize,
}

/// An event by another actor, applied right after pass `after_pass` ends (0 = before the first pass).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptedEvent {
    pub after_pass: usize,
    pub event: WorldEvent,
}

/// What another actor can do to the world.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
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
        #[serde(with = "resources_as_json")]
        desired: Resources,
    },
}

/// A competing writer, such as an autoscaler that sets `replicas`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OtherWriter {
    pub name: String,
    pub object: String,
    pub path: Vec<String>,
    pub value: Json,
    pub reaction_ms: Millis,
}

/// Why a pass ran. `reconcile` never sees this.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Trigger {
    /// The custom resource was added (initial list, also after a restart) or its spec changed.
    CustomResource { change: Change, after_restart: bool },
    /// A watched object the controller owns changed (ownerReferences).
    OwnedObject { name: String, change: Change },
    /// The periodic resync, the safety net for anything missed.
    Resync,
    /// A requeue with backoff after a failed pass.
    Requeue { failures: u32 },
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
            Trigger::CustomResource { .. } => f.write_str("custom resource spec changed"),
            Trigger::OwnedObject { name, change } => {
                let change = match change {
                    Change::Added => "added",
                    Change::Updated => "updated",
                    Change::Deleted => "deleted",
                };
                write!(f, "owned object {name} {change}")
            }
            Trigger::Resync => f.write_str("periodic resync"),
            Trigger::Requeue { failures } => write!(f, "requeue after failure #{failures}"),
        }
    }
}

/// What became of one action of a pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum ActionResult {
    Applied,
    /// FINALIZE on an object already terminating: nothing to write.
    AlreadyTerminating,
    /// The API call failed; the key is requeued for `requeued_at`.
    Failed {
        requeued_at: Millis,
    },
    /// Not tried: an earlier action of the pass failed.
    NotAttempted,
    /// Not tried: the controller crashed before it.
    LostInCrash,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionOutcome {
    pub action: Action,
    #[serde(flatten)]
    pub result: ActionResult,
}

/// One pass of the loop.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PassRecord {
    /// 1-based.
    pub index: usize,
    pub started_at: Millis,
    pub finished_at: Millis,
    pub trigger: Trigger,
    pub actions: Vec<ActionOutcome>,
    pub crashed: bool,
    /// The world right after the pass (shared with the previous pass when unchanged).
    pub world_after: std::rc::Rc<World>,
    /// How many actions `reconcile` would return right after the pass.
    pub out_of_sync: usize,
    pub terminating: usize,
}

/// Something that happened between passes, for the timeline's log.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Happening {
    WatchEventDropped {
        name: String,
        change: Change,
    },
    /// A watch event arrived while the key was processing; it is queued again when the pass ends.
    Deferred {
        trigger: Trigger,
    },
    ExternalEvent {
        event: WorldEvent,
        effect: String,
    },
    FinalizerRemoved {
        object: String,
        finalizer: String,
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
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogEntry {
    pub at: Millis,
    /// The number of passes finished when it happened.
    pub after_pass: usize,
    #[serde(flatten)]
    pub what: Happening,
}

/// How the run ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    Converged { passes: usize, time: Millis },
    NotConverging { reason: NotConvergingReason },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
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
                write!(f, "still changing after the pass limit of {limit}")
            }
            NotConvergingReason::NoTrigger { out_of_sync } => write!(
                f,
                "{out_of_sync} out of sync, but no event or resync will trigger another pass"
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
    #[serde(with = "resources_as_json")]
    pub desired_initial: Resources,
}

impl Timeline {
    /// The desired state in force after `passes` passes (scripted spec changes apply).
    pub fn desired_after(&self, passes: usize, config: &SimConfig) -> Resources {
        let mut desired = self.desired_initial.clone();
        for scripted in &config.script {
            if scripted.after_pass <= passes {
                if let WorldEvent::SetDesired { desired: next } = &scripted.event {
                    desired = next.clone();
                }
            }
        }
        desired
    }

    /// The world after `passes` passes (0 = the start).
    pub fn world_after(&self, passes: usize) -> &World {
        match passes.checked_sub(1).and_then(|i| self.passes.get(i)) {
            Some(pass) => &pass.world_after,
            None => &self.initial,
        }
    }
}

pub(crate) fn serialize_resources<S: serde::Serializer>(
    value: &Resources,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    value.serialize(serializer)
}

/// Resources (de)serialize as a plain `{name: spec}` object.
mod resources_as_json {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::json::Json;
    use crate::model::Resources;

    pub fn serialize<S: Serializer>(value: &Resources, serializer: S) -> Result<S::Ok, S::Error> {
        value.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Resources, D::Error> {
        let map = std::collections::BTreeMap::<String, Json>::deserialize(deserializer)?;
        Ok(map.into_iter().collect())
    }
}
