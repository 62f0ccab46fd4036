//! The reconcile contract.

use std::fmt;
use std::sync::Arc;

use serde::ser::SerializeTuple;
use serde::{Serialize, Serializer};

use crate::json::Json;
use crate::model::{Finalizers, Resources, Spec};
use crate::scan::ScannedDocument;

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

/// [`reconcile`] straight from a valid scenario's text, for
/// [`crate::reconcile_scenario_json`]: only the specs that are written
/// differently or go into an action are parsed. `None` when the text needs
/// the precise parser (it is invalid, or unusual; see [`crate::scan`]).
pub(crate) fn reconcile_scenario_text(text: &str) -> Option<Vec<Action>> {
    let (scanned, finalizers) = crate::parse::scan_scenario_parts(text)?;
    let desired = ScannedDocument::new(text, scanned.desired)?;
    let observed = ScannedDocument::new(text, scanned.observed)?;
    let mut upserts = Vec::new();
    let mut removals = Vec::new();
    merge_walk(
        &desired,
        &observed,
        |kind, resource| {
            upserts.push(Action {
                kind,
                name: Arc::from(resource.name),
                spec: Some(desired.spec(resource)),
            });
        },
        |resource| removals.push(removal(Arc::from(resource.name), finalizers.as_ref())),
    );
    upserts.append(&mut removals);
    Some(upserts)
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

/// Two name-sorted, duplicate-free sets of specs, as the merge walk reads them.
pub(crate) trait SortedSpecs {
    /// A name and its spec.
    type Entry;
    /// In name order.
    fn entries(&self) -> &[Self::Entry];
    fn name(entry: &Self::Entry) -> &str;
    /// Whether two entries' names are one shared allocation, which makes
    /// them equal without comparing text.
    fn shares_name(a: &Self::Entry, b: &Self::Entry) -> bool;
    /// Whether `entry`'s spec (one of this set's) equals `other_entry`'s (one of `other`'s).
    fn spec_equals(&self, entry: &Self::Entry, other: &Self, other_entry: &Self::Entry) -> bool;
}

// Always inlined: at opt-level "z" these one-liners would otherwise each cost
// a call per name in the walk, which the simulation makes a million times.
impl SortedSpecs for Resources {
    type Entry = (Arc<str>, Spec);
    #[inline(always)]
    fn entries(&self) -> &[Self::Entry] {
        Resources::entries(self)
    }
    #[inline(always)]
    fn name(entry: &Self::Entry) -> &str {
        &entry.0
    }
    #[inline(always)]
    fn shares_name(a: &Self::Entry, b: &Self::Entry) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
    #[inline(always)]
    fn spec_equals(&self, entry: &Self::Entry, other: &Self, other_entry: &Self::Entry) -> bool {
        Resources::spec_equals(self, &entry.1, other, &other_entry.1)
    }
}

/// The contract's one merge walk over two name-sorted sets, visiting every
/// name once: `upsert(kind, entry)` for each desired entry that needs CREATE
/// or UPDATE, and `removal(entry)` for each observed entry whose name is not
/// desired, each in name order. Specs are only compared, never copied.
pub(crate) fn merge_walk<'a, S: SortedSpecs>(
    desired: &'a S,
    observed: &'a S,
    mut upsert: impl FnMut(ActionKind, &'a S::Entry),
    mut removal: impl FnMut(&'a S::Entry),
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
                let order = if S::shares_name(d, o) {
                    std::cmp::Ordering::Equal
                } else {
                    S::name(d).cmp(S::name(o))
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
                        if !desired.spec_equals(d, observed, o) {
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
