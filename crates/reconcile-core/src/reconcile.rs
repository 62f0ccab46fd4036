//! The reconcile contract.

use std::fmt;
use std::sync::Arc;

use serde::ser::SerializeTuple;
use serde::{Serialize, Serializer};

use crate::json::Json;
use crate::model::{Finalizers, Resources, Spec};

/// The four things a controller can decide to do to one named object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
// Its `Serialize` below is written by hand, so its TypeScript is too.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(
        type = r#"[kind: "CREATE" | "UPDATE", name: string, spec: Json] | [kind: "FINALIZE" | "DELETE", name: string, spec: null]"#
    )
)]
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
        |kind, (name, spec)| {
            upserts.push(Action {
                kind,
                name: Arc::clone(name),
                spec: Some(desired.value(spec).clone()),
            });
        },
        |(name, _)| removals.push(removal(Arc::clone(name), finalizers)),
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
    merge_walk(desired, observed, |_, _| upserts += 1, |_| removals += 1);
    upserts + removals
}

/// A name and its spec, as [`Resources`] stores them.
type Entry = (Arc<str>, Spec);

/// The contract's one merge walk over two name-sorted sets, visiting every
/// name once: `upsert(kind, entry)` for each desired entry that needs CREATE
/// or UPDATE, and `removal(entry)` for each observed entry whose name is not
/// desired, each in name order. Specs are only compared, never copied.
///
/// The simulation walks about a million times per run, so what it calls per
/// name is always inlined, even at opt-level "z" (`Resources::entries` and
/// `Resources::spec_equals` are `#[inline(always)]`).
pub(crate) fn merge_walk<'a>(
    desired: &'a Resources,
    observed: &'a Resources,
    mut upsert: impl FnMut(ActionKind, &'a Entry),
    mut removal: impl FnMut(&'a Entry),
) {
    let (mut desired_rest, mut observed_rest) = (desired.entries(), observed.entries());
    loop {
        match (desired_rest.split_first(), observed_rest.split_first()) {
            (None, None) => break,
            (Some((d, rest)), None) => {
                upsert(ActionKind::Create, d);
                desired_rest = rest;
            }
            (None, Some((o, rest))) => {
                removal(o);
                observed_rest = rest;
            }
            (Some((d, d_rest)), Some((o, o_rest))) => {
                // A world the controller wrote shares the desired names: no text to compare.
                let order = if Arc::ptr_eq(&d.0, &o.0) {
                    std::cmp::Ordering::Equal
                } else {
                    d.0.cmp(&o.0)
                };
                match order {
                    std::cmp::Ordering::Less => {
                        upsert(ActionKind::Create, d);
                        desired_rest = d_rest;
                    }
                    std::cmp::Ordering::Greater => {
                        removal(o);
                        observed_rest = o_rest;
                    }
                    std::cmp::Ordering::Equal => {
                        if !desired.spec_equals(&d.1, observed, &o.1) {
                            upsert(ActionKind::Update, d);
                        }
                        desired_rest = d_rest;
                        observed_rest = o_rest;
                    }
                }
            }
        }
    }
}

/// FINALIZE or DELETE for a name that is only observed.
pub(crate) fn removal(name: Arc<str>, finalizers: Option<&Finalizers>) -> Action {
    let pending = finalizers.is_some_and(|f| !f.pending(&name).is_empty());
    Action {
        kind: if pending {
            ActionKind::Finalize
        } else {
            ActionKind::Delete
        },
        name,
        spec: None,
    }
}
