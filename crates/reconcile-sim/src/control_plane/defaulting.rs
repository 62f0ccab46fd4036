//! The API server's defaulting of the built-in workload kinds: on every
//! write it fills the fields a manifest leaves out, so what a controller
//! reads back holds more than what it sent.
//!
//! Follows `k8s.io/kubernetes` `pkg/apis/apps/v1/defaults.go`
//! (`SetDefaults_Deployment`, `SetDefaults_DaemonSet`,
//! `SetDefaults_ReplicaSet`) and, for their pod templates,
//! `pkg/apis/core/v1/defaults.go` (`SetDefaults_PodSpec`,
//! `SetDefaults_Container`), which the generated `SetObjectDefaults_*`
//! functions call for `spec.template`. A port's protocol has no function
//! any more: `ContainerPort.Protocol` carries `+default="TCP"` in
//! `k8s.io/api/core/v1/types.go`, and the generated code sets it. The spec-level cases of upstream's
//! `pkg/apis/apps/v1/defaults_test.go` are ported below, named after them.
//!
//! # Guarantees
//! - Only objects whose `apiVersion` is `apps/v1` and whose `kind` is one of
//!   [`DEFAULTED_KINDS`] change; every other spec (the playground's own
//!   `{"replicas": 3}` shapes, custom resources) is stored as written.
//! - A field is filled only where it is absent or `null`, as Go fills a nil
//!   pointer or an empty string: a value the writer set is kept.
//! - Defaulting is idempotent: defaulting a defaulted object changes nothing.
//!
//! # Caveats
//! - Not modelled: StatefulSet and the other groups' kinds, probes,
//!   volumes, resource requests copied from limits, and
//!   feature-gated defaults. An image without a tag counts as `latest`
//!   (`imagePullPolicy: Always`), as `parseImageName` does; digests are not
//!   told apart from tags.

use reconcile_core::explain::Drift;
use reconcile_core::json::{Json, Number};
use reconcile_core::path::Segment;

/// The kinds of `apps/v1` this module defaults.
pub const DEFAULTED_KINDS: [&str; 3] = ["Deployment", "DaemonSet", "ReplicaSet"];

/// A value the API server fills in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultValue {
    Int(u64),
    Str(&'static str),
    /// An empty object (`securityContext: {}`).
    EmptyObject,
}

impl DefaultValue {
    fn to_json(self) -> Json {
        match self {
            DefaultValue::Int(n) => Json::Number(Number::Unsigned(n)),
            DefaultValue::Str(s) => Json::string(s),
            DefaultValue::EmptyObject => Json::object(Vec::new()),
        }
    }
}

/// One field the API server fills in when it is absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerDefault {
    /// Member names from the object's top.
    pub path: &'static [&'static str],
    pub value: DefaultValue,
    /// Filled only when this field (from the object's top) holds this string.
    pub only_if: Option<(&'static [&'static str], &'static str)>,
    /// The upstream function that sets it.
    pub source: &'static str,
}

const fn field(
    path: &'static [&'static str],
    value: DefaultValue,
    source: &'static str,
) -> ServerDefault {
    ServerDefault {
        path,
        value,
        only_if: None,
        source,
    }
}

const ROLLING_UPDATE: &str = "RollingUpdate";
const DEPLOYMENT: &str = "apps/v1 SetDefaults_Deployment";
const DAEMON_SET: &str = "apps/v1 SetDefaults_DaemonSet";
const REPLICA_SET: &str = "apps/v1 SetDefaults_ReplicaSet";
const POD_SPEC: &str = "core/v1 SetDefaults_PodSpec";

/// `SetDefaults_Deployment`, in its order: the strategy's type first, then
/// the rolling update's fields when the type is `RollingUpdate`.
const DEPLOYMENT_DEFAULTS: &[ServerDefault] = &[
    field(&["spec", "replicas"], DefaultValue::Int(1), DEPLOYMENT),
    field(
        &["spec", "strategy", "type"],
        DefaultValue::Str(ROLLING_UPDATE),
        DEPLOYMENT,
    ),
    ServerDefault {
        path: &["spec", "strategy", "rollingUpdate", "maxUnavailable"],
        value: DefaultValue::Str("25%"),
        only_if: Some((&["spec", "strategy", "type"], ROLLING_UPDATE)),
        source: DEPLOYMENT,
    },
    ServerDefault {
        path: &["spec", "strategy", "rollingUpdate", "maxSurge"],
        value: DefaultValue::Str("25%"),
        only_if: Some((&["spec", "strategy", "type"], ROLLING_UPDATE)),
        source: DEPLOYMENT,
    },
    field(
        &["spec", "revisionHistoryLimit"],
        DefaultValue::Int(10),
        DEPLOYMENT,
    ),
    field(
        &["spec", "progressDeadlineSeconds"],
        DefaultValue::Int(600),
        DEPLOYMENT,
    ),
];

/// `SetDefaults_DaemonSet`.
const DAEMON_SET_DEFAULTS: &[ServerDefault] = &[
    field(
        &["spec", "updateStrategy", "type"],
        DefaultValue::Str(ROLLING_UPDATE),
        DAEMON_SET,
    ),
    ServerDefault {
        path: &["spec", "updateStrategy", "rollingUpdate", "maxUnavailable"],
        value: DefaultValue::Int(1),
        only_if: Some((&["spec", "updateStrategy", "type"], ROLLING_UPDATE)),
        source: DAEMON_SET,
    },
    ServerDefault {
        path: &["spec", "updateStrategy", "rollingUpdate", "maxSurge"],
        value: DefaultValue::Int(0),
        only_if: Some((&["spec", "updateStrategy", "type"], ROLLING_UPDATE)),
        source: DAEMON_SET,
    },
    field(
        &["spec", "revisionHistoryLimit"],
        DefaultValue::Int(10),
        DAEMON_SET,
    ),
];

/// `SetDefaults_ReplicaSet`.
const REPLICA_SET_DEFAULTS: &[ServerDefault] = &[field(
    &["spec", "replicas"],
    DefaultValue::Int(1),
    REPLICA_SET,
)];

/// `SetDefaults_PodSpec` on `spec.template.spec`.
const POD_TEMPLATE_DEFAULTS: &[ServerDefault] = &[
    field(
        &["spec", "template", "spec", "dnsPolicy"],
        DefaultValue::Str("ClusterFirst"),
        POD_SPEC,
    ),
    field(
        &["spec", "template", "spec", "restartPolicy"],
        DefaultValue::Str("Always"),
        POD_SPEC,
    ),
    field(
        &["spec", "template", "spec", "securityContext"],
        DefaultValue::EmptyObject,
        POD_SPEC,
    ),
    field(
        &["spec", "template", "spec", "terminationGracePeriodSeconds"],
        DefaultValue::Int(30),
        POD_SPEC,
    ),
    field(
        &["spec", "template", "spec", "schedulerName"],
        DefaultValue::Str("default-scheduler"),
        POD_SPEC,
    ),
];

/// `SetDefaults_Container`'s fields, on each container of the template.
pub const CONTAINER_SOURCE: &str = "core/v1 SetDefaults_Container";
const CONTAINER_LISTS: [&str; 2] = ["containers", "initContainers"];
const CONTAINER_MEMBERS: [&str; 3] = [
    "imagePullPolicy",
    "terminationMessagePath",
    "terminationMessagePolicy",
];
/// `ContainerPort.Protocol`'s declarative default (`+default="TCP"`).
pub const PORT_SOURCE: &str = "core/v1 ContainerPort +default=\"TCP\"";

/// The kind-level defaults of an object, or `None` when the API server
/// defaults nothing of it here.
fn kind_defaults(object: &Json) -> Option<&'static [ServerDefault]> {
    if object.get("apiVersion").and_then(Json::as_str) != Some("apps/v1") {
        return None;
    }
    match object.get("kind").and_then(Json::as_str)? {
        "Deployment" => Some(DEPLOYMENT_DEFAULTS),
        "DaemonSet" => Some(DAEMON_SET_DEFAULTS),
        "ReplicaSet" => Some(REPLICA_SET_DEFAULTS),
        _ => None,
    }
}

fn absent(object: &Json, path: &[String]) -> bool {
    matches!(object.get_path(path), None | Some(Json::Null))
}

fn owned(path: &[&str]) -> Vec<String> {
    path.iter().map(|member| (*member).to_owned()).collect()
}

/// Fills what the API server fills in on a write of `object`. Returns
/// whether anything changed.
pub fn apply_defaults(object: &mut Json) -> bool {
    let Some(defaults) = kind_defaults(object) else {
        return false;
    };
    let mut changed = false;
    for default in defaults.iter().chain(POD_TEMPLATE_DEFAULTS) {
        changed |= fill(object, default);
    }
    changed | default_containers(object)
}

fn fill(object: &mut Json, default: &ServerDefault) -> bool {
    if let Some((path, wanted)) = default.only_if {
        if object.get_path(&owned(path)).and_then(Json::as_str) != Some(wanted) {
            return false;
        }
    }
    let path = owned(default.path);
    if !absent(object, &path) {
        return false;
    }
    object.set_path(&path, default.value.to_json());
    true
}

/// `SetDefaults_Container` on each container of the pod template.
fn default_containers(object: &mut Json) -> bool {
    let mut changed = false;
    for list in CONTAINER_LISTS {
        let path = owned(&["spec", "template", "spec", list]);
        let Some(Json::Array(containers)) = object.get_path(&path) else {
            continue;
        };
        let mut containers = containers.as_ref().clone();
        let mut list_changed = false;
        for container in &mut containers {
            list_changed |= default_container(container);
        }
        if list_changed {
            object.set_path(&path, Json::array(containers));
            changed = true;
        }
    }
    changed
}

fn default_container(container: &mut Json) -> bool {
    if !matches!(container, Json::Object(_)) {
        return false;
    }
    let mut changed = false;
    let policy = image_pull_policy(container.get("image").and_then(Json::as_str));
    for (member, value) in
        CONTAINER_MEMBERS
            .into_iter()
            .zip([policy, "/dev/termination-log", "File"])
    {
        let path = [member.to_owned()];
        if absent(container, &path) {
            container.set_path(&path, Json::string(value));
            changed = true;
        }
    }
    changed | default_ports(container)
}

/// `ContainerPort.Protocol`'s `+default="TCP"`: each port's protocol is TCP unless set.
fn default_ports(container: &mut Json) -> bool {
    let path = ["ports".to_owned()];
    let Some(Json::Array(ports)) = container.get_path(&path) else {
        return false;
    };
    let protocol = ["protocol".to_owned()];
    let mut ports = ports.as_ref().clone();
    let mut changed = false;
    for port in ports
        .iter_mut()
        .filter(|port| matches!(port, Json::Object(_)))
    {
        if absent(port, &protocol) {
            port.set_path(&protocol, Json::string("TCP"));
            changed = true;
        }
    }
    if changed {
        container.set_path(&path, Json::array(ports));
    }
    changed
}

/// `Always` for the `latest` tag (also when no tag is given), else `IfNotPresent`.
fn image_pull_policy(image: Option<&str>) -> &'static str {
    let image = image.unwrap_or("");
    let name = image.rsplit('/').next().unwrap_or(image);
    let tag = match (name.split_once('@'), name.split_once(':')) {
        (Some(_), _) => None,
        (None, Some((_, tag))) => Some(tag),
        (None, None) => Some("latest"),
    };
    if tag == Some("latest") {
        "Always"
    } else {
        "IfNotPresent"
    }
}

/// Where a field the API server fills in came from, for the plan to explain
/// a drift that the writer's own state does not have: the upstream function
/// that sets `path` (member names from the object's top) on objects like
/// `object`, or `None`.
pub fn default_source(object: &Json, path: &[String]) -> Option<&'static str> {
    let defaults = kind_defaults(object)?;
    let covers = |default: &&ServerDefault| {
        default.path.len() >= path.len() && default.path.iter().zip(path).all(|(a, b)| *a == b)
    };
    if let Some(default) = defaults.iter().chain(POD_TEMPLATE_DEFAULTS).find(covers) {
        return Some(default.source);
    }
    // A container's own default: spec.template.spec.containers[i].member,
    // or a port's protocol, containers[i].ports[j].protocol.
    let in_container = path.len() >= 6
        && path[..3] == owned(&["spec", "template", "spec"])
        && CONTAINER_LISTS.contains(&path[3].as_str());
    match path.get(5..).unwrap_or_default() {
        [member] if in_container && CONTAINER_MEMBERS.contains(&member.as_str()) => {
            Some(CONTAINER_SOURCE)
        }
        [ports, _, protocol] if in_container && ports == "ports" && protocol == "protocol" => {
            Some(PORT_SOURCE)
        }
        _ => None,
    }
}

/// Why a drift of an UPDATE may be none of the writer's doing: the field is
/// absent from the desired `spec` and the API server fills it in on objects
/// like it. Returns the upstream function that does.
pub fn defaulted_drift(spec: &Json, drift: &Drift) -> Option<&'static str> {
    if drift.desired.is_some() || drift.observed.is_none() {
        return None;
    }
    let path: Vec<String> = drift
        .path
        .segments()
        .iter()
        .map(|segment| match segment {
            Segment::Key(key) => key.clone(),
            Segment::Index(index) => index.to_string(),
        })
        .collect();
    default_source(spec, &path)
}

#[cfg(test)]
#[path = "defaulting_tests.rs"]
mod tests;
