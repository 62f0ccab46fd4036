//! Upstream's `pkg/apis/apps/v1/defaults_test.go`, spec-level cases: the
//! pod template's own defaults (`defaultTemplate` there) are checked once,
//! in `pod_template_and_containers`, and left out of the ported tables.

use proptest::prelude::*;
use reconcile_core::json::Json;
use reconcile_core::parse::parse_json_value;

use super::*;

fn json(text: &str) -> Json {
    parse_json_value(text).expect("test JSON")
}

fn defaulted(text: &str) -> Json {
    let mut object = json(text);
    apply_defaults(&mut object);
    object
}

/// The object's `spec` without `template`, which these tables leave out.
fn spec_without_template(object: &Json) -> Json {
    let members = object
        .get("spec")
        .and_then(Json::as_object)
        .expect("a spec")
        .iter()
        .filter(|(name, _)| &**name != "template")
        .cloned()
        .collect();
    Json::object(members)
}

fn deployment(spec: &str) -> String {
    format!(
        r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"d"}},"spec":{spec}}}"#
    )
}

/// `TestSetDefaultDeployment`, its five cases in order.
#[test]
fn test_set_default_deployment() {
    let cases = [
        (
            "{}",
            r#"{"replicas":1,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600}"#,
        ),
        (
            r#"{"replicas":5,"strategy":{"rollingUpdate":{"maxSurge":5}}}"#,
            r#"{"replicas":5,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":5,"maxUnavailable":"25%"}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600}"#,
        ),
        (
            r#"{"replicas":3,"strategy":{"type":"RollingUpdate","rollingUpdate":null}}"#,
            r#"{"replicas":3,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600}"#,
        ),
        (
            r#"{"replicas":5,"strategy":{"type":"Recreate"},"revisionHistoryLimit":0}"#,
            r#"{"replicas":5,"strategy":{"type":"Recreate"},"revisionHistoryLimit":0,"progressDeadlineSeconds":600}"#,
        ),
        (
            r#"{"replicas":5,"strategy":{"type":"Recreate"},"progressDeadlineSeconds":30,"revisionHistoryLimit":2}"#,
            r#"{"replicas":5,"strategy":{"type":"Recreate"},"progressDeadlineSeconds":30,"revisionHistoryLimit":2}"#,
        ),
    ];
    for (index, (original, expected)) in cases.into_iter().enumerate() {
        let got = defaulted(&deployment(original));
        assert_eq!(spec_without_template(&got), json(expected), "case {index}");
    }
}

/// `TestSetDefaultReplicaSetReplicas`.
#[test]
fn test_set_default_replica_set_replicas() {
    for (spec, replicas) in [
        (r#"{"template":{"metadata":{"labels":{"foo":"bar"}}}}"#, 1),
        (r#"{"replicas":0,"template":{}}"#, 0),
        (r#"{"replicas":3,"template":{}}"#, 3),
    ] {
        let text = format!(r#"{{"apiVersion":"apps/v1","kind":"ReplicaSet","spec":{spec}}}"#);
        let got = defaulted(&text);
        assert_eq!(
            got.get_path(&["spec".into(), "replicas".into()]),
            Some(&json(&replicas.to_string()))
        );
    }
}

/// `TestSetDefaultDaemonSetSpec`: the update strategy and the history limit.
#[test]
fn test_set_default_daemon_set_spec() {
    let rolling = r#""updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}}"#;
    let cases = [
        (
            "{}".to_owned(),
            format!(r#"{{{rolling},"revisionHistoryLimit":10}}"#),
        ),
        (
            r#"{"revisionHistoryLimit":1}"#.to_owned(),
            format!(r#"{{{rolling},"revisionHistoryLimit":1}}"#),
        ),
        (
            r#"{"updateStrategy":{"type":"OnDelete"}}"#.to_owned(),
            r#"{"updateStrategy":{"type":"OnDelete"},"revisionHistoryLimit":10}"#.to_owned(),
        ),
    ];
    for (original, expected) in cases {
        let text = format!(r#"{{"apiVersion":"apps/v1","kind":"DaemonSet","spec":{original}}}"#);
        assert_eq!(spec_without_template(&defaulted(&text)), json(&expected));
    }
}

/// `defaultTemplate` of the upstream tests, and `SetDefaults_Container`.
#[test]
fn pod_template_and_containers() {
    let got = defaulted(&deployment(
        r#"{"template":{"spec":{"containers":[{"name":"a","image":"nginx:1.14.2","ports":[{"containerPort":80},{"containerPort":53,"protocol":"UDP"}]},{"name":"b","image":"busybox"},{"name":"c","image":"x:1","imagePullPolicy":"Never"}]}}}"#,
    ));
    let expected = json(
        r#"{"spec":{"dnsPolicy":"ClusterFirst","restartPolicy":"Always","securityContext":{},"terminationGracePeriodSeconds":30,"schedulerName":"default-scheduler","containers":[
            {"name":"a","image":"nginx:1.14.2","ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":53,"protocol":"UDP"}],"imagePullPolicy":"IfNotPresent","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"},
            {"name":"b","image":"busybox","imagePullPolicy":"Always","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"},
            {"name":"c","image":"x:1","imagePullPolicy":"Never","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}]}}"#,
    );
    assert_eq!(
        got.get_path(&["spec".into(), "template".into()]),
        Some(&expected)
    );
}

#[test]
fn other_objects_are_stored_as_written() {
    for text in [
        r#"{"replicas":3,"image":"web:1.4"}"#,
        r#"{"apiVersion":"v1","kind":"Service","spec":{}}"#,
        r#"{"apiVersion":"apps/v1beta2","kind":"Deployment","spec":{}}"#,
        r#"{"apiVersion":"example.com/v1","kind":"Deployment","spec":{}}"#,
    ] {
        let mut object = json(text);
        assert!(!apply_defaults(&mut object), "{text}");
        assert_eq!(object, json(text));
    }
}

#[test]
fn the_source_of_a_defaulted_field() {
    let object = defaulted(&deployment(
        r#"{"template":{"spec":{"containers":[{"image":"a"}]}}}"#,
    ));
    let cases = [
        ("spec.strategy", Some("apps/v1 SetDefaults_Deployment")),
        (
            "spec.template.spec.dnsPolicy",
            Some("core/v1 SetDefaults_PodSpec"),
        ),
        (
            "spec.template.spec.containers.0.imagePullPolicy",
            Some(CONTAINER_SOURCE),
        ),
        (
            "spec.template.spec.containers.0.ports.1.protocol",
            Some(PORT_SOURCE),
        ),
        ("spec.template.spec.containers.0.env", None),
        ("spec.paused", None),
    ];
    for (path, expected) in cases {
        let path: Vec<String> = path.split('.').map(str::to_owned).collect();
        assert_eq!(default_source(&object, &path), expected, "{path:?}");
    }
    let replicas = ["spec".to_owned(), "replicas".to_owned()];
    assert_eq!(default_source(&json("{}"), &replicas), None);
}

fn optional(field: &'static str, values: Vec<&'static str>) -> impl Strategy<Value = String> {
    proptest::option::of(proptest::sample::select(values))
        .prop_map(move |value| value.map_or_else(String::new, |v| format!(r#""{field}":{v},"#)))
}

proptest! {
    /// Defaulting a defaulted object changes nothing, whatever was set.
    #[test]
    fn defaulting_is_idempotent(
        replicas in optional("replicas", vec!["0", "3", "null"]),
        strategy in optional("strategy", vec![
            r#"{}"#, r#"{"type":"Recreate"}"#, r#"{"type":"RollingUpdate"}"#,
            r#"{"rollingUpdate":{"maxSurge":2}}"#, r#"{"type":"RollingUpdate","rollingUpdate":null}"#,
        ]),
        history in optional("revisionHistoryLimit", vec!["0", "10", "null"]),
        template in optional("template", vec![
            r#"{}"#, r#"{"spec":{}}"#, r#"{"spec":{"containers":[{"image":"a"},{"image":"b:latest"}]}}"#,
            r#"{"spec":{"dnsPolicy":"None","containers":[]}}"#,
        ]),
        kind in proptest::sample::select(vec!["Deployment", "DaemonSet", "ReplicaSet", "StatefulSet"]),
    ) {
        let text = format!(
            r#"{{"apiVersion":"apps/v1","kind":"{kind}","spec":{{{replicas}{strategy}{history}{template}"paused":false}}}}"#
        );
        let once = defaulted(&text);
        let mut twice = once.clone();
        prop_assert!(!apply_defaults(&mut twice));
        prop_assert_eq!(twice, once);
    }
}

#[test]
fn a_drift_the_server_filled_in_is_told_apart() {
    let desired = json(&deployment(r#"{"replicas":3}"#));
    let observed = defaulted(&deployment(r#"{"replicas":3}"#));
    let drift = reconcile_core::explain::diff(&observed, &desired);
    let told: Vec<(String, Option<&str>)> = drift
        .iter()
        .map(|d| (d.path.to_string(), defaulted_drift(&desired, d)))
        .collect();
    assert!(told.iter().any(|(path, source)| path == "$.spec.strategy"
        && *source == Some("apps/v1 SetDefaults_Deployment")));
    assert!(told.iter().all(|(_, source)| source.is_some()), "{told:?}");
    // A field the writer set and the other side changed is its own drift.
    let changed = defaulted(&deployment(r#"{"replicas":5}"#));
    let drift = reconcile_core::explain::diff(&changed, &desired);
    let replicas = drift
        .iter()
        .find(|d| d.path.to_string() == "$.spec.replicas")
        .expect("drift");
    assert_eq!(defaulted_drift(&desired, replicas), None);
}
