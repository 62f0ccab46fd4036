//! What a binding (the JS API, later Pyodide) hands the driven run: calls
//! as JSON and exercises by name. Bad shapes are misuse errors naming the
//! call, so every binding words them alike.

use serde_json::json;

use reconcile_sim::learner::{exercise_named, CallError, ClientCall, PatchKind, Read, EXERCISES};

fn misuse(value: serde_json::Value) -> (&'static str, String) {
    match ClientCall::from_json(value) {
        Err(CallError::Misuse { method, message }) => (method, message),
        other => panic!("expected a misuse error, got {other:?}"),
    }
}

#[test]
fn a_call_reads_from_json_with_its_defaults() {
    let get = ClientCall::from_json(json!({ "method": "get", "kind": "ConfigMap", "name": "a" }));
    assert_eq!(
        get,
        Ok(ClientCall::Get {
            kind: "ConfigMap".to_owned(),
            name: "a".to_owned(),
            namespace: None,
            read: Read::Cache,
        })
    );
    let patch = json!({ "method": "patch", "kind": "ConfigMap", "name": "a", "patch": [], "type": "json", "resourceVersion": "3" });
    let Ok(ClientCall::Patch {
        patch_type,
        resource_version,
        ..
    }) = ClientCall::from_json(patch)
    else {
        panic!("a patch");
    };
    assert_eq!(
        (patch_type, resource_version.as_deref()),
        (PatchKind::Json, Some("3"))
    );
    let status = json!({ "method": "updateStatus", "object": {} });
    assert_eq!(
        ClientCall::from_json(status).map(|c| c.method()),
        Ok("updateStatus")
    );
}

#[test]
fn a_bad_shape_is_a_misuse_error_naming_the_call() {
    let (method, message) = misuse(json!(5));
    assert_eq!(method, "call");
    assert!(message.contains("an object with a method"), "{message}");
    let (method, message) = misuse(json!({ "method": "watch" }));
    assert_eq!(method, "call");
    assert!(
        message.starts_with("no method \"watch\"; the client has get, list,"),
        "{message}"
    );
    let (method, message) = misuse(json!({ "method": "get", "kind": "ConfigMap" }));
    assert_eq!((method, message.as_str()), ("get", "missing field `name`"));
    let (method, message) = misuse(json!({ "method": "apply", "object": {}, "fieldManager": 3 }));
    assert_eq!(method, "apply");
    assert!(message.contains("expected a string"), "{message}");
}

#[test]
fn each_exercise_is_found_by_its_name() {
    for name in EXERCISES {
        assert_eq!(exercise_named(name).map(|e| e.name), Some(name));
    }
    assert_eq!(EXERCISES.len(), 5);
    assert!(exercise_named("replica").is_none());
}
