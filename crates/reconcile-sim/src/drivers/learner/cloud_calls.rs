//! The cloud's calls: `ensureLoadBalancer`, `getLoadBalancer`,
//! `deleteLoadBalancer`. Each is one request to the external system
//! (`control_plane/cloud.rs`), answered after the cloud's latency
//! (`engine/answers.rs`, `call_cloud`), not a request to the API server.

use serde_json::Value;

use super::call::{ApiFailure, CallError, ClientCall};
use super::kinds::{Kinds, Target, LOAD_BALANCER};
use super::requests::Planned;
use crate::control_plane::cloud::{Cloud, CloudCall};
use crate::controllers::client::{Answer, Request};
use crate::ownership::ObjectKey;

/// The request a cloud call sends, or its misuse: an exercise without a
/// cloud, an empty name.
pub(super) fn plan(call: &ClientCall, kinds: &Kinds) -> Result<Planned, CallError> {
    let method = call.method();
    let (cloud_call, name) = match call {
        ClientCall::EnsureLoadBalancer { name } => (CloudCall::Ensure { name: name.clone() }, name),
        ClientCall::GetLoadBalancer { name } => (CloudCall::Get { name: name.clone() }, name),
        ClientCall::DeleteLoadBalancer { name } => (CloudCall::Delete { name: name.clone() }, name),
        _ => return Err(CallError::misuse(method, "not a call to the cloud")),
    };
    if !kinds.0.contains(&LOAD_BALANCER) {
        return Err(CallError::misuse(
            method,
            "this exercise has no cloud; only external-finalizer has one",
        ));
    }
    if name.is_empty() {
        return Err(CallError::misuse(
            method,
            "the load balancer's name is empty",
        ));
    }
    let target = Target {
        kind: LOAD_BALANCER,
        key: ObjectKey::Object(std::sync::Arc::from(format!("LoadBalancer/cloud/{name}"))),
        name: name.clone(),
        namespace: String::new(),
    };
    Ok(Planned::Send {
        request: Request::Cloud { call: cloud_call },
        target,
    })
}

/// The cloud's answer: the load balancer as it is now (`null` when absent,
/// and after a delete), or its error.
pub(super) fn answer(
    cloud: &Cloud,
    answer: Option<Answer>,
    target: &Target,
) -> (Result<Value, CallError>, bool) {
    match answer {
        Some(Ok(response)) => {
            let exists = cloud.has(&target.name);
            let object = exists.then(|| serde_json::json!({ "name": target.name }));
            (Ok(object.unwrap_or(Value::Null)), response.written)
        }
        Some(Err(error)) => {
            let failure = ApiFailure::of(&error, "", "");
            (Err(CallError::Api(failure)), false)
        }
        None => (Ok(Value::Null), false),
    }
}
