//! The reconcile contract.

use std::fmt;
use std::sync::Arc;

use serde::ser::SerializeTuple;
use serde::{Serialize, Serializer};

use crate::json::Json;
use crate::model::{Finalizers, Resources};

/// The four things a controller can decide to do to one named object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum ActionKind {
    /// In desired, not observed.
    Create,
    /// In both, with different specs; carries the desired spec.
    Update,
    /// Observed, no longer desired, with finalizers still pending.
    Finalize,
    /// Observed, no longer desired, with no pending finalizers.
    Delete,
}

impl ActionKind {
    pub const ALL: [ActionKind; 4] = [
        ActionKind::Create,
        ActionKind::Update,
        ActionKind::Finalize,
        ActionKind::Delete,
    ];

    /// The contract's spelling: `CREATE`, `UPDATE`, `FINALIZE`, `DELETE`.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Create => "CREATE",
            ActionKind::Update => "UPDATE",
            ActionKind::Finalize => "FINALIZE",
            ActionKind::Delete => "DELETE",
        }
    }

    /// The plan symbol: `+` create, `~` update, `⊘` finalize, `-` delete.
    pub fn symbol(self) -> &'static str {
        match self {
            ActionKind::Create => "+",
            ActionKind::Update => "~",
            ActionKind::Finalize => "⊘",
            ActionKind::Delete => "-",
        }
    }

    /// Whether this action is about a name that is still desired.
    pub fn is_for_desired_name(self) -> bool {
        matches!(self, ActionKind::Create | ActionKind::Update)
    }
}

impl fmt::Display for ActionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One action of a plan. Serializes as the contract's 3-element array:
/// `["CREATE","a",{"replicas":1}]`, `["DELETE","c",null]`.
///
/// The name and spec share their text with the input [`Resources`]: building
/// an action copies no text.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub kind: ActionKind,
    pub name: Arc<str>,
    /// The desired spec for CREATE/UPDATE; `None` for FINALIZE/DELETE.
    pub spec: Option<Json>,
}

/// The constructors take any string (`&str`, `String`, `Arc<str>`, ...) and copy it;
/// [`reconcile`] itself shares the input's names instead.
impl Action {
    pub fn create(name: impl AsRef<str>, spec: Json) -> Self {
        Self {
            kind: ActionKind::Create,
            name: Arc::from(name.as_ref()),
            spec: Some(spec),
        }
    }
    pub fn update(name: impl AsRef<str>, spec: Json) -> Self {
        Self {
            kind: ActionKind::Update,
            name: Arc::from(name.as_ref()),
            spec: Some(spec),
        }
    }
    pub fn finalize(name: impl AsRef<str>) -> Self {
        Self {
            kind: ActionKind::Finalize,
            name: Arc::from(name.as_ref()),
            spec: None,
        }
    }
    pub fn delete(name: impl AsRef<str>) -> Self {
        Self {
            kind: ActionKind::Delete,
            name: Arc::from(name.as_ref()),
            spec: None,
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(3)?;
        tuple.serialize_element(self.kind.as_str())?;
        tuple.serialize_element(&*self.name)?;
        tuple.serialize_element(&self.spec)?;
        tuple.end()
    }
}

/// Computes the actions that make `observed` match `desired`.
///
/// # Guarantees
/// - CREATE for names only in `desired`; UPDATE (with the desired spec) for names
///   in both whose specs differ; nothing for names whose specs are equal.
/// - For names only in `observed`: FINALIZE while the name has pending finalizers,
///   DELETE when its list is empty or it has no entry.
/// - Order: all CREATE/UPDATE sorted by name, then all FINALIZE/DELETE sorted by
///   name, where names sort by Unicode code point.
/// - At most one action per name.
///
/// # Caveats
/// - Finalizer entries of still-desired names and of names that are not
///   observed are ignored, as the contract requires.
/// - Specs compare as JSON values: member order is ignored and numbers compare
///   by value (see [`Json`]'s equality).
pub fn reconcile(
    desired: &Resources,
    observed: &Resources,
    finalizers: Option<&Finalizers>,
) -> Vec<Action> {
    let mut upserts = Vec::new();
    let mut removals = Vec::new();
    merge_walk(
        desired,
        observed,
        |kind, name, spec| {
            upserts.push(Action {
                kind,
                name: Arc::clone(name),
                spec: Some(spec.clone()),
            });
        },
        |name| removals.push(removal(name, finalizers)),
    );
    upserts.append(&mut removals);
    upserts
}

/// How many actions [`reconcile`] returns, without building them:
/// `count_out_of_sync(d, o, f) == reconcile(d, o, f).len()`, with no allocation.
///
/// `finalizers` never changes the count (a name only observed gets exactly one
/// action, FINALIZE or DELETE); it is taken so the call reads like `reconcile`'s.
pub fn count_out_of_sync(
    desired: &Resources,
    observed: &Resources,
    _finalizers: Option<&Finalizers>,
) -> usize {
    let (mut upserts, mut removals) = (0, 0);
    merge_walk(desired, observed, |_, _, _| upserts += 1, |_| removals += 1);
    upserts + removals
}

/// The contract's one merge walk over two name-sorted sets, visiting every
/// name once: `upsert(kind, name, desired spec)` for each desired name that
/// needs CREATE or UPDATE, and `removal(name)` for each name only observed,
/// each in name order.
fn merge_walk<'a>(
    desired: &'a Resources,
    observed: &'a Resources,
    mut upsert: impl FnMut(ActionKind, &'a Arc<str>, &'a Json),
    mut removal: impl FnMut(&'a Arc<str>),
) {
    let mut desired_iter = desired.iter_shared().peekable();
    let mut observed_iter = observed.iter_shared().peekable();
    loop {
        match (desired_iter.peek(), observed_iter.peek()) {
            (None, None) => break,
            (Some(&(name, spec)), None) => {
                upsert(ActionKind::Create, name, spec);
                desired_iter.next();
            }
            (None, Some(&(name, _))) => {
                removal(name);
                observed_iter.next();
            }
            (Some(&(d_name, d_spec)), Some(&(o_name, o_spec))) => {
                // A world the controller wrote shares the desired names: no text to compare.
                let order = if Arc::ptr_eq(d_name, o_name) {
                    std::cmp::Ordering::Equal
                } else {
                    d_name.cmp(o_name)
                };
                match order {
                    std::cmp::Ordering::Less => {
                        upsert(ActionKind::Create, d_name, d_spec);
                        desired_iter.next();
                    }
                    std::cmp::Ordering::Greater => {
                        removal(o_name);
                        observed_iter.next();
                    }
                    std::cmp::Ordering::Equal => {
                        if d_spec != o_spec {
                            upsert(ActionKind::Update, d_name, d_spec);
                        }
                        desired_iter.next();
                        observed_iter.next();
                    }
                }
            }
        }
    }
}

fn removal(name: &Arc<str>, finalizers: Option<&Finalizers>) -> Action {
    let pending = finalizers.is_some_and(|f| !f.pending(name).is_empty());
    Action {
        kind: if pending {
            ActionKind::Finalize
        } else {
            ActionKind::Delete
        },
        name: Arc::clone(name),
        spec: None,
    }
}
