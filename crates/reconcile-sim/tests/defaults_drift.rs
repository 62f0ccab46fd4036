//! The API server's defaults against a controller that compares whole specs
//! (the contract) and one that compares only the fields it sets.

use reconcile_core::{parse_finalizers, parse_resources, Document};
use reconcile_sim::{
    simulate, ActionResult, NotConvergingReason, ObjectWrites, SimConfig, SimScenario,
    SpecComparison, Verdict,
};

const NGINX: &str = r#"{"Deployment/default/nginx": {
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "nginx", "namespace": "default", "labels": {"app": "nginx"}},
  "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "nginx"}},
    "template": {"metadata": {"labels": {"app": "nginx"}},
      "spec": {"containers": [{"name": "nginx", "image": "nginx:1.14.2"}]}}}}}"#;

fn scenario() -> SimScenario {
    SimScenario {
        desired: parse_resources(Document::Desired, NGINX).expect("valid"),
        observed: parse_resources(Document::Observed, "{}").expect("valid"),
        finalizers: parse_finalizers("null").expect("valid"),
    }
}

fn results(timeline: &reconcile_sim::Timeline) -> Vec<Vec<String>> {
    timeline
        .passes
        .iter()
        .map(|pass| {
            pass.actions
                .iter()
                .map(|o| format!("{} {:?}", o.action.kind.as_str(), o.result))
                .collect()
        })
        .collect()
}

#[test]
fn the_store_holds_the_defaults_the_manifest_left_out() {
    let timeline = simulate(&scenario(), &SimConfig::default());
    let stored = timeline.passes[0]
        .world_after
        .observed
        .get("Deployment/default/nginx");
    let stored = stored.expect("created");
    let field = |path: &[&str]| {
        let path: Vec<String> = path.iter().map(|m| (*m).to_owned()).collect();
        stored
            .get_path(&path)
            .map(reconcile_core::json::Json::to_compact_string)
    };
    assert_eq!(
        field(&["spec", "strategy", "type"]).as_deref(),
        Some("\"RollingUpdate\"")
    );
    assert_eq!(
        field(&["spec", "revisionHistoryLimit"]).as_deref(),
        Some("10")
    );
    assert_eq!(
        field(&["spec", "progressDeadlineSeconds"]).as_deref(),
        Some("600")
    );
    assert_eq!(
        field(&["spec", "template", "spec", "dnsPolicy"]).as_deref(),
        Some("\"ClusterFirst\"")
    );
}

/// Whole specs: the created object's defaults are drift, so the next pass
/// sends an UPDATE that the server turns into nothing (no write, no event):
/// the controller never sees itself in sync, and with nothing to wake it
/// the run ends out of sync.
#[test]
fn comparing_whole_specs_updates_for_nothing_and_never_settles() {
    let timeline = simulate(&scenario(), &SimConfig::default());
    assert_eq!(
        results(&timeline),
        vec![
            vec!["CREATE Applied".to_owned()],
            vec!["UPDATE Unchanged".to_owned()]
        ]
    );
    assert_eq!(
        timeline.verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::NoTrigger { out_of_sync: 1 }
        }
    );
    // The no-op write kept the resourceVersion.
    let [first, second] = &timeline.passes[..] else {
        panic!("two passes")
    };
    let name = "Deployment/default/nginx";
    assert_eq!(
        first.world_after.meta(name).map(|m| m.resource_version),
        second.world_after.meta(name).map(|m| m.resource_version)
    );
}

/// With a periodic resync, every resync sends the same useless UPDATE, forever.
#[test]
fn with_a_resync_it_updates_every_period_until_the_pass_limit() {
    let config = SimConfig {
        resync_period_ms: Some(1_000),
        max_passes: 12,
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario(), &config);
    assert_eq!(
        timeline.verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::PassLimit { limit: 12 }
        }
    );
    assert!(timeline.passes[1..]
        .iter()
        .all(|pass| pass.actions.len() == 1 && pass.actions[0].result == ActionResult::Unchanged));
}

#[test]
fn comparing_the_fields_it_sets_converges() {
    let config = SimConfig {
        compare: SpecComparison::FieldsItSets,
        resync_period_ms: Some(1_000),
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario(), &config);
    assert_eq!(
        results(&timeline),
        vec![vec!["CREATE Applied".to_owned()], vec![]]
    );
    assert!(matches!(
        timeline.verdict,
        Verdict::Converged { passes: 2, .. }
    ));
}

/// Lesson 11's other fix: the controller applies the manifest. It owns what
/// it sent; the defaults are nobody's, and an apply compares only its fields.
#[test]
fn applying_with_server_side_apply_converges() {
    let config = SimConfig {
        writes: ObjectWrites::Apply,
        resync_period_ms: Some(1_000),
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario(), &config);
    assert_eq!(
        results(&timeline),
        vec![vec!["CREATE Applied".to_owned()], vec![]]
    );
    assert!(matches!(
        timeline.verdict,
        Verdict::Converged { passes: 2, .. }
    ));
}

/// Fields-it-sets still repairs what it set: a changed replicas count is drift.
#[test]
fn comparing_the_fields_it_sets_still_sees_its_own_fields_drift() {
    let mut scenario = scenario();
    let mut observed = scenario.desired.clone();
    let spec = observed.get_mut("Deployment/default/nginx").expect("there");
    spec.set_path(
        &["spec".into(), "replicas".into()],
        reconcile_core::parse::parse_json_value("5").expect("5"),
    );
    scenario.observed = observed;
    let config = SimConfig {
        compare: SpecComparison::FieldsItSets,
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(timeline.passes[0].actions.len(), 1);
    assert_eq!(timeline.passes[0].actions[0].action.kind.as_str(), "UPDATE");
    assert!(matches!(timeline.verdict, Verdict::Converged { .. }));
}
