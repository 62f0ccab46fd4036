//! The calls the new exercises make, answered as upstream answers them:
//! a `generateName` create, a create with finalizers, a delete with a
//! propagation policy, and the cloud's three calls.

use serde_json::json;

use reconcile_sim::learner::{
    external_finalizer, owned_configmap, replicas, CallError, ClientCall, DrivenRun, Exercise,
};

fn started(exercise: Exercise) -> DrivenRun {
    let mut run = DrivenRun::new(exercise);
    run.next_reconcile().expect("a reconcile");
    run
}

fn api_status(answer: &Result<serde_json::Value, CallError>) -> Option<(u16, &'static str)> {
    match answer {
        Err(CallError::Api(failure)) => Some((failure.status, failure.reason)),
        _ => None,
    }
}

fn pod(metadata: serde_json::Value) -> serde_json::Value {
    json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": metadata,
        "spec": { "containers": [{ "name": "app", "image": "nginx" }] },
    })
}

#[test]
fn a_generate_name_create_is_named_by_the_server() {
    let mut run = started(replicas());
    let object = pod(json!({ "generateName": "blog-" }));
    let first = run.call(ClientCall::Create {
        object: object.clone(),
    });
    let second = run.call(ClientCall::Create { object });
    let name = |answer: &Result<serde_json::Value, CallError>| {
        let value = answer.as_ref().expect("created");
        value["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let (a, b) = (name(&first), name(&second));
    assert!(a.starts_with("blog-") && a.len() > "blog-".len(), "{a}");
    assert!(b.starts_with("blog-") && a != b, "{a} {b}");
}

#[test]
fn a_create_keeps_its_finalizers() {
    let mut run = started(replicas());
    let object = pod(json!({ "name": "held", "finalizers": ["example.com/hold"] }));
    let created = run.call(ClientCall::Create { object }).expect("created");
    assert_eq!(
        created["metadata"]["finalizers"],
        json!(["example.com/hold"])
    );
}

#[test]
fn a_delete_takes_a_propagation_policy_as_upstream_spells_it() {
    let mut run = started(owned_configmap());
    let object =
        json!({ "apiVersion": "v1", "kind": "ConfigMap", "metadata": { "name": "a" }, "data": {} });
    run.call(ClientCall::Create { object }).expect("created");
    let call = ClientCall::from_json(json!({
        "method": "delete", "kind": "ConfigMap", "name": "a", "propagationPolicy": "Foreground",
    }))
    .expect("a delete");
    assert!(run.call(call).is_ok());
    let wrong = ClientCall::from_json(json!({
        "method": "delete", "kind": "ConfigMap", "name": "a", "propagationPolicy": "Later",
    }));
    let Err(CallError::Misuse { method, message }) = wrong else {
        panic!("{wrong:?}")
    };
    assert_eq!(method, "delete");
    assert!(message.contains("Foreground"), "{message}");
}

#[test]
fn the_cloud_answers_ensure_get_and_delete() {
    let mut run = started(external_finalizer());
    let lb = || "lb-blog".to_owned();
    let before = run.now();
    let absent = run.call(ClientCall::GetLoadBalancer { name: lb() });
    assert_eq!(absent, Ok(serde_json::Value::Null));
    let made = run.call(ClientCall::EnsureLoadBalancer { name: lb() });
    // The next request waits for the cloud's answer: 100 ms.
    assert!(run.now() >= before + 100, "{} {}", run.now(), before);
    assert_eq!(made, Ok(json!({ "name": "lb-blog" })));
    let again = run.call(ClientCall::EnsureLoadBalancer { name: lb() });
    assert_eq!(again, made, "ensure is idempotent");
    let found = run.call(ClientCall::GetLoadBalancer { name: lb() });
    assert_eq!(found, made);
    let gone = run.call(ClientCall::DeleteLoadBalancer { name: lb() });
    assert_eq!(gone, Ok(serde_json::Value::Null));
    let absent = run.call(ClientCall::DeleteLoadBalancer { name: lb() });
    assert_eq!(api_status(&absent), Some((404, "NotFound")));
}

#[test]
fn the_cloud_is_misuse_where_the_exercise_has_none() {
    let mut run = started(owned_configmap());
    let answer = run.call(ClientCall::EnsureLoadBalancer {
        name: "lb-blog".to_owned(),
    });
    let Err(CallError::Misuse { method, message }) = answer else {
        panic!("{answer:?}")
    };
    assert_eq!(method, "ensureLoadBalancer");
    assert!(message.contains("no cloud"), "{message}");
    // Nor is the load balancer a kind to get.
    let kind = run.call(ClientCall::Get {
        kind: "LoadBalancer".to_owned(),
        name: "lb-blog".to_owned(),
        namespace: None,
        read: Default::default(),
    });
    assert!(matches!(kind, Err(CallError::Misuse { .. })), "{kind:?}");
}
