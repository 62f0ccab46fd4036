//! Server-side apply: a config merged into the live object, with managed
//! fields per field manager and conflicts. Start at [`World::apply`].
//!
//! Follows structured-merge-diff's `merge/update.go` (`Updater.Apply`,
//! `Updater.Update`, `update`, `prune`) over the subset in
//! [`crate::typed_value`], and the apiserver's field manager
//! (`k8s.io/apimachinery/pkg/util/managedfields/internal`): the stripped
//! metadata (`stripmeta.go`), the status left out of the main resource, the
//! conflict error (`conflict.go`).
//!
//! # Guarantees
//! - An apply owns exactly the fields its config sets. A field it applied
//!   before and leaves out now is removed, unless another manager owns it.
//!   So `apply` is not a merge patch, which keeps what it leaves out.
//! - An apply that changes a field another manager owns is 409 Conflict,
//!   one cause per field, unless forced. Forced, the field changes hands.
//! - Applying a value equal to the live one never conflicts: both managers
//!   then own the field.
//! - Every other write by a named manager (create, update, patch) records
//!   it as an `Update` manager of the fields it changed, and takes those
//!   fields from everyone else, as `Updater.Update` does.
//! - A write that changes no field and no ownership writes nothing.
//!
//! # Caveats
//! - Tracked: the spec, and a manifest's labels and annotations. Not
//!   tracked: finalizers, ownerReferences and status.
//! - An apply's ownerReferences are set when it creates the object only.
//! - One API version per kind, so no conversion between versions.

use std::sync::Arc;

use reconcile_core::json::Json;

use super::apiserver::{ApiError, Update, UpdateOutcome};
use super::managed_fields::{conflict_message, Conflict, FieldSet, ManagedFields, Manager};
use super::object::{is_manifest, API_VERSION};
use super::ownership::OwnerRefs;
use super::patch::allows_unconditional_update;
use super::typed_value::{compare, merge, remove_items, to_field_set, Comparison, Schema};
use super::world::World;

/// A server-side apply as a client sends it (`PATCH` with
/// `application/apply-patch+yaml`, `fieldManager` and `force`).
#[derive(Debug, Clone, PartialEq)]
pub struct Apply {
    /// The document's value for the object, as an update's spec: a
    /// `{name: spec}` document's spec, or a manifest.
    pub config: Json,
    pub field_manager: Arc<str>,
    pub force: bool,
}

/// `Updater.update`: the managers after `old` became `new`, written by
/// `workflow`. Other managers lose the fields it removed; the fields it
/// added or modified are conflicts, refused unless `force`, and lost.
/// Conflicts come sorted by manager, then path.
pub fn update_managers(
    schema: Schema,
    old: &Json,
    new: &Json,
    managers: &ManagedFields,
    workflow: &Manager,
    force: bool,
) -> Result<(ManagedFields, Comparison), Vec<Conflict>> {
    let comparison = compare(schema, old, new);
    let changed = comparison.modified.union(&comparison.added);
    let mut conflicts = Vec::new();
    let mut after = managers.clone();
    for entry in managers.entries() {
        if entry.manager == *workflow {
            continue;
        }
        let taken = entry.fields.intersection(&changed);
        conflicts.extend(taken.iter().map(|path| Conflict {
            manager: entry.manager.clone(),
            path: path.clone(),
        }));
        let kept = entry
            .fields
            .difference(&taken)
            .difference(&comparison.removed);
        after.set(&entry.manager, kept);
    }
    if !force && !conflicts.is_empty() {
        return Err(conflicts);
    }
    Ok((after, comparison))
}

/// `Updater.Update`: a write that is not an apply. `manager` owns what it
/// changed, besides what it owned and did not remove.
pub fn update(
    schema: Schema,
    live: &Json,
    new: &Json,
    managers: &ManagedFields,
    manager: &Manager,
) -> ManagedFields {
    let Ok((mut after, comparison)) = update_managers(schema, live, new, managers, manager, true)
    else {
        return managers.clone();
    };
    let owned = after.fields_of(manager).cloned().unwrap_or_default();
    let fields = owned
        .difference(&comparison.removed)
        .union(&comparison.modified)
        .union(&comparison.added);
    after.set(manager, fields);
    after
}

/// `Updater.Apply`: `config` merged into `live`, the fields `manager`
/// applied before and no one owns now removed, ownership moved.
pub fn apply(
    schema: Schema,
    live: &Json,
    config: &Json,
    managers: &ManagedFields,
    manager: &Manager,
    force: bool,
) -> Result<(Json, ManagedFields), Vec<Conflict>> {
    let merged = merge(schema, live, config);
    let last = managers.fields_of(manager).cloned();
    let mut with_config = managers.clone();
    with_config.set(manager, to_field_set(schema, config));
    let pruned = match last {
        Some(last) => prune(schema, &merged, &with_config, &last),
        None => merged,
    };
    let (after, _) = update_managers(schema, live, &pruned, &with_config, manager, force)?;
    Ok((pruned, after))
}

/// `Updater.prune`: removes what `last` held that no manager owns now,
/// with everything under it.
fn prune(schema: Schema, merged: &Json, managers: &ManagedFields, last: &FieldSet) -> Json {
    let orphaned = last.difference(&managers.all_fields());
    remove_items(schema, merged, &orphaned)
}

/// How the field manager reads a stored document: its schema, and the
/// object without what `stripmeta.go` strips (apiVersion, kind, name,
/// namespace, the server's metadata) and without status (reset for the
/// main resource).
pub fn tracked(spec: &Json) -> (Schema, Json) {
    if !is_manifest(spec) {
        let object = Json::object(vec![("spec".into(), spec.clone())]);
        return (Schema::Deduced, object);
    }
    let schema = if allows_unconditional_update(spec) {
        Schema::BuiltIn
    } else {
        Schema::Deduced
    };
    let mut members: Vec<(Box<str>, Json)> = Vec::new();
    for (key, value) in spec.as_object().unwrap_or_default() {
        match &**key {
            "apiVersion" | "kind" | "status" => {}
            "metadata" => {
                let kept: Vec<(Box<str>, Json)> = value
                    .as_object()
                    .unwrap_or_default()
                    .iter()
                    .filter(|(k, _)| matches!(&**k, "labels" | "annotations"))
                    .cloned()
                    .collect();
                if !kept.is_empty() {
                    members.push((key.clone(), Json::object(kept)));
                }
            }
            _ => members.push((key.clone(), value.clone())),
        }
    }
    (schema, Json::object(members))
}

/// The stored document of `tracked_value`, with what [`tracked`] left out
/// taken from `base` (the live document, or the config on a create).
fn untracked(base: &Json, tracked_value: &Json) -> Json {
    if !is_manifest(base) {
        return tracked_value.get("spec").cloned().unwrap_or(Json::Null);
    }
    let mut members: Vec<(Box<str>, Json)> = Vec::new();
    let base_members = base.as_object().unwrap_or_default();
    for key in ["apiVersion", "kind"] {
        if let Some(value) = base.get(key) {
            members.push((key.into(), value.clone()));
        }
    }
    let mut metadata: Vec<(Box<str>, Json)> = base
        .get("metadata")
        .and_then(Json::as_object)
        .unwrap_or_default()
        .iter()
        .filter(|(k, _)| !matches!(&**k, "labels" | "annotations"))
        .cloned()
        .collect();
    if let Some(applied) = tracked_value.get("metadata").and_then(Json::as_object) {
        metadata.extend(applied.iter().cloned());
    }
    if !metadata.is_empty() {
        members.push(("metadata".into(), Json::object(metadata)));
    }
    for (key, value) in tracked_value.as_object().unwrap_or_default() {
        if &**key != "metadata" {
            members.push((key.clone(), value.clone()));
        }
    }
    if let Some((key, status)) = base_members.iter().find(|(k, _)| &**k == "status") {
        members.push((key.clone(), status.clone()));
    }
    Json::object(members)
}

/// The least config that names the object of `spec`: nothing for a
/// `{name: spec}` document's, the type and name for a manifest's. A writer
/// of one field sets it into this.
pub fn skeleton(spec: &Json) -> Json {
    if !is_manifest(spec) {
        return Json::object(Vec::new());
    }
    let mut members: Vec<(Box<str>, Json)> = Vec::new();
    for key in ["apiVersion", "kind"] {
        if let Some(value) = spec.get(key) {
            members.push((key.into(), value.clone()));
        }
    }
    let identity: Vec<(Box<str>, Json)> = spec
        .get("metadata")
        .and_then(Json::as_object)
        .unwrap_or_default()
        .iter()
        .filter(|(k, _)| matches!(&**k, "name" | "namespace"))
        .cloned()
        .collect();
    members.push(("metadata".into(), Json::object(identity)));
    Json::object(members)
}

/// The apiVersion an updater of `spec` writes.
fn api_version(spec: &Json) -> &str {
    spec.get("apiVersion")
        .and_then(Json::as_str)
        .filter(|_| is_manifest(spec))
        .unwrap_or(API_VERSION)
}

/// What an apply did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplyOutcome {
    /// It created the object (201).
    Created,
    /// It changed the object or who owns its fields (200).
    Updated,
    /// It changed nothing (200, nothing written).
    Unchanged,
}

impl World {
    /// PATCH with `application/apply-patch+yaml`: creates the object when it
    /// is missing (`forceAllowCreate`), else merges the config into it. A
    /// conflict is 409 with one cause per field.
    pub fn apply(
        &mut self,
        name: &Arc<str>,
        request: &Apply,
        owners: &OwnerRefs,
    ) -> Result<ApplyOutcome, ApiError> {
        let manager = Manager::apply(&request.field_manager);
        let conflict = |conflicts: Vec<Conflict>| ApiError::ApplyConflict {
            name: name.to_string(),
            message: conflict_message(&conflicts),
            causes: conflicts
                .iter()
                .map(|c| (format!("conflict with {}", c.manager), c.path.to_string()))
                .collect(),
        };
        let Some(state) = self.object(name) else {
            let (schema, config) = tracked(&request.config);
            let empty = Json::object(Vec::new());
            let none = ManagedFields::default();
            let (object, managers) =
                apply(schema, &empty, &config, &none, &manager, request.force).map_err(conflict)?;
            let spec = untracked(&request.config, &object);
            self.create_owned(name, spec, Vec::new(), owners.clone())?;
            self.set_managed_fields(name, managers);
            return Ok(ApplyOutcome::Created);
        };
        let (schema, live) = tracked(&state.spec);
        let (_, config) = tracked(&request.config);
        let (object, managers) = apply(
            schema,
            &live,
            &config,
            &state.meta.managed_fields,
            &manager,
            request.force,
        )
        .map_err(conflict)?;
        let update = Update {
            spec: Some(untracked(&state.spec, &object)),
            resource_version: Some(state.meta.resource_version),
            ..Update::default()
        };
        let outcome = self.update(name, update)?;
        let owners_changed = managers != state.meta.managed_fields;
        self.set_managed_fields(name, managers);
        Ok(match outcome {
            UpdateOutcome::Updated => ApplyOutcome::Updated,
            UpdateOutcome::Unchanged if owners_changed => {
                // `metadata.managedFields` changed: a write of its own.
                self.written(name, false);
                ApplyOutcome::Updated
            }
            UpdateOutcome::Unchanged | UpdateOutcome::Deleted => ApplyOutcome::Unchanged,
        })
    }

    /// Records a write by `manager` that was not an apply (a create, an
    /// update, a patch): `before` is the document it replaced, `None` for a
    /// create. Ownership changes with the fields, not as a write of its own.
    pub fn record_update(&mut self, name: &str, before: Option<&Json>, manager: &str) {
        let Some(after) = self.observed.get(name) else {
            return;
        };
        let (schema, new) = tracked(after);
        let old = before.map_or_else(|| Json::object(Vec::new()), |b| tracked(b).1);
        let manager = Manager::update(manager, api_version(after));
        let Some(meta) = self.meta.get_mut(name) else {
            return;
        };
        meta.managed_fields = update(schema, &old, &new, &meta.managed_fields, &manager);
    }

    fn set_managed_fields(&mut self, name: &str, managers: ManagedFields) {
        if let Some(meta) = self.meta.get_mut(name) {
            meta.managed_fields = managers;
        }
    }
}

#[cfg(test)]
#[path = "apply_tests.rs"]
mod tests;
