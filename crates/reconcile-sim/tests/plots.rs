//! The control-plane view's plots: the swimlanes of a run and its backoff
//! series, on presets and lessons with known timelines.

use reconcile_core::{check_scenario, parse_resources, Document};
use reconcile_sim::{
    simulate, BackoffPolicy, BackoffSeries, CrashPlan, DelaySetBy, Millis, Moment, QueueModel,
    Retry, ScriptedEvent, SimConfig, SimScenario, Swimlanes, SyncState, Timeline, WorldEvent,
};

fn preset(id: &str) -> (SimScenario, SimConfig) {
    let preset = reconcile_content::presets::find(id).expect("preset exists");
    let scenario = check_scenario(&preset.desired, &preset.observed, &preset.finalizers)
        .expect("a valid preset");
    (scenario, preset.sim.read().expect("settings"))
}

fn lesson(id: &str) -> (SimScenario, SimConfig) {
    let lesson = reconcile_content::lesson::lessons()
        .iter()
        .find(|l| l.id == id)
        .expect("lesson exists");
    (
        lesson.scenario().expect("valid"),
        lesson.sim_config().expect("settings"),
    )
}

/// A lane as "state word / action words" per column.
fn lane_words(lanes: &Swimlanes, name: &str) -> Vec<String> {
    let lane = lanes.lanes.iter().find(|l| l.name == name).expect("a lane");
    lane.cells
        .iter()
        .map(|cell| match cell.action_words() {
            Some(action) => format!("{} / {action}", cell.word()),
            None => cell.word().to_owned(),
        })
        .collect()
}

#[test]
fn the_seed_example_lanes_through_its_three_passes() {
    let (scenario, config) = preset("basics");
    let lanes = Swimlanes::of(&simulate(&scenario, &config), 20);
    use Moment::*;
    assert_eq!(
        lanes.columns,
        [Start, AfterPass(1), AfterPass(2), AfterPass(3)]
    );
    let names: Vec<&str> = lanes.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(lanes.hidden, 0);
    assert_eq!(
        lane_words(&lanes, "a"),
        ["missing", "in sync / CREATE ok", "in sync", "in sync"]
    );
    assert_eq!(
        lane_words(&lanes, "b"),
        ["drifted", "in sync / UPDATE ok", "in sync", "in sync"]
    );
    // Pass 2 read a cache that had not seen c's delete: its DELETE found c gone.
    assert_eq!(
        lane_words(&lanes, "c"),
        [
            "extra",
            "not there / DELETE ok",
            "not there / DELETE 404, done",
            "not there"
        ]
    );
}

#[test]
fn lanes_cap_many_objects_and_put_the_ones_out_of_sync_first() {
    let pods: Vec<String> = (0..30)
        .map(|i| format!("\"p-{i:02}\": {{\"v\": 1}}"))
        .collect();
    let desired = format!("{{{}}}", pods.join(","));
    let observed = desired
        .replace("\"p-07\": {\"v\": 1}", "\"p-07\": {\"v\": 2}")
        .replace("\"p-03\": {\"v\": 1},", "");
    let scenario = check_scenario(&desired, &observed, "null").expect("valid");
    let config = SimConfig {
        script: vec![ScriptedEvent {
            after_pass: 2,
            event: WorldEvent::Delete {
                name: "p-29".into(),
            },
        }],
        ..SimConfig::default()
    };
    let timeline = simulate(&scenario, &config);
    let lanes = Swimlanes::of(&timeline, 5);
    let names: Vec<&str> = lanes.lanes.iter().map(|l| l.name.as_str()).collect();
    // Out of sync at the start (by name), then the one deleted later, then in sync throughout.
    assert_eq!(names, ["p-03", "p-07", "p-29", "p-00", "p-01"]);
    assert_eq!(lanes.hidden, 25);
    let delete = timeline
        .position_of(Moment::AfterActorEvent(0))
        .expect("the delete is a moment");
    let p29 = &lanes.lanes[2];
    assert_eq!(p29.cells[delete].state, Some(SyncState::Missing));
    assert_eq!(
        p29.cells[delete].action, None,
        "an actor's event is no pass"
    );
    assert_eq!(p29.cells[delete - 1].state, Some(SyncState::InSync));
}

fn retry(pass: usize, started_at: Millis) -> Option<Retry> {
    Some(Retry { pass, started_at })
}

/// Lesson 7 (`backoff`, seed 23): passes 1 to 4 fail, and each requeue
/// waits what client-go's curve says: 5, 10, 20, 40 ms.
#[test]
fn lesson_7_delays_follow_the_client_go_curve() {
    let (scenario, config) = lesson("backoff");
    let series = BackoffSeries::of(&simulate(&scenario, &config), &config.backoff);
    assert_eq!(series.key, "custom-resource");
    let measured: Vec<_> = series
        .points
        .iter()
        .map(|p| (p.failure, p.pass, p.policy_delay, p.scheduled, p.actual()))
        .collect();
    assert_eq!(
        measured,
        [
            (1, 1, 5, Some(5), Some(5)),
            (2, 2, 10, Some(10), Some(10)),
            (3, 3, 20, Some(20), Some(20)),
            (4, 4, 40, Some(40), Some(40)),
        ]
    );
    assert!(series.points.iter().all(|p| p.set_by == DelaySetBy::Curve));
    assert_eq!(series.points[3].retry, retry(5, 116));
    assert!(series.points.iter().all(|p| p.sooner.is_none()));
    assert_eq!(series.curve(4), [5, 10, 20, 40]);
    assert_eq!(series.capped_from(), Some(19));
}

/// The flaky-API preset: a watch event runs the key before its requeue
/// does, a busy worker makes a requeue late, and a success starts the
/// count again.
#[test]
fn flaky_api_delays_against_the_curve() {
    let (scenario, config) = preset("flaky-api");
    let series = BackoffSeries::of(&simulate(&scenario, &config), &config.backoff);
    let measured: Vec<_> = series
        .points
        .iter()
        .map(|p| (p.failure, p.pass, p.scheduled, p.actual(), p.sooner))
        .collect();
    assert_eq!(
        measured,
        [
            // Pass 1 fails at 21; pod-a's watch event runs pass 2 at once,
            // and the requeue, ready at 26, waits for it: pass 3 at 31.
            (1, 1, Some(5), Some(10), Some(2)),
            // Pass 2 fails at 31; ready at 41, while pass 3 (the first
            // failure's requeue) runs until 51.
            (2, 2, Some(10), Some(20), Some(3)),
            // Pass 3 succeeded: the count starts again at 1.
            (1, 4, Some(5), Some(5), Some(5)),
        ]
    );
    let retries: Vec<Option<usize>> = series
        .points
        .iter()
        .map(|p| p.retry.map(|r| r.pass))
        .collect();
    assert_eq!(retries, [Some(3), Some(4), Some(6)]);
    assert!(series.points.iter().all(|p| p.set_by == DelaySetBy::Curve));
}

fn always_failing(backoff: BackoffPolicy, queue: QueueModel, max_passes: usize) -> Timeline {
    let (scenario, config) = lesson("backoff");
    simulate(
        &scenario,
        &SimConfig {
            failure_rate: 1.0,
            backoff,
            queue,
            max_passes,
            ..config
        },
    )
}

#[test]
fn kube_rs_fixed_policy_is_a_flat_curve() {
    let policy = BackoffPolicy::FixedDelay { delay_ms: 1_000 };
    let timeline = always_failing(policy.clone(), QueueModel::KubeRs, 8);
    let series = BackoffSeries::of(&timeline, &policy);
    assert_eq!(series.curve(12), [1_000; 12]);
    assert_eq!(series.capped_from(), None);
    assert_eq!(series.points.len(), 8, "every pass fails");
    for point in &series.points {
        assert_eq!(point.policy_delay, 1_000, "failure {}", point.failure);
        assert_eq!(point.scheduled, Some(1_000));
        assert_eq!(point.set_by, DelaySetBy::Curve);
    }
    let actual: Vec<Option<Millis>> = series.points.iter().map(|p| p.actual()).collect();
    // The run stops at its pass limit before the last requeue comes.
    assert_eq!(
        actual,
        [
            Some(1_000),
            Some(1_000),
            Some(1_000),
            Some(1_000),
            Some(1_000),
            Some(1_000),
            Some(1_000),
            None
        ]
    );
}

#[test]
fn the_cap_decides_from_the_19th_failure() {
    let policy = BackoffPolicy::default();
    let timeline = always_failing(policy.clone(), QueueModel::ClientGo, 22);
    let series = BackoffSeries::of(&timeline, &policy);
    let set_by: Vec<(u32, DelaySetBy, Millis)> = series.points[16..21]
        .iter()
        .map(|p| (p.failure, p.set_by, p.scheduled.unwrap_or(0)))
        .collect();
    assert_eq!(
        set_by,
        [
            (17, DelaySetBy::Curve, 327_680),
            (18, DelaySetBy::Curve, 655_360),
            (19, DelaySetBy::Cap, 1_000_000),
            (20, DelaySetBy::Cap, 1_000_000),
            (21, DelaySetBy::Cap, 1_000_000),
        ]
    );
}

#[test]
fn a_small_token_bucket_decides_over_the_curve() {
    let policy = BackoffPolicy::ClientGo {
        base_ms: 5,
        max_ms: 1_000_000,
        qps: 1.0,
        burst: 1,
    };
    let timeline = always_failing(policy.clone(), QueueModel::ClientGo, 4);
    let series = BackoffSeries::of(&timeline, &policy);
    let first = &series.points[0];
    assert_eq!(
        (first.scheduled, first.set_by),
        (Some(5), DelaySetBy::Curve)
    );
    // The bucket's one token is spent: the next requeue waits about a second.
    let second = &series.points[1];
    assert_eq!(second.set_by, DelaySetBy::Bucket);
    assert!(
        second
            .scheduled
            .is_some_and(|d| d > 900 && d > second.policy_delay),
        "{second:?}"
    );
}

#[test]
fn a_crash_loses_the_requeue_and_the_restarted_process_counts_from_one() {
    let policy = BackoffPolicy::default();
    let (scenario, config) = lesson("backoff");
    let config = SimConfig {
        crash: Some(CrashPlan {
            at_pass: 2,
            after_actions: 5,
        }),
        ..config
    };
    let series = BackoffSeries::of(&simulate(&scenario, &config), &policy);
    let points: Vec<(usize, u32, DelaySetBy)> = series
        .points
        .iter()
        .map(|p| (p.pass, p.failure, p.set_by))
        .take(3)
        .collect();
    assert_eq!(
        points,
        [
            (1, 1, DelaySetBy::Curve),
            (2, 2, DelaySetBy::LostInCrash),
            (3, 1, DelaySetBy::Curve),
        ]
    );
    assert_eq!(series.points[1].retry, None);
    assert_eq!(series.points[1].actual(), None);
}

#[test]
fn a_pass_without_failures_has_no_point() {
    let (scenario, config) = preset("basics");
    let timeline = simulate(&scenario, &config);
    assert!(BackoffSeries::of(&timeline, &config.backoff)
        .points
        .is_empty());
    // The lanes of a single object that stays in sync: one lane, all in sync.
    let res = |text| parse_resources(Document::Desired, text).expect("valid");
    let steady = SimScenario {
        desired: res(r#"{"x":{}}"#),
        observed: res(r#"{"x":{}}"#),
        finalizers: None,
    };
    let lanes = Swimlanes::of(&simulate(&steady, &SimConfig::default()), 20);
    assert_eq!(
        lane_words(&lanes, "x").first().map(String::as_str),
        Some("in sync")
    );
}
