//! Ported from kube 4.2.0 kube-runtime/src/scheduler.rs `mod tests` (all of
//! it). tokio's paused clock becomes explicit times; `poll!(next())` being
//! pending is `hold_unless(now, |_| true)` returning `None`. A request sent
//! on the channel is scheduled at the next poll, which is when upstream reads it.
//! The end of the request stream (`next()` returning `None`) is not modelled:
//! those steps check that nothing more is emitted.

use super::*;

fn secs(n: u64) -> Time {
    Duration::from_secs(n)
}

/// `scheduler.next()` at `now`.
fn next<K: Ord + Clone, M>(scheduler: &mut KubeScheduler<K, M>, now: Time) -> Option<(K, M)> {
    scheduler.hold_unless(now, |_| true)
}

// scheduler.rs tests::scheduler_should_hold_and_release_items
#[test]
fn scheduler_should_hold_and_release_items() {
    let mut scheduler = KubeScheduler::default();
    scheduler.schedule(1_u8, (), Time::ZERO, Time::ZERO);
    assert!(!scheduler.is_pending(&1));
    assert!(scheduler.hold_unless(Time::ZERO, |_| false).is_none());
    assert!(scheduler.is_pending(&1));
    assert_eq!(scheduler.hold_unless(Time::ZERO, |_| true), Some((1, ())));
    assert!(!scheduler.is_pending(&1));
    assert!(next(&mut scheduler, secs(4)).is_none());
}

// scheduler.rs tests::scheduler_should_not_reschedule_pending_items
#[test]
fn scheduler_should_not_reschedule_pending_items() {
    let mut scheduler = KubeScheduler::default();
    scheduler.schedule(1_u8, (), Time::ZERO, Time::ZERO);
    assert!(scheduler.hold_unless(Time::ZERO, |_| false).is_none());
    let again = scheduler.schedule(1, (), Time::ZERO, Time::ZERO);
    assert_eq!(again, ScheduleOutcome::DiscardedPending);
    assert_eq!(next(&mut scheduler, Time::ZERO), Some((1, ())));
    assert!(next(&mut scheduler, secs(2)).is_none(), "emitted once");
}

// scheduler.rs tests::scheduler_pending_message_should_not_block_head_of_line
#[test]
fn scheduler_pending_message_should_not_block_head_of_line() {
    let mut scheduler = KubeScheduler::default();
    scheduler.schedule(1_u8, (), Time::ZERO, Time::ZERO);
    scheduler.schedule(2, (), Time::ZERO, Time::ZERO);
    let taken = scheduler.hold_unless(Time::ZERO, |x| *x != 1);
    assert_eq!(taken, Some((2, ())));
}

// scheduler.rs tests::scheduler_should_emit_items_as_requested
#[test]
fn scheduler_should_emit_items_as_requested() {
    let mut scheduler = KubeScheduler::default();
    scheduler.schedule(1_u8, (), secs(1), Time::ZERO);
    scheduler.schedule(2, (), secs(3), Time::ZERO);
    assert!(next(&mut scheduler, Time::ZERO).is_none());
    assert_eq!(next(&mut scheduler, secs(2)), Some((1, ())));
    assert!(next(&mut scheduler, secs(2)).is_none());
    assert_eq!(next(&mut scheduler, secs(4)), Some((2, ())));
    assert!(next(&mut scheduler, secs(5)).is_none());
}

/// The two dedupe tests: one object requested at `first`, then at `second`;
/// emitted once, at the earlier time.
fn dedupe(first: u64, second: u64) {
    let mut scheduler = KubeScheduler::default();
    scheduler.schedule((), (), secs(first), Time::ZERO);
    scheduler.schedule((), (), secs(second), Time::ZERO);
    assert_eq!(scheduler.next_run_at(), Some(secs(first.min(second))));
    assert!(next(&mut scheduler, Time::ZERO).is_none());
    assert!(next(&mut scheduler, secs(2)).is_some());
    assert!(next(&mut scheduler, secs(5)).is_none(), "emitted once");
}

// scheduler.rs tests::scheduler_dedupe_should_keep_earlier_item
#[test]
fn scheduler_dedupe_should_keep_earlier_item() {
    dedupe(1, 3);
}

// scheduler.rs tests::scheduler_dedupe_should_replace_later_item
#[test]
fn scheduler_dedupe_should_replace_later_item() {
    dedupe(3, 1);
}

// scheduler.rs tests::scheduler_dedupe_should_allow_rescheduling_emitted_item
#[test]
fn scheduler_dedupe_should_allow_rescheduling_emitted_item() {
    let mut scheduler = KubeScheduler::default();
    scheduler.schedule((), (), secs(1), Time::ZERO);
    assert!(next(&mut scheduler, Time::ZERO).is_none());
    assert!(next(&mut scheduler, secs(2)).is_some());
    assert!(next(&mut scheduler, secs(2)).is_none());
    let again = scheduler.schedule((), (), secs(3), secs(2));
    assert_eq!(again, ScheduleOutcome::Scheduled { run_at: secs(3) });
    assert!(next(&mut scheduler, secs(2)).is_none());
    assert!(next(&mut scheduler, secs(4)).is_some());
    assert!(next(&mut scheduler, secs(4)).is_none());
}

/// Every message emitted up to `until`, in order (`collect` of the stream).
fn collect<M>(scheduler: &mut KubeScheduler<(), M>, until: Time) -> Vec<M> {
    let mut emitted = Vec::new();
    while let Some(at) = scheduler.next_run_at().filter(|at| *at <= until) {
        emitted.extend(next(scheduler, at).map(|(_, message)| message));
    }
    emitted
}

// scheduler.rs tests::scheduler_should_overwrite_message_with_soonest_version.
// `SingletonMessage(n)` is the object `()` with the message `n`.
#[test]
fn scheduler_should_overwrite_message_with_soonest_version() {
    let mut scheduler = KubeScheduler::default();
    scheduler.schedule((), 1_u8, secs(2), Time::ZERO);
    scheduler.schedule((), 2, secs(1), Time::ZERO);
    assert_eq!(collect(&mut scheduler, secs(5)), vec![2]);
}

// scheduler.rs tests::scheduler_should_not_overwrite_message_with_later_version
#[test]
fn scheduler_should_not_overwrite_message_with_later_version() {
    let mut scheduler = KubeScheduler::default();
    scheduler.schedule((), 1_u8, secs(1), Time::ZERO);
    let later = scheduler.schedule((), 2, secs(2), Time::ZERO);
    assert_eq!(later, ScheduleOutcome::KeptEarlier { run_at: secs(1) });
    assert_eq!(collect(&mut scheduler, secs(5)), vec![1]);
}

// scheduler.rs tests::scheduler_should_add_debounce_to_a_request: sent at 0,
// read by the poll after `advance(1s)`.
#[test]
fn scheduler_should_add_debounce_to_a_request() {
    let mut scheduler = KubeScheduler::new(secs(2));
    let scheduled = scheduler.schedule((), 1_u8, Time::ZERO, secs(1));
    assert_eq!(scheduled, ScheduleOutcome::Scheduled { run_at: secs(2) });
    assert!(next(&mut scheduler, secs(1)).is_none());
    assert_eq!(next(&mut scheduler, secs(4)), Some(((), 1)));
}

// scheduler.rs tests::scheduler_should_dedup_message_within_debounce_period:
// the second request (run_at 1 s) is read by the poll at 3.5 s, before the
// first (due at 3 s) is popped.
#[test]
fn scheduler_should_dedup_message_within_debounce_period() {
    let mut scheduler = KubeScheduler::new(secs(3));
    scheduler.schedule((), 1_u8, Time::ZERO, Time::ZERO);
    assert!(next(&mut scheduler, Time::ZERO).is_none());
    let at = Duration::from_millis(3_500);
    let second = scheduler.schedule((), 2, secs(1), at);
    let pushed_back = ScheduleOutcome::Replaced {
        previous: secs(3),
        run_at: secs(4),
    };
    assert_eq!(second, pushed_back);
    assert!(next(&mut scheduler, at).is_none());
    assert_eq!(next(&mut scheduler, at + secs(3)), Some(((), 2)));
    assert!(next(&mut scheduler, at + secs(3)).is_none());
}

#[test]
fn nothing_is_scheduled_beyond_six_months_from_now() {
    let mut scheduler = KubeScheduler::<u8, ()>::default();
    let now = secs(10);
    let far = scheduler.schedule(1, (), Duration::MAX, now);
    let horizon = now + MAX_SCHEDULE;
    assert_eq!(far, ScheduleOutcome::Scheduled { run_at: horizon });
    // The slot's time is the clamped one, so a later far request is no later.
    let again = scheduler.schedule(1, (), Duration::MAX, now);
    assert_eq!(again, ScheduleOutcome::KeptEarlier { run_at: horizon });
}

#[test]
fn pending_messages_come_out_in_the_order_they_became_pending() {
    let mut scheduler = KubeScheduler::default();
    scheduler.schedule(2_u8, (), secs(1), Time::ZERO);
    scheduler.schedule(1, (), secs(2), Time::ZERO);
    scheduler.hold(secs(2));
    assert_eq!(scheduler.pending_len(), 2);
    assert_eq!(next(&mut scheduler, secs(2)), Some((2, ())));
    assert_eq!(next(&mut scheduler, secs(2)), Some((1, ())));
}
