//! ownerReferences, and the custom resource's own key space in the store.
//!
//! # Guarantees
//! - Every object the controller manages (in the starting document or
//!   created by it) holds one ownerReference to the custom resource
//!   (`controller: true`, `blockOwnerDeletion: true`), as controller-runtime's
//!   `SetControllerReference` writes it. Objects other actors create hold none.
//! - The references are one shared value ([`OwnerRefs`]): all managed
//!   objects point at the same list, so copying an object's metadata (every
//!   snapshot and cache does) costs a reference count, not a list.
//! - The custom resource lives in a key space of its own ([`ObjectKey`]): an
//!   object may share its name. It takes its uid, resourceVersion and
//!   generation from the same store-wide counter as the objects, so it is
//!   created, updated and deleted by the very verbs of [`crate::apiserver`].
//!
//! # Caveats
//! - The custom resource's spec is the desired document, which the engine
//!   keeps; the store holds its metadata (spec `null`). A spec change still
//!   writes it (new resourceVersion and generation).
//! - No apiVersion, kind or namespace: a reference names a key space and a
//!   name, and the uid tells a re-created owner from the old one.

use std::sync::Arc;

/// The name of a scenario's one custom resource, in its own key space (and
/// the controller's key), unless the scenario lists several.
pub const CUSTOM_RESOURCE: &str = "custom-resource";

/// Which object of the store: a custom resource, or a managed object, by name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ObjectKey {
    CustomResource(Arc<str>),
    Object(Arc<str>),
}

impl ObjectKey {
    /// The custom resource named `name`.
    pub fn custom_resource(name: &str) -> Self {
        ObjectKey::CustomResource(Arc::from(name))
    }

    /// The scenario's one custom resource, when it lists none.
    pub fn the_custom_resource() -> Self {
        Self::custom_resource(CUSTOM_RESOURCE)
    }
}

impl std::fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // A scenario's one custom resource keeps the words it always had.
            ObjectKey::CustomResource(name) if &**name == CUSTOM_RESOURCE => {
                f.write_str("the custom resource")
            }
            ObjectKey::CustomResource(name) => write!(f, "custom resource {name}"),
            ObjectKey::Object(name) => f.write_str(name),
        }
    }
}

/// `metav1.OwnerReference`, the parts the garbage collector reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerReference {
    /// The owner's kind and name.
    pub owner: ObjectKey,
    pub uid: u64,
    pub controller: bool,
    pub block_owner_deletion: bool,
}

/// An object's ownerReferences, shared (see the module's guarantees).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OwnerRefs(Option<Arc<[OwnerReference]>>);

impl OwnerRefs {
    pub fn new(refs: Vec<OwnerReference>) -> Self {
        Self((!refs.is_empty()).then(|| refs.into()))
    }

    /// The controller reference to the custom resource `name` with uid `uid`.
    pub fn controlled_by_custom_resource(name: &str, uid: u64) -> Self {
        Self::new(vec![OwnerReference {
            owner: ObjectKey::custom_resource(name),
            uid,
            controller: true,
            block_owner_deletion: true,
        }])
    }

    pub fn as_slice(&self) -> &[OwnerReference] {
        self.0.as_deref().unwrap_or(&[])
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The uid of the controller reference, if there is one.
    pub fn controller_uid(&self) -> Option<u64> {
        self.as_slice().iter().find(|r| r.controller).map(|r| r.uid)
    }

    /// The custom resource the controller reference names: what
    /// `handler.EnqueueRequestForOwner` with `OnlyControllerOwner()` maps
    /// to its key. It matches the owner's kind and name, not its uid.
    pub fn controlling_custom_resource(&self) -> Option<&Arc<str>> {
        self.as_slice().iter().find_map(|r| match &r.owner {
            ObjectKey::CustomResource(name) if r.controller => Some(name),
            _ => None,
        })
    }

    pub fn refers_to(&self, uid: u64) -> bool {
        self.as_slice().iter().any(|r| r.uid == uid)
    }

    /// Without the references to `uids`: what the garbage collector's patch
    /// (`GenerateDeleteOwnerRefStrategicMergeBytes`) leaves.
    pub fn without(&self, uids: &[u64]) -> Self {
        self.rebuilt(|r| (!uids.contains(&r.uid)).then(|| r.clone()))
    }

    /// Every reference non-blocking: `unblockOwnerReferencesStrategicMergePatch`
    /// (a reference without the field stays without it; here that is `false`).
    pub fn unblocked(&self) -> Self {
        self.rebuilt(|r| {
            Some(OwnerReference {
                block_owner_deletion: false,
                ..r.clone()
            })
        })
    }

    fn rebuilt(&self, each: impl Fn(&OwnerReference) -> Option<OwnerReference>) -> Self {
        Self::new(self.as_slice().iter().filter_map(each).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::World;
    use reconcile_core::json::Json;
    use reconcile_core::model::Resources;

    fn reference(uid: u64, block: bool) -> OwnerReference {
        OwnerReference {
            owner: ObjectKey::Object(Arc::from(format!("owner{uid}"))),
            uid,
            controller: false,
            block_owner_deletion: block,
        }
    }

    /// kubernetes `pkg/controller/garbagecollector/garbagecollector_test.go`
    /// `TestDeleteOwnerRefPatch`: removing the references to 2 and 3 keeps 1.
    #[test]
    fn test_delete_owner_ref_patch() {
        let refs = OwnerRefs::new(vec![
            reference(1, false),
            reference(2, false),
            reference(3, false),
        ]);
        assert_eq!(
            refs.without(&[2, 3]),
            OwnerRefs::new(vec![reference(1, false)])
        );
        assert!(refs.without(&[1, 2, 3]).is_empty());
    }

    /// kubernetes `garbagecollector_test.go` `TestUnblockOwnerReference`:
    /// every reference ends non-blocking, the others unchanged.
    #[test]
    fn test_unblock_owner_reference() {
        let refs = OwnerRefs::new(vec![reference(1, true), reference(2, false)]);
        assert_eq!(
            refs.unblocked(),
            OwnerRefs::new(vec![reference(1, false), reference(2, false)])
        );
    }

    /// controller-runtime `pkg/handler/enqueue_owner.go` with
    /// `OnlyControllerOwner()`: only a reference with `controller: true` to
    /// the owner's kind maps to its key.
    #[test]
    fn only_the_controller_reference_to_the_custom_resource_counts() {
        let to_custom_resource = |controller| OwnerReference {
            owner: ObjectKey::the_custom_resource(),
            uid: 1,
            controller,
            block_owner_deletion: true,
        };
        let controlling = |refs: OwnerRefs| refs.controlling_custom_resource().cloned();
        let named = Some(Arc::from(CUSTOM_RESOURCE));
        let refs = OwnerRefs::controlled_by_custom_resource(CUSTOM_RESOURCE, 1);
        assert_eq!(controlling(refs), named);
        assert_eq!(
            controlling(OwnerRefs::new(vec![to_custom_resource(false)])),
            None
        );
        let other = OwnerReference {
            controller: true,
            ..reference(2, true)
        };
        assert_eq!(controlling(OwnerRefs::new(vec![other.clone()])), None);
        assert_eq!(controlling(OwnerRefs::default()), None);
        let both = OwnerRefs::new(vec![to_custom_resource(false), other]);
        assert_eq!(controlling(both), None);
    }

    #[test]
    fn the_custom_resource_comes_first_and_owns_the_starting_objects() {
        let observed: Resources = [("a", Json::Null), ("custom-resource", Json::Null)]
            .into_iter()
            .map(|(n, s)| (n.to_owned(), s))
            .collect();
        let world = World::with_custom_resource(observed, None);
        let cr = world
            .get(&ObjectKey::the_custom_resource())
            .expect("stored");
        assert_eq!(cr.meta.uid, 1, "created first");
        let a = world.meta("a").expect("a");
        let same_name = world.meta(CUSTOM_RESOURCE).expect("an object of that name");
        assert_eq!((a.uid, same_name.uid), (2, 3), "one counter, name order");
        assert_eq!(
            a.owner_references,
            OwnerRefs::controlled_by_custom_resource(CUSTOM_RESOURCE, 1)
        );
        assert!(world.custom_resource_live(CUSTOM_RESOURCE));
    }
}
