//! The part of structured-merge-diff's `typed` package that apply needs:
//! field sets, comparison, merge and removal of an object's fields.
//! Start at [`Schema`].
//!
//! Follows `typed/tofieldset.go`, `typed/compare.go`, `typed/merge.go`
//! and `typed/remove.go` (sigs.k8s.io/structured-merge-diff, v6). Tested
//! through [`crate::apply`]'s ported merge tests.
//!
//! # The subset
//! - Maps merge field by field.
//! - Lists are atomic: one value, owned and replaced whole.
//! - Except a built-in kind's lists that upstream's OpenAPI declares
//!   `x-kubernetes-list-type: map` ([`list_keys`]): their items merge by
//!   key, each item its own member. A missing key takes its default
//!   (`getAssociativeKeyDefault`): a port's protocol is `"TCP"`.
//! - A free-form spec (a `{name: spec}` document's, or a custom kind's) is
//!   read as SMD's deduced schema: maps granular, lists atomic.
//!
//! # Caveats
//! - A keyed list with an item that lacks every key, or with two items of
//!   one key, is read as atomic here. Upstream refuses the first and
//!   tolerates duplicates item by item.
//! - A merged keyed list keeps the live order, with new items after the
//!   item they follow in the config. Upstream interleaves the same way when
//!   both orders agree.
//! - No sets (`x-kubernetes-list-type: set`), no atomic maps, no unions.

use reconcile_core::json::Json;

use super::managed_fields::{FieldPath, FieldSet, PathElement};

/// How an object's fields are typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    /// A built-in kind: its structs hold named fields; keyed lists per [`list_keys`].
    BuiltIn,
    /// A free-form spec below a named root field: SMD's deduced type.
    Deduced,
}

/// A keyed list's key field and its default, as JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListKey {
    pub name: &'static str,
    pub default: Option<&'static str>,
}

const NAME: &[ListKey] = &[ListKey {
    name: "name",
    default: None,
}];
const CONTAINER_PORT: &[ListKey] = &[
    ListKey {
        name: "containerPort",
        default: None,
    },
    ListKey {
        name: "protocol",
        default: Some("\"TCP\""),
    },
];
const SERVICE_PORT: &[ListKey] = &[
    ListKey {
        name: "port",
        default: None,
    },
    ListKey {
        name: "protocol",
        default: Some("\"TCP\""),
    },
];
const MOUNT_PATH: &[ListKey] = &[ListKey {
    name: "mountPath",
    default: None,
}];

/// The keys of the list at `path` of a built-in kind, from the markers of
/// `k8s.io/api/core/v1/types.go`. `+listType=map` with `+listMapKey`:
/// `PodSpec.Containers`, `InitContainers`, `EphemeralContainers` and
/// `Volumes` by `name`; `Container.Ports` by `containerPort` and `protocol`;
/// `Container.VolumeMounts` by `mountPath`; `ServiceSpec.Ports` by `port`
/// and `protocol`. `Container.Env` has no list type, only
/// `+patchMergeKey=name`: kube-openapi's `getListElementRelationship`
/// (`pkg/schemaconv`) keys it by that.
pub fn list_keys(schema: Schema, path: &FieldPath) -> Option<&'static [ListKey]> {
    if schema != Schema::BuiltIn {
        return None;
    }
    let elements = &path.0;
    let PathElement::Field(last) = elements.last()? else {
        return None;
    };
    let in_container = matches!(elements.iter().rev().nth(1), Some(PathElement::Key(_)));
    match &**last {
        "containers" | "initContainers" | "ephemeralContainers" | "volumes" => Some(NAME),
        "ports" if in_container => Some(CONTAINER_PORT),
        "ports" if *path == FieldPath::of(&["spec", "ports"]) => Some(SERVICE_PORT),
        "env" if in_container => Some(NAME),
        "volumeMounts" if in_container => Some(MOUNT_PATH),
        _ => None,
    }
}

/// The path element of a keyed list's `item`, or `None` when it has none.
fn item_key(item: &Json, keys: &[ListKey]) -> Option<PathElement> {
    item.as_object()?;
    let fields: Vec<(Box<str>, Box<str>)> = keys
        .iter()
        .filter_map(|key| {
            let value = item
                .get(key.name)
                .map(Json::to_compact_string)
                .or_else(|| key.default.map(str::to_owned))?;
            Some((key.name.into(), value.into_boxed_str()))
        })
        .collect();
    // The keys of [`list_keys`] are listed in name order, as SMD sorts them.
    (!fields.is_empty()).then(|| PathElement::Key(fields.into_boxed_slice()))
}

/// A keyed list's items by key, in order; `None` when it is read as atomic.
fn keyed_items<'a>(
    schema: Schema,
    path: &FieldPath,
    list: &'a [Json],
) -> Option<Vec<(PathElement, &'a Json)>> {
    let keys = list_keys(schema, path)?;
    let items: Vec<(PathElement, &Json)> = list
        .iter()
        .map(|item| item_key(item, keys).map(|key| (key, item)))
        .collect::<Option<_>>()?;
    let unique = items
        .iter()
        .enumerate()
        .all(|(i, (key, _))| !items[..i].iter().any(|(k, _)| k == key));
    unique.then_some(items)
}

/// What a node is, for the walks below.
enum Node<'a> {
    Map(&'a [(Box<str>, Json)]),
    Keyed(Vec<(PathElement, &'a Json)>),
    Leaf,
}

fn node<'a>(schema: Schema, path: &FieldPath, value: &'a Json) -> Node<'a> {
    match value {
        Json::Object(members) => Node::Map(members),
        Json::Array(items) => keyed_items(schema, path, items).map_or(Node::Leaf, Node::Keyed),
        _ => Node::Leaf,
    }
}

/// `null` against a map is an empty map: SMD's `deduceAtom` lets a null
/// take the other side's type, so it neither conflicts nor replaces.
fn wildcard<'a>(value: &'a Json, other: &Json, empty: &'a Json) -> &'a Json {
    match (value, other) {
        (Json::Null, Json::Object(_)) => empty,
        _ => value,
    }
}

/// Whether a map's field is a member of a field set by itself, not only
/// through its leaves (`visitMapItems`): a free-form map's keys always are,
/// a struct's fields only when null or an empty map.
fn named_member(schema: Schema, path: &FieldPath, value: &Json) -> bool {
    let free_form = schema == Schema::Deduced && path.0.len() > 1;
    free_form || matches!(value, Json::Null) || value.as_object().is_some_and(<[_]>::is_empty)
}

/// `TypedValue.ToFieldSet`: every field `value` sets.
pub fn to_field_set(schema: Schema, value: &Json) -> FieldSet {
    let mut set = FieldSet::default();
    walk_set(schema, &FieldPath::default(), value, &mut set);
    set
}

fn walk_set(schema: Schema, path: &FieldPath, value: &Json, set: &mut FieldSet) {
    match node(schema, path, value) {
        Node::Map(members) => {
            for (key, child) in members {
                let child_path = path.child(PathElement::Field(key.clone()));
                walk_set(schema, &child_path, child, set);
                if named_member(schema, &child_path, child) {
                    set.insert(child_path);
                }
            }
        }
        Node::Keyed(items) => {
            for (key, item) in items {
                let item_path = path.child(key);
                walk_set(schema, &item_path, item, set);
                set.insert(item_path);
            }
        }
        Node::Leaf => {
            if !path.0.is_empty() {
                set.insert(path.clone());
            }
        }
    }
}

/// `typed.Comparison`: the fields added, modified and removed from one
/// value to the next.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    pub added: FieldSet,
    pub modified: FieldSet,
    pub removed: FieldSet,
}

/// `TypedValue.Compare`.
pub fn compare(schema: Schema, lhs: &Json, rhs: &Json) -> Comparison {
    let mut comparison = Comparison::default();
    walk_compare(
        schema,
        &FieldPath::default(),
        Some(lhs),
        Some(rhs),
        &mut comparison,
    );
    comparison
}

fn walk_compare(
    schema: Schema,
    path: &FieldPath,
    lhs: Option<&Json>,
    rhs: Option<&Json>,
    out: &mut Comparison,
) {
    if let (Some(l), Some(r)) = (lhs, rhs) {
        if l == r {
            return;
        }
    }
    let empty = Json::object(Vec::new());
    let (lhs, rhs) = match (lhs, rhs) {
        (Some(l), Some(r)) => (Some(wildcard(l, r, &empty)), Some(wildcard(r, l, &empty))),
        sides => sides,
    };
    let l_node = lhs.map(|v| node(schema, path, v));
    let r_node = rhs.map(|v| node(schema, path, v));
    match (l_node, r_node) {
        (Some(Node::Map(l)), Some(Node::Map(r))) => {
            for key in union_keys(l, r) {
                let child = path.child(PathElement::Field(key.into()));
                let l_child = l.iter().find(|(k, _)| **k == *key).map(|(_, v)| v);
                let r_child = r.iter().find(|(k, _)| **k == *key).map(|(_, v)| v);
                walk_compare(schema, &child, l_child, r_child, out);
            }
        }
        (Some(Node::Keyed(l)), Some(Node::Keyed(r))) => {
            let only_r = r.iter().filter(|(k, _)| !l.iter().any(|(lk, _)| lk == k));
            for key in l.iter().chain(only_r).map(|(k, _)| k) {
                let child = path.child(key.clone());
                let l_item = l.iter().find(|(k, _)| k == key).map(|(_, v)| *v);
                let r_item = r.iter().find(|(k, _)| k == key).map(|(_, v)| *v);
                walk_compare(schema, &child, l_item, r_item, out);
            }
        }
        (Some(_), Some(_)) => {
            out.modified.insert(path.clone());
        }
        (Some(_), None) => {
            let fields = lhs.map(|v| subtree(schema, path, v)).unwrap_or_default();
            out.removed = out.removed.union(&fields);
        }
        (None, Some(_)) => {
            let fields = rhs.map(|v| subtree(schema, path, v)).unwrap_or_default();
            out.added = out.added.union(&fields);
        }
        (None, None) => {}
    }
}

/// `value` at `path` and every node under it, as a one-sided comparison
/// inserts them (`compareWalker.compare`: every node outside a leaf).
fn subtree(schema: Schema, path: &FieldPath, value: &Json) -> FieldSet {
    let mut set = FieldSet::default();
    walk_nodes(schema, path, value, &mut set);
    set
}

fn walk_nodes(schema: Schema, path: &FieldPath, value: &Json, set: &mut FieldSet) {
    match node(schema, path, value) {
        Node::Map(members) => {
            for (key, child) in members {
                walk_nodes(
                    schema,
                    &path.child(PathElement::Field(key.clone())),
                    child,
                    set,
                );
            }
        }
        Node::Keyed(items) => {
            for (key, item) in items {
                walk_nodes(schema, &path.child(key), item, set);
            }
        }
        Node::Leaf => {}
    }
    set.insert(path.clone());
}

fn union_keys<'a>(l: &'a [(Box<str>, Json)], r: &'a [(Box<str>, Json)]) -> Vec<&'a str> {
    let mut keys: Vec<&str> = l.iter().map(|(k, _)| &**k).collect();
    keys.extend(
        r.iter()
            .map(|(k, _)| &**k)
            .filter(|k| !l.iter().any(|(lk, _)| &**lk == *k)),
    );
    keys
}

/// `TypedValue.Merge`: `rhs` over `lhs`, maps field by field, keyed lists
/// item by item, anything else replaced.
pub fn merge(schema: Schema, lhs: &Json, rhs: &Json) -> Json {
    merge_at(schema, &FieldPath::default(), lhs, rhs)
}

fn merge_at(schema: Schema, path: &FieldPath, lhs: &Json, rhs: &Json) -> Json {
    if matches!((lhs, rhs), (Json::Object(_), Json::Null)) {
        return lhs.clone();
    }
    match (node(schema, path, lhs), node(schema, path, rhs)) {
        (Node::Map(l), Node::Map(r)) => {
            let mut members: Vec<(Box<str>, Json)> = l
                .iter()
                .map(|(key, value)| match r.iter().find(|(k, _)| k == key) {
                    Some((_, new)) => {
                        let child = path.child(PathElement::Field(key.clone()));
                        (key.clone(), merge_at(schema, &child, value, new))
                    }
                    None => (key.clone(), value.clone()),
                })
                .collect();
            members.extend(
                r.iter()
                    .filter(|(key, _)| !l.iter().any(|(k, _)| k == key))
                    .cloned(),
            );
            Json::object(members)
        }
        (Node::Keyed(l), Node::Keyed(r)) => {
            let mut out: Vec<Json> = Vec::with_capacity(l.len().max(r.len()));
            let mut next_new = 0;
            for (key, item) in &l {
                match r.iter().position(|(k, _)| k == key) {
                    Some(at) => {
                        // Items new to the list that the config puts before this one.
                        for (new_key, new_item) in r.iter().take(at).skip(next_new) {
                            if !l.iter().any(|(k, _)| k == new_key) {
                                out.push((*new_item).clone());
                            }
                        }
                        next_new = next_new.max(at + 1);
                        out.push(merge_at(schema, &path.child(key.clone()), item, r[at].1));
                    }
                    None => out.push((*item).clone()),
                }
            }
            for (new_key, new_item) in r.iter().skip(next_new) {
                if !l.iter().any(|(k, _)| k == new_key) {
                    out.push((*new_item).clone());
                }
            }
            Json::array(out)
        }
        _ => rhs.clone(),
    }
}

/// `TypedValue.RemoveItems`: `value` without the members of `set`, each
/// removed with everything under it.
pub fn remove_items(schema: Schema, value: &Json, set: &FieldSet) -> Json {
    remove_at(schema, &FieldPath::default(), value, set)
}

fn remove_at(schema: Schema, path: &FieldPath, value: &Json, set: &FieldSet) -> Json {
    if !set.has_under(path) {
        return value.clone();
    }
    match node(schema, path, value) {
        Node::Map(members) => Json::object(
            members
                .iter()
                .filter_map(|(key, child)| {
                    let child_path = path.child(PathElement::Field(key.clone()));
                    (!set.contains(&child_path))
                        .then(|| (key.clone(), remove_at(schema, &child_path, child, set)))
                })
                .collect(),
        ),
        Node::Keyed(items) => Json::array(
            items
                .into_iter()
                .filter_map(|(key, item)| {
                    let item_path = path.child(key);
                    (!set.contains(&item_path)).then(|| remove_at(schema, &item_path, item, set))
                })
                .collect(),
        ),
        Node::Leaf => value.clone(),
    }
}
