//! client-go's typed work queue (`util/workqueue/queue.go`, `Typed[T]`):
//! a FIFO of keys with a dirty set (needs processing) and a processing set
//! (handed out by `Get`, not yet `Done`).

use std::collections::VecDeque;

use serde::Serialize;

use crate::sorted::SortedSet;

/// What `add` did with a key (the engine's timeline shows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum AddOutcome {
    Queued,
    /// Already waiting in the queue; nothing changes (upstream calls `Touch`).
    AlreadyQueued,
    /// Being processed; it will be queued again when processing is done.
    Deferred,
}

/// `Typed[T]` without metrics or shutdown. Ordered sets, so runs are reproducible.
#[derive(Debug, Clone)]
pub struct Queue<K: Ord + Clone> {
    /// Every key here is dirty and not processing.
    queue: VecDeque<K>,
    dirty: SortedSet<K>,
    processing: SortedSet<K>,
}

/// The name the engine uses.
pub type WorkQueue<K> = Queue<K>;

impl<K: Ord + Clone> Default for Queue<K> {
    fn default() -> Self {
        Self {
            queue: VecDeque::new(),
            dirty: SortedSet::new(),
            processing: SortedSet::new(),
        }
    }
}

impl<K: Ord + Clone> Queue<K> {
    /// `Add`: marks `key` as needing processing.
    pub fn add(&mut self, key: K) -> AddOutcome {
        if self.dirty.contains(&key) {
            return if self.processing.contains(&key) {
                AddOutcome::Deferred
            } else {
                AddOutcome::AlreadyQueued
            };
        }
        self.dirty.insert(key.clone());
        if self.processing.contains(&key) {
            return AddOutcome::Deferred;
        }
        self.queue.push_back(key);
        AddOutcome::Queued
    }

    /// `Get`, without blocking: the next key, now processing; `None` when empty.
    pub fn get(&mut self) -> Option<K> {
        let key = self.queue.pop_front()?;
        self.processing.insert(key.clone());
        self.dirty.remove(&key);
        Some(key)
    }

    /// `Done`: ends processing of `key`; true if an add during processing
    /// queued it again.
    ///
    /// Deviation: upstream pushes any dirty key, so `Done` for a key that was
    /// never handed out queues it twice; here such a call changes nothing.
    pub fn done(&mut self, key: &K) -> bool {
        if self.processing.remove(key) && self.dirty.contains(key) {
            self.queue.push_back(key.clone());
            true
        } else {
            false
        }
    }

    /// `Len`: keys waiting to be handed out (not those processing).
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn is_processing(&self, key: &K) -> bool {
        self.processing.contains(key)
    }

    /// The keys waiting to be handed out, in the order `Get` hands them out.
    pub fn queued(&self) -> impl Iterator<Item = &K> {
        self.queue.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One round of single-threaded consumers: each finishes the key it holds
    /// (`work`, then `Done`) and gets the next. False when nobody had anything.
    fn consumer_round(
        queue: &mut Queue<i32>,
        held: &mut [Option<i32>],
        mut work: impl FnMut(usize, i32, &mut Queue<i32>),
    ) -> bool {
        let mut busy = false;
        for worker in 0..held.len() {
            if let Some(key) = held[worker].take() {
                work(worker, key, queue);
                queue.done(&key);
                busy = true;
            }
            held[worker] = queue.get();
            if let Some(key) = held[worker] {
                let holders = held.iter().filter(|h| **h == Some(key)).count();
                assert_eq!(holders, 1, "{key} handed out twice at once");
                busy = true;
            }
        }
        busy
    }

    // client-go util/workqueue/queue_test.go TestBasic, made deterministic:
    // 50 producers add their key 50 times each, interleaved with rounds of 10
    // consumers. The shutdown half is left out (see mod.rs).
    #[test]
    fn test_basic() {
        let mut queue = Queue::default();
        let mut held = [None; 10];
        for _ in 0..50 {
            for producer in 0..50 {
                queue.add(producer);
            }
            consumer_round(&mut queue, &mut held, |_, _, _| {});
        }
        while consumer_round(&mut queue, &mut held, |_, _, _| {}) {}
        assert_eq!(queue.len(), 0, "Expected the queue to be empty");
    }

    // client-go util/workqueue/queue_test.go TestAddWhileProcessing, made
    // deterministic: every worker re-adds every key it gets until it has seen
    // it twice (the dirty-while-processing case).
    #[test]
    fn test_add_while_processing() {
        let mut queue = Queue::default();
        for producer in 0..50 {
            queue.add(producer);
        }
        let mut counters = vec![std::collections::BTreeMap::new(); 10];
        let mut held = [None; 10];
        while consumer_round(&mut queue, &mut held, |worker, key, queue| {
            let seen: &mut u32 = counters[worker].entry(key).or_default();
            *seen += 1;
            if *seen < 2 {
                queue.add(key);
            }
        }) {}
        assert_eq!(queue.len(), 0, "Expected the queue to be empty");
    }

    // client-go util/workqueue/queue_test.go TestLen
    #[test]
    fn test_len() {
        let mut queue = Queue::default();
        queue.add("foo");
        assert_eq!(queue.len(), 1);
        queue.add("bar");
        assert_eq!(queue.len(), 2);
        queue.add("foo"); // should not increase the queue length.
        assert_eq!(queue.len(), 2);
    }

    // client-go util/workqueue/queue_test.go TestReinsert
    #[test]
    fn test_reinsert() {
        let mut queue = Queue::default();
        queue.add("foo");
        let key = queue.get().expect("foo is queued");
        assert_eq!(key, "foo");
        queue.add(key); // back while processing
        queue.done(&key);
        let key = queue.get().expect("foo is back on the queue");
        assert_eq!(key, "foo");
        queue.done(&key);
        assert_eq!(queue.len(), 0);
    }

    // client-go util/workqueue/queue_test.go TestCollapse.
    // Upstream's `Touch` is called exactly when `add` reports `AlreadyQueued`.
    #[test]
    fn test_collapse() {
        let mut queue = Queue::default();
        let first = queue.add("bar");
        let second = queue.add("bar");
        assert_eq!(queue.get(), Some("bar"));
        queue.done(&"bar");
        assert_eq!(queue.len(), 0);
        assert_eq!(first, AddOutcome::Queued);
        assert_eq!(
            second,
            AddOutcome::AlreadyQueued,
            "Expected bar to be Touched"
        );
    }

    // client-go util/workqueue/queue_test.go TestCollapseWhileProcessing.
    // The second worker's blocking `Get` becomes: nothing to get until `Done`.
    #[test]
    fn test_collapse_while_processing() {
        let mut queue = Queue::default();
        queue.add("foo");
        assert_eq!(queue.get(), Some("foo"));
        let outcomes = [queue.add("foo"), queue.add("foo")];
        assert_eq!(
            queue.get(),
            None,
            "worker should be blocked until we are done"
        );
        queue.done(&"foo");
        assert_eq!(queue.get(), Some("foo"));
        queue.done(&"foo");
        assert_eq!(queue.len(), 0);
        assert_eq!(outcomes, [AddOutcome::Deferred; 2], "Unexpected Touch");
    }

    #[test]
    fn done_for_a_key_never_handed_out_changes_nothing() {
        let mut queue = Queue::default();
        queue.add("cr");
        assert!(!queue.done(&"cr"));
        assert_eq!(queue.len(), 1, "upstream would hold cr twice");
    }
}
