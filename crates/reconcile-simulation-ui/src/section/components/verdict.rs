//! The verdict banner (what holds at the cursor, then how the run ends) and
//! the snapshot banner (the cursor is behind what is revealed). Copied from
//! the page's web/src/components/sim_controls.rs and simulation.rs.

use reconcile_sim::{Moment, Verdict};
use yew::prelude::*;

use crate::section::state::{SectionRun, SectionShown};

pub fn verdict_banner(run: &SectionRun, shown: &SectionShown) -> Html {
    let timeline = &run.timeline;
    // What holds at the cursor, the same moment the grid, the world view
    // and the picture show (an event's, stepping by event), then how the
    // run ends (once it is revealed).
    let moment = run.moment_at(shown.cursor.position);
    let finished = shown.cursor.revealed >= run.last_position();
    let (out_of_sync, terminating) = match &shown.at_event {
        Some(at_event) => (
            at_event.out_of_sync(timeline),
            at_event.store.terminating.len(),
        ),
        None => (
            timeline.out_of_sync_at(moment),
            timeline.world_at(moment).terminating.len(),
        ),
    };
    let holds = match (out_of_sync, terminating) {
        (0, 0) => "in sync".to_owned(),
        (n, 0) => format!("{n} out of sync"),
        (n, t) => format!("{n} out of sync, {t} terminating"),
    };
    let at = match (moment, &shown.at_event) {
        (_, Some(at_event)) => format!("At this moment ({})", at_event.describe()),
        (Moment::Start, None) => "At the start".to_owned(),
        _ => format!(
            "At this moment (after {})",
            timeline.describe_moment(moment)
        ),
    };
    if run.replay.is_some() {
        // The engine's verdict and counts are the contract's reading of the
        // exercise's documents; a replay's verdict is the check's, above.
        return html! {
            <div class="verdict-banner">
                <p class="moment-status">{ format!("{at}.") }</p>
                <p class="verdict pending replay-counts">
                    { "A replay's verdict is the check's, above. The chart and the status grid count \
                       out of sync as the contract reads the exercise's documents, not as the exercise's goal does." }
                </p>
            </div>
        };
    }
    let ending = if finished { " The run ends:" } else { "" };
    let moment_line = html! {
        <p class="moment-status" data-out-of-sync={out_of_sync.to_string()}>
            { format!("{at}: {holds}.{ending}") }
        </p>
    };
    if !finished && shown.before_first_step() {
        // An embed: the controls say what to do; "Pass 0 of 3" is beside them.
        return html! { <div class="verdict-banner">{ moment_line }</div> };
    }
    if !finished {
        return html! {
            <div class="verdict-banner">
                { moment_line }
                <p class="verdict pending" role="status">
                    { "Step, Play or Run to watch the loop; the verdict shows when it ends." }
                </p>
            </div>
        };
    }
    let (class, icon) = match timeline.verdict {
        Verdict::Converged { .. } => ("verdict converged", "✓"),
        Verdict::NotConverging { .. } => ("verdict not-converging", "✗"),
    };
    html! {
        <div class="verdict-banner">
            { moment_line }
            <p {class} role="status">
                <span aria-hidden="true">{ icon }{ " " }</span>{ timeline.verdict.to_string() }
            </p>
        </div>
    }
}

/// "Viewing …; the run is revealed up to …", with the way back to the
/// latest moment, while the cursor is behind what is revealed.
pub fn snapshot_banner(run: &SectionRun, shown: &SectionShown, on_move: &Callback<usize>) -> Html {
    let cursor = shown.cursor;
    if cursor.position >= cursor.revealed {
        return Html::default();
    }
    let describe = |position| run.timeline.describe_moment(run.moment_at(position));
    html! {
        <div class="snapshot-banner" role="status">
            <span>{ format!("Viewing {}; the run is revealed up to {}.",
                describe(cursor.position), describe(cursor.revealed)) }</span>
            <button type="button" onclick={on_move.reform(|_| usize::MAX)}>
                { "Back to the latest" }
            </button>
        </div>
    }
}
