//! Server-side apply in a run: lesson 8's fight, named by the conflict,
//! and ended when the controller gives up the field.

use reconcile_core::{parse_finalizers, parse_resources, Document};
use reconcile_sim::{
    parse_options, simulate, ActionResult, NotConvergingReason, SimScenario, Timeline, Verdict,
};

fn scenario(desired: &str) -> SimScenario {
    let observed = r#"{"web": {"replicas": 3, "image": "web:1.4"}}"#;
    SimScenario {
        desired: parse_resources(Document::Desired, desired).expect("valid"),
        observed: parse_resources(Document::Observed, observed).expect("valid"),
        finalizers: parse_finalizers("null").expect("valid"),
    }
}

/// Lesson 8's preset, with the writes given.
fn run(desired: &str, controller: &str, autoscaler: &str) -> Timeline {
    let options = format!(
        r#"{{"writes": "{controller}", "maxPasses": 12, "otherWriters": [{{"name": "autoscaler",
        "object": "web", "path": ["replicas"], "value": 5, "reactionMs": 30,
        "writes": "{autoscaler}"}}]}}"#
    );
    let config = parse_options(&options).expect("options");
    simulate(&scenario(desired), &config)
}

const BOTH: &str = r#"{"web": {"replicas": 3, "image": "web:1.4"}}"#;

fn failures(timeline: &Timeline) -> Vec<String> {
    timeline
        .passes
        .iter()
        .flat_map(|pass| &pass.actions)
        .filter_map(|outcome| match &outcome.result {
            ActionResult::Failed { code, error, .. } => Some(format!("{code} {error}")),
            _ => None,
        })
        .collect()
}

#[test]
fn an_apply_of_a_field_the_autoscaler_took_is_a_conflict_naming_it() {
    let timeline = run(BOTH, "apply", "force-apply");
    let failures = failures(&timeline);
    assert!(!failures.is_empty(), "{:#?}", timeline.verdict);
    assert_eq!(
        failures[0],
        r#"409 Apply failed with 1 conflict: conflict with "autoscaler": .spec.replicas"#
    );
    // The verdict names the conflict, not only the pass limit it ends at.
    assert_eq!(
        timeline.verdict.to_string(),
        "Not converging: every apply of web is refused with 409 Conflict (Apply failed with \
         1 conflict: conflict with \"autoscaler\": .spec.replicas); force the apply, or stop \
         applying the fields another manager owns"
    );
}

#[test]
fn two_appliers_that_both_force_still_fight() {
    let timeline = run(BOTH, "force-apply", "force-apply");
    assert!(failures(&timeline).is_empty());
    assert!(
        matches!(
            timeline.verdict,
            Verdict::NotConverging {
                reason: NotConvergingReason::Oscillation { .. }
            }
        ),
        "{}",
        timeline.verdict
    );
}

#[test]
fn the_fight_ends_when_the_controller_stops_applying_replicas() {
    let timeline = run(r#"{"web": {"image": "web:1.4"}}"#, "apply", "force-apply");
    assert!(failures(&timeline).is_empty());
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{}",
        timeline.verdict
    );
    let web = timeline.final_world.observed.get("web").expect("web");
    assert_eq!(
        web.to_compact_string(),
        r#"{"replicas":5,"image":"web:1.4"}"#
    );
}

#[test]
fn an_autoscaler_that_puts_is_an_update_manager_the_apply_conflicts_with() {
    let timeline = run(BOTH, "apply", "update");
    let failures = failures(&timeline);
    assert_eq!(
        failures.first().map(String::as_str),
        Some(
            r#"409 Apply failed with 1 conflict: conflict with "autoscaler" using reconcile.example.com/v1: .spec.replicas"#
        )
    );
}
