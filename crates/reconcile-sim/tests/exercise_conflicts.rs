//! `conflicts` (issue 30): a Deployment shared with an autoscaler that
//! owns `spec.replicas`. A Rust reference passes the default budget; each
//! known bug is caught with a shrunk schedule.

mod exercises;

use serde_json::{json, Value};

use exercises::{caught, check, controller_reference, find, passes, status};
use reconcile_sim::learner::properties::SAFE;
use reconcile_sim::learner::{
    conflicts, CallError, Client, ClientCall, Fault, Finish, Reconciler, Request,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flaw {
    None,
    /// On 409 Conflict, sends the same update again: its resourceVersion
    /// is stale, so it can only get 409 again.
    BlindRetry,
    /// On 409 Conflict, drops the resourceVersion and updates anyway:
    /// the stale object overwrites the autoscaler's replicas.
    OverwritesOnConflict,
    /// Applies its whole Deployment with force, replicas included: it
    /// takes the field from the autoscaler.
    ForceAppliesReplicas,
}

struct Controller(Flaw);

const IMAGE: &str = "/spec/template/spec/containers/0/image";

fn deployment(custom: &Value, image: &Value) -> Value {
    let name = &custom["metadata"]["name"];
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": { "name": name, "ownerReferences": [controller_reference(custom)] },
        "spec": {
            "replicas": 1,
            "selector": { "matchLabels": { "app": name } },
            "template": {
                "metadata": { "labels": { "app": name } },
                "spec": { "containers": [{ "name": "app", "image": image }] },
            },
        },
    })
}

impl Controller {
    fn run(&mut self, request: &Request, client: &mut Client<'_>) -> Result<(), CallError> {
        let Some(custom) = find(client, "Desired", &request.name)? else {
            return Ok(());
        };
        if !custom["metadata"]["deletionTimestamp"].is_null() {
            return Ok(());
        }
        let image = custom["spec"]["image"].clone();
        let found = find(client, "Deployment", &request.name)?;
        if self.0 == Flaw::ForceAppliesReplicas {
            if found.as_ref().and_then(|d| d.pointer(IMAGE)) == Some(&image) {
                return Ok(());
            }
            client.call(ClientCall::Apply {
                object: deployment(&custom, &image),
                field_manager: "web-controller".to_owned(),
                force: true,
            })?;
            return Ok(());
        }
        let Some(mut found) = found else {
            // The first replicas is ours; the autoscaler takes it over.
            let object = deployment(&custom, &image);
            client.call(ClientCall::Create { object })?;
            return Ok(());
        };
        if found.pointer(IMAGE) == Some(&image) {
            return Ok(());
        }
        if let Some(slot) = found.pointer_mut(IMAGE) {
            *slot = image;
        }
        let answer = client.call(ClientCall::Update {
            object: found.clone(),
        });
        match answer {
            Err(error) if status(&error) == Some(409) => match self.0 {
                Flaw::BlindRetry => client.call(ClientCall::Update { object: found }).map(drop),
                Flaw::OverwritesOnConflict => {
                    found["metadata"]
                        .as_object_mut()
                        .map(|m| m.remove("resourceVersion"));
                    client.call(ClientCall::Update { object: found }).map(drop)
                }
                // Read again: the retry's reconcile gets the cache anew.
                _ => Err(error),
            },
            other => other.map(drop),
        }
    }
}

impl Reconciler for Controller {
    fn reconcile(&mut self, request: &Request, client: &mut Client<'_>) -> Finish {
        match self.run(request, client) {
            Ok(()) => Finish::Ok(None),
            Err(error) => Finish::Error(error.to_string()),
        }
    }
}

#[test]
fn the_reference_passes_the_default_budget() {
    let report = check(&conflicts(), || Controller(Flaw::None));
    passes(&report);
}

#[test]
fn a_blind_retry_with_a_stale_resource_version_is_caught_by_a_stale_cache() {
    let report = check(&conflicts(), || Controller(Flaw::BlindRetry));
    let (property, faults) = caught(&report);
    // The API server's restart holds back the autoscaler's write from the
    // cache (410, then a re-list after backoff): the update gets 409.
    assert_eq!((property, faults), (SAFE, vec![Fault::ApiServerRestart]));
    let detail = &report.counterexample.as_ref().expect("caught").detail;
    assert!(detail.contains("again unchanged after 409"), "{detail}");
}

#[test]
fn overwriting_on_conflict_takes_the_autoscalers_replicas() {
    let report = check(&conflicts(), || Controller(Flaw::OverwritesOnConflict));
    let (property, faults) = caught(&report);
    assert_eq!((property, faults), (SAFE, vec![Fault::OtherWriter]));
    let detail = &report.counterexample.as_ref().expect("caught").detail;
    assert!(detail.contains("spec.replicas"), "{detail}");
}

#[test]
fn force_applying_replicas_takes_them_from_the_autoscaler() {
    let report = check(&conflicts(), || Controller(Flaw::ForceAppliesReplicas));
    let (property, faults) = caught(&report);
    assert_eq!((property, faults), (SAFE, vec![]));
}
