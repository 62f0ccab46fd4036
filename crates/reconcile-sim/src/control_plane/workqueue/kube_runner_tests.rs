//! Ported from kube 4.2.0 kube-runtime/src/controller/runner.rs `mod tests`
//! (the cases on a paused clock or without one); then the applier's
//! rescheduling, which upstream tests only under load.

use super::*;
use crate::workqueue::BackoffPolicy;

use ReconcileReason::{ErrorPolicyRequestedRetry, ObjectUpdated, ReconcilerRequestedRetry};

fn secs(n: u64) -> Time {
    Duration::from_secs(n)
}

/// Only the keys of what `poll` started.
fn started<K: Ord + Clone>(runner: &mut KubeRunner<K>, now: Time) -> Vec<K> {
    runner.poll(now).into_iter().map(|(key, _)| key).collect()
}

// runner.rs tests::runner_should_never_run_two_instances_at_once: each run
// takes 1 s; the second request comes while the first runs.
#[test]
fn runner_should_never_run_two_instances_at_once() {
    let mut runner = KubeRunner::default();
    let mut count = 0;
    runner.trigger((), ObjectUpdated, Time::ZERO);
    count += started(&mut runner, Time::ZERO).len();
    runner.trigger((), ObjectUpdated, Time::ZERO);
    assert!(started(&mut runner, Time::ZERO).is_empty(), "() is running");
    assert!(runner.scheduler().is_pending(&()));
    runner.done(&());
    count += started(&mut runner, secs(1)).len();
    runner.done(&());
    assert!(started(&mut runner, secs(2)).is_empty());
    // Validate that we actually ran both requests
    assert_eq!(count, 2);
}

// runner.rs tests::runner_should_wait_for_readiness
#[test]
fn runner_should_wait_for_readiness() {
    let mut runner = KubeRunner::default();
    runner.set_ready_to_execute(false);
    runner.trigger(1_u8, ObjectUpdated, Time::ZERO);
    assert!(started(&mut runner, Time::ZERO).is_empty());
    runner.set_ready_to_execute(true);
    assert_eq!(started(&mut runner, Time::ZERO), vec![1]);
}

// runner.rs tests::runner_should_dedupe_while_waiting_for_readiness
#[test]
fn runner_should_dedupe_while_waiting_for_readiness() {
    let mut runner = KubeRunner::default();
    runner.set_ready_to_execute(false);
    for key in ['a', 'b', 'a'] {
        runner.trigger(key, ObjectUpdated, Time::ZERO);
    }
    assert!(started(&mut runner, Time::ZERO).is_empty());
    runner.set_ready_to_execute(true);
    let mut runs = started(&mut runner, Time::ZERO);
    for key in runs.clone() {
        runner.done(&key);
    }
    runs.extend(started(&mut runner, secs(1)));
    runs.sort_unstable();
    assert_eq!(runs, vec!['a', 'b'], "each once");
}

// runner.rs tests::runner_should_respect_max_concurrent_executions: each run
// takes 2 s (done once more than 2 s have passed). The second half (the
// runner stops once the request stream ends) is not modelled.
#[test]
fn runner_should_respect_max_concurrent_executions() {
    let mut runner = KubeRunner::new(KubeConfig {
        concurrency: 2,
        ..KubeConfig::default()
    });
    let mut count = 0;
    for key in [1_u8, 2, 3] {
        runner.trigger(key, ObjectUpdated, Time::ZERO);
        count += started(&mut runner, Time::ZERO).len();
    }
    // Assert that we only ran two out of the three requests
    assert_eq!(count, 2);
    assert!(runner.scheduler().is_pending(&3));
    runner.done(&1);
    runner.done(&2);
    count += started(&mut runner, secs(3)).len();
    // Assert that we run the third request when we have the capacity to
    assert_eq!(count, 3);
    runner.done(&3);
    assert!(started(&mut runner, secs(6)).is_empty());
    // Send the third message again and check it's ran
    runner.trigger(3, ObjectUpdated, secs(6));
    count += started(&mut runner, secs(9)).len();
    assert_eq!(count, 4);
}

#[test]
fn error_policy_requeue_runs_after_the_fixed_delay() {
    let policy = BackoffPolicy::FixedDelay { delay_ms: 5_000 };
    let retry = policy.kube_error_policy().expect("fixed delay");
    let mut runner = KubeRunner::default();
    runner.trigger("cm", ObjectUpdated, Time::ZERO);
    assert_eq!(runner.poll(Time::ZERO), vec![("cm", ObjectUpdated)]);
    let requeued = runner.finish(&"cm", RunResult::Failed(retry), secs(1));
    assert_eq!(
        requeued,
        Some(ScheduleOutcome::Scheduled { run_at: secs(6) })
    );
    assert_eq!(runner.next_run_at(), Some(secs(6)));
    assert!(runner.poll(secs(5)).is_empty());
    let again = vec![("cm", ErrorPolicyRequestedRetry)];
    assert_eq!(runner.poll(secs(6)), again, "the same delay every time");
}

#[test]
fn a_watch_event_during_a_reconcile_runs_next_and_drops_its_requeue() {
    let mut runner = KubeRunner::default();
    runner.trigger("cm", ObjectUpdated, Time::ZERO);
    runner.poll(Time::ZERO);
    // Due at once, but "cm" is running: held pending.
    runner.trigger("cm", ObjectUpdated, secs(1));
    assert!(runner.poll(secs(1)).is_empty());
    let requeue = RunResult::Reconciled(Action::requeue(secs(300)));
    let dropped = runner.finish(&"cm", requeue, secs(2));
    assert_eq!(dropped, Some(ScheduleOutcome::DiscardedPending));
    assert_eq!(runner.next_run_at(), None, "no timer: the requeue is gone");
    assert_eq!(runner.poll(secs(2)), vec![("cm", ObjectUpdated)]);
    let settled = runner.finish(
        &"cm",
        RunResult::Reconciled(Action::await_change()),
        secs(3),
    );
    assert_eq!(settled, None);
    assert!(runner.poll(secs(400)).is_empty());
}

#[test]
fn a_later_requeue_keeps_the_earlier_slot_and_its_reason() {
    let mut runner = KubeRunner::default();
    runner.trigger("cm", ObjectUpdated, Time::ZERO);
    runner.poll(Time::ZERO);
    // Not due yet, so not pending: scheduled while "cm" runs.
    runner.schedule("cm", ObjectUpdated, secs(10), Time::ZERO);
    let requeue = RunResult::Reconciled(Action::requeue(secs(60)));
    let kept = runner.finish(&"cm", requeue, secs(1));
    assert_eq!(
        kept,
        Some(ScheduleOutcome::KeptEarlier { run_at: secs(10) })
    );
    let sooner = runner.finish(&"cm", RunResult::Failed(Action::requeue(secs(2))), secs(1));
    let replaced = ScheduleOutcome::Replaced {
        previous: secs(10),
        run_at: secs(3),
    };
    assert_eq!(sooner, Some(replaced));
    assert_eq!(
        runner.poll(secs(3)),
        vec![("cm", ErrorPolicyRequestedRetry)]
    );
}

#[test]
fn object_not_found_schedules_nothing_and_frees_the_slot() {
    let mut runner = KubeRunner::default();
    runner.trigger("gone", ObjectUpdated, Time::ZERO);
    runner.poll(Time::ZERO);
    assert!(runner.is_running(&"gone"));
    assert_eq!(
        runner.finish(&"gone", RunResult::ObjectNotFound, secs(1)),
        None
    );
    assert_eq!((runner.running_len(), runner.next_run_at()), (0, None));
    let forever = RunResult::Reconciled(Action::requeue(Duration::MAX));
    runner.trigger("cm", ReconcilerRequestedRetry, secs(1));
    runner.poll(secs(1));
    let clamped = ScheduleOutcome::Scheduled {
        run_at: secs(2) + MAX_SCHEDULE,
    };
    assert_eq!(runner.finish(&"cm", forever, secs(2)), Some(clamped));
}
