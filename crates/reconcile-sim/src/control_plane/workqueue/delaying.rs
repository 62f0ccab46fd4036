//! client-go's delaying queue (`util/workqueue/delaying_queue.go`) on the fake
//! clock. Upstream's `waitingLoop` goroutine becomes two calls the
//! discrete-event engine makes: [`DelayingQueue::next_ready_at`] (when to wake
//! up) and [`DelayingQueue::move_ready`] (what the loop does when it wakes).

use std::time::Duration;

use super::queue::{AddOutcome, Queue};
use super::Time;
use crate::sorted::{SortedMap, SortedSet};

/// What `add_after` did with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddAfterOutcome {
    /// No delay: `Add`ed at once.
    AddedNow { added: AddOutcome },
    /// A new waiting entry, moved into the queue at `ready_at`.
    Waiting { ready_at: Time },
    /// The key was waiting already: still one entry, due at the earlier of its
    /// time and the requested one (`insert` in delaying_queue.go).
    Deduplicated { requested: Time, ready_at: Time },
}

/// `delayingType[T]`: a [`Queue`] (reached through `Deref`, as Go embeds it)
/// plus the entries waiting for their time.
#[derive(Debug, Clone)]
pub struct DelayingQueue<K: Ord + Clone> {
    queue: Queue<K>,
    /// Each waiting key's ready time and insertion number.
    waiting: SortedMap<K, (Time, u64)>,
    /// The same entries in the order they become ready. Ties go in insertion
    /// order (upstream's heap leaves it unspecified).
    by_ready: SortedSet<(Time, u64, K)>,
    inserted: u64,
}

impl<K: Ord + Clone> Default for DelayingQueue<K> {
    fn default() -> Self {
        Self {
            queue: Queue::default(),
            waiting: SortedMap::new(),
            by_ready: SortedSet::new(),
            inserted: 0,
        }
    }
}

super::embed!(DelayingQueue, Queue, queue);

impl<K: Ord + Clone> DelayingQueue<K> {
    /// `AddAfter`: adds `key` once `delay` has passed since `now`. A zero delay
    /// adds it now (upstream: any non-positive one). A waiting entry is neither
    /// touched by a plain `add` nor cancelled when the key is processed.
    pub fn add_after(&mut self, key: K, delay: Duration, now: Time) -> AddAfterOutcome {
        let ready_at = now.saturating_add(delay);
        // The loop also adds an entry that is no longer in the future.
        if delay.is_zero() || ready_at <= now {
            let added = self.queue.add(key);
            return AddAfterOutcome::AddedNow { added };
        }
        match self.waiting.get(&key).copied() {
            None => {
                self.waiting.insert(key.clone(), (ready_at, self.inserted));
                self.by_ready.insert((ready_at, self.inserted, key));
                self.inserted += 1;
                AddAfterOutcome::Waiting { ready_at }
            }
            Some((existing, seq)) => {
                // Only ever moved earlier.
                if ready_at < existing {
                    self.by_ready.remove(&(existing, seq, key.clone()));
                    self.by_ready.insert((ready_at, seq, key.clone()));
                    self.waiting.insert(key, (ready_at, seq));
                }
                AddAfterOutcome::Deduplicated {
                    requested: ready_at,
                    ready_at: ready_at.min(existing),
                }
            }
        }
    }

    /// Adds every entry due at or before `now` to the queue, earliest first
    /// (the top of `waitingLoop`), and says what each add did.
    pub fn move_ready(&mut self, now: Time) -> Vec<(K, AddOutcome)> {
        let mut moved = Vec::new();
        while let Some(first) = self.by_ready.first() {
            if first.0 > now {
                break;
            }
            let Some((_, _, key)) = self.by_ready.pop_first() else {
                break;
            };
            self.waiting.remove(&key);
            let added = self.queue.add(key.clone());
            moved.push((key, added));
        }
        moved
    }

    /// When the earliest waiting entry is due: when the engine should call
    /// `move_ready` next.
    pub fn next_ready_at(&self) -> Option<Time> {
        self.by_ready.first().map(|(at, _, _)| *at)
    }

    /// When `key`'s waiting entry is due, if it has one.
    pub fn ready_at(&self, key: &K) -> Option<Time> {
        self.waiting.get(key).map(|(at, _)| *at)
    }

    /// Entries still waiting (not counted by `len`).
    pub fn waiting_len(&self) -> usize {
        self.waiting.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// upstream's `testingclock.NewFakeClock` and `Step`: the waiting loop
    /// wakes at the new time.
    struct FakeClock<'q> {
        now: Time,
        queue: &'q mut DelayingQueue<&'static str>,
    }

    impl<'q> FakeClock<'q> {
        fn new(queue: &'q mut DelayingQueue<&'static str>) -> Self {
            Self {
                now: Time::ZERO,
                queue,
            }
        }

        fn step(&mut self, by: Duration) {
            self.now += by;
            self.queue.move_ready(self.now);
        }

        fn add_after(&mut self, key: &'static str, delay: Duration) -> AddAfterOutcome {
            self.queue.add_after(key, delay, self.now)
        }

        /// `Get` then `Done`; returns the key.
        fn process(&mut self) -> Option<&'static str> {
            let key = self.queue.get()?;
            self.queue.done(&key);
            Some(key)
        }
    }

    // client-go util/workqueue/delaying_queue_test.go TestSimpleQueue
    #[test]
    fn test_simple_queue() {
        let mut queue = DelayingQueue::default();
        let mut clock = FakeClock::new(&mut queue);
        clock.add_after("foo", ms(50));
        assert_eq!(clock.queue.len(), 0, "should not have added");
        clock.step(ms(60));
        assert_eq!(clock.queue.len(), 1, "should have added");
        clock.process();
        clock.step(Duration::from_secs(10)); // past the next heartbeat
        assert_eq!(clock.queue.len(), 0, "should not have added");
    }

    // client-go util/workqueue/delaying_queue_test.go TestDeduping
    #[test]
    fn test_deduping() {
        let mut queue = DelayingQueue::default();
        let mut clock = FakeClock::new(&mut queue);
        clock.add_after("foo", ms(50));
        clock.add_after("foo", ms(70));
        assert_eq!(clock.queue.len(), 0, "should not have added");
        clock.step(ms(60)); // past the first block, we should receive now
        assert_eq!(clock.queue.len(), 1, "should have added");
        clock.process();
        clock.step(ms(20)); // past the second add
        assert_eq!(clock.queue.len(), 0, "should not have added");

        // Again, but this time the earlier should override.
        clock.add_after("foo", ms(50));
        let merged = clock.add_after("foo", ms(30));
        let due = clock.now + ms(30);
        assert_eq!(
            merged,
            AddAfterOutcome::Deduplicated {
                requested: due,
                ready_at: due
            }
        );
        assert_eq!(clock.queue.len(), 0, "should not have added");
        clock.step(ms(40));
        assert_eq!(clock.queue.len(), 1, "should have added");
        clock.process();
        clock.step(ms(20)); // past the second add
        assert_eq!(clock.queue.len(), 0, "should not have added");
    }

    // client-go util/workqueue/delaying_queue_test.go TestAddTwoFireEarly
    #[test]
    fn test_add_two_fire_early() {
        let mut queue = DelayingQueue::default();
        let mut clock = FakeClock::new(&mut queue);
        clock.add_after("foo", Duration::from_secs(1));
        clock.add_after("bar", ms(50));
        assert_eq!(clock.queue.len(), 0, "should not have added");
        clock.step(ms(60));
        assert_eq!(clock.queue.len(), 1);
        assert_eq!(clock.queue.get(), Some("bar"));
        clock.add_after("baz", Duration::from_secs(2));
        clock.step(Duration::from_secs(1));
        assert_eq!(clock.queue.len(), 1);
        assert_eq!(clock.queue.get(), Some("foo"));
        clock.step(Duration::from_secs(2));
        assert_eq!(clock.queue.len(), 1);
        assert_eq!(clock.queue.get(), Some("baz"));
    }

    // client-go util/workqueue/delaying_queue_test.go TestCopyShifting
    #[test]
    fn test_copy_shifting() {
        let mut queue = DelayingQueue::default();
        let mut clock = FakeClock::new(&mut queue);
        clock.add_after("foo", Duration::from_secs(1));
        clock.add_after("bar", ms(500));
        clock.add_after("baz", ms(250));
        assert_eq!(clock.queue.len(), 0, "should not have added");
        clock.step(Duration::from_secs(2));
        assert_eq!(clock.queue.len(), 3);
        assert_eq!(clock.queue.get(), Some("baz"));
        assert_eq!(clock.queue.get(), Some("bar"));
        assert_eq!(clock.queue.get(), Some("foo"));
    }

    #[test]
    fn a_waiting_entry_survives_a_plain_add_and_fires_again_later() {
        let mut queue = DelayingQueue::default();
        let now = Time::ZERO;
        assert_eq!(
            queue.add_after("k", ms(70), now),
            AddAfterOutcome::Waiting { ready_at: ms(70) }
        );
        let later = AddAfterOutcome::Deduplicated {
            requested: ms(90),
            ready_at: ms(70),
        };
        assert_eq!(
            queue.add_after("k", ms(90), now),
            later,
            "the earlier time stays"
        );
        let added = AddOutcome::Queued;
        assert_eq!(
            queue.add_after("k", Duration::ZERO, now),
            AddAfterOutcome::AddedNow { added }
        );
        assert_eq!(
            (queue.next_ready_at(), queue.waiting_len()),
            (Some(ms(70)), 1)
        );
        assert_eq!(queue.get(), Some("k"));
        // Processing does not cancel the timer: it comes due while "k" is processing.
        assert_eq!(queue.move_ready(ms(70)), vec![("k", AddOutcome::Deferred)]);
        assert!(queue.done(&"k"));
        assert_eq!(queue.next_ready_at(), None);
    }
}
