//! The controller's view of the loop: the engine driven one reconcile call at a
//! time with plans from outside, and where its cache differs from the store.

use reconcile_core::{parse_resources, reconcile, Action, Document, ErrorKind, Json, Resources};
use reconcile_sim::{
    resource_statuses, simulate, ActionResult, CacheLag, CacheLagEntry, NotConvergingReason,
    ResumeError, SimConfig, SimScenario, Simulation, Step, SyncState, Verdict,
};

fn res(text: &str) -> Resources {
    parse_resources(Document::Desired, text).expect("test resources are valid")
}

/// The seed example: create a, update b, delete c.
fn seed_scenario() -> SimScenario {
    SimScenario {
        desired: res(r#"{"a": {"replicas": 1}, "b": {"replicas": 2}}"#),
        observed: res(r#"{"b": {"replicas": 1}, "c": {"replicas": 1}}"#),
        finalizers: None,
    }
}

/// Answers every call with the contract's reconcile until the run ends.
fn finish(simulation: &mut Simulation) {
    while let Step::Reconcile(call) = simulation.step() {
        let plan = reconcile(call.desired, call.observed, Some(call.finalizers));
        simulation.resume(plan);
    }
}

#[test]
fn the_first_call_reads_the_listed_cache_and_time_stands_still_until_the_answer() {
    let scenario = seed_scenario();
    let config = SimConfig::default();
    let mut simulation = Simulation::new(&scenario, config.clone());
    let Step::Reconcile(call) = simulation.step() else {
        panic!("the first step waits for pass 1's plan");
    };
    assert_eq!(call.pass, 1);
    assert_eq!(call.observed, &scenario.observed);
    assert_eq!(call.desired, &scenario.desired);
    let at = call.at;
    // Asking again while the pass waits changes nothing.
    let Step::Reconcile(again) = simulation.step() else {
        panic!("still waiting");
    };
    assert_eq!((again.pass, again.at), (1, at));
    finish(&mut simulation);
    let timeline = simulation.into_timeline();
    assert_eq!(timeline.passes[0].started_at, at);
    assert_eq!(timeline, simulate(&scenario, &config));
}

#[test]
fn a_malformed_answer_is_a_located_error_and_the_pass_keeps_waiting() {
    let scenario = seed_scenario();
    let config = SimConfig::default();
    let mut simulation = Simulation::new(&scenario, config.clone());
    let _ = simulation.step();
    let answer = "[\n  [\"CREATE\", \"a\", {\"replicas\": 1}],\n  [\"DELETE\", \"c\"]\n]";
    let Err(ResumeError::Malformed(error)) = simulation.resume_json(answer) else {
        panic!("a two-element action is refused");
    };
    assert_eq!(error.document, Document::Actions);
    assert_eq!(error.kind, ErrorKind::Shape);
    assert_eq!(error.path.to_string(), "$[1]");
    assert_eq!((error.line, error.column), (3, 17));
    assert_eq!(
        error.to_string(),
        "Returned actions: line 3, column 17 at $[1]: expected 3 elements [kind, name, spec], found 2"
    );
    let Step::Reconcile(call) = simulation.step() else {
        panic!("pass 1 still waits for a plan");
    };
    assert_eq!(call.pass, 1);
    finish(&mut simulation);
    assert_eq!(simulation.into_timeline(), simulate(&scenario, &config));
}

#[test]
fn an_answer_when_no_pass_waits_is_refused_and_changes_nothing() {
    let scenario = seed_scenario();
    let config = SimConfig::default();
    let mut simulation = Simulation::new(&scenario, config.clone());
    // Before the first step the clock has not run: no pass waits yet.
    assert!(!simulation.resume(vec![Action::delete("c")]));
    assert_eq!(simulation.resume_json("[]"), Err(ResumeError::NotWaiting));
    finish(&mut simulation);
    assert!(matches!(simulation.step(), Step::Finished(_)));
    assert!(!simulation.resume(Vec::new()));
    assert_eq!(simulation.resume_json("[]"), Err(ResumeError::NotWaiting));
    assert_eq!(simulation.into_timeline(), simulate(&scenario, &config));
}

#[test]
fn a_plan_that_breaks_the_contract_is_sent_and_the_api_server_answers_it() {
    let scenario = seed_scenario();
    let config = SimConfig {
        max_passes: 3,
        ..SimConfig::default()
    };
    let mut simulation = Simulation::new(&scenario, config.clone());
    // A reconcile that always creates b, which exists: 409 AlreadyExists,
    // an error result, so the key is requeued with backoff.
    while let Step::Reconcile(_) = simulation.step() {
        simulation.resume(vec![Action::create("b", Json::Null)]);
    }
    let timeline = simulation.into_timeline();
    assert_eq!(timeline.passes.len(), 3);
    for pass in &timeline.passes {
        let ActionResult::Failed { code, .. } = &pass.actions[0].result else {
            panic!("CREATE of an existing object fails: {:?}", pass.actions[0]);
        };
        assert_eq!(*code, 409);
    }
    assert_eq!(
        timeline.verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::PassLimit { limit: 3 }
        }
    );
}

#[test]
fn a_run_stopped_while_a_pass_waits_ends_at_the_passes_it_ran() {
    let scenario = seed_scenario();
    let config = SimConfig::default();
    let mut simulation = Simulation::new(&scenario, config.clone());
    let _ = simulation.step();
    simulation.resume(vec![Action::delete("c")]);
    let Step::Reconcile(call) = simulation.step() else {
        panic!("b and a are still to do");
    };
    assert_eq!(call.pass, 2);
    let timeline = simulation.into_timeline();
    assert_eq!(timeline.passes.len(), 1);
    assert_eq!(
        timeline.verdict,
        Verdict::NotConverging {
            reason: NotConvergingReason::PassLimit { limit: 1 }
        }
    );
}

/// As pass 1 of the seed example ends, its DELETE of c is in the store but
/// its watch event is still on its way: the cache still has c, which is why
/// pass 2 sends DELETE c again. By the end of pass 2 the cache has caught up.
#[test]
fn the_status_grid_shows_where_the_cache_still_differs_from_the_store() {
    let scenario = seed_scenario();
    let timeline = simulate(&scenario, &SimConfig::default());
    let still_cached = CacheLagEntry {
        name: "c".to_owned(),
        lag: CacheLag::StillCached,
    };
    assert_eq!(timeline.cache_lag_after(1), [still_cached]);
    assert_eq!(timeline.cache_lag_after(0), []);
    let statuses = resource_statuses(
        &scenario.desired,
        timeline.world_after(1),
        timeline.cache_lag_after(1),
    );
    let rows: Vec<(&str, SyncState, Option<CacheLag>)> = statuses
        .iter()
        .map(|s| (s.name.as_str(), s.state, s.cache))
        .collect();
    assert_eq!(
        rows,
        [
            ("a", SyncState::InSync, None),
            ("b", SyncState::InSync, None),
            ("c", SyncState::InSync, Some(CacheLag::StillCached)),
        ]
    );
    assert!(timeline.passes[1..].iter().all(|p| p.cache_lag.is_empty()));
}

/// While a broken watch waits for its re-list, every write since is missing
/// from the cache: an update shows as an older spec until the list.
#[test]
fn after_a_broken_watch_the_cache_lags_until_the_informer_lists_again() {
    let scenario = SimScenario {
        desired: res(r#"{"a": {"replicas": 2}}"#),
        observed: res(r#"{"a": {"replicas": 1}}"#),
        finalizers: None,
    };
    let config = SimConfig {
        watch_break_rate: 1.0,
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    assert_eq!(
        timeline.cache_lag_after(1),
        [CacheLagEntry {
            name: "a".to_owned(),
            lag: CacheLag::OlderSpec,
        }]
    );
    // The re-list (after the reflector's backoff) brings the cache up to date.
    let last = timeline.passes.len();
    assert_eq!(timeline.cache_lag_after(last), []);
}
