//! The reconcile contract.

use std::fmt;

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
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub kind: ActionKind,
    pub name: String,
    /// The desired spec for CREATE/UPDATE; `None` for FINALIZE/DELETE.
    pub spec: Option<Json>,
}

impl Action {
    pub fn create(name: impl Into<String>, spec: Json) -> Self {
        Self {
            kind: ActionKind::Create,
            name: name.into(),
            spec: Some(spec),
        }
    }
    pub fn update(name: impl Into<String>, spec: Json) -> Self {
        Self {
            kind: ActionKind::Update,
            name: name.into(),
            spec: Some(spec),
        }
    }
    pub fn finalize(name: impl Into<String>) -> Self {
        Self {
            kind: ActionKind::Finalize,
            name: name.into(),
            spec: None,
        }
    }
    pub fn delete(name: impl Into<String>) -> Self {
        Self {
            kind: ActionKind::Delete,
            name: name.into(),
            spec: None,
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(3)?;
        tuple.serialize_element(self.kind.as_str())?;
        tuple.serialize_element(&self.name)?;
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
    // Both sides iterate in name order, so one merge walk visits every name once.
    let mut desired_iter = desired.iter().peekable();
    let mut observed_iter = observed.iter().peekable();
    loop {
        match (desired_iter.peek(), observed_iter.peek()) {
            (None, None) => break,
            (Some(&(name, spec)), None) => {
                upserts.push(Action::create(name, spec.clone()));
                desired_iter.next();
            }
            (None, Some(&(name, _))) => {
                removals.push(removal(name, finalizers));
                observed_iter.next();
            }
            (Some(&(d_name, d_spec)), Some(&(o_name, o_spec))) => match d_name.cmp(o_name) {
                std::cmp::Ordering::Less => {
                    upserts.push(Action::create(d_name, d_spec.clone()));
                    desired_iter.next();
                }
                std::cmp::Ordering::Greater => {
                    removals.push(removal(o_name, finalizers));
                    observed_iter.next();
                }
                std::cmp::Ordering::Equal => {
                    if d_spec != o_spec {
                        upserts.push(Action::update(d_name, d_spec.clone()));
                    }
                    desired_iter.next();
                    observed_iter.next();
                }
            },
        }
    }
    upserts.append(&mut removals);
    upserts
}

fn removal(name: &str, finalizers: Option<&Finalizers>) -> Action {
    let pending = finalizers.is_some_and(|f| !f.pending(name).is_empty());
    if pending {
        Action::finalize(name)
    } else {
        Action::delete(name)
    }
}
