//! Real manifests (fixtures/, from upstream examples) as the playground's resources.

use reconcile_core::{reconcile, Document, ErrorKind, Json};
use reconcile_yaml::{read_documents, read_resources, ManifestOptions, ReadResources};

const DEPLOYMENT: &str = include_str!("fixtures/nginx-deployment.yaml");
const SERVICE: &str = include_str!("fixtures/service-loadbalancer.yaml");
const LIST: &str = include_str!("fixtures/kubectl-get-list.yaml");
const JSON_LIST: &str = include_str!("fixtures/kubectl-get-deployments.json");

fn read(document: Document, text: &str) -> ReadResources {
    read_resources(document, text, &ManifestOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn plan_summary(read: &reconcile_yaml::ReadScenario) -> String {
    let scenario = &read.scenario;
    let plan = reconcile_core::plan(
        &scenario.desired,
        &scenario.observed,
        scenario.finalizers.as_ref(),
    );
    plan.summary.to_string()
}

fn json(text: &str) -> Json {
    reconcile_core::parse_json(Document::Desired, text).expect("valid JSON")
}

#[test]
fn a_deployment_is_named_kind_namespace_name() {
    let read = read(Document::Desired, DEPLOYMENT);
    let names: Vec<_> = read.resources.names().collect();
    assert_eq!(names, ["Deployment/default/nginx-deployment"]);
    let spec = read
        .resources
        .get("Deployment/default/nginx-deployment")
        .expect("named");
    assert_eq!(
        spec.get("spec").and_then(|s| s.get("replicas")),
        Some(&json("3"))
    );
    assert_eq!(read.manifests[0].namespace.as_deref(), Some("default"));
    assert_eq!(read.manifests[0].set_aside, json("{}"));
    assert_eq!(read.manifests[0].line, 1);
}

#[test]
fn a_load_balancer_service_gives_its_finalizer_and_sets_server_fields_aside() {
    let read = read(Document::Observed, SERVICE);
    let object = &read.manifests[0];
    assert_eq!(object.name, "Service/default/my-service");
    assert_eq!(
        object.finalizers,
        ["service.kubernetes.io/load-balancer-cleanup"]
    );
    assert_eq!(
        object.set_aside,
        json(
            r#"{"metadata":{"creationTimestamp":"2024-05-08T00:06:25Z","resourceVersion":"1459","uid":"7e458a33-42d5-4e0e-8142-2465915891ec"},"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.127"}]}}}"#
        )
    );
    let spec = read
        .resources
        .get("Service/default/my-service")
        .expect("named");
    assert_eq!(
        spec.get("metadata"),
        Some(&json(r#"{"name":"my-service","namespace":"default"}"#))
    );
    assert_eq!(spec.get("status"), None);
    // No longer desired: the finalizer makes it FINALIZE, not DELETE.
    let scenario = read_documents("{}", SERVICE, "", &ManifestOptions::default()).expect("valid");
    let actions = reconcile(
        &scenario.scenario.desired,
        &scenario.scenario.observed,
        scenario.scenario.finalizers.as_ref(),
    );
    assert_eq!(
        serde_json_text(&actions),
        r#"[["FINALIZE","Service/default/my-service",null]]"#
    );
}

fn serde_json_text(actions: &[reconcile_core::Action]) -> String {
    serde_json::to_string(actions).expect("serializes")
}

#[test]
fn a_kubectl_list_gives_every_item() {
    let read = read(Document::Observed, LIST);
    let names: Vec<_> = read.resources.names().collect();
    assert_eq!(
        names,
        [
            "Deployment/default/nginx-deployment",
            "Namespace/shop",
            "Service/default/my-service"
        ]
    );
    let namespace = read
        .manifests
        .iter()
        .find(|o| o.kind == "Namespace")
        .expect("listed");
    assert_eq!(namespace.namespace, None);
    assert_eq!(
        namespace.deletion_timestamp.as_deref(),
        Some("2024-05-08T01:00:00Z")
    );
    let deployment = read
        .resources
        .get("Deployment/default/nginx-deployment")
        .expect("listed");
    let metadata = deployment.get("metadata").expect("kept");
    for server in [
        "uid",
        "resourceVersion",
        "generation",
        "creationTimestamp",
        "managedFields",
    ] {
        assert_eq!(metadata.get(server), None, "{server}");
    }
    // Defaults the server filled in stay, and show up as drift against the manifest.
    assert!(deployment
        .get("spec")
        .and_then(|s| s.get("strategy"))
        .is_some());
    let scenario =
        read_documents(DEPLOYMENT, LIST, "", &ManifestOptions::default()).expect("valid");
    assert_eq!(
        plan_summary(&scenario),
        "0 to create, 1 to update, 1 to finalize, 1 to delete"
    );
}

/// `kubectl get deployments -o json`: a List in JSON reads as the same
/// manifests YAML gives, keyed, with finalizers moved out and the server's
/// fields set aside; a `{name: spec}` JSON document stays one, even when its
/// specs are Kubernetes objects.
#[test]
fn a_kubectl_json_list_is_read_as_manifests() {
    let read = read(Document::Observed, JSON_LIST);
    assert_eq!(read.format, reconcile_core::Format::Json);
    let names: Vec<_> = read.resources.names().collect();
    assert_eq!(
        names,
        [
            "Deployment/default/nginx-deployment",
            "Deployment/default/redis"
        ]
    );
    let redis = read
        .resources
        .get("Deployment/default/redis")
        .expect("listed");
    assert_eq!(redis.get("status"), None);
    let metadata = redis.get("metadata").expect("kept");
    assert_eq!(metadata.get("finalizers"), None, "moved out");
    assert_eq!(metadata.get("uid"), None, "set aside");
    let object = &read.manifests[1];
    assert_eq!(object.finalizers, ["example.com/backup"]);
    assert!(object.set_aside.get("status").is_some());
    assert_eq!(object.line, 87, "the item's line in the JSON text");

    let scenario =
        read_documents(DEPLOYMENT, JSON_LIST, "", &ManifestOptions::default()).expect("valid");
    let finalizers = scenario
        .scenario
        .finalizers
        .as_ref()
        .expect("from the manifest");
    assert_eq!(
        finalizers.pending("Deployment/default/redis"),
        ["example.com/backup"]
    );
    assert_eq!(
        plan_summary(&scenario),
        "0 to create, 1 to update, 1 to finalize, 0 to delete"
    );

    let map = r#"{"web": {"apiVersion": "apps/v1", "kind": "Deployment"}}"#;
    let read = read_resources(Document::Desired, map, &ManifestOptions::default()).expect("valid");
    assert!(read.manifests.is_empty());
    assert_eq!(read.resources.names().collect::<Vec<_>>(), ["web"]);
    // A JSON error stays core's, at its place.
    let broken = JSON_LIST.replacen("\"kind\": \"List\",", "\"kind\": \"List\",,", 1);
    let error = read_resources(Document::Observed, &broken, &ManifestOptions::default())
        .expect_err("two commas");
    let core = reconcile_core::parse_resources(Document::Observed, &broken).expect_err("the same");
    assert_eq!(error, core);
    // A manifest's own error is located in the JSON text.
    let unnamed = JSON_LIST.replacen("\"name\": \"redis\"", "\"generateName\": \"redis-\"", 1);
    let error = read_resources(Document::Observed, &unnamed, &ManifestOptions::default())
        .expect_err("no name");
    assert_eq!(error.path.to_string(), "$.items[1].metadata.name");
    assert_eq!(
        (error.line, error.column),
        (90, 25),
        "at the metadata without a name: {error}"
    );
}

/// Download desired as YAML: each manifest gets its `metadata.finalizers`
/// back, the server's fields stay out, and the stream reads back the same.
#[test]
fn desired_manifests_export_with_their_finalizers_for_kubectl_apply() {
    use reconcile_yaml::manifest::objects_to_apply;
    let desired = format!("{DEPLOYMENT}---\n{SERVICE}");
    let read = read(Document::Desired, &desired);
    let objects = objects_to_apply(&read);
    let service = &objects[1];
    let metadata = service.get("metadata").expect("kept");
    assert_eq!(
        metadata.get("finalizers"),
        Some(&json(r#"["service.kubernetes.io/load-balancer-cleanup"]"#))
    );
    assert_eq!(metadata.get("uid"), None, "the server's to write");
    assert_eq!(service.get("status"), None);
    assert_eq!(
        objects[0].get("metadata").and_then(|m| m.get("finalizers")),
        None
    );
    let stream = reconcile_yaml::to_yaml_stream(&objects);
    let again = self::read(Document::Desired, &stream);
    assert_eq!(again.resources, read.resources);
    assert_eq!(again.manifests[1].finalizers, read.manifests[1].finalizers);
    // A {name: spec} document is written as it is.
    let plain = self::read(Document::Desired, "web:\n  replicas: 2\n");
    assert_eq!(objects_to_apply(&plain), [json(r#"{"replicas":2}"#)]);
}

#[test]
fn a_stream_of_documents_and_a_custom_cluster_scoped_kind() {
    let text = "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\n";
    let read = read(Document::Desired, text);
    assert_eq!(
        read.resources.names().collect::<Vec<_>>(),
        ["Namespace/shop", "Widget/default/w"]
    );
    let options = ManifestOptions {
        cluster_scoped: vec!["Widget".to_owned()],
    };
    let read = read_resources(Document::Desired, text, &options).expect("valid");
    assert_eq!(
        read.resources.names().collect::<Vec<_>>(),
        ["Namespace/shop", "Widget/w"]
    );
}

#[test]
fn manifest_errors_are_located() {
    let options = ManifestOptions::default();
    let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";
    let e = read_resources(Document::Desired, text, &options).expect_err("twice");
    assert_eq!(
        (e.kind, e.line, e.path.to_string()),
        (ErrorKind::DuplicateKey, 9, "$.metadata.name".to_owned())
    );
    assert_eq!(
        e.message,
        "duplicate resource \"ConfigMap/default/a\"; the same object is at line 1 already"
    );
    let e = read_resources(
        Document::Desired,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {}\n",
        &options,
    )
    .expect_err("no name");
    // No name: placed at the metadata, the deepest value on its path.
    assert_eq!(
        (e.line, e.path.to_string()),
        (4, "$.metadata.name".to_owned())
    );
    assert!(e.message.starts_with("expected metadata.name"), "{e}");
    let e = read_resources(
        Document::Desired,
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  finalizers: [a, 1]\n",
        &options,
    )
    .expect_err("bad finalizer");
    assert_eq!(
        (e.line, e.column, e.path.to_string()),
        (5, 19, "$.metadata.finalizers[1]".to_owned())
    );
    let e = read_resources(
        Document::Desired,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n---\n- 1\n",
        &options,
    )
    .expect_err("not an object");
    assert_eq!((e.line, e.path.to_string()), (5, "$".to_owned()));
    assert!(e.message.starts_with("expected a Kubernetes object"), "{e}");
}

#[test]
fn finalizers_given_twice_must_agree() {
    let options = ManifestOptions::default();
    let same = "Service/default/my-service: [service.kubernetes.io/load-balancer-cleanup]\n";
    assert!(read_documents("{}", SERVICE, same, &options).is_ok());
    let other = "{\"Service/default/my-service\": [\"x\"]}";
    let errors = read_documents("{}", SERVICE, other, &options).expect_err("they differ");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].document, Document::Finalizers);
    assert_eq!(
        errors[0].path.to_string(),
        "$[\"Service/default/my-service\"]"
    );
    assert!(
        errors[0].message.contains("manifest at line 5"),
        "{}",
        errors[0]
    );
}
