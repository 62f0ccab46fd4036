//! Real manifests (fixtures/, from upstream examples) as the playground's resources.

use reconcile_core::{reconcile, Document, ErrorKind, Json};
use reconcile_yaml::{read_documents, read_resources, ManifestOptions, ReadResources};

const DEPLOYMENT: &str = include_str!("fixtures/nginx-deployment.yaml");
const SERVICE: &str = include_str!("fixtures/service-loadbalancer.yaml");
const LIST: &str = include_str!("fixtures/kubectl-get-list.yaml");

fn read(document: Document, text: &str) -> ReadResources {
    read_resources(document, text, &ManifestOptions::default()).unwrap_or_else(|e| panic!("{e}"))
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
    let plan = reconcile_core::plan(
        &scenario.scenario.desired,
        &scenario.scenario.observed,
        scenario.scenario.finalizers.as_ref(),
    );
    assert_eq!(
        plan.summary.to_string(),
        "0 to create, 1 to update, 1 to finalize, 1 to delete"
    );
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
