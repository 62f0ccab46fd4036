//! `reconcile` on generated inputs, checked against the contract written out
//! independently here: which names get which action, in which order, with
//! which spec; and that `plan`, `count_out_of_sync`, `diff` and the JSON
//! equality agree with it.

#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use reconcile_core::{
    count_out_of_sync, diff, plan, reconcile, Action, ActionKind, Document, Json, Reason, Summary,
};
use reconcile_fuzz::{
    canonical, code_point_order, finalizers_both_ways, resources_both_ways, ReconcileCase,
};

fuzz_target!(|data: &[u8]| {
    let Ok(case) = ReconcileCase::generate(&mut Unstructured::new(data)) else {
        return;
    };
    check(&case);
});

fn check(case: &ReconcileCase) {
    let desired = resources_both_ways(Document::Desired, &case.desired);
    let observed = resources_both_ways(Document::Observed, &case.observed);
    let finalizers = case.finalizers.as_deref().map(finalizers_both_ways);
    let actions = reconcile(&desired, &observed, finalizers.as_ref());

    assert_eq!(
        actions,
        expected_actions(case),
        "reconcile differs from the contract for {case:?}"
    );
    assert_eq!(
        count_out_of_sync(&desired, &observed, finalizers.as_ref()),
        actions.len(),
        "count_out_of_sync"
    );
    // Level-based: the same inputs give the same answer.
    assert_eq!(reconcile(&desired, &observed, finalizers.as_ref()), actions);

    let explained = plan(&desired, &observed, finalizers.as_ref());
    assert_eq!(explained.bare_actions(), actions, "plan's actions");
    assert_eq!(explained.summary, Summary::of(&actions), "plan's summary");
    for step in &explained.actions {
        let name = &*step.action.name;
        let reason_fits = match (&step.reason, step.action.kind) {
            (Reason::NotObserved, ActionKind::Create) => true,
            (Reason::Drifted { fields }, ActionKind::Update) => {
                *fields == step.drift.len() && *fields > 0
            }
            (Reason::FinalizersPending { finalizers: listed }, ActionKind::Finalize) => {
                finalizers.as_ref().map(|f| f.pending(name)) == Some(listed.as_slice())
                    && !listed.is_empty()
            }
            (Reason::NoFinalizersPending { had_entry }, ActionKind::Delete) => {
                *had_entry == finalizers.as_ref().is_some_and(|f| f.has_entry(name))
            }
            _ => false,
        };
        assert!(
            reason_fits,
            "reason {:?} for {:?}",
            step.reason, step.action
        );
        assert_eq!(
            step.drift.is_empty(),
            step.action.kind != ActionKind::Update,
            "drift is listed exactly for UPDATE: {step:?}"
        );
    }

    // The wire form: ["KIND", name, spec | null], in the same order.
    let wire = serde_json::to_string(&actions).expect("actions serialize");
    let read: Vec<(String, String, serde_json::Value)> =
        serde_json::from_str(&wire).expect("the action list is JSON triples");
    assert_eq!(read.len(), actions.len());
    for ((kind, name, spec), action) in read.iter().zip(&actions) {
        assert_eq!(kind, action.kind.as_str());
        assert_eq!(name, &*action.name);
        // A null spec reads like "no spec"; the kind tells them apart.
        let written = serde_json::to_value(&action.spec).expect("spec converts");
        assert_eq!(spec, &written, "{wire}");
    }

    // Applying CREATE/UPDATE/DELETE leaves only the FINALIZE actions; with no
    // finalizers at all it leaves nothing, and observed then equals desired.
    let mut applied = observed.clone();
    for action in &actions {
        match (action.kind, &action.spec) {
            (ActionKind::Create | ActionKind::Update, Some(spec)) => {
                applied.insert(action.name.clone(), spec.clone());
            }
            (ActionKind::Delete, None) => {
                assert!(
                    applied.remove(&action.name).is_some(),
                    "DELETE of a name not observed"
                );
            }
            (ActionKind::Finalize, None) => {}
            _ => panic!("spec present exactly for CREATE/UPDATE: {action:?}"),
        }
    }
    let finalizing: Vec<Action> = actions
        .iter()
        .filter(|a| a.kind == ActionKind::Finalize)
        .cloned()
        .collect();
    assert_eq!(
        reconcile(&desired, &applied, finalizers.as_ref()),
        finalizing
    );
    if finalizing.is_empty() {
        assert!(applied == desired, "applying every action reaches desired");
    }

    check_equality_laws(case);
}

/// The contract, from the generated entries alone.
fn expected_actions(case: &ReconcileCase) -> Vec<Action> {
    let observed: BTreeMap<&str, &Json> =
        case.observed.iter().map(|(n, s)| (n.as_str(), s)).collect();
    let is_desired = |name: &str| case.desired.iter().any(|(n, _)| n == name);
    let pending = |name: &str| {
        case.finalizers.as_ref().is_some_and(|entries| {
            entries
                .iter()
                .any(|(n, list)| n == name && !list.is_empty())
        })
    };

    let mut upserts: Vec<&(String, Json)> = case.desired.iter().collect();
    upserts.sort_by(|a, b| code_point_order(&a.0, &b.0));
    let mut expected: Vec<Action> = upserts
        .into_iter()
        .filter_map(|(name, spec)| match observed.get(name.as_str()) {
            None => Some(Action::create(name, spec.clone())),
            Some(seen) if canonical(seen) == canonical(spec) => None,
            Some(_) => Some(Action::update(name, spec.clone())),
        })
        .collect();

    let mut removals: Vec<&str> = observed
        .keys()
        .copied()
        .filter(|name| !is_desired(name))
        .collect();
    removals.sort_by(|a, b| code_point_order(a, b));
    expected.extend(removals.into_iter().map(|name| {
        if pending(name) {
            Action::finalize(name)
        } else {
            Action::delete(name)
        }
    }));
    expected
}

/// Equality is symmetric, agrees with the canonical form, with `diff` and with the stable hash.
fn check_equality_laws(case: &ReconcileCase) {
    for (name, desired) in &case.desired {
        let Some((_, observed)) = case.observed.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let equal = desired == observed;
        assert_eq!(equal, observed == desired, "equality is symmetric");
        assert_eq!(
            equal,
            canonical(desired) == canonical(observed),
            "equality differs from the canonical form: {desired:?} vs {observed:?}"
        );
        if case.equal_by_construction.contains(name) {
            assert!(
                equal,
                "a respelled spec compares unequal: {desired:?} vs {observed:?}"
            );
        }
        assert_eq!(
            diff(observed, desired).is_empty(),
            equal,
            "diff is empty exactly when equal: {observed:?} → {desired:?}"
        );
        if equal {
            assert_eq!(
                desired.stable_hash(),
                observed.stable_hash(),
                "equal values hash alike"
            );
        }
    }
}
