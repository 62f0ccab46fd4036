//! The inputs of `reconcile`: named specs and per-name finalizer lists.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::json::{self, Json};
use crate::scan::{self, ScannedResources};

/// A set of named specs: the desired or the observed state.
///
/// Guarantees: names are unique and kept sorted by Unicode code point, so
/// lookups are binary searches and iteration is already in action order.
/// Names and specs are reference-counted: a clone allocates one vector and
/// copies no text, which keeps the simulation's per-pass world snapshots cheap.
///
/// A parsed document keeps its text, and each spec is parsed from it on first
/// use (see the `scan` module): two specs whose texts are the same are equal without
/// being parsed, so comparing mostly-equal documents reads text, not trees.
/// A clone holds every spec as a value (see its `Clone`).
#[derive(Default)]
// Serialized by hand (below) as a plain `{name: spec}` object.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(type = "{ [name: string]: Json }")
)]
pub struct Resources {
    entries: Vec<(Arc<str>, Spec)>,
    /// The text the [`Spec::Text`] entries point into.
    texts: Option<Arc<SpecTexts>>,
}

/// A spec: a value, or the position of its text, parsed on first use.
#[derive(Debug, Clone)]
pub(crate) enum Spec {
    Value(Json),
    /// An index into [`SpecTexts::specs`].
    Text(usize),
}

/// A validated document and the specs in it, each parsed once, on first use.
#[derive(Debug)]
struct SpecTexts {
    text: String,
    specs: Vec<LazySpec>,
}

#[derive(Debug)]
struct LazySpec {
    /// Where the text is, in the scan's 32-bit offsets.
    text: Range<u32>,
    /// Boxed: most specs are never parsed, and an unset `OnceLock<Box<Json>>`
    /// is 16 bytes where an unset `OnceLock<Json>` is 32.
    value: OnceLock<Box<Json>>,
}

impl SpecTexts {
    fn text(&self, index: usize) -> Option<&str> {
        let spec = self.specs.get(index)?;
        self.text.get(scan::wide(&spec.text))
    }

    fn value(&self, index: usize) -> Option<&Json> {
        let spec = self.specs.get(index)?;
        let text = self.text.get(scan::wide(&spec.text))?;
        Some(
            spec.value
                .get_or_init(|| Box::new(json::from_valid_text(text))),
        )
    }
}

/// The name of an entry.
fn entry_name(entry: &(Arc<str>, Spec)) -> &str {
    &entry.0
}

/// Sorts entries by name, stably (one sort for every way resources are built).
fn sort_by_name(entries: &mut Vec<(Arc<str>, Spec)>) {
    let order = json::key_order(entries.iter().map(entry_name));
    *entries = json::reordered(std::mem::take(entries), &order);
}

/// Sorts `items` by `key`, stably, and keeps only the last of items with
/// equal keys: a later entry replaces an earlier one, as when a document
/// names something twice. The one sort-and-dedup of every sorted set here;
/// the sort itself is [`json::key_order`]'s, shared by every element type.
pub fn sort_unique_keep_last<T>(items: &mut Vec<T>, key: fn(&T) -> &str) {
    let mut order = json::key_order(items.iter().map(key));
    // Reversed, each run of equal keys starts with its last item, which dedup keeps.
    order.reverse();
    order.dedup_by(|a, b| match (items.get(*a), items.get(*b)) {
        (Some(a), Some(b)) => key(a) == key(b),
        _ => false,
    });
    order.reverse();
    *items = json::reordered(std::mem::take(items), &order);
}

/// The entries of one scanned group in name order, their specs added to
/// `specs`, or `None` if a name repeats. A name that `earlier` (sorted) has too
/// is shared with it (when the group is sorted too; otherwise perhaps not).
fn scanned_entries(
    text: &str,
    group: ScannedResources,
    earlier: &[(Arc<str>, Spec)],
    specs: &mut Vec<LazySpec>,
) -> Option<Vec<(Arc<str>, Spec)>> {
    // The earlier names from here on are above the previous name.
    let mut next = 0;
    let mut entries: Vec<(Arc<str>, Spec)> = group
        .members
        .into_iter()
        .map(|resource| {
            // A spec the scan found to repeat an earlier one, of the same name,
            // is that one's: one name, one text, one parse.
            if let Some(k) = resource.repeats() {
                if let Some((name, spec)) = earlier.get(k) {
                    next = k + 1;
                    return (Arc::clone(name), spec.clone());
                }
            }
            let index = specs.len();
            let name = text.get(resource.name()).unwrap_or_default();
            specs.push(LazySpec {
                text: resource.spec,
                value: OnceLock::new(),
            });
            // Pass the earlier names below this one; share an equal one.
            let mut shared = None;
            while let Some((other, _)) = earlier.get(next) {
                match (**other).cmp(name) {
                    Ordering::Less => next += 1,
                    Ordering::Equal => {
                        shared = Some(Arc::clone(other));
                        next += 1;
                        break;
                    }
                    Ordering::Greater => break,
                }
            }
            (shared.unwrap_or_else(|| Arc::from(name)), Spec::Text(index))
        })
        .collect();
    if !group.sorted {
        sort_by_name(&mut entries);
        if entries.windows(2).any(|pair| pair[0].0 == pair[1].0) {
            return None;
        }
    }
    Some(entries)
}

/// What a spec whose text is missing reads as; never happens for texts the scanner accepted.
static MISSING: Json = Json::Null;

impl Resources {
    pub fn new() -> Self {
        Self::default()
    }

    /// A copy that shares this one's text and the specs parsed from it, for
    /// a reader that keeps a document to use again as it is (a `clone`
    /// parses every spec, and specs compared with other text-read specs are
    /// then compared as values, not as text).
    pub fn share(&self) -> Self {
        Self {
            entries: self.entries.clone(),
            texts: self.texts.clone(),
        }
    }

    /// Builds from entries whose names are known to be unique (the parser checks).
    /// If a name repeats anyway, the last entry wins.
    pub fn from_unique(entries: Vec<(String, Json)>) -> Self {
        Self::from_unique_shared(
            entries
                .into_iter()
                .map(|(name, spec)| (Arc::from(name), spec))
                .collect(),
        )
    }

    /// [`Resources::from_unique`] with shared names, which are kept as they are.
    pub(crate) fn from_unique_shared(entries: Vec<(Arc<str>, Json)>) -> Self {
        let mut entries: Vec<(Arc<str>, Spec)> = entries
            .into_iter()
            .map(|(name, spec)| (name, Spec::Value(spec)))
            .collect();
        sort_unique_keep_last(&mut entries, entry_name);
        Self {
            entries,
            texts: None,
        }
    }

    /// Resources read by the scanner from `text`, whose spec texts are valid
    /// JSON values: a scenario's desired and observed (a single document
    /// comes with an empty second group). Both keep `text` (not a copy). A
    /// name in both is one allocation, shared: the merge walk of
    /// [`crate::reconcile`] tells the two equal by their pointers. An observed
    /// spec the scan found to repeat the desired one is the desired one's
    /// text, parsed at most once for both.
    ///
    /// If a name repeats within a group, `text` is handed back: an error,
    /// which the precise parser reports.
    pub(crate) fn from_scanned(
        text: String,
        [first, second]: [ScannedResources; 2],
    ) -> Result<[Resources; 2], String> {
        let mut specs = Vec::with_capacity(first.members.len() + second.members.len());
        let Some(first) = scanned_entries(&text, first, &[], &mut specs) else {
            return Err(text);
        };
        let Some(second) = scanned_entries(&text, second, &first, &mut specs) else {
            return Err(text);
        };
        let texts = Some(Arc::new(SpecTexts { text, specs }));
        Ok([
            Resources {
                entries: first,
                texts: texts.clone(),
            },
            Resources {
                entries: second,
                texts,
            },
        ])
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of one of this set's specs, parsing it on first use.
    pub(crate) fn value<'a>(&'a self, spec: &'a Spec) -> &'a Json {
        match spec {
            Spec::Value(value) => value,
            Spec::Text(index) => self
                .texts
                .as_ref()
                .and_then(|texts| texts.value(*index))
                .unwrap_or(&MISSING),
        }
    }

    /// The JSON text of a spec that has not been changed since it was parsed.
    fn text<'a>(&'a self, spec: &Spec) -> Option<&'a str> {
        match spec {
            Spec::Value(_) => None,
            Spec::Text(index) => self.texts.as_ref()?.text(*index),
        }
    }

    /// Whether `spec`, one of this set's, equals `other_spec`, one of `other`'s.
    /// Equal texts are equal values, so specs read from text are compared as
    /// text first, and parsed only when their texts differ.
    #[inline(always)]
    pub(crate) fn spec_equals(&self, spec: &Spec, other: &Resources, other_spec: &Spec) -> bool {
        match (spec, other_spec) {
            (Spec::Value(a), Spec::Value(b)) => a == b,
            // The same text (a scenario's observed spec that repeats desired's
            // is desired's) or an equal one.
            (a @ Spec::Text(_), b @ Spec::Text(_))
                if self.text(a).is_some_and(|text| {
                    other
                        .text(b)
                        .is_some_and(|other| std::ptr::eq(text, other) || text == other)
                }) =>
            {
                true
            }
            (a, b) => self.value(a) == other.value(b),
        }
    }

    /// Names and specs in name order, as stored.
    #[inline(always)]
    pub(crate) fn entries(&self) -> &[(Arc<str>, Spec)] {
        &self.entries
    }

    /// Entries in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json)> {
        self.entries
            .iter()
            .map(|(name, spec)| (&**name, self.value(spec)))
    }

    /// The shared name equal to `name`, if present.
    pub fn shared_name(&self, name: &str) -> Option<&Arc<str>> {
        self.position(name).ok().map(|i| &self.entries[i].0)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(name, _)| &**name)
    }

    pub fn get(&self, name: &str) -> Option<&Json> {
        self.position(name)
            .ok()
            .map(|i| self.value(&self.entries[i].1))
    }

    /// Compact `{"name":spec,...}` text, names in order.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Json> {
        let i = self.position(name).ok()?;
        if let Spec::Text(_) = self.entries[i].1 {
            // A changed spec no longer matches its text: keep it as a value.
            let value = self.value(&self.entries[i].1).clone();
            self.entries[i].1 = Spec::Value(value);
        }
        match &mut self.entries[i].1 {
            Spec::Value(value) => Some(value),
            Spec::Text(_) => None,
        }
    }

    pub fn contains(&self, name: &str) -> bool {
        self.position(name).is_ok()
    }

    /// Writes a spec, returning the previous one. `name` may be a `String`,
    /// a `&str` or an `Arc<str>` (which is shared, not copied).
    pub fn insert(&mut self, name: impl AsRef<str> + Into<Arc<str>>, spec: Json) -> Option<Json> {
        match self.position(name.as_ref()) {
            Ok(i) => {
                let previous = self.value(&self.entries[i].1).clone();
                self.entries[i].1 = Spec::Value(spec);
                Some(previous)
            }
            Err(i) => {
                self.entries.insert(i, (name.into(), Spec::Value(spec)));
                None
            }
        }
    }

    pub fn remove(&mut self, name: &str) -> Option<Json> {
        let i = self.position(name).ok()?;
        let removed = self.value(&self.entries[i].1).clone();
        self.entries.remove(i);
        Some(removed)
    }

    fn position(&self, name: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(n, _)| (**n).cmp(name))
    }
}

/// A clone shares every name and spec, and holds every spec as a value:
/// clones are made to be read again and again or changed (the simulation's
/// worlds and desired state), so each spec is parsed here, once, if it was not
/// already, rather than looked up in the text on every read.
impl Clone for Resources {
    fn clone(&self) -> Self {
        if self.texts.is_none() {
            // Every spec is a value already (the simulation's worlds).
            return Self {
                entries: self.entries.clone(),
                texts: None,
            };
        }
        let mut entries = Vec::with_capacity(self.entries.len());
        for (name, spec) in &self.entries {
            entries.push((Arc::clone(name), Spec::Value(self.value(spec).clone())));
        }
        Self {
            entries,
            texts: None,
        }
    }
}

/// Equal when the names are the same and each spec equals its counterpart as a JSON value.
impl PartialEq for Resources {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .entries
                .iter()
                .zip(&other.entries)
                .all(|(a, b)| a.0 == b.0 && self.spec_equals(&a.1, other, &b.1))
    }
}

impl fmt::Debug for Resources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl FromIterator<(String, Json)> for Resources {
    fn from_iter<I: IntoIterator<Item = (String, Json)>>(iter: I) -> Self {
        Self::from_unique(iter.into_iter().collect())
    }
}

impl Serialize for Resources {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (name, spec) in self.iter() {
            map.serialize_entry(name, spec)?;
        }
        map.end()
    }
}

/// Pending finalizers per object name.
///
/// Guarantees: names are unique and sorted; each list keeps its written order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
// Serialized by hand (below) as `{name: ["finalizer", ...]}`.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(type = "{ [name: string]: string[] }")
)]
pub struct Finalizers {
    entries: Vec<(String, Vec<String>)>,
}

impl Finalizers {
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds from entries whose names are known to be unique; a repeated name keeps the last.
    pub fn from_unique(mut entries: Vec<(String, Vec<String>)>) -> Self {
        sort_unique_keep_last(&mut entries, |entry| entry.0.as_str());
        Self { entries }
    }

    /// The pending finalizers of `name`: empty when the list is empty or there is no entry.
    pub fn pending(&self, name: &str) -> &[String] {
        self.entries
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .map(|i| self.entries[i].1.as_slice())
            .unwrap_or(&[])
    }

    /// Whether `name` has an entry at all (even an empty one).
    pub fn has_entry(&self, name: &str) -> bool {
        self.entries
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .is_ok()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.entries.iter().map(|(n, l)| (n.as_str(), l.as_slice()))
    }

    /// Replaces the list of `name` (an empty list is kept as an entry).
    pub fn set(&mut self, name: &str, list: Vec<String>) {
        match self.entries.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(i) => self.entries[i].1 = list,
            Err(i) => self.entries.insert(i, (name.to_owned(), list)),
        }
    }

    /// Drops the entry of `name`, returning its list.
    pub fn remove(&mut self, name: &str) -> Option<Vec<String>> {
        self.entries
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|i| self.entries.remove(i).1)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl FromIterator<(String, Vec<String>)> for Finalizers {
    fn from_iter<I: IntoIterator<Item = (String, Vec<String>)>>(iter: I) -> Self {
        Self::from_unique(iter.into_iter().collect())
    }
}

impl Serialize for Finalizers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (name, list) in &self.entries {
            map.serialize_entry(name, list)?;
        }
        map.end()
    }
}

/// The three documents together, as the CLI and the JS API take them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Scenario {
    pub desired: Resources,
    pub observed: Resources,
    /// May be left out: no finalizers.
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub finalizers: Option<Finalizers>,
}
