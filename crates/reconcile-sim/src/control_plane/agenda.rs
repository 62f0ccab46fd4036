//! The engine's pending events, by simulated time and then scheduling order.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::workqueue::Millis;

/// When an event is due: its time, then a sequence number that makes every
/// key unique, so events due at once happen in the order scheduled.
type Due = (Millis, u64);

/// A min-heap with the part of `BTreeMap<Due, V>`'s API the engine uses.
/// Keys are unique, so it hands events out in exactly the B-tree's order; a
/// heap is much less code than a B-tree, and no slower for a queue.
#[derive(Debug, Clone)]
pub(crate) struct Agenda<V> {
    heap: BinaryHeap<Pending<V>>,
}

#[derive(Debug, Clone)]
struct Pending<V> {
    due: Due,
    value: V,
}

/// Reversed, so that `BinaryHeap`, a max-heap, puts the earliest first.
impl<V> Ord for Pending<V> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.due.cmp(&self.due)
    }
}

impl<V> PartialOrd for Pending<V> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<V> PartialEq for Pending<V> {
    fn eq(&self, other: &Self) -> bool {
        self.due == other.due
    }
}

impl<V> Eq for Pending<V> {}

impl<V> Agenda<V> {
    pub(crate) fn new() -> Self {
        Self {
            heap: BinaryHeap::new(),
        }
    }

    /// `due` must not be pending already.
    pub(crate) fn insert(&mut self, due: Due, value: V) {
        self.heap.push(Pending { due, value });
    }

    pub(crate) fn first_key_value(&self) -> Option<(&Due, &V)> {
        self.heap
            .peek()
            .map(|pending| (&pending.due, &pending.value))
    }

    pub(crate) fn pop_first(&mut self) -> Option<(Due, V)> {
        self.heap.pop().map(|pending| (pending.due, pending.value))
    }

    /// In no particular order, with when each is due.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Due, &V)> {
        self.heap
            .iter()
            .map(|pending| (&pending.due, &pending.value))
    }

    /// In no particular order.
    pub(crate) fn values(&self) -> impl Iterator<Item = &V> {
        self.heap.iter().map(|pending| &pending.value)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn hands_out_events_in_the_btree_order(
            steps in proptest::collection::vec((any::<bool>(), 0..50u64), 0..200),
        ) {
            let (mut agenda, mut btree) = (Agenda::new(), BTreeMap::new());
            for (seq, (pop, at)) in (0u64..).zip(steps) {
                if pop {
                    prop_assert_eq!(agenda.pop_first(), btree.pop_first());
                } else {
                    agenda.insert((at, seq), seq);
                    btree.insert((at, seq), seq);
                }
                prop_assert_eq!(agenda.first_key_value(), btree.first_key_value());
                prop_assert_eq!(agenda.values().count(), btree.len());
            }
        }
    }
}
