//! Several custom resources, one controller (issue 29 step 5): each key is
//! reconciled alone, against the objects it controls, through one work queue.

use std::sync::Arc;

use reconcile_core::{parse_resources, Document};
use reconcile_sim::ownership::{ObjectKey, CUSTOM_RESOURCE};
use reconcile_sim::{
    simulate, simulate_custom_resources, CustomResourceScenario, CustomResources,
    CustomResourcesError, SimConfig, SimScenario, Timeline, Verdict,
};

fn scenario(desired: &str, observed: &str) -> SimScenario {
    SimScenario {
        desired: parse_resources(Document::Desired, desired).expect("valid"),
        observed: parse_resources(Document::Observed, observed).expect("valid"),
        finalizers: None,
    }
}

fn entry(name: &str, desired: &str, observed: &str) -> CustomResourceScenario {
    CustomResourceScenario {
        name: Arc::from(name),
        scenario: scenario(desired, observed),
    }
}

fn two() -> CustomResources {
    CustomResources::new(vec![
        entry(
            "cache-a",
            r#"{"cache-a-0": {"image": "redis:7"}, "cache-a-1": {"image": "redis:7"}}"#,
            r#"{"cache-a-0": {"image": "redis:6"}}"#,
        ),
        entry(
            "cache-b",
            r#"{"cache-b-0": {"image": "redis:7"}}"#,
            r#"{"cache-b-9": {"image": "redis:6"}}"#,
        ),
    ])
    .expect("unique names")
}

fn keys(timeline: &Timeline) -> Vec<String> {
    let keys = timeline
        .passes
        .iter()
        .map(|p| p.custom_resource.to_string());
    keys.collect()
}

#[test]
fn each_custom_resource_converges_on_its_own_objects() {
    let timeline = simulate_custom_resources(&two(), &SimConfig::default());
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{:?}",
        timeline.verdict
    );
    let world = &timeline.final_world;
    let names: Vec<&str> = world.observed.names().collect();
    assert_eq!(names, ["cache-a-0", "cache-a-1", "cache-b-0"]);
    for (object, owner) in [
        ("cache-a-0", "cache-a"),
        ("cache-a-1", "cache-a"),
        ("cache-b-0", "cache-b"),
    ] {
        let meta = world.meta(object).expect("stored");
        let controller = meta.owner_references.controlling_custom_resource();
        assert_eq!(controller.map(|c| &**c), Some(owner), "{object}");
    }
    // The informer lists both; the queue hands them out in that order.
    assert_eq!(keys(&timeline)[..2], ["cache-a", "cache-b"]);
}

#[test]
fn a_pass_reads_only_what_its_custom_resource_controls() {
    let timeline = simulate_custom_resources(&two(), &SimConfig::default());
    for pass in &timeline.passes {
        for outcome in &pass.actions {
            let prefix = format!("{}-", pass.custom_resource);
            assert!(
                outcome.action.name.starts_with(&prefix),
                "pass {} of {} acted on {}",
                pass.index,
                pass.custom_resource,
                outcome.action.name
            );
        }
    }
}

#[test]
fn one_entry_named_custom_resource_is_the_scenario_itself() {
    let one = scenario(r#"{"web": {"replicas": 2}}"#, r#"{"old": {}}"#);
    let listed = CustomResources::new(vec![CustomResourceScenario {
        name: Arc::from(CUSTOM_RESOURCE),
        scenario: one.clone(),
    }])
    .expect("one entry");
    let config = SimConfig::default();
    let (a, b) = (
        simulate(&one, &config),
        simulate_custom_resources(&listed, &config),
    );
    let json = |t: &Timeline| serde_json::to_string(t).expect("serializes");
    assert_eq!(json(&a), json(&b));
    let pass = serde_json::to_value(&a.passes[0]).expect("serializes");
    assert!(
        pass.get("customResource").is_none(),
        "the one key is left out"
    );
    let listed = simulate_custom_resources(&two(), &config);
    let pass = serde_json::to_value(&listed.passes[0]).expect("serializes");
    assert_eq!(pass["customResource"], "cache-a");
}

#[test]
fn repeated_names_are_refused() {
    let repeated = CustomResources::new(vec![
        entry("a", "{}", r#"{"x": {}}"#),
        entry("a", "{}", "{}"),
    ]);
    assert_eq!(
        repeated,
        Err(CustomResourcesError::Repeated {
            entry: 1,
            object: None,
            name: "a".to_owned()
        })
    );
    let shared_object = CustomResources::new(vec![
        entry("a", "{}", r#"{"x": {}}"#),
        entry("b", "{}", r#"{"x": {}}"#),
    ]);
    assert!(matches!(
        shared_object,
        Err(CustomResourcesError::Repeated {
            entry: 1,
            object: Some(_),
            ..
        })
    ));
    assert_eq!(
        CustomResources::new(Vec::new()),
        Err(CustomResourcesError::Empty)
    );
}

#[test]
fn each_custom_resource_is_stored_before_the_objects() {
    let world = two().world();
    let a = world
        .get(&ObjectKey::custom_resource("cache-a"))
        .expect("a");
    let b = world
        .get(&ObjectKey::custom_resource("cache-b"))
        .expect("b");
    assert_eq!((a.meta.uid, b.meta.uid), (1, 2));
    assert_eq!(world.meta("cache-a-0").expect("object").uid, 3);
}

/// `count` custom resources with `objects` objects each, none created yet.
fn many(count: usize, objects: usize) -> CustomResources {
    let entries = (0..count)
        .map(|i| {
            let desired: Vec<String> = (0..objects)
                .map(|j| format!(r#""cr-{i}-{j}": {{"replicas": {j}}}"#))
                .collect();
            entry(
                &format!("cr-{i}"),
                &format!("{{{}}}", desired.join(",")),
                "{}",
            )
        })
        .collect();
    CustomResources::new(entries).expect("unique names")
}

fn with_workers(workers: usize) -> SimConfig {
    SimConfig {
        workers,
        max_passes: 1_000,
        ..SimConfig::default()
    }
}

#[test]
fn workers_run_passes_at_once_but_never_one_key_twice() {
    let timeline = simulate_custom_resources(&many(8, 3), &with_workers(4));
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{:?}",
        timeline.verdict
    );
    let passes = &timeline.passes;
    let overlap = |a: &reconcile_sim::PassRecord, b: &reconcile_sim::PassRecord| {
        a.started_at < b.finished_at && b.started_at < a.finished_at
    };
    let mut concurrent = false;
    for (i, a) in passes.iter().enumerate() {
        for b in &passes[i + 1..] {
            if overlap(a, b) {
                concurrent = true;
                assert_ne!(
                    a.custom_resource, b.custom_resource,
                    "passes {} and {}",
                    a.index, b.index
                );
            }
        }
    }
    assert!(concurrent, "four workers run passes at once");
    let at_once = passes
        .iter()
        .filter(|p| p.started_at == passes[0].started_at)
        .count();
    assert_eq!(at_once, 4, "four keys start together");
}

#[test]
fn more_workers_reach_the_same_world_sooner() {
    let scenario = many(8, 3);
    let one = simulate_custom_resources(&scenario, &with_workers(1));
    let four = simulate_custom_resources(&scenario, &with_workers(4));
    assert_eq!(one.final_world, four.final_world);
    let time = |t: &Timeline| match t.verdict {
        Verdict::Converged { time, .. } => time,
        ref other => panic!("{other:?}"),
    };
    assert!(
        time(&four) * 2 < time(&one),
        "{} against {}",
        time(&four),
        time(&one)
    );
    // Deterministic, as every run is.
    let again = simulate_custom_resources(&scenario, &with_workers(4));
    let json = |t: &Timeline| serde_json::to_string(t).expect("serializes");
    assert_eq!(json(&four), json(&again));
}

#[test]
fn a_crash_ends_every_worker_s_reconcile() {
    let config = SimConfig {
        crash: Some(reconcile_sim::CrashPlan {
            at_pass: 2,
            after_actions: 1,
        }),
        ..with_workers(4)
    };
    let timeline = simulate_custom_resources(&many(4, 3), &config);
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{:?}",
        timeline.verdict
    );
    let crash_at = timeline.passes[1].finished_at;
    let cut: Vec<usize> = timeline
        .passes
        .iter()
        .filter(|p| p.crashed)
        .map(|p| p.index)
        .collect();
    assert!(cut.contains(&2) && cut.len() > 1, "{cut:?}");
    for pass in timeline.passes.iter().filter(|p| p.crashed) {
        assert!(
            pass.finished_at <= crash_at,
            "pass {} ran past the crash",
            pass.index
        );
    }
}

#[test]
fn the_workers_option_is_checked() {
    let error = reconcile_sim::parse_options(r#"{"workers": 0}"#).expect_err("zero");
    assert_eq!(
        error.to_string(),
        "Simulation options at $.workers: expected from 1 to 64 workers"
    );
    let config = reconcile_sim::parse_options(r#"{"workers": 4}"#).expect("four");
    assert_eq!(config.workers, 4);
}

/// client-go's `DefaultControllerRateLimiter` is the larger of a per-item
/// exponential delay and one token bucket for every key (10 qps, burst 100):
/// with many keys failing at once, the bucket binds and spaces them 100 ms apart.
#[test]
fn many_failing_keys_share_client_go_s_bucket() {
    let config = SimConfig {
        failure_rate: 1.0,
        max_passes: 300,
        ..with_workers(4)
    };
    let timeline = simulate_custom_resources(&many(150, 1), &config);
    let delays: Vec<(u32, u64)> = timeline
        .passes
        .iter()
        .filter_map(|pass| {
            let failed = pass
                .actions
                .iter()
                .find_map(|outcome| match outcome.result {
                    reconcile_sim::ActionResult::Failed { requeued_at, .. } => Some(requeued_at),
                    _ => None,
                })?;
            let failures = match pass.trigger {
                reconcile_sim::Trigger::Requeue { failures } => failures,
                _ => 0,
            };
            Some((failures, failed.saturating_sub(pass.finished_at)))
        })
        .collect();
    // The first 100 take a token at once: the per-item 5 ms.
    assert!(
        delays[..100].iter().all(|&(_, delay)| delay == 5),
        "{:?}",
        &delays[..100]
    );
    // Then the bucket (what refilled while they ran aside): each later
    // failure waits for its own token, about 100 ms after the last.
    let first_failures: Vec<u64> = delays[100..150].iter().map(|&(_, d)| d).collect();
    let waited = first_failures.iter().filter(|&&d| d > 5).count();
    assert!(waited >= 45, "{first_failures:?}");
    assert!(
        first_failures.windows(2).all(|w| w[1] >= w[0]),
        "{first_failures:?}"
    );
    assert!(
        *first_failures.last().expect("50") >= 4_000,
        "{first_failures:?}"
    );
}

/// The work queue is first in, first out: a key that keeps failing waits
/// its backoff behind the others, so it never starves them.
#[test]
fn a_failing_key_does_not_starve_the_others() {
    let mut entries: Vec<CustomResourceScenario> = (0..5)
        .map(|i| {
            entry(
                &format!("ok-{i}"),
                &format!(r#"{{"ok-{i}-0": {{}}}}"#),
                "{}",
            )
        })
        .collect();
    // `bad` names the pod ok-0 owns: its CREATE gets 409 AlreadyExists
    // every time. (The simulated API server does not check name syntax.)
    entries[0] = entry("ok-0", r#"{"ok-0-0": {}}"#, r#"{"ok-0-0": {}}"#);
    entries.insert(0, entry("bad", r#"{"ok-0-0": {}}"#, "{}"));
    let scenario = CustomResources::new(entries).expect("unique names");
    let timeline = simulate_custom_resources(&scenario, &with_workers(1));
    for i in 0..5 {
        let name = format!("ok-{i}-0");
        assert!(
            timeline.final_world.observed.contains(&name),
            "{name} was created"
        );
    }
    let first_ok = timeline
        .passes
        .iter()
        .position(|p| p.custom_resource.starts_with("ok-"));
    assert_eq!(
        first_ok,
        Some(1),
        "the next key runs right after the failing one"
    );
    let failed = |p: &reconcile_sim::PassRecord| {
        (p.actions.iter()).any(|o| matches!(o.result, reconcile_sim::ActionResult::Failed { .. }))
    };
    let bad: Vec<_> = timeline
        .passes
        .iter()
        .filter(|p| &*p.custom_resource == "bad")
        .collect();
    assert!(
        bad.len() > 3 && bad.iter().all(|p| failed(p)),
        "bad fails every time"
    );
}

/// A pass that runs to the end of simulated time, a short resync period,
/// idle workers: the ticks a busy worker makes useless are skipped, or
/// the run takes 10^16 of them (found by the `simulate` fuzz target).
#[test]
fn a_pass_that_never_ends_costs_no_resync_ticks() {
    let slow = |workers, period| SimConfig {
        action_ms: u64::MAX,
        resync_period_ms: Some(period),
        ..with_workers(workers)
    };
    let one = many(1, 2);
    for workers in 1..=3 {
        let timeline = simulate_custom_resources(&one, &slow(workers, 314));
        assert!(!timeline.passes.is_empty(), "{workers} workers");
    }
    // Two keys, one worker: no worker is free while it runs.
    let timeline = simulate_custom_resources(&many(2, 2), &slow(1, 1));
    assert!(!timeline.passes.is_empty());
}

/// The picture's work queue names each key and what each worker holds,
/// as the timeline ran them; with one of each it lists nothing more.
#[test]
fn the_picture_shows_each_worker_s_key_and_the_keys_in_line() {
    use reconcile_sim::picture::{KeyState, PictureReplay, Position};
    let (scenario, config) = (many(6, 2), with_workers(2));
    let timeline = simulate_custom_resources(&scenario, &config);
    let mut replay = PictureReplay::of_custom_resources(&scenario, &config);
    let start = timeline.events.start_of(2).expect("a second pass");
    let picture = replay.at(Position::Event(start)).expect("its picture");
    let queue = &picture.queue;
    assert_eq!(queue.keys.len(), 6, "{queue:?}");
    assert_eq!(queue.workers.len(), 2);
    // Passes 1 and 2 start together, one on each worker.
    let held: Vec<&str> = queue.workers.iter().flatten().map(|k| &**k).collect();
    let running: Vec<&str> = timeline.passes[..2]
        .iter()
        .map(|p| &*p.custom_resource)
        .collect();
    assert_eq!(held, running);
    let in_line: Vec<&str> = queue
        .keys
        .iter()
        .filter(|k| matches!(k.state, KeyState::Ready { .. }))
        .map(|k| &*k.key)
        .collect();
    assert_eq!(in_line, ["cr-2", "cr-3", "cr-4", "cr-5"]);
    assert!(matches!(
        queue.keys[0].state,
        KeyState::Held { worker: 0, .. }
    ));

    let one = many(1, 2);
    let mut replay = PictureReplay::of_custom_resources(&one, &SimConfig::default());
    let picture = replay.at(Position::Event(0)).expect("a picture");
    assert!(picture.queue.keys.is_empty() && picture.queue.workers.is_empty());
}

/// A key waiting for its requeue is pictured with the time it is due.
#[test]
fn the_picture_shows_a_failed_key_waiting_for_its_requeue() {
    use reconcile_sim::picture::{KeyState, PictureReplay, Position};
    // `bad` names a pod `ok` owns: its CREATE gets 409 AlreadyExists.
    let scenario = CustomResources::new(vec![
        entry("bad", r#"{"ok-0": {}}"#, "{}"),
        entry("ok", r#"{"ok-0": {}}"#, r#"{"ok-0": {}}"#),
    ])
    .expect("unique names");
    let config = with_workers(1);
    let timeline = simulate_custom_resources(&scenario, &config);
    let failed = &timeline.passes[0];
    assert_eq!(&*failed.custom_resource, "bad");
    let requeued_at = failed
        .actions
        .iter()
        .find_map(|o| match o.result {
            reconcile_sim::ActionResult::Failed { requeued_at, .. } => Some(requeued_at),
            _ => None,
        })
        .unwrap_or_else(|| panic!("the CREATE fails: {failed:?}"));
    let start = timeline.events.start_of(2).expect("a second pass");
    let mut replay = PictureReplay::of_custom_resources(&scenario, &config);
    let picture = replay.at(Position::Event(start)).expect("its picture");
    let bad = picture.queue.keys.iter().find(|k| &*k.key == "bad");
    let bad = bad.expect("listed");
    assert_eq!(bad.state, KeyState::Waiting { until: requeued_at });
    assert_eq!(bad.requeues, 1);
}
