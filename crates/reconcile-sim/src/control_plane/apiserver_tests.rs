//! Upstream's own tests of what [`super`] models, ported: each names its
//! source. Pods become objects with a JSON spec (`{"nodeName": ...}`); the
//! registry's create/get/update/delete become the store's verbs.
//!
//! Left out, with why:
//! - `store_test.go` tests of list, watch, hooks, key functions, TTL,
//!   DeleteCollection, dry run, generateName retries and cached objects: the
//!   playground models none of them.
//! - Upstream's graceful store uses a test strategy that takes any period it
//!   is given; here only pods are graceful, so those tests delete a `v1` Pod
//!   manifest scheduled to a node.
//! - `TestStoreUpdate`'s admission and create-on-update cases: no admission, and
//!   no kind here allows create on update.

use super::*;
use crate::world::World;
use reconcile_core::model::{Finalizers, Resources};

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn node(name: &str) -> Json {
    Json::object(vec![("nodeName".into(), Json::string(name))])
}

fn empty_store() -> World {
    World::new(Resources::new(), None::<Finalizers>)
}

fn create(store: &mut World, name: &str, finalizers: &[&str]) {
    store
        .create(&Arc::from(name), node("machine"), strings(finalizers))
        .expect("created");
}

/// A `v1` Pod manifest scheduled to `machine`: the graceful strategy's object.
fn pod_on(machine: &str) -> Json {
    serde_json::from_str(&format!(
        r#"{{"apiVersion":"v1","kind":"Pod","spec":{{"nodeName":"{machine}"}}}}"#
    ))
    .expect("a pod")
}

fn create_pod(store: &mut World, name: &str, finalizers: &[&str]) {
    store
        .create(&Arc::from(name), pod_on("machine"), strings(finalizers))
        .expect("created");
}

fn grace(seconds: i64) -> DeleteOptions {
    DeleteOptions {
        grace_period_seconds: Some(seconds),
        ..DeleteOptions::default()
    }
}

fn version(store: &World, name: &str) -> u64 {
    store.meta(name).expect("exists").resource_version
}

/// apimachinery `pkg/api/validation/objectmeta_test.go` `TestValidateFinalizersUpdate`.
#[test]
fn test_validate_finalizers_update() {
    /// (case, old finalizers, new finalizers, deleting, expected error)
    type Case<'a> = (&'a str, &'a [&'a str], &'a [&'a str], bool, Option<&'a str>);
    let cases: [Case; 4] = [
        (
            "invalid adding finalizers",
            &["x/a"],
            &["x/a", "y/b"],
            true,
            Some("y/b"),
        ),
        (
            "invalid changing finalizers",
            &["x/a"],
            &["x/b"],
            true,
            Some("x/b"),
        ),
        (
            "valid removing finalizers",
            &["x/a", "y/b"],
            &["x/a"],
            true,
            None,
        ),
        (
            "valid adding finalizers for objects not being deleted",
            &["x/a"],
            &["x/a", "y/b"],
            false,
            None,
        ),
    ];
    for (case, old, new, deleting, expected) in cases {
        let mut store = empty_store();
        create(&mut store, "test", old);
        if deleting {
            store
                .delete(
                    "test",
                    &DeleteOptions::default(),
                    &DeleteStrategy::default(),
                    0,
                )
                .expect("marked");
        }
        let update = Update {
            finalizers: Some(strings(new)),
            ..Update::default()
        };
        match (store.update("test", update), expected) {
            (Ok(_), None) => {}
            (Err(error), Some(needle)) => {
                assert!(error.to_string().contains(needle), "{case}: {error}");
            }
            (result, _) => panic!("{case}: unexpected {result:?}"),
        }
    }
}

/// The rule is a set difference: sending again a finalizer the object has is
/// allowed while it is deleting (`ValidateNoNewFinalizers`).
#[test]
fn resending_a_present_finalizer_while_deleting_is_allowed() {
    let mut store = empty_store();
    create(&mut store, "a", &["x/a", "y/b"]);
    let strategy = DeleteStrategy::default();
    store
        .delete("a", &DeleteOptions::default(), &strategy, 5)
        .expect("marked");
    let update = Update {
        finalizers: Some(strings(&["y/b", "x/a", "x/a"])),
        ..Update::default()
    };
    assert_eq!(store.update("a", update), Ok(UpdateOutcome::Updated));
    let error = store
        .update(
            "a",
            Update {
                finalizers: Some(strings(&["z/c", "x/a", "a/z"])),
                ..Update::default()
            },
        )
        .expect_err("new names");
    assert_eq!(
        error,
        ApiError::NewFinalizersWhileDeleting {
            name: "a".into(),
            added: strings(&["a/z", "z/c"]),
        }
    );
    assert_eq!(error.code(), 422);
}

/// apimachinery `pkg/api/validation/objectmeta_test.go` `TestValidateFinalizersPreventConflictingFinalizers`.
#[test]
fn test_validate_finalizers_prevent_conflicting_finalizers() {
    let mut store = empty_store();
    let error = store
        .create(
            &Arc::from("test"),
            Json::Null,
            strings(&[FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS]),
        )
        .expect_err("conflicting");
    assert!(error.to_string().contains("cannot be both set"), "{error}");
}

/// apiserver `store_test.go` `TestStoreDelete`.
#[test]
fn test_store_delete() {
    let mut store = empty_store();
    let strategy = DeleteStrategy::default();
    let options = DeleteOptions::default();
    assert!(matches!(
        store.delete("foo", &options, &strategy, 0),
        Err(ApiError::NotFound { .. })
    ));
    create(&mut store, "foo", &[]);
    assert_eq!(
        store.delete("foo", &options, &strategy, 0),
        Ok(DeleteOutcome::Deleted)
    );
    assert!(store.meta("foo").is_none(), "get after delete is NotFound");
}

/// apiserver `store_test.go` `TestStoreUpdate`: NotFound, Conflict on an
/// out-of-date resourceVersion, then a normal update.
#[test]
fn test_store_update() {
    let mut store = empty_store();
    let update_b = |version| Update {
        spec: Some(node("machine2")),
        resource_version: version,
        ..Update::default()
    };
    assert!(matches!(
        store.update("foo", update_b(None)),
        Err(ApiError::NotFound { .. })
    ));
    create(&mut store, "foo", &[]);
    let current = version(&store, "foo");
    let out_of_date = store.update("foo", update_b(Some(current + 7)));
    let conflict = out_of_date.expect_err("stale version");
    assert_eq!(conflict.code(), 409);
    assert!(conflict.to_string().ends_with(OPTIMISTIC_LOCK_ERROR));
    assert_eq!(
        store.update("foo", update_b(Some(current))),
        Ok(UpdateOutcome::Updated)
    );
    assert_eq!(store.observed.get("foo"), Some(&node("machine2")));
    assert!(version(&store, "foo") > current);
}

/// apiserver `store_test.go` `TestNoOpUpdates`: an update that changes
/// nothing is not written, so the resourceVersion stays.
#[test]
fn test_no_op_updates() {
    let mut store = empty_store();
    create(&mut store, "foo", &[]);
    let before = store.meta("foo").expect("created");
    let update = Update {
        spec: Some(node("machine")),
        ..Update::default()
    };
    assert_eq!(store.update("foo", update), Ok(UpdateOutcome::Unchanged));
    assert_eq!(store.meta("foo"), Some(before));
}

/// A spec change bumps the generation; a finalizer change does not.
#[test]
fn generation_follows_the_spec_and_the_start_of_deletion() {
    let mut store = empty_store();
    create(&mut store, "foo", &[]);
    assert_eq!(store.meta("foo").map(|m| m.generation), Some(1));
    let spec = Update {
        spec: Some(node("other")),
        ..Update::default()
    };
    store.update("foo", spec).expect("updated");
    assert_eq!(store.meta("foo").map(|m| m.generation), Some(2));
    let finalizers = Update {
        finalizers: Some(strings(&["x/a"])),
        ..Update::default()
    };
    store.update("foo", finalizers).expect("updated");
    assert_eq!(store.meta("foo").map(|m| m.generation), Some(2));
}

/// The steps and assertions of upstream's two `...StoreHandleFinalizers`
/// tests, with the garbage collector on and off as upstream runs them.
fn assert_store_handles_finalizers() {
    for garbage_collection in [true, false] {
        let strategy = DeleteStrategy {
            garbage_collection,
            ..DeleteStrategy::default()
        };
        let mut store = empty_store();
        create(&mut store, "foo", &["foo.com/x"]);
        let initial = store.meta("foo").expect("created");
        // A delete does not remove an object with a finalizer.
        let outcome = store.delete("foo", &DeleteOptions::default(), &strategy, 42);
        assert_eq!(outcome, Ok(DeleteOutcome::Terminating { written: true }));
        let meta = store.meta("foo").expect("still exists");
        assert_eq!(
            store.terminating.get("foo"),
            Some(&42),
            "deletionTimestamp set"
        );
        assert!(
            meta.generation > initial.generation,
            "deletion increases generation"
        );

        // An update that keeps the finalizer keeps the object.
        let keep = Update {
            finalizers: Some(strings(&["foo.com/x"])),
            spec: Some(node("machine")),
            resource_version: Some(meta.resource_version),
            ..Update::default()
        };
        store.update("foo", keep).expect("updated");
        let meta = store
            .meta("foo")
            .expect("still exists: it still has a finalizer");

        // The update that removes the last finalizer deletes it.
        let last = Update {
            finalizers: Some(Vec::new()),
            spec: Some(node("anothermachine")),
            resource_version: Some(meta.resource_version),
            ..Update::default()
        };
        assert_eq!(store.update("foo", last), Ok(UpdateOutcome::Deleted));
        assert!(store.meta("foo").is_none(), "removed with its finalizer");
        assert!(!store.observed.contains("foo"));
    }
}

/// apiserver `store_test.go` `TestNonGracefulStoreHandleFinalizers`.
#[test]
fn test_non_graceful_store_handle_finalizers() {
    assert_store_handles_finalizers();
}

/// apiserver `store_test.go` `TestGracefulStoreHandleFinalizers`: a pod
/// deleted with grace period 0 stays while it has a finalizer, and goes with
/// the update that removes it.
#[test]
fn test_graceful_store_handle_finalizers() {
    for garbage_collection in [true, false] {
        let strategy = DeleteStrategy {
            garbage_collection,
            ..DeleteStrategy::default()
        };
        let mut store = empty_store();
        create_pod(&mut store, "foo", &["foo.com/x"]);
        let outcome = store.delete("foo", &grace(0), &strategy, 42);
        assert_eq!(outcome, Ok(DeleteOutcome::Terminating { written: true }));
        let meta = store.meta("foo").expect("kept: it has a finalizer");
        assert_eq!(meta.deletion_grace_period_seconds, Some(0));
        let keep = Update {
            finalizers: Some(strings(&["foo.com/x"])),
            spec: Some(pod_on("machine")),
            resource_version: Some(meta.resource_version),
            ..Update::default()
        };
        store.update("foo", keep).expect("updated");
        let meta = store.meta("foo").expect("still has a finalizer");
        let last = Update {
            finalizers: Some(Vec::new()),
            spec: Some(pod_on("anothermachine")),
            resource_version: Some(meta.resource_version),
            ..Update::default()
        };
        assert_eq!(store.update("foo", last), Ok(UpdateOutcome::Deleted));
        assert!(store.meta("foo").is_none(), "removed with its finalizer");
    }
}

/// apiserver `store_test.go` `TestStoreGracefulDeleteWithResourceVersion`:
/// grace period 0 and the current resourceVersion delete a pod at once.
#[test]
fn test_store_graceful_delete_with_resource_version() {
    let mut store = empty_store();
    let missing = store.delete("foo", &grace(0), &DeleteStrategy::default(), 0);
    assert!(matches!(missing, Err(ApiError::NotFound { .. })));
    create_pod(&mut store, "foo", &[]);
    let options = DeleteOptions {
        resource_version: Some(version(&store, "foo")),
        ..grace(0)
    };
    let outcome = store.delete("foo", &options, &DeleteStrategy::default(), 0);
    assert_eq!(outcome, Ok(DeleteOutcome::Deleted));
    assert!(store.meta("foo").is_none());
}

/// A scheduled pod deleted with its default grace stays, terminating, with
/// deletionTimestamp at the end of the grace period and a new generation;
/// a second delete changes nothing; the kubelet's delete with grace 0 removes
/// it (`BeforeDelete`, `updateForGracefulDeletionAndFinalizers`).
#[test]
fn a_running_pod_terminates_for_its_grace_period() {
    let mut store = empty_store();
    create_pod(&mut store, "web-0", &[]);
    let strategy = DeleteStrategy::default();
    let initial = store.meta("web-0").expect("created");
    let outcome = store.delete("web-0", &DeleteOptions::default(), &strategy, 1_000);
    assert_eq!(outcome, Ok(DeleteOutcome::Terminating { written: true }));
    let meta = store.meta("web-0").expect("terminating");
    assert_eq!(store.terminating.get("web-0"), Some(&31_000));
    assert_eq!(meta.deletion_grace_period_seconds, Some(30));
    assert_eq!(meta.generation, initial.generation + 1);
    let again = store.delete("web-0", &DeleteOptions::default(), &strategy, 2_000);
    assert_eq!(again, Ok(DeleteOutcome::Terminating { written: false }));
    assert_eq!(store.meta("web-0"), Some(meta));
    let kubelet = store.delete("web-0", &grace(0), &strategy, 3_000);
    assert_eq!(kubelet, Ok(DeleteOutcome::Deleted));
}

/// A shorter grace period moves the deletionTimestamp back by the
/// difference, without a new generation (`BeforeDelete`).
#[test]
fn a_shorter_grace_period_moves_the_deletion_timestamp() {
    let mut store = empty_store();
    create_pod(&mut store, "web-0", &["example.com/drain"]);
    let strategy = DeleteStrategy::default();
    store
        .delete("web-0", &DeleteOptions::default(), &strategy, 1_000)
        .expect("terminating");
    let generation = store.meta("web-0").map(|m| m.generation);
    let outcome = store.delete("web-0", &grace(10), &strategy, 5_000);
    assert_eq!(outcome, Ok(DeleteOutcome::Terminating { written: true }));
    assert_eq!(store.terminating.get("web-0"), Some(&11_000));
    assert_eq!(store.meta("web-0").map(|m| m.generation), generation);
    // The kubelet's grace-0 delete leaves it to its finalizer.
    let kubelet = store.delete("web-0", &grace(0), &strategy, 6_000);
    assert_eq!(kubelet, Ok(DeleteOutcome::Terminating { written: true }));
    assert_eq!(store.terminating.get("web-0"), Some(&1_000));
}

/// `ShouldDeleteDuringUpdate`: removing the last finalizer of a pod inside
/// its grace period keeps the pod; the kubelet removes it.
#[test]
fn the_last_finalizer_goes_but_a_pod_in_its_grace_period_stays() {
    let mut store = empty_store();
    create_pod(&mut store, "web-0", &["example.com/drain"]);
    store
        .delete(
            "web-0",
            &DeleteOptions::default(),
            &DeleteStrategy::default(),
            0,
        )
        .expect("terminating");
    let last = Update {
        finalizers: Some(Vec::new()),
        ..Update::default()
    };
    assert_eq!(store.update("web-0", last), Ok(UpdateOutcome::Updated));
    assert!(store.is_terminating("web-0"));
}

/// A pod on no node has nothing to stop: it goes at once (`CheckGracefulDelete`).
#[test]
fn an_unscheduled_pod_goes_at_once() {
    let mut store = empty_store();
    let unscheduled: Json =
        serde_json::from_str(r#"{"apiVersion":"v1","kind":"Pod","spec":{}}"#).expect("a pod");
    store
        .create(&Arc::from("web-0"), unscheduled, Vec::new())
        .expect("created");
    let outcome = store.delete(
        "web-0",
        &DeleteOptions::default(),
        &DeleteStrategy::default(),
        0,
    );
    assert_eq!(outcome, Ok(DeleteOutcome::Deleted));
}

/// A second delete of a terminating object changes nothing and succeeds
/// (`markAsDeleting` keeps the earlier deletionTimestamp; no write).
#[test]
fn deleting_a_terminating_object_again_writes_nothing() {
    let mut store = empty_store();
    create(&mut store, "foo", &["foo.com/x"]);
    let strategy = DeleteStrategy::default();
    store
        .delete("foo", &DeleteOptions::default(), &strategy, 10)
        .expect("marked");
    let meta = store.meta("foo");
    let again = store.delete("foo", &DeleteOptions::default(), &strategy, 99);
    assert_eq!(again, Ok(DeleteOutcome::Terminating { written: false }));
    assert_eq!(store.meta("foo"), meta);
    assert_eq!(
        store.terminating.get("foo"),
        Some(&10),
        "the earlier timestamp stays"
    );
}

/// apiserver `store_test.go` `TestMarkAsDeleting`. (Upstream compares a
/// value with a pointer, so its assertion can never fail; this checks what
/// it means to: an unset timestamp becomes now, an earlier one stays.)
#[test]
fn test_mark_as_deleting() {
    let mut store = empty_store();
    create(&mut store, "rs", &["x/a"]);
    assert!(store.mark_terminating("rs", 100), "unset: set to now");
    assert_eq!(store.terminating.get("rs"), Some(&100));
    assert!(!store.mark_terminating("rs", 200), "set to past: kept");
    assert_eq!(store.terminating.get("rs"), Some(&100));
}

const ORPHAN: &str = FINALIZER_ORPHAN_DEPENDENTS;
const FOREGROUND: &str = FINALIZER_DELETE_DEPENDENTS;

fn delete_case(
    existing: &[&str],
    options: DeleteOptions,
    default_policy: GcPolicy,
) -> Option<Vec<String>> {
    let mut store = empty_store();
    create(&mut store, "pod", existing);
    let strategy = DeleteStrategy {
        garbage_collection: true,
        default_policy,
    };
    store
        .delete("pod", &options, &strategy, 1)
        .expect("delete succeeds");
    store.meta("pod").map(|meta| {
        assert_eq!(
            store.terminating.get("pod"),
            Some(&1),
            "deletionTimestamp set"
        );
        assert!(meta.generation > 1, "deletion increases generation");
        store.pending("pod").to_vec()
    })
}

/// apiserver `store_test.go` `TestStoreDeleteWithOrphanDependents`: its 24
/// cases, of which the last eight run twice upstream (with empty and with nil
/// DeleteOptions, which are the same here). `None` means the object was
/// deleted (expectNotFound).
#[test]
fn test_store_delete_with_orphan_dependents() {
    let with_orphan: &[&str] = &["foo.com/x", ORPHAN, "bar.com/y"];
    let others: &[&str] = &["foo.com/x", "bar.com/y"];
    let none: &[&str] = &[];
    let only_orphan: &[&str] = &[ORPHAN];
    let options = |orphan: Option<bool>| DeleteOptions {
        orphan_dependents: orphan,
        ..DeleteOptions::default()
    };
    let default = GcPolicy::DeleteDependents;
    let orphan = GcPolicy::OrphanDependents;
    type Case<'a> = (
        &'a [&'a str],
        DeleteOptions,
        GcPolicy,
        Option<&'a [&'a str]>,
    );
    let cases: Vec<Case> = vec![
        // OrphanDependents = true
        (
            with_orphan,
            options(Some(true)),
            default,
            Some(&["foo.com/x", ORPHAN, "bar.com/y"]),
        ),
        (
            others,
            options(Some(true)),
            default,
            Some(&["foo.com/x", "bar.com/y", ORPHAN]),
        ),
        (none, options(Some(true)), default, Some(&[ORPHAN])),
        (only_orphan, options(Some(true)), default, Some(&[ORPHAN])),
        // OrphanDependents = false wins over an orphaning strategy
        (
            with_orphan,
            options(Some(false)),
            orphan,
            Some(&["foo.com/x", "bar.com/y"]),
        ),
        (
            others,
            options(Some(false)),
            orphan,
            Some(&["foo.com/x", "bar.com/y"]),
        ),
        (none, options(Some(false)), orphan, None),
        (only_orphan, options(Some(false)), orphan, None),
        // OrphanDependents unset: an existing orphan finalizer wins over the strategy
        (
            with_orphan,
            options(None),
            default,
            Some(&["foo.com/x", ORPHAN, "bar.com/y"]),
        ),
        (
            with_orphan,
            options(None),
            orphan,
            Some(&["foo.com/x", ORPHAN, "bar.com/y"]),
        ),
        (
            others,
            options(None),
            default,
            Some(&["foo.com/x", "bar.com/y"]),
        ),
        (
            others,
            options(None),
            orphan,
            Some(&["foo.com/x", "bar.com/y", ORPHAN]),
        ),
        (none, options(None), default, None),
        (none, options(None), orphan, Some(&[ORPHAN])),
        (only_orphan, options(None), default, Some(&[ORPHAN])),
        (only_orphan, options(None), orphan, Some(&[ORPHAN])),
    ];
    for (i, (existing, options, policy, expected)) in cases.into_iter().enumerate() {
        let got = delete_case(existing, options, policy);
        assert_eq!(got, expected.map(strings), "pod{}", i + 1);
    }
}

/// apiserver `store_test.go` `TestStoreDeletionPropagation`: all 24 cases.
#[test]
fn test_store_deletion_propagation() {
    use PropagationPolicy::{Background, Foreground, Orphan};
    let policy = |p: Option<PropagationPolicy>| DeleteOptions {
        propagation_policy: p,
        ..DeleteOptions::default()
    };
    let default = GcPolicy::DeleteDependents;
    let orphan = GcPolicy::OrphanDependents;
    type Case<'a> = (
        &'a [&'a str],
        Option<PropagationPolicy>,
        GcPolicy,
        Option<&'a [&'a str]>,
    );
    let cases: Vec<Case> = vec![
        (&[], Some(Foreground), default, Some(&[FOREGROUND])),
        (&[], Some(Foreground), orphan, Some(&[FOREGROUND])),
        (&[], Some(Background), default, None),
        (&[], Some(Background), orphan, None),
        (&[], Some(Orphan), default, Some(&[ORPHAN])),
        (&[], Some(Orphan), orphan, Some(&[ORPHAN])),
        (&[], None, default, None),
        (&[], None, orphan, Some(&[ORPHAN])),
        (&[ORPHAN], Some(Foreground), default, Some(&[FOREGROUND])),
        (&[ORPHAN], Some(Foreground), orphan, Some(&[FOREGROUND])),
        (&[ORPHAN], Some(Background), default, None),
        (&[ORPHAN], Some(Background), orphan, None),
        (&[ORPHAN], Some(Orphan), default, Some(&[ORPHAN])),
        (&[ORPHAN], Some(Orphan), orphan, Some(&[ORPHAN])),
        (&[ORPHAN], None, default, Some(&[ORPHAN])),
        (&[ORPHAN], None, orphan, Some(&[ORPHAN])),
        (
            &[FOREGROUND],
            Some(Foreground),
            default,
            Some(&[FOREGROUND]),
        ),
        (&[FOREGROUND], Some(Foreground), orphan, Some(&[FOREGROUND])),
        (&[FOREGROUND], Some(Background), default, None),
        (&[FOREGROUND], Some(Background), orphan, None),
        (&[FOREGROUND], Some(Orphan), default, Some(&[ORPHAN])),
        (&[FOREGROUND], Some(Orphan), orphan, Some(&[ORPHAN])),
        (&[FOREGROUND], None, default, Some(&[FOREGROUND])),
        (&[FOREGROUND], None, orphan, Some(&[FOREGROUND])),
    ];
    for (i, (existing, propagation, strategy, expected)) in cases.into_iter().enumerate() {
        let got = delete_case(existing, policy(propagation), strategy);
        assert_eq!(
            got,
            expected.map(strings),
            "case {i}: {existing:?} {propagation:?} {strategy:?}"
        );
    }
}

/// apiserver `store_test.go` `TestDeletionFinalizersForGarbageCollection`.
/// Upstream's `fakeStrategy` orphans by default for `extensions/v1beta1`,
/// `apps/v1beta1` and `apps/v1beta2`, and deletes dependents for `apps/v1`.
#[test]
fn test_deletion_finalizers_for_garbage_collection() {
    let cases = [
        (
            "extensions/v1beta1",
            GcPolicy::OrphanDependents,
            true,
            vec![ORPHAN],
        ),
        (
            "apps/v1beta1",
            GcPolicy::OrphanDependents,
            true,
            vec![ORPHAN],
        ),
        (
            "apps/v1beta2",
            GcPolicy::OrphanDependents,
            true,
            vec![ORPHAN],
        ),
        ("apps/v1", GcPolicy::DeleteDependents, false, vec![]),
    ];
    for (version, default_policy, changed, finalizers) in cases {
        let strategy = DeleteStrategy {
            garbage_collection: true,
            default_policy,
        };
        let got = deletion_finalizers_for_gc(&[], &DeleteOptions::default(), &strategy);
        assert_eq!(got.0, changed, "{version}");
        if changed {
            assert_eq!(got.1, strings(&finalizers), "{version}");
        }
    }
}

/// A kind without garbage collection gets no GC finalizers, whatever the options.
#[test]
fn unsupported_or_disabled_garbage_collection_adds_nothing() {
    let foreground = DeleteOptions {
        propagation_policy: Some(PropagationPolicy::Foreground),
        ..DeleteOptions::default()
    };
    assert_eq!(delete_case(&[], foreground, GcPolicy::Unsupported), None);
    let off = DeleteStrategy {
        garbage_collection: false,
        default_policy: GcPolicy::OrphanDependents,
    };
    assert_eq!(
        deletion_finalizers_for_gc(&[], &foreground, &off),
        (false, vec![])
    );
}

#[test]
fn create_of_an_existing_name_is_already_exists_and_a_stale_delete_conflicts() {
    let mut store = empty_store();
    create(&mut store, "a", &[]);
    let again = store.create(&Arc::from("a"), Json::Null, Vec::new());
    let error = again.expect_err("exists");
    assert_eq!(error.to_string(), "object \"a\" already exists");
    assert_eq!(error.code(), 409);
    let stale = DeleteOptions {
        resource_version: Some(version(&store, "a") + 1),
        ..DeleteOptions::default()
    };
    let conflict = store.delete("a", &stale, &DeleteStrategy::default(), 0);
    assert!(matches!(conflict, Err(ApiError::Conflict { .. })));
    assert!(store.meta("a").is_some(), "nothing deleted");
}

#[test]
fn every_write_takes_the_next_resource_version_and_a_new_name_a_new_uid() {
    let mut store = empty_store();
    create(&mut store, "a", &[]);
    create(&mut store, "b", &[]);
    let (a, b) = (store.meta("a").expect("a"), store.meta("b").expect("b"));
    assert!(b.resource_version > a.resource_version);
    store
        .delete(
            "a",
            &DeleteOptions::default(),
            &DeleteStrategy::default(),
            0,
        )
        .expect("deleted");
    create(&mut store, "a", &[]);
    let again = store.meta("a").expect("re-created");
    assert_ne!(again.uid, a.uid, "a re-created name is a new object");
    assert!(again.resource_version > b.resource_version);
}
