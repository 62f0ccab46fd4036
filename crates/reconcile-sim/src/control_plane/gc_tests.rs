//! Tests of the garbage collector's graph and decisions. Those ported from
//! kubernetes `pkg/controller/garbagecollector/garbagecollector_test.go`
//! (and `test/integration/garbagecollector/garbage_collector_test.go`) name
//! their source; the rest check one branch of `attemptToDeleteItem` each.

use std::sync::Arc;

use reconcile_core::json::Json;
use reconcile_core::model::Resources;

use super::*;
use crate::ownership::OwnerReference;
use crate::world::ObjectMeta;

fn obj(name: &str) -> ObjectKey {
    ObjectKey::Object(Arc::from(name))
}

fn owned_by(owners: &[(&ObjectKey, u64, bool)]) -> OwnerRefs {
    OwnerRefs::new(
        owners
            .iter()
            .map(|(owner, uid, block)| OwnerReference {
                owner: (*owner).clone(),
                uid: *uid,
                controller: false,
                block_owner_deletion: *block,
            })
            .collect(),
    )
}

fn state(uid: u64, owners: OwnerRefs, finalizers: &[&str], deleting: bool) -> ObjectState {
    ObjectState {
        spec: Json::Null,
        finalizers: finalizers.iter().map(|f| (*f).to_owned()).collect(),
        deletion_timestamp: deleting.then_some(1),
        meta: ObjectMeta {
            uid,
            resource_version: uid,
            generation: 1,
            owner_references: owners,
            deletion_grace_period_seconds: None,
            managed_fields: Default::default(),
        },
    }
}

/// The delete of the item with uid and resourceVersion 2.
fn delete_item(propagation: PropagationPolicy) -> Step {
    Step::Delete {
        propagation,
        resource_version: 2,
        unblock: false,
    }
}

/// An owner without owners of its own, being deleted with `finalizer`.
fn owner_deleting_with(uid: u64, finalizer: &str) -> ObjectState {
    state(uid, OwnerRefs::default(), &[finalizer], true)
}

/// One watch event: the object after it, `None` for a delete.
type Event = (ObjectKey, Option<ObjectState>);

/// A store and a graph that has seen every object of it, in order.
fn cluster(objects: Vec<(ObjectKey, ObjectState)>) -> (World, Graph) {
    let mut world = World::new(Resources::new(), None);
    let mut graph = Graph::default();
    for (key, object) in objects {
        graph.observe(&key, Some(&object));
        world.in_key_space(&key, |space, name| space.put_object(name, object));
    }
    (world, graph)
}

/// `garbagecollector_test.go` `TestAttemptToDeleteItem`: a pod whose owner
/// is not found is deleted (background: it has no propagation finalizer).
#[test]
fn test_attempt_to_delete_item() {
    let owner = obj("owner1");
    let pod = obj("ToBeDeletedPod");
    let (world, graph) = cluster(vec![(
        pod.clone(),
        state(456, owned_by(&[(&owner, 123, false)]), &[], false),
    )]);
    assert_eq!(
        attempt_to_delete_item(&world, &graph, &pod),
        Step::Delete {
            propagation: PropagationPolicy::Background,
            resource_version: 456,
            unblock: false,
        }
    );
}

/// `garbagecollector_test.go` `TestProcessEvent`: the graph stays
/// consistent (every dependent lists its owner, every owner its dependents)
/// whatever order the events come in; a delete queues the dependents.
#[test]
fn test_process_event() {
    let key = |uid: u64| obj(&uid.to_string());
    let add = |uid: u64, owners: &[u64]| {
        let keys: Vec<ObjectKey> = owners.iter().map(|o| key(*o)).collect();
        let refs: Vec<(&ObjectKey, u64, bool)> = keys
            .iter()
            .zip(owners)
            .map(|(k, o)| (k, *o, false))
            .collect();
        (key(uid), Some(state(uid, owned_by(&refs), &[], false)))
    };
    let scenarios: Vec<(&str, Vec<Event>)> = vec![
        ("test1", vec![add(1, &[]), add(2, &[1]), add(3, &[1, 2])]),
        (
            "test2",
            vec![
                add(1, &[]),
                add(2, &[1]),
                add(3, &[1, 2]),
                add(4, &[2]),
                (key(2), None),
            ],
        ),
        (
            "test3",
            vec![
                add(1, &[]),
                add(2, &[1]),
                add(3, &[1, 2]),
                add(4, &[3]),
                add(2, &[4]),
            ],
        ),
        (
            "reverse test2",
            vec![
                add(4, &[2]),
                add(3, &[1, 2]),
                add(2, &[1]),
                add(1, &[]),
                (key(2), None),
            ],
        ),
    ];
    for (name, events) in scenarios {
        let mut graph = Graph::default();
        let mut last = Vec::new();
        for (k, event) in &events {
            last = graph.observe(k, event.as_ref());
            for (owner_key, owner) in &graph.nodes {
                for dependent in graph.dependents(owner.uid, false) {
                    let refs = graph.nodes[&dependent].owners.as_slice();
                    assert!(refs.iter().any(|r| &r.owner == owner_key), "{name}");
                }
            }
        }
        if events.last().is_some_and(|(_, e)| e.is_none()) {
            assert!(
                !graph.nodes.contains_key(&key(2)),
                "{name}: the node is gone"
            );
            let queued: Vec<_> = last.into_iter().map(|(_, k)| k).collect();
            assert_eq!(
                queued,
                vec![key(3), key(4)],
                "{name}: its dependents are queued"
            );
        }
    }
}

#[test]
fn an_item_with_a_solid_owner_stays_and_loses_only_its_dangling_references() {
    let (owner, gone, item) = (obj("owner"), obj("gone"), obj("item"));
    let only_solid = owned_by(&[(&owner, 1, true)]);
    let both = owned_by(&[(&owner, 1, true), (&gone, 9, false)]);
    for (refs, expected) in [
        (only_solid, Step::Nothing),
        (both, Step::RemoveOwnerReferences(vec![9])),
    ] {
        let (world, graph) = cluster(vec![
            (owner.clone(), state(1, OwnerRefs::default(), &[], false)),
            (item.clone(), state(2, refs, &[], false)),
        ]);
        assert_eq!(attempt_to_delete_item(&world, &graph, &item), expected);
    }
}

/// `test/integration/garbagecollector` `TestSolidOwnerDoesNotBlockWaitingOwner`:
/// a dependent with a solid owner drops its reference to the owner waiting
/// for it, instead of being deleted.
#[test]
fn test_solid_owner_does_not_block_waiting_owner() {
    let (solid, waiting, item) = (obj("solid"), obj("waiting"), obj("item"));
    let refs = owned_by(&[(&solid, 1, true), (&waiting, 2, true)]);
    let (world, graph) = cluster(vec![
        (solid.clone(), state(1, OwnerRefs::default(), &[], false)),
        (
            waiting.clone(),
            owner_deleting_with(2, FINALIZER_DELETE_DEPENDENTS),
        ),
        (item.clone(), state(3, refs, &[], false)),
    ]);
    assert_eq!(
        attempt_to_delete_item(&world, &graph, &item),
        Step::RemoveOwnerReferences(vec![2])
    );
}

#[test]
fn a_dependent_of_a_waiting_owner_goes_in_the_foreground_only_with_dependents_of_its_own() {
    let (owner, item, grandchild) = (obj("owner"), obj("item"), obj("grandchild"));
    let mut objects = vec![
        (
            owner.clone(),
            owner_deleting_with(1, FINALIZER_DELETE_DEPENDENTS),
        ),
        (
            item.clone(),
            state(2, owned_by(&[(&owner, 1, true)]), &[], false),
        ),
    ];
    let (world, graph) = cluster(objects.clone());
    let background = delete_item(PropagationPolicy::Background);
    assert_eq!(attempt_to_delete_item(&world, &graph, &item), background);
    objects.push((
        grandchild,
        state(3, owned_by(&[(&item, 2, true)]), &[], false),
    ));
    let (world, graph) = cluster(objects);
    let foreground = delete_item(PropagationPolicy::Foreground);
    assert_eq!(attempt_to_delete_item(&world, &graph, &item), foreground);
}

/// The decision on item 2, whose one owner is gone.
fn ownerless_item(finalizers: &[&str], deleting: bool) -> Step {
    let (gone, item) = (obj("gone"), obj("item"));
    let refs = owned_by(&[(&gone, 1, false)]);
    let (world, graph) = cluster(vec![(item.clone(), state(2, refs, finalizers, deleting))]);
    attempt_to_delete_item(&world, &graph, &item)
}

#[test]
fn an_ownerless_item_is_deleted_with_the_propagation_its_finalizers_ask_for() {
    use PropagationPolicy::{Background, Foreground, Orphan};
    assert_eq!(ownerless_item(&[], false), delete_item(Background));
    let orphan = ownerless_item(&[FINALIZER_ORPHAN_DEPENDENTS], false);
    assert_eq!(orphan, delete_item(Orphan));
    let foreground = ownerless_item(&[FINALIZER_DELETE_DEPENDENTS], false);
    assert_eq!(foreground, delete_item(Foreground));
    // Being deleted is a one-way trip: it waits for its final deletion.
    assert_eq!(ownerless_item(&["x/y"], true), Step::Nothing);
}

/// `test/integration/garbagecollector` `TestBlockingOwnerRefDoesBlock` and
/// `TestNonBlockingOwnerRefDoesNotBlock`: an owner deleting its dependents
/// waits only for those whose reference blocks.
#[test]
fn test_blocking_owner_ref_does_block_and_a_non_blocking_one_does_not() {
    let (owner, dependent) = (obj("owner"), ObjectKey::the_custom_resource());
    for (block, expected) in [
        (true, Step::Enqueue(vec![ObjectKey::the_custom_resource()])),
        (false, Step::RemoveFinalizer(FINALIZER_DELETE_DEPENDENTS)),
    ] {
        let (world, graph) = cluster(vec![
            (
                owner.clone(),
                owner_deleting_with(1, FINALIZER_DELETE_DEPENDENTS),
            ),
            (
                dependent.clone(),
                state(2, owned_by(&[(&owner, 1, block)]), &[], false),
            ),
        ]);
        assert_eq!(
            attempt_to_delete_item(&world, &graph, &owner),
            expected,
            "block {block}"
        );
    }
}

#[test]
fn a_deletion_starting_with_a_gc_finalizer_queues_work_once() {
    let (owner, dependent) = (obj("owner"), obj("dependent"));
    let mut graph = Graph::default();
    graph.observe(&owner, Some(&state(1, OwnerRefs::default(), &[], false)));
    graph.observe(
        &dependent,
        Some(&state(2, owned_by(&[(&owner, 1, true)]), &[], false)),
    );
    let orphaning = owner_deleting_with(1, FINALIZER_ORPHAN_DEPENDENTS);
    assert_eq!(
        graph.observe(&owner, Some(&orphaning)),
        vec![(Queue::AttemptToOrphan, owner.clone())]
    );
    assert!(
        graph.observe(&owner, Some(&orphaning)).is_empty(),
        "seen already"
    );
    let foreground = owner_deleting_with(1, FINALIZER_DELETE_DEPENDENTS);
    assert_eq!(
        graph.observe(&owner, Some(&foreground)),
        vec![
            (Queue::AttemptToDelete, dependent.clone()),
            (Queue::AttemptToDelete, owner.clone())
        ]
    );
    // The dependent's blocking reference removed: its owner looks again.
    let unblocked = state(2, OwnerRefs::default(), &[], false);
    assert_eq!(
        graph.observe(&dependent, Some(&unblocked)),
        vec![(Queue::AttemptToDelete, owner)]
    );
}
