//! `sim::simulate` on a small scenario and generated settings (or a preset
//! with some settings changed), with a pass limit of at most 40 so each input
//! runs in milliseconds. Checks that the run is deterministic, that the
//! settings survive their JSON form, that the timeline is well-formed and that
//! the verdict keeps the guarantees `sim`'s module documentation states.

#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use reconcile_core::{reconcile, ActionKind, Scenario};
use reconcile_fuzz::sim_case;
use reconcile_sim::comparison::controller_out_of_sync;
use reconcile_sim::naming::controller_observed;
use reconcile_sim::ownership::CUSTOM_RESOURCE;
use reconcile_sim::ObjectNaming;
use reconcile_sim::{
    compare_level_edge, simulate, ActionResult, Happening, NotConvergingReason, PassSkip, SimConfig,
    StatusWrites, Timeline, Trigger, Verdict,
};

fuzz_target!(|data: &[u8]| {
    let Ok((scenario, config)) = sim_case(&mut Unstructured::new(data)) else {
        return;
    };
    check(&scenario, &config);
});

fn check(scenario: &Scenario, config: &SimConfig) {
    // The settings as the JS API and share links carry them.
    let wire = serde_json::to_string(config).expect("settings serialize");
    let read: SimConfig = serde_json::from_str(&wire).expect("settings read back");
    assert_eq!(&read, config, "settings changed through JSON: {wire}");

    let timeline = simulate(scenario, config);
    let again = simulate(scenario, config);
    assert!(timeline == again, "two runs of the same input differ");
    assert_eq!(
        serde_json::to_string(&timeline).expect("timeline serializes"),
        serde_json::to_string(&again).expect("timeline serializes"),
        "two runs serialize differently"
    );
    check_timeline(scenario, config, &timeline);

    let level_edge = compare_level_edge(scenario, config);
    assert!(
        level_edge.level == timeline,
        "level vs edge ran a different simulation"
    );
    // The initial list, then every scripted event that happened and every restart.
    let traced = timeline
        .log
        .iter()
        .filter(|e| {
            matches!(
                e.what,
                Happening::ActorEvent { .. } | Happening::Restarted
            )
        })
        .count();
    assert_eq!(level_edge.steps.len(), 1 + traced);
    assert!(level_edge
        .first_divergence
        .is_none_or(|i| level_edge.steps[i].diverged));
}

fn check_timeline(scenario: &Scenario, config: &SimConfig, timeline: &Timeline) {
    let passes = &timeline.passes;
    assert!(
        passes.len() <= config.max_passes,
        "more passes than the limit"
    );
    let mut previous_end = 0;
    for (i, pass) in passes.iter().enumerate() {
        assert_eq!(pass.index, i + 1, "passes are numbered 1, 2, ...");
        assert!(
            pass.started_at >= previous_end,
            "pass {} starts at {} before the previous one ended at {previous_end}",
            pass.index,
            pass.started_at
        );
        // Only at the end of simulated time can a pass take no time.
        assert!(
            pass.finished_at > pass.started_at || pass.started_at == u64::MAX,
            "pass {} takes no time",
            pass.index
        );
        previous_end = pass.finished_at;
    }
    assert!(
        timeline.log.windows(2).all(|w| w[0].at <= w[1].at),
        "the log is in time order"
    );

    match &timeline.verdict {
        Verdict::Converged { passes: count, .. } => {
            assert_eq!(*count, passes.len(), "converged after every pass ran");
            let desired = timeline.desired_after(passes.len(), config);
            let world = &timeline.final_world;
            // In sync as the controller compares (the whole spec, or the
            // fields it sets); once the custom resource is deleted, the
            // state to reach is the garbage collector's, not its desired one.
            if world.custom_resource_live(CUSTOM_RESOURCE) {
                // Through the names the controller gives its objects.
                let (observed, finalizers) = controller_observed(config.naming, &desired, world);
                assert_eq!(
                    controller_out_of_sync(config.comparison(), &desired, &observed, &finalizers),
                    0,
                    "converged, but the final world is out of sync"
                );
            }
        }
        Verdict::NotConverging {
            reason: NotConvergingReason::PassLimit { limit },
        } => {
            assert_eq!(*limit, config.max_passes);
            assert_eq!(passes.len(), config.max_passes, "stopped before the limit");
        }
        Verdict::NotConverging {
            reason: NotConvergingReason::ApplyConflict { .. },
        } => {
            assert_eq!(passes.len(), config.max_passes, "stopped before the limit");
        }
        Verdict::NotConverging {
            reason: NotConvergingReason::StatusHotLoop { .. },
        } => {
            assert!(
                config.status_writes != StatusWrites::None && !config.generation_changed_predicate,
                "a hot loop needs status writes the controller hears"
            );
        }
        Verdict::NotConverging { .. } => {}
    }

    // Without faults the module documentation bounds the run:
    // passes ≤ 1 + n + Σf + the passes requeues bring (a pass that reads a
    // stale cache writes nothing; its 409s only add requeues). (Its argument
    // needs every event to happen, so no delay may reach past the end of
    // simulated time.)
    let within_time = [
        config.action_ms,
        config.watch_latency_ms,
        config.finalizer_owner_delay_ms,
    ]
    .into_iter()
    .chain(config.finalizer_owners.iter().map(|owner| owner.delay_ms))
    .all(|ms| ms < 1 << 40);
    let fault_free = within_time
        && config.failure_rate <= 0.0
        && config.watch_break_rate <= 0.0
        && config.crash.is_none()
        && config.stuck_finalizers.is_empty()
        && config.script.is_empty()
        && config.other_writers.is_empty()
        && config.terminating.is_empty()
        // generateName turns a stale read's second CREATE into a duplicate
        // and its DELETE: writes the bound does not count.
        && config.naming == ObjectNaming::Deterministic
        // A timestamp in status the controller hears is a hot loop by design.
        && (config.status_writes != StatusWrites::WithTimestamp
            || config.generation_changed_predicate)
        && config.watch_owned
        && config.resync_period_ms.is_none_or(|period| period == 0)
        // The cloud's finalizer patch and calls are writes and failures the
        // record's actions do not show.
        && config.cloud.is_none();
    if fault_free {
        let first_plan = reconcile(
            &scenario.desired,
            &scenario.observed,
            scenario.finalizers.as_ref(),
        );
        let finalized: Vec<&str> = first_plan
            .iter()
            .filter(|a| a.kind == ActionKind::Finalize)
            .map(|a| &*a.name)
            .collect();
        let entries: usize = finalized
            .iter()
            .map(|name| {
                scenario
                    .finalizers
                    .as_ref()
                    .map_or(0, |f| f.pending(name).len())
            })
            .sum();
        // Each pass with a failed request schedules one requeue, which brings
        // at most one pass, even one past the limit: a requeue waiting in
        // the delaying queue fires after a later pass for the same key has
        // succeeded (client-go's AddAfter is not cancelled by Forget).
        // (A status write that fails, 409 on a stale read, requeues too.)
        let requeues = passes
            .iter()
            .filter(|p| {
                p.actions
                    .iter()
                    .map(|a| &a.result)
                    .chain(p.status_write.as_ref().map(|w| &w.result))
                    .any(|result| matches!(result, ActionResult::Failed { .. }))
                    // KEP-5647: a deferred pass returns an error too.
                    || matches!(p.skipped, Some(PassSkip::StaleCache { .. }))
            })
            .count();
        assert!(
            passes
                .iter()
                .filter(|p| matches!(p.trigger, Trigger::Requeue { .. }))
                .count()
                <= requeues,
            "more requeue passes than failed passes"
        );
        // A status write that changes the status is one more event (the
        // controller's watch on its custom resource hears it).
        let status_writes = passes
            .iter()
            .filter(|p| {
                p.status_write
                    .as_ref()
                    .is_some_and(|w| w.result == ActionResult::Applied)
            })
            .count();
        let bound = 1 + first_plan.len() + entries + requeues + status_writes;
        assert!(
            passes.len() <= bound,
            "{} passes without faults, over the bound of {bound}",
            passes.len()
        );
        if config.max_passes >= bound {
            assert!(
                matches!(timeline.verdict, Verdict::Converged { .. }),
                "no faults, but {:?}",
                timeline.verdict
            );
        }
    }
}
