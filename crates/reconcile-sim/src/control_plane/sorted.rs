//! Maps and sets kept as sorted `Vec`s, with the part of `BTreeMap`'s and
//! `BTreeSet`'s API the simulation uses, so that they replace those types
//! without touching a caller.
//!
//! Why: every `BTreeMap<K, V>` is its own copy of the B-tree's search,
//! insertion, removal and rebalancing code, about 4 KB of wasm per key and
//! value type; the simulation had twenty, 88 KB of the JS API's simulation
//! module. A sorted `Vec` is a binary search and a `Vec::insert`, a few
//! hundred bytes per type. The maps are small (one controller key, a few
//! writers or finalizers) or as large as the world, which core's
//! [`Resources`](reconcile_core::model::Resources) already keeps as a sorted
//! `Vec`; they iterate in the same key order as the B-tree types did.
//! (`litemap` is the same idea as a crate, but its API differs from
//! `BTreeMap`'s: no `pop_first`, no set type, and its serde shape depends on
//! the key type.)

use std::borrow::Borrow;
use std::fmt;

use serde::{Serialize, Serializer};

/// A map in key order.
#[derive(Clone, PartialEq, Eq)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(key, value)| (key, value))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(key, _)| key)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, value)| value)
    }

    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(key, value)| (key, value))
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    fn position<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries
            .binary_search_by(|(probe, _)| probe.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        let index = self.position(key).ok()?;
        Some(&self.entries[index].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        let index = self.position(key).ok()?;
        Some(&mut self.entries[index].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.position(key).is_ok()
    }

    /// The previous value, if `key` was present (the key itself is kept, as `BTreeMap` does).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.position(&key) {
            Ok(index) => Some(std::mem::replace(&mut self.entries[index].1, value)),
            Err(index) => {
                self.entries.insert(index, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let index = self.position(key).ok()?;
        Some(self.entries.remove(index).1)
    }

    /// Only for `entry(key).or_insert(value)`.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        Entry { map: self, key }
    }
}

/// A key of a [`SortedMap`], to read or insert.
pub struct Entry<'a, K, V> {
    map: &'a mut SortedMap<K, V>,
    key: K,
}

impl<'a, K: Ord, V> Entry<'a, K, V> {
    pub fn or_insert(self, default: V) -> &'a mut V {
        let index = match self.map.position(&self.key) {
            Ok(index) => index,
            Err(index) => {
                self.map.entries.insert(index, (self.key, default));
                index
            }
        };
        &mut self.map.entries[index].1
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(key, value)| (key, value))
    }
}

/// Panics when `key` is missing, as `BTreeMap`'s does.
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SortedMap<K, V> {
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A JSON object, as `BTreeMap`'s.
impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

/// A set in order.
#[derive(Clone, PartialEq, Eq)]
pub struct SortedSet<T> {
    items: Vec<T>,
}

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> SortedSet<T> {
    pub const fn new() -> Self {
        Self { items: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    pub fn pop_first(&mut self) -> Option<T> {
        (!self.items.is_empty()).then(|| self.items.remove(0))
    }

    pub fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.items.retain(keep);
    }
}

impl<T: Ord> SortedSet<T> {
    fn position<Q: Ord + ?Sized>(&self, item: &Q) -> Result<usize, usize>
    where
        T: Borrow<Q>,
    {
        self.items
            .binary_search_by(|probe| probe.borrow().cmp(item))
    }

    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.position(item).is_ok()
    }

    /// Whether `item` was new.
    pub fn insert(&mut self, item: T) -> bool {
        match self.position(&item) {
            Ok(_) => false,
            Err(index) => {
                self.items.insert(index, item);
                true
            }
        }
    }

    /// Whether `item` was present.
    pub fn remove<Q: Ord + ?Sized>(&mut self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        match self.position(item) {
            Ok(index) => {
                self.items.remove(index);
                true
            }
            Err(_) => false,
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for SortedSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use proptest::prelude::*;

    use super::*;

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u8, u8),
        Remove(u8),
        PopFirst,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (any::<u8>(), any::<u8>()).prop_map(|(k, v)| Op::Insert(k % 32, v)),
            any::<u8>().prop_map(|k| Op::Remove(k % 32)),
            Just(Op::PopFirst),
        ]
    }

    proptest! {
        #[test]
        fn behaves_as_the_btree_types(ops in proptest::collection::vec(op(), 0..200)) {
            let (mut map, mut btree_map) = (SortedMap::new(), BTreeMap::new());
            let (mut set, mut btree_set) = (SortedSet::new(), BTreeSet::new());
            for op in ops {
                match op {
                    Op::Insert(k, v) => {
                        prop_assert_eq!(map.insert(k, v), btree_map.insert(k, v));
                        prop_assert_eq!(set.insert(k), btree_set.insert(k));
                        let next = k.wrapping_add(1);
                        let bumped = map.entry(next).or_insert(v).wrapping_add(1);
                        *map.entry(next).or_insert(v) = bumped;
                        *btree_map.entry(next).or_insert(v) = bumped;
                    }
                    Op::Remove(k) => {
                        prop_assert_eq!(map.remove(&k), btree_map.remove(&k));
                        prop_assert_eq!(set.remove(&k), btree_set.remove(&k));
                    }
                    Op::PopFirst => prop_assert_eq!(set.pop_first(), btree_set.pop_first()),
                }
                prop_assert!(map.iter().eq(btree_map.iter()));
                prop_assert!(set.iter().eq(btree_set.iter()));
                prop_assert_eq!(map.first_key_value(), btree_map.first_key_value());
                prop_assert_eq!(set.first(), btree_set.first());
                prop_assert_eq!(map.get(&7), btree_map.get(&7));
                prop_assert_eq!(set.contains(&7), btree_set.contains(&7));
            }
            prop_assert_eq!(format!("{map:?} {set:?}"), format!("{btree_map:?} {btree_set:?}"));
            prop_assert_eq!(
                serde_json::to_string(&map).expect("serializes"),
                serde_json::to_string(&btree_map).expect("serializes")
            );
        }
    }
}
