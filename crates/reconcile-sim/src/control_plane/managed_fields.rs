//! Managed fields: which field manager owns which fields of an object.
//! Start at [`ManagedFields`].
//!
//! Follows structured-merge-diff's `fieldpath` package (`Path`,
//! `PathElement`, `Set`, `ManagedFields`) and the apiserver's manager
//! identity (`k8s.io/apimachinery/pkg/util/managedfields/internal`:
//! `BuildManagerIdentifier`, `printManager`, `NewConflictError`).
//!
//! # Guarantees
//! - A path prints as upstream's `Path.String()`: `.spec.replicas`,
//!   `.spec.containers[name="nginx"].image`.
//! - A manager is a name and an operation: the same name applying and
//!   updating is two managers, as upstream's identifier makes it.
//! - A conflict's message is `NewConflictError`'s, word for word.
//!
//! # Caveats
//! - No subresource managers and no timestamps (`Time`): an identifier
//!   never holds a time upstream either.

use std::fmt;
use std::sync::Arc;

/// One step of a path: a field of a map, or the item of a keyed list
/// (`x-kubernetes-list-map-keys`) named by its keys.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PathElement {
    Field(Box<str>),
    /// Each key field's name and its value as JSON text, sorted by name.
    Key(Box<[(Box<str>, Box<str>)]>),
}

impl fmt::Display for PathElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(keys) => {
                let keys: Vec<String> = keys.iter().map(|(k, v)| format!("{k}={v}")).collect();
                write!(f, "[{}]", keys.join(","))
            }
        }
    }
}

/// A path to a field, from the object's root.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldPath(pub Vec<PathElement>);

impl FieldPath {
    /// The path of `names`, one field each.
    pub fn of(names: &[&str]) -> Self {
        Self(
            names
                .iter()
                .map(|n| PathElement::Field((*n).into()))
                .collect(),
        )
    }

    /// This path with `element` after it.
    pub fn child(&self, element: PathElement) -> Self {
        let mut elements = self.0.clone();
        elements.push(element);
        Self(elements)
    }

    /// Whether `self` is `other` or lies under it.
    pub fn starts_with(&self, other: &FieldPath) -> bool {
        self.0.starts_with(&other.0)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|e| write!(f, "{e}"))
    }
}

/// A set of paths, as `fieldpath.Set` holds them: each member named. A
/// sorted list, not a `BTreeSet`: the simulation module's size budget.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSet(Vec<FieldPath>);

impl FieldSet {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn insert(&mut self, path: FieldPath) {
        if let Err(at) = self.0.binary_search(&path) {
            self.0.insert(at, path);
        }
    }

    pub fn contains(&self, path: &FieldPath) -> bool {
        self.0.binary_search(path).is_ok()
    }

    pub fn union(&self, other: &FieldSet) -> FieldSet {
        let mut out = self.clone();
        for path in &other.0 {
            out.insert(path.clone());
        }
        out
    }

    pub fn intersection(&self, other: &FieldSet) -> FieldSet {
        self.filtered(|path| other.contains(path))
    }

    pub fn difference(&self, other: &FieldSet) -> FieldSet {
        self.filtered(|path| !other.contains(path))
    }

    fn filtered(&self, keep: impl Fn(&FieldPath) -> bool) -> FieldSet {
        FieldSet(self.0.iter().filter(|p| keep(p)).cloned().collect())
    }

    /// Whether a member lies at or under `path`.
    pub fn has_under(&self, path: &FieldPath) -> bool {
        let at = self.0.partition_point(|p| p < path);
        self.0.get(at).is_some_and(|p| p.starts_with(path))
    }

    pub fn iter(&self) -> impl Iterator<Item = &FieldPath> {
        self.0.iter()
    }
}

/// How a manager wrote: server-side apply, or any other write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    Apply,
    Update,
}

/// A field manager as the apiserver identifies it: its name and operation.
/// An updater also carries the apiVersion it wrote (`BuildManagerIdentifier`
/// drops it for appliers only).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Manager {
    pub name: Arc<str>,
    pub operation: Operation,
    pub api_version: Arc<str>,
}

impl Manager {
    pub fn apply(name: &str) -> Self {
        Self {
            name: Arc::from(name),
            operation: Operation::Apply,
            api_version: Arc::from(""),
        }
    }

    pub fn update(name: &str, api_version: &str) -> Self {
        Self {
            name: Arc::from(name),
            operation: Operation::Update,
            api_version: Arc::from(api_version),
        }
    }
}

/// `printManager`: `"name"` for an applier, `"name" using apps/v1` for an
/// updater.
impl fmt::Display for Manager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.operation {
            Operation::Apply => write!(f, "{:?}", self.name),
            Operation::Update => write!(f, "{:?} using {}", self.name, self.api_version),
        }
    }
}

/// One manager's fields (`metadata.managedFields[i]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagedFieldsEntry {
    pub manager: Manager,
    pub fields: FieldSet,
}

/// Every manager's fields of one object, sorted by manager. Cheap to clone:
/// the informer's cache copies metadata on every event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ManagedFields(Arc<Vec<ManagedFieldsEntry>>);

impl ManagedFields {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn entries(&self) -> &[ManagedFieldsEntry] {
        &self.0
    }

    /// The fields `manager` owns; empty when it owns none.
    pub fn fields_of(&self, manager: &Manager) -> Option<&FieldSet> {
        self.0
            .iter()
            .find(|e| e.manager == *manager)
            .map(|e| &e.fields)
    }

    /// `managers[manager] = fields`; a manager left with no field is dropped,
    /// as `update` drops empty sets.
    pub fn set(&mut self, manager: &Manager, fields: FieldSet) {
        let entries = Arc::make_mut(&mut self.0);
        entries.retain(|e| e.manager != *manager);
        if !fields.is_empty() {
            let at = entries.partition_point(|e| e.manager < *manager);
            let entry = ManagedFieldsEntry {
                manager: manager.clone(),
                fields,
            };
            entries.insert(at, entry);
        }
    }

    /// Every manager's fields together.
    pub fn all_fields(&self) -> FieldSet {
        self.0
            .iter()
            .fold(FieldSet::default(), |all, e| all.union(&e.fields))
    }
}

/// A field an apply would take from another manager (`merge.Conflict`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Conflict {
    pub manager: Manager,
    pub path: FieldPath,
}

/// `getConflictMessage` in `internal/conflict.go`: one conflict on one
/// line; several grouped by manager, managers sorted. `conflicts` come
/// sorted by manager, then path, as [`ManagedFields`] holds them.
pub fn conflict_message(conflicts: &[Conflict]) -> String {
    if let [only] = conflicts {
        return format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            only.manager, only.path
        );
    }
    let mut lines: Vec<String> = Vec::new();
    let mut last: Option<&Manager> = None;
    for conflict in conflicts {
        if last != Some(&conflict.manager) {
            lines.push(format!("conflicts with {}:", conflict.manager));
            last = Some(&conflict.manager);
        }
        lines.push(format!("- {}", conflict.path));
    }
    format!(
        "Apply failed with {} conflicts: {}",
        conflicts.len(),
        lines.join("\n")
    )
}
