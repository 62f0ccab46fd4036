//! The run's settings: [`SimConfig`] and the faults, actors and scripted
//! events it names. Read from JSON by [`crate::options`]; start there for
//! the reader, here for what each setting means.

use reconcile_core::json::Json;
use reconcile_core::model::Resources;
use reconcile_core::path::JsonPath;
use serde::{Deserialize, Serialize};

use crate::apiserver::PropagationPolicy;
use crate::comparison::SpecComparison;
use crate::controllers::contract::ContractOptions;
use crate::naming::ObjectNaming;
use crate::status_writes::StatusWrites;
use crate::workqueue::{BackoffPolicy, Millis, QueueModel};
use crate::writes::ObjectWrites;

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
    #[serde(deserialize_with = "super::object_only::value")]
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
    #[serde(deserialize_with = "super::object_only::vec")]
    pub stuck_finalizers: Vec<FinalizerRef>,
    /// Owners with a speed of their own, by finalizer name; the others take
    /// `finalizer_owner_delay_ms`.
    #[serde(deserialize_with = "super::object_only::vec")]
    pub finalizer_owners: Vec<FinalizerOwner>,
    #[serde(deserialize_with = "super::object_only::option")]
    pub crash: Option<CrashPlan>,
    /// Things other actors do, each right after a given pass.
    #[serde(deserialize_with = "super::object_only::vec")]
    pub script: Vec<ScriptedEvent>,
    /// Other controllers that write a field of an object whenever it differs from their value.
    #[serde(deserialize_with = "super::object_only::vec")]
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
    /// How the controller writes objects: POST and PUT (the contract), or
    /// server-side apply, with or without force (beyond the contract; see
    /// [`crate::writes`]). An applier compares only the fields it sets.
    pub writes: ObjectWrites,
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
    /// Delay from a write of the custom resource to its watch event
    /// reaching the controller: its reflector's own. `None`: `watchLatencyMs`.
    pub custom_resource_watch_latency_ms: Option<Millis>,
    /// How long a node's kubelet takes to stop a deleted pod's containers.
    /// It then deletes the pod with grace period 0; at the latest when the
    /// pod's grace period ends (see [`crate::pods`]).
    pub pod_stop_ms: Millis,
    /// KEP-5647 (Kubernetes v1.36): the controller remembers the
    /// resourceVersion of its own last writes and defers a reconcile until
    /// its informers have synced them (`ConsistencyStore`; beyond the seed's
    /// contract; see [`crate::consistency`]).
    pub consistency_store: bool,
    /// The controller keeps a cloud load balancer for its custom resource,
    /// behind its own finalizer (beyond the seed's contract; see
    /// [`crate::cloud`]). `None`: no external system.
    #[serde(deserialize_with = "super::object_only::option")]
    pub cloud: Option<CloudSettings>,
    /// How many reconciles run at once: controller-runtime's
    /// `MaxConcurrentReconciles` (default 1). The queue never hands one
    /// key to two workers. Left out of the JSON at 1.
    #[serde(skip_serializing_if = "is_one")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<usize>"))]
    pub workers: usize,
}

fn is_one(workers: &usize) -> bool {
    *workers == 1
}

/// The external system's timing and failures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct CloudSettings {
    /// How long one call to the cloud takes to answer.
    pub latency_ms: Millis,
    /// Probability that one call fails (503) and changes nothing.
    pub failure_rate: f64,
}

impl Default for CloudSettings {
    fn default() -> Self {
        Self {
            latency_ms: 100,
            failure_rate: 0.0,
        }
    }
}

impl SimConfig {
    /// What the controller compares: `compare`, or the fields it sets when
    /// it applies.
    pub fn comparison(&self) -> SpecComparison {
        self.writes.comparison(self.compare)
    }

    /// The settings that are the contract controller's options.
    pub fn contract_options(&self) -> ContractOptions {
        ContractOptions {
            compare: self.comparison(),
            writes: self.writes,
            naming: self.naming,
            status_writes: self.status_writes,
            requeue_while_terminating_ms: self.requeue_while_terminating_ms,
            consistency_store: self.consistency_store,
            cloud: self.cloud.is_some(),
        }
    }
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
            writes: ObjectWrites::Update,
            terminating: Vec::new(),
            naming: ObjectNaming::Deterministic,
            status_writes: StatusWrites::None,
            generation_changed_predicate: false,
            custom_resource_watch_latency_ms: None,
            pod_stop_ms: 1000,
            consistency_store: false,
            cloud: None,
            workers: 1,
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
    #[serde(deserialize_with = "super::object_only::value")]
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
        #[serde(serialize_with = "crate::resources_as_json::serialize")]
        #[cfg_attr(feature = "ts", ts(as = "Resources"))]
        desired: Resources,
    },
    /// Someone deletes the custom resource (`kubectl delete --cascade=...`);
    /// the garbage collector then acts on what it owns, as `propagation` says.
    DeleteCustomResource { propagation: PropagationPolicy },
    /// The API server restarts: its watch cache starts again from the
    /// store's current state, and every watch on it closes.
    RestartApiServer,
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
            WorldEvent::RestartApiServer => f.write_str("the API server restarts"),
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
            "restart-api-server" => WorldEvent::RestartApiServer,
            other => {
                return Err(format!(
                    "unknown event kind \"{other}\"; expected delete, drift, stray-create, add-finalizer, set-desired, delete-custom-resource or restart-api-server"
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
    /// How it writes: a PUT (the default), recorded as an `Update` manager
    /// under its name, or server-side apply of that one field under its
    /// name (`force-apply` takes it from whoever owns it).
    #[serde(default, skip_serializing_if = "is_update")]
    #[cfg_attr(feature = "ts", ts(as = "Option<ObjectWrites>", optional))]
    pub writes: ObjectWrites,
}

fn is_update(writes: &ObjectWrites) -> bool {
    *writes == ObjectWrites::Update
}

/// Resources (de)serialize as a plain `{name: spec}` object.
pub(crate) mod resources_as_json {
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
