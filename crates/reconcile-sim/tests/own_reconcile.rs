//! A reconcile written elsewhere, in the loop: converges, idempotent,
//! survives a restart.

use reconcile_content::presets::presets;
use reconcile_core::model::{Finalizers, Resources};
use reconcile_core::{parse_finalizers, parse_resources, reconcile, Action, Document};
use reconcile_sim::comparison::controller_plan;
use reconcile_sim::own_reconcile::{
    Idempotence, LoopCall, LoopCheck, LoopVerdicts, RestartSurvival,
};
use reconcile_sim::{SimConfig, SimScenario, Verdict};

fn res(text: &str) -> Resources {
    parse_resources(Document::Desired, text).expect("test resources are valid")
}

/// Runs a loop check, answering every call with `learner`, which is made
/// afresh for every new process.
fn check<F>(scenario: &SimScenario, config: SimConfig, make: impl FnMut() -> F) -> LoopVerdicts
where
    F: FnMut(&LoopCall<'_>) -> Vec<Action>,
{
    drive(scenario, config, make, true)
}

fn drive<F>(
    scenario: &SimScenario,
    config: SimConfig,
    mut make: impl FnMut() -> F,
    fresh_processes: bool,
) -> LoopVerdicts
where
    F: FnMut(&LoopCall<'_>) -> Vec<Action>,
{
    let mut check = LoopCheck::new(scenario, config);
    let mut process = None;
    let mut learner = make();
    while let Some(call) = check.call() {
        if fresh_processes && process != Some(call.process) {
            process = Some(call.process);
            learner = make();
        }
        let plan = learner(&call);
        check.answer(Ok(plan));
    }
    match check.outcome() {
        Some(Ok(verdicts)) => verdicts,
        other => panic!("the check did not end with verdicts: {other:?}"),
    }
}

fn contract(call: &LoopCall<'_>) -> Vec<Action> {
    reconcile(call.desired, call.observed, call.finalizers)
}

#[test]
fn the_contracts_reconcile_converges_is_idempotent_and_survives_restarts_in_every_preset() {
    for preset in presets() {
        let scenario = SimScenario {
            desired: res(&preset.desired),
            observed: res(&preset.observed),
            finalizers: parse_finalizers(&preset.finalizers).expect("valid"),
        };
        // The simulated controller's plan: the contract's reconcile on the
        // cache as the preset's `compare` shows it.
        let config = preset.sim.read().expect("settings");
        let compare = config.compare;
        let controller = move |call: &LoopCall<'_>| {
            let finalizers = call.finalizers.cloned().unwrap_or_default();
            controller_plan(compare, call.desired, call.observed, &finalizers)
        };
        let verdicts = check(&scenario, config.clone(), || controller);
        assert_eq!(
            verdicts.converges,
            reconcile_sim::simulate(&scenario, &config).verdict,
            "{}",
            preset.id
        );
        assert_eq!(
            verdicts.idempotence,
            Idempotence::Idempotent,
            "{}",
            preset.id
        );
        assert!(
            matches!(verdicts.restart, RestartSurvival::Survives { .. }),
            "{}: {}",
            preset.id,
            verdicts.restart
        );
    }
}

/// Updating every desired name, drifted or not, writes again on the state
/// its own actions produced.
#[test]
fn a_reconcile_that_always_updates_is_not_idempotent() {
    let scenario = SimScenario {
        desired: res(r#"{"a": {"replicas": 2}}"#),
        observed: res(r#"{"a": {"replicas": 1}}"#),
        finalizers: None,
    };
    let always = |call: &LoopCall<'_>| -> Vec<Action> {
        call.desired
            .iter()
            .map(|(name, spec)| Action::update(name, spec.clone()))
            .collect()
    };
    let verdicts = check(&scenario, SimConfig::default(), || always);
    assert_eq!(
        verdicts.idempotence,
        Idempotence::NotIdempotent {
            again: vec![Action::update(
                "a",
                res(r#"{"x": {"replicas": 2}}"#)
                    .get("x")
                    .cloned()
                    .expect("spec")
            )]
        }
    );
    assert_eq!(
        verdicts.idempotence.to_string(),
        "Not idempotent: run again on the state its own actions produce, reconcile returns UPDATE a"
    );
}

/// A reconcile that remembers what it asked to create, in memory, and never
/// asks again. A crash loses the actions it had not sent; the restarted
/// process (fresh memory) creates them. Without the fresh start it would not:
/// the driver must reload it when the process changes.
#[test]
fn a_reconcile_with_state_is_restarted_afresh_and_survives() {
    let scenario = SimScenario {
        desired: res(r#"{"a": 1, "b": 1, "c": 1}"#),
        observed: res("{}"),
        finalizers: None,
    };
    let remembering = || {
        let mut asked: Vec<String> = Vec::new();
        move |call: &LoopCall<'_>| -> Vec<Action> {
            let plan: Vec<Action> = contract(call)
                .into_iter()
                .filter(|action| !asked.contains(&action.name.to_string()))
                .collect();
            asked.extend(plan.iter().map(|a| a.name.to_string()));
            plan
        }
    };
    let verdicts = check(&scenario, SimConfig::default(), remembering);
    assert_eq!(verdicts.restart, RestartSurvival::Survives { points: 3 });
    // Kept alive across the crash, its memory would stop it creating what the crash lost.
    let kept = drive(&scenario, SimConfig::default(), remembering, false);
    assert!(
        matches!(kept.restart, RestartSurvival::Fails { .. }),
        "{}",
        kept.restart
    );
    assert_eq!(
        verdicts.restart.to_string(),
        "Survives a restart: after a crash at any of 3 point(s) of the first pass, the restarted loop converges with no work done twice"
    );
}

/// Creating every desired name whatever is observed: 409 AlreadyExists on
/// every pass after the first, which the contract's reconcile never does.
#[test]
fn a_reconcile_that_ignores_observed_does_not_survive_a_restart() {
    let scenario = SimScenario {
        desired: res(r#"{"a": 1, "b": 1}"#),
        observed: res("{}"),
        finalizers: None,
    };
    let blind = |call: &LoopCall<'_>| -> Vec<Action> {
        call.desired
            .iter()
            .map(|(name, spec)| Action::create(name, spec.clone()))
            .collect()
    };
    let config = SimConfig {
        max_passes: 20,
        ..SimConfig::default()
    };
    let verdicts = check(&scenario, config, || blind);
    assert!(matches!(verdicts.converges, Verdict::NotConverging { .. }));
    let RestartSurvival::Fails {
        after_actions,
        repeated,
        ..
    } = &verdicts.restart
    else {
        panic!("{}", verdicts.restart);
    };
    assert_eq!(*after_actions, 0);
    assert_eq!(
        repeated.as_deref(),
        Some("CREATE a again (409 AlreadyExists)")
    );
}

#[test]
fn a_reconcile_that_raises_ends_the_check_with_its_message() {
    let scenario = SimScenario {
        desired: res(r#"{"a": 1}"#),
        observed: res("{}"),
        finalizers: Some(Finalizers::new()),
    };
    let mut check = LoopCheck::new(&scenario, SimConfig::default());
    assert!(check.call().is_some());
    check.answer(Err("Traceback: line 3: KeyError: 'a'".to_owned()));
    assert!(check.call().is_none());
    assert_eq!(
        check.outcome(),
        Some(Err("Traceback: line 3: KeyError: 'a'"))
    );
}
