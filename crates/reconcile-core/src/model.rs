//! The inputs of `reconcile`: named specs and per-name finalizer lists.

use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::json::Json;

/// A set of named specs: the desired or the observed state.
///
/// Guarantees: names are unique and kept sorted by Unicode code point, so
/// lookups are binary searches and iteration is already in action order.
/// Names and specs are reference-counted: a clone allocates one vector and
/// copies no text, which keeps the simulation's per-pass world snapshots cheap.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resources {
    entries: Vec<(Arc<str>, Json)>,
}

impl Resources {
    pub fn new() -> Self {
        Self::default()
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
    pub(crate) fn from_unique_shared(mut entries: Vec<(Arc<str>, Json)>) -> Self {
        // Stable sort keeps input order among equal names, so dedup keeps the last.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.reverse();
        entries.dedup_by(|a, b| a.0 == b.0);
        entries.reverse();
        Self { entries }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json)> {
        self.entries.iter().map(|(name, spec)| (&**name, spec))
    }

    /// Entries in name order, with the shared name: cloning it copies no text.
    pub(crate) fn iter_shared(&self) -> impl Iterator<Item = (&Arc<str>, &Json)> {
        self.entries.iter().map(|(name, spec)| (name, spec))
    }

    /// The shared name equal to `name`, if present.
    pub(crate) fn shared_name(&self, name: &str) -> Option<&Arc<str>> {
        self.position(name).ok().map(|i| &self.entries[i].0)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(name, _)| &**name)
    }

    pub fn get(&self, name: &str) -> Option<&Json> {
        self.position(name).ok().map(|i| &self.entries[i].1)
    }

    /// Compact `{"name":spec,...}` text, names in order.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Json> {
        self.position(name).ok().map(|i| &mut self.entries[i].1)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.position(name).is_ok()
    }

    /// Writes a spec, returning the previous one. `name` may be a `String`,
    /// a `&str` or an `Arc<str>` (which is shared, not copied).
    pub fn insert(&mut self, name: impl AsRef<str> + Into<Arc<str>>, spec: Json) -> Option<Json> {
        match self.position(name.as_ref()) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, spec)),
            Err(i) => {
                self.entries.insert(i, (name.into(), spec));
                None
            }
        }
    }

    pub fn remove(&mut self, name: &str) -> Option<Json> {
        self.position(name).ok().map(|i| self.entries.remove(i).1)
    }

    fn position(&self, name: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(n, _)| (**n).cmp(name))
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
        for (name, spec) in &self.entries {
            map.serialize_entry(&**name, spec)?;
        }
        map.end()
    }
}

/// Pending finalizers per object name.
///
/// Guarantees: names are unique and sorted; each list keeps its written order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finalizers {
    entries: Vec<(String, Vec<String>)>,
}

impl Finalizers {
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds from entries whose names are known to be unique; a repeated name keeps the last.
    pub fn from_unique(mut entries: Vec<(String, Vec<String>)>) -> Self {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.reverse();
        entries.dedup_by(|a, b| a.0 == b.0);
        entries.reverse();
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
pub struct Scenario {
    pub desired: Resources,
    pub observed: Resources,
    pub finalizers: Option<Finalizers>,
}
