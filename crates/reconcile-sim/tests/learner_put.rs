//! `client.update` is a PUT of the whole object (issue 30, step 1), as
//! `Store.Update` answers it (`staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`):
//! 404 for a missing object, 422 for a custom resource without a
//! resourceVersion, an unconditional update for a built-in kind, and the
//! object's metadata replaced by what was sent.

use serde_json::{json, Value};

use reconcile_sim::learner::{owned_configmap, CallError, ClientCall, DrivenRun, Read};

fn started() -> DrivenRun {
    let mut run = DrivenRun::new(owned_configmap());
    run.next_reconcile().expect("a reconcile");
    run
}

fn live(run: &mut DrivenRun, kind: &str, name: &str) -> Result<Value, CallError> {
    run.call(ClientCall::Get {
        kind: kind.to_owned(),
        name: name.to_owned(),
        namespace: None,
        read: Read::Live,
    })
}

fn update(run: &mut DrivenRun, object: Value) -> Result<Value, CallError> {
    run.call(ClientCall::Update { object })
}

/// The status and reason of a refused call.
fn refusal(answer: Result<Value, CallError>) -> (u16, &'static str, String) {
    match answer {
        Err(CallError::Api(f)) => (f.status, f.reason, f.message),
        other => panic!("expected an API error, got {other:?}"),
    }
}

fn created(run: &mut DrivenRun) -> Value {
    let owner = json!({
        "apiVersion": "reconcile.example.com/v1", "kind": "Desired", "name": "blog",
        "uid": "1", "controller": true,
    });
    let object = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": { "name": "a", "labels": { "app": "blog" }, "ownerReferences": [owner] },
        "data": { "k": "v" },
    });
    run.call(ClientCall::Create { object }).expect("created")
}

#[test]
fn a_put_replaces_the_metadata_it_carries() {
    let mut run = started();
    let mut object = created(&mut run);
    assert_eq!(object["metadata"]["ownerReferences"][0]["name"], "blog");
    object["metadata"]
        .as_object_mut()
        .expect("metadata")
        .remove("ownerReferences");
    object["metadata"]["labels"] = json!({ "app": "shop" });
    let updated = update(&mut run, object).expect("updated");
    assert!(
        updated["metadata"]["ownerReferences"].is_null(),
        "{updated}"
    );
    assert_eq!(updated["metadata"]["labels"], json!({ "app": "shop" }));
    assert_eq!(updated["data"], json!({ "k": "v" }));
}

#[test]
fn a_built_in_kind_takes_an_update_without_a_resource_version() {
    let mut run = started();
    let mut object = created(&mut run);
    object["metadata"]["resourceVersion"] = Value::Null;
    object["data"] = json!({ "k": "w" });
    let updated = update(&mut run, object).expect("an unconditional update");
    assert_eq!(updated["data"], json!({ "k": "w" }));
}

#[test]
fn a_custom_resource_without_a_resource_version_gets_422() {
    let mut run = started();
    let mut custom = live(&mut run, "Desired", "blog").expect("the custom resource");
    custom["metadata"]["resourceVersion"] = Value::Null;
    let (status, reason, message) = refusal(update(&mut run, custom));
    assert_eq!((status, reason), (422, "Invalid"));
    assert!(
        message.contains("must be specified for an update"),
        "{message}"
    );
}

#[test]
fn an_update_of_a_missing_object_gets_404() {
    let mut run = started();
    let object = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": { "name": "nobody", "resourceVersion": "3" },
    });
    let (status, reason, _) = refusal(update(&mut run, object));
    assert_eq!((status, reason), (404, "NotFound"));
}
