//! The simulated cluster as the API server stores it: objects, their
//! finalizers, deletion marks and metadata. The requests that change it, with
//! the API server's rules, are in [`crate::apiserver`].

use std::sync::Arc;

use serde::Serialize;

use super::managed_fields::ManagedFields;
use super::ownership::{ObjectKey, OwnerRefs, CUSTOM_RESOURCE};
use super::sorted::SortedMap;
use super::workqueue::Millis;
use reconcile_core::json::Json;
use reconcile_core::model::{Finalizers, Resources};
use reconcile_core::stable::StableHasher;

/// The objects of the world, as the API server holds them.
///
/// Guarantees: `fingerprint` always equals a hash of the whole state, kept up
/// to date per change, so detecting a repeated state costs nothing per pass.
/// A clone shares every name and spec (see [`Resources`]) and holds no index
/// of its own, so the per-pass snapshots of a simulation copy no text.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct World {
    pub observed: Resources,
    pub finalizers: Finalizers,
    /// Objects being deleted, with the simulated time their deletion began
    /// (metadata.deletionTimestamp).
    #[cfg_attr(feature = "ts", ts(as = "std::collections::BTreeMap<String, Millis>"))]
    pub terminating: SortedMap<String, Millis>,
    /// What the server assigns: uid, resourceVersion, generation. Not part of
    /// the state's equality or fingerprint (versions only ever grow, so no
    /// state would ever repeat).
    #[serde(skip)]
    pub(crate) meta: SortedMap<Arc<str>, ObjectMeta>,
    /// The store's last resourceVersion: every write takes the next one.
    #[serde(skip)]
    pub(crate) last_resource_version: u64,
    #[serde(skip)]
    fingerprint: u64,
    /// The part of `fingerprint` of the objects each custom resource
    /// controls, by its name; `None`'s is the objects no custom resource
    /// controls. Tells whose objects changed without looking at them.
    #[serde(skip)]
    owned_fingerprints: SortedMap<Option<Arc<str>>, u64>,
    /// The custom resource's key space (see [`crate::ownership`]), absent
    /// from a store built without one: its metadata, under its name.
    #[serde(rename = "customResource", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub(crate) custom_resource: Option<Box<World>>,
}

/// One object as a watch event carries it, and as an informer caches it.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectState {
    pub spec: Json,
    pub finalizers: Vec<String>,
    pub deletion_timestamp: Option<Millis>,
    pub meta: ObjectMeta,
}

/// The metadata the API server assigns to an object, and its ownerReferences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectMeta {
    /// Unique over the store's lifetime: a re-created name gets a new uid.
    pub uid: u64,
    /// The store-wide version of the object's last write.
    pub resource_version: u64,
    /// Bumped by every spec change and by the start of deletion.
    pub generation: u64,
    pub owner_references: OwnerRefs,
    /// `metadata.deletionGracePeriodSeconds`: set by a pod's graceful delete
    /// ([`crate::pods`]); `None` for every other deletion.
    pub deletion_grace_period_seconds: Option<i64>,
    /// `metadata.managedFields`: which field manager owns which fields
    /// ([`crate::apply`]).
    pub managed_fields: ManagedFields,
}

/// What happened to an object, as a watch event reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Added,
    Updated,
    Deleted,
}

/// The rule the API server enforces on terminating objects.
pub const NO_NEW_FINALIZERS: &str = "no new finalizers can be added if the object is being deleted";

impl World {
    pub fn new(observed: Resources, finalizers: Option<Finalizers>) -> Self {
        Self::build(observed, finalizers, None, |_| OwnerRefs::default())
    }

    /// A store holding `observed`, created after `custom_resource` (when
    /// given), each object with the references `owners` gives it.
    pub(crate) fn build(
        observed: Resources,
        finalizers: Option<Finalizers>,
        custom_resource: Option<Box<World>>,
        owners: impl Fn(&str) -> OwnerRefs,
    ) -> Self {
        let mut world = Self {
            observed,
            // Entries for objects that do not exist mean nothing to the API server.
            finalizers: Finalizers::new(),
            terminating: SortedMap::new(),
            meta: SortedMap::new(),
            last_resource_version: custom_resource
                .as_ref()
                .map_or(0, |cr| cr.last_resource_version),
            fingerprint: 0,
            owned_fingerprints: SortedMap::new(),
            custom_resource,
        };
        // The starting objects were created one by one, in name order.
        let names: Vec<Arc<str>> = world
            .observed
            .names()
            .filter_map(|name| world.observed.shared_name(name).cloned())
            .collect();
        for name in names {
            world.created(Arc::clone(&name));
            if let Some(meta) = world.meta.get_mut(&name) {
                meta.owner_references = owners(&name);
            }
        }
        if let Some(finalizers) = finalizers {
            for (name, list) in finalizers.iter() {
                if world.observed.contains(name) {
                    world.finalizers.set(name, list.to_vec());
                }
            }
        }
        world.hash_all();
        world
    }

    /// Computes the fingerprints from every object (they were empty).
    fn hash_all(&mut self) {
        let names: Vec<Arc<str>> = self.meta.keys().cloned().collect();
        for name in names {
            let hash = self.object_hash(&name).unwrap_or(0);
            self.fingerprint = self.fingerprint.wrapping_add(hash);
            let owner = self.controlling(&name);
            let sum = self.owned_fingerprints.entry(owner).or_insert(0);
            *sum = sum.wrapping_add(hash);
        }
    }

    /// The metadata of an existing object.
    pub fn meta(&self, name: &str) -> Option<ObjectMeta> {
        self.meta.get(name).cloned()
    }

    /// The whole object, as a watch event would carry it now.
    pub fn object(&self, name: &str) -> Option<ObjectState> {
        Some(ObjectState {
            spec: self.observed.get(name)?.clone(),
            finalizers: self.pending(name).to_vec(),
            deletion_timestamp: self.terminating.get(name).copied(),
            meta: self.meta(name)?,
        })
    }

    /// Stores `state` as it is, with its versions: an informer's cache
    /// taking a watch event, never a write of its own.
    pub(crate) fn put_object(&mut self, name: &str, state: ObjectState) {
        let shared: Arc<str> = self
            .observed
            .shared_name(name)
            .cloned()
            .unwrap_or_else(|| Arc::from(name));
        self.rehashing(name, |world| {
            world.observed.insert(Arc::clone(&shared), state.spec);
            if state.finalizers.is_empty() {
                world.finalizers.remove(name);
            } else {
                world.finalizers.set(name, state.finalizers);
            }
            match state.deletion_timestamp {
                Some(at) => world.terminating.insert(name.to_owned(), at),
                None => world.terminating.remove(name),
            };
            world.meta.insert(shared, state.meta);
        });
    }

    /// Removes an object as an informer's cache takes its delete.
    pub(crate) fn forget_object(&mut self, name: &str) {
        self.rehashing(name, |world| {
            world.observed.remove(name);
            world.finalizers.remove(name);
            world.terminating.remove(name);
            world.meta.remove(name);
        });
    }

    /// The next resourceVersion, which the write being made takes.
    pub(crate) fn next_resource_version(&mut self) -> u64 {
        self.last_resource_version += 1;
        self.last_resource_version
    }

    /// Metadata for a new object: generation 1, and the uid is its first resourceVersion.
    pub(crate) fn created(&mut self, name: Arc<str>) {
        let version = self.next_resource_version();
        let meta = ObjectMeta {
            uid: version,
            resource_version: version,
            generation: 1,
            owner_references: OwnerRefs::default(),
            deletion_grace_period_seconds: None,
            managed_fields: ManagedFields::default(),
        };
        self.meta.insert(name, meta);
    }

    /// The state's hash, the custom resource's included.
    pub fn fingerprint(&self) -> u64 {
        let custom_resource = self
            .custom_resource
            .as_ref()
            .map_or(0, |cr| cr.fingerprint());
        self.fingerprint ^ custom_resource.rotate_left(29)
    }

    pub fn pending(&self, name: &str) -> &[String] {
        self.finalizers.pending(name)
    }

    pub fn is_terminating(&self, name: &str) -> bool {
        self.terminating.contains_key(name)
    }

    /// Writes a spec (create or update). Returns the change it makes, if any.
    pub fn write_spec(&mut self, name: &str, spec: Json) -> Option<Change> {
        match self.observed.shared_name(name) {
            Some(shared) => {
                let shared = Arc::clone(shared);
                self.write_spec_shared(&shared, spec)
            }
            None => self.write_spec_shared(&Arc::from(name), spec),
        }
    }

    /// [`World::write_spec`] with a shared name, which a new object keeps without copying.
    pub(crate) fn write_spec_shared(&mut self, name: &Arc<str>, mut spec: Json) -> Option<Change> {
        // Every write passes the API server's defaulting on its way in.
        crate::defaulting::apply_defaults(&mut spec);
        let change = match self.observed.get(name) {
            Some(current) if *current == spec => return None,
            Some(_) => Change::Updated,
            None => Change::Added,
        };
        self.rehashing(name, |world| {
            world.observed.insert(Arc::clone(name), spec);
        });
        match change {
            Change::Added => self.created(Arc::clone(name)),
            _ => self.written(name, true),
        }
        Some(change)
    }

    /// Metadata after a write to an existing object: a new resourceVersion,
    /// and a new generation when the spec (or the deletion mark) changed.
    pub(crate) fn written(&mut self, name: &str, bump_generation: bool) {
        let version = self.next_resource_version();
        if let Some(meta) = self.meta.get_mut(name) {
            meta.resource_version = version;
            meta.generation += u64::from(bump_generation);
        }
    }

    /// Removes an object and everything about it.
    pub fn remove(&mut self, name: &str) -> Option<Change> {
        if !self.observed.contains(name) {
            return None;
        }
        self.forget_object(name);
        // A delete is a write too: its watch event carries a new resourceVersion.
        self.next_resource_version();
        Some(Change::Deleted)
    }

    /// Sets the deletion mark (deletionTimestamp). False if it was already set.
    pub fn mark_terminating(&mut self, name: &str, now: Millis) -> bool {
        if !self.observed.contains(name) || self.terminating.contains_key(name) {
            return false;
        }
        self.rehashing(name, |world| world.terminating.insert(name.to_owned(), now));
        self.written(name, true);
        true
    }

    /// A pod's graceful delete, or its shortening (`BeforeDelete`): the
    /// deletionTimestamp is when the grace period ends. The first one bumps
    /// the generation.
    pub(crate) fn mark_graceful(&mut self, name: &str, deletion_timestamp: Millis, seconds: i64) {
        let first = !self.terminating.contains_key(name);
        self.rehashing(name, |world| {
            world
                .terminating
                .insert(name.to_owned(), deletion_timestamp)
        });
        if let Some(meta) = self.meta.get_mut(name) {
            meta.deletion_grace_period_seconds = Some(seconds);
        }
        self.written(name, first);
    }

    /// Marks the objects that are terminating at the start
    /// ([`crate::SimConfig::terminating`]); one with no finalizer pending is
    /// deleted instead, as the API server would have.
    pub fn start_terminating(&mut self, names: &[String]) {
        for name in names {
            if self.pending(name).is_empty() {
                self.remove(name);
            } else {
                self.mark_terminating(name, 0);
            }
        }
    }

    /// Adds a finalizer, unless the object is being deleted (the API server's rule).
    pub fn add_finalizer(&mut self, name: &str, finalizer: &str) -> Result<bool, &'static str> {
        if !self.observed.contains(name) {
            return Ok(false);
        }
        if self.is_terminating(name) {
            return Err(NO_NEW_FINALIZERS);
        }
        let mut list = self.pending(name).to_vec();
        if list.iter().any(|f| f == finalizer) {
            return Ok(false);
        }
        list.push(finalizer.to_owned());
        self.set_finalizers(name, list);
        Ok(true)
    }

    /// Removes one finalizer entry; true if it was there.
    pub fn remove_finalizer(&mut self, name: &str, finalizer: &str) -> bool {
        let mut list = self.pending(name).to_vec();
        let Some(index) = list.iter().position(|f| f == finalizer) else {
            return false;
        };
        list.remove(index);
        self.set_finalizers(name, list);
        true
    }

    /// Replaces an existing object's finalizer list (a metadata write: no new generation).
    pub(crate) fn set_finalizers(&mut self, name: &str, list: Vec<String>) {
        self.put_finalizers(name, list);
        self.written(name, false);
    }

    /// Sets an object's ownerReferences as part of a larger write, which versions it.
    pub(crate) fn put_owner_references(&mut self, name: &str, owners: OwnerRefs) {
        self.rehashing(name, |world| {
            if let Some(meta) = world.meta.get_mut(name) {
                meta.owner_references = owners;
            }
        });
    }

    /// Replaces the finalizer list as part of a larger write, which versions it.
    pub(crate) fn put_finalizers(&mut self, name: &str, list: Vec<String>) {
        self.rehashing(name, |world| world.finalizers.set(name, list));
    }

    fn object_hash(&self, name: &str) -> Option<u64> {
        let spec = self.observed.get(name)?;
        let mut hasher = StableHasher::default();
        hasher.write(name.as_bytes());
        hasher.write(&spec.stable_hash().to_le_bytes());
        for finalizer in self.pending(name) {
            hasher.write(b"\0");
            hasher.write(finalizer.as_bytes());
        }
        hasher.write(if self.is_terminating(name) {
            b"T"
        } else {
            b"L"
        });
        // Who owns it is part of the state: orphaning changes only that.
        let owners = self.meta.get(name).map(|m| m.owner_references.as_slice());
        for owner in owners.unwrap_or_default() {
            hasher.write(&owner.uid.to_le_bytes());
            hasher.write(&[u8::from(owner.block_owner_deletion)]);
        }
        Some(hasher.finish())
    }

    /// Runs `change`, which touches only the object `name`, and keeps the
    /// fingerprint a commutative sum of per-object hashes: the object's hash
    /// before the change comes out, its hash after goes in.
    fn rehashing<T>(&mut self, name: &str, change: impl FnOnce(&mut Self) -> T) -> T {
        let old = self.object_hash(name).unwrap_or(0);
        let old_owner = self.controlling(name);
        let result = change(self);
        let new = self.object_hash(name).unwrap_or(0);
        self.fingerprint = self.fingerprint.wrapping_sub(old).wrapping_add(new);
        let new_owner = self.controlling(name);
        let owned = &mut self.owned_fingerprints;
        let sum = owned.entry(old_owner).or_insert(0);
        *sum = sum.wrapping_sub(old);
        let sum = owned.entry(new_owner).or_insert(0);
        *sum = sum.wrapping_add(new);
        result
    }

    /// The custom resource `name`'s controller reference names.
    fn controlling(&self, name: &str) -> Option<Arc<str>> {
        let refs = &self.meta.get(name)?.owner_references;
        refs.controlling_custom_resource().cloned()
    }

    /// A hash of what custom resource `name`'s controller lists: the
    /// objects it controls, those no one controls, and itself. Equal
    /// stamps, equal lists (up to a 64-bit collision).
    pub fn owned_stamp(&self, name: &str) -> u64 {
        let of = |key: Option<Arc<str>>| self.owned_fingerprints.get(&key).copied().unwrap_or(0);
        let itself = self
            .custom_resource
            .as_ref()
            .and_then(|space| space.object_hash(name))
            .unwrap_or(0);
        of(Some(Arc::from(name))) ^ of(None).rotate_left(21) ^ itself.rotate_left(42)
    }
}

/// Equal states. The fingerprint follows from the state, so equal states have
/// equal fingerprints: unequal ones settle a comparison without looking at any object.
impl PartialEq for World {
    fn eq(&self, other: &Self) -> bool {
        self.fingerprint() == other.fingerprint()
            && self.observed == other.observed
            && self.finalizers == other.finalizers
            && self.terminating == other.terminating
            && self.custom_resource == other.custom_resource
            && self.owners_equal(other)
    }
}

impl World {
    /// Equal, metadata included: a snapshot of one may stand for the other.
    /// The same objects, metadata included; the custom resource aside.
    pub(crate) fn same_objects(&self, other: &Self) -> bool {
        self.observed == other.observed
            && self.finalizers == other.finalizers
            && self.terminating == other.terminating
            && self.meta == other.meta
    }

    pub(crate) fn same_snapshot(&self, other: &Self) -> bool {
        self == other
            && self.meta == other.meta
            && self.custom_resource.as_ref().map(|cr| &cr.meta)
                == other.custom_resource.as_ref().map(|cr| &cr.meta)
    }

    /// The same ownerReferences on every object (the names are equal already).
    fn owners_equal(&self, other: &Self) -> bool {
        self.meta
            .values()
            .map(|m| &m.owner_references)
            .eq(other.meta.values().map(|m| &m.owner_references))
    }
}

/// The custom resource's key space and the ownerReferences the store starts
/// with (see [`crate::ownership`]).
impl World {
    /// The store a controller starts from: its custom resource, created
    /// first, then the objects it manages, each with a controller reference
    /// to it (one list, shared).
    pub fn with_custom_resource(observed: Resources, finalizers: Option<Finalizers>) -> Self {
        Self::with_custom_resource_named(CUSTOM_RESOURCE, observed, finalizers)
    }

    /// [`World::with_custom_resource`], its custom resource named `name`.
    pub fn with_custom_resource_named(
        name: &str,
        observed: Resources,
        finalizers: Option<Finalizers>,
    ) -> Self {
        let name: Arc<str> = Arc::from(name);
        let mut owners = SortedMap::new();
        for object in observed.names() {
            owners.insert(object.to_owned(), Arc::clone(&name));
        }
        Self::with_custom_resources(&[name], observed, finalizers, &owners)
    }

    /// The store a controller of several custom resources starts from: the
    /// custom resources, created first in the order given, then the objects,
    /// each with a controller reference to its custom resource in `owners`
    /// (by name; one list shared per custom resource).
    pub fn with_custom_resources(
        names: &[Arc<str>],
        observed: Resources,
        finalizers: Option<Finalizers>,
        owners: &SortedMap<String, Arc<str>>,
    ) -> Self {
        let mut custom_resources = World::new(Resources::new(), None);
        let mut refs = SortedMap::new();
        for name in names {
            custom_resources.write_spec(name, Json::Null);
            let uid = custom_resources.meta(name).map_or(0, |meta| meta.uid);
            refs.insert(
                Arc::clone(name),
                OwnerRefs::controlled_by_custom_resource(name, uid),
            );
        }
        World::build(
            observed,
            finalizers,
            Some(Box::new(custom_resources)),
            |object| {
                owners
                    .get(object)
                    .and_then(|owner| refs.get(owner).cloned())
                    .unwrap_or_default()
            },
        )
    }

    /// The references the controller puts on what it creates for the custom
    /// resource `name`: the list its starting objects share (none without it).
    pub fn controller_owner_refs(&self, name: &str) -> OwnerRefs {
        self.custom_resource
            .as_ref()
            .and_then(|space| space.meta(name))
            .map(|meta| OwnerRefs::controlled_by_custom_resource(name, meta.uid))
            .unwrap_or_default()
    }

    /// The names of the custom resources stored, in name order.
    pub fn custom_resource_names(&self) -> impl Iterator<Item = &Arc<str>> {
        self.custom_resource
            .iter()
            .flat_map(|space| space.meta.keys())
    }

    /// What the controller of custom resource `name` lists: the objects
    /// its controller reference names, and those no controller owns (a
    /// stray it may delete). `None` when the store holds no other custom
    /// resource: then that is every object.
    pub fn owned_by_custom_resource(&self, name: &str) -> Option<World> {
        let space = self.custom_resource.as_ref()?;
        if space.meta.keys().all(|other| &**other == name) {
            return None;
        }
        let mut owned = World {
            observed: Resources::new(),
            finalizers: Finalizers::new(),
            terminating: SortedMap::new(),
            meta: SortedMap::new(),
            last_resource_version: self.last_resource_version,
            fingerprint: 0,
            owned_fingerprints: SortedMap::new(),
            custom_resource: self.custom_resource.clone(),
        };
        for (object, meta) in self.meta.iter() {
            let controller = meta.owner_references.controlling_custom_resource();
            if controller.is_some_and(|owner| &**owner != name) {
                continue;
            }
            if let Some(spec) = self.observed.get(object) {
                owned.observed.insert(Arc::clone(object), spec.clone());
            }
            if self.finalizers.has_entry(object) {
                owned
                    .finalizers
                    .set(object, self.finalizers.pending(object).to_vec());
            }
            if let Some(since) = self.terminating.get(&**object) {
                owned.terminating.insert(object.to_string(), *since);
            }
            owned.meta.insert(Arc::clone(object), meta.clone());
        }
        owned.hash_all();
        Some(owned)
    }

    /// The objects that refer to the owner with uid `uid`.
    pub fn names_owned_by(&self, uid: u64) -> impl Iterator<Item = &Arc<str>> {
        self.meta
            .iter()
            .filter(move |(_, meta)| meta.owner_references.refers_to(uid))
            .map(|(name, _)| name)
    }

    /// The object under `key`, as a watch event would carry it now.
    pub fn get(&self, key: &ObjectKey) -> Option<ObjectState> {
        match key {
            ObjectKey::CustomResource(name) => self.custom_resource.as_ref()?.object(name),
            ObjectKey::Object(name) => self.object(name),
        }
    }

    /// The custom resource `name` exists and is not being deleted.
    pub fn custom_resource_live(&self, name: &str) -> bool {
        self.get(&ObjectKey::custom_resource(name))
            .is_some_and(|cr| cr.deletion_timestamp.is_none())
    }

    /// Runs `request` on the key space of `key`, with the name it has
    /// there. The custom resource's space shares the store's resourceVersion
    /// counter, so versions and uids stay unique store-wide.
    pub fn in_key_space<T>(
        &mut self,
        key: &ObjectKey,
        request: impl FnOnce(&mut World, &str) -> T,
    ) -> T {
        match key {
            ObjectKey::Object(name) => request(self, name),
            ObjectKey::CustomResource(name) => {
                let last = self.last_resource_version;
                let space = self
                    .custom_resource
                    .get_or_insert_with(|| Box::new(World::new(Resources::new(), None)));
                space.last_resource_version = last;
                let result = request(space, name);
                self.last_resource_version = space.last_resource_version;
                result
            }
        }
    }
}
