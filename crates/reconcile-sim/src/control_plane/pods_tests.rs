//! Upstream's tests of pods' grace periods, ported; each names its source.

use super::*;

/// A `v1` Pod manifest with `spec`'s members and, if given, `status.phase`.
fn pod(spec: Vec<(&str, Json)>, phase: Option<&str>) -> Json {
    let spec = spec.into_iter().map(|(k, v)| (k.into(), v)).collect();
    let mut members = vec![
        ("apiVersion".into(), Json::string("v1")),
        ("kind".into(), Json::string("Pod")),
        ("spec".into(), Json::object(spec)),
    ];
    if let Some(phase) = phase {
        let status = Json::object(vec![("phase".into(), Json::string(phase))]);
        members.push(("status".into(), status));
    }
    Json::object(members)
}

fn number(n: i64) -> Json {
    serde_json::from_str(&n.to_string()).expect("a number")
}

fn on_node() -> Vec<(&'static str, Json)> {
    vec![("nodeName", Json::string("something"))]
}

/// kubernetes `pkg/registry/core/pod/strategy_test.go` `TestCheckGracefulDelete`.
#[test]
fn test_check_graceful_delete() {
    let default = Some(30);
    // (name, pod, the delete's gracePeriodSeconds, expected period)
    let cases: [(&str, Json, Option<i64>, i64); 6] = [
        (
            "in pending phase with has node name",
            pod(on_node(), Some("Pending")),
            default,
            30,
        ),
        (
            "in failed phase with has node name",
            pod(on_node(), Some("Failed")),
            default,
            0,
        ),
        ("in failed phase", pod(vec![], Some("Pending")), default, 0),
        (
            "in succeeded phase",
            pod(vec![], Some("Succeeded")),
            default,
            0,
        ),
        ("no phase", pod(vec![], None), default, 0),
        (
            "has negative grace period",
            pod(
                vec![
                    ("nodeName", Json::string("something")),
                    ("terminationGracePeriodSeconds", number(-1)),
                ],
                None,
            ),
            None,
            1,
        ),
    ];
    for (name, pod, requested, expected) in cases {
        assert_eq!(grace_period(&pod, requested), Some(expected), "{name}");
    }
}

#[test]
fn the_pods_own_period_applies_and_an_absent_one_is_the_default() {
    let own = pod(
        vec![
            ("nodeName", Json::string("node-1")),
            ("terminationGracePeriodSeconds", number(5)),
        ],
        None,
    );
    assert_eq!(grace_period(&own, None), Some(5));
    assert_eq!(grace_period(&pod(on_node(), None), None), Some(30));
    assert_eq!(grace_period(&pod(on_node(), None), Some(0)), Some(0));
}

#[test]
fn only_pods_have_a_graceful_strategy() {
    let generic = Json::object(vec![("nodeName".into(), Json::string("node-1"))]);
    assert_eq!(grace_period(&generic, Some(30)), None);
    let mut deployment = pod(on_node(), None);
    if let Json::Object(members) = &mut deployment {
        let members = std::sync::Arc::make_mut(members);
        members[0].1 = Json::string("apps/v1");
        members[1].1 = Json::string("Deployment");
    }
    assert_eq!(grace_period(&deployment, Some(30)), None);
}

/// apiserver `pkg/registry/rest` `BeforeDelete` on an object already being
/// deleted: only a shorter period may be asked for; with none, or 0, running,
/// the delete goes on to the finalizers. The last case is apiserver
/// `store_test.go` `TestGracefulStoreCanDeleteIfExistingGracePeriodZero`.
#[test]
fn a_pending_delete_may_only_be_shortened() {
    assert_eq!(pending_delete(Some(30), None), PendingDelete::Pending);
    assert_eq!(pending_delete(Some(30), Some(30)), PendingDelete::Pending);
    assert_eq!(pending_delete(Some(30), Some(45)), PendingDelete::Pending);
    assert_eq!(pending_delete(Some(30), Some(0)), PendingDelete::Shorten(0));
    assert_eq!(
        pending_delete(Some(30), Some(-5)),
        PendingDelete::Shorten(1)
    );
    assert_eq!(pending_delete(None, Some(0)), PendingDelete::NotGraceful);
    assert_eq!(pending_delete(Some(0), Some(0)), PendingDelete::NotGraceful);
}
