//! A replay of a learner's controller (a `#v4/` link): what it is, which
//! property broke and the story, in the check's words, the way to where it
//! broke, and the calls of the reconcile at the cursor, from the record.

use reconcile_sim::learner::{ReconcileOutcome, ReconcileRecord};
use reconcile_sim::Timeline;
use yew::prelude::*;

use crate::section::state::{ReplayShown, SectionRun};

/// What the replay is and where it broke; the calls at the cursor.
pub fn replay_banner(
    run: &SectionRun,
    replay: &ReplayShown,
    position: usize,
    on_move: &Callback<usize>,
) -> Html {
    let timeline = &run.timeline;
    let broke_at = replay.broke_at;
    let where_broke = timeline.describe_moment(run.moment_at(broke_at));
    let go = on_move.reform(move |_| broke_at);
    let broken = match &replay.broken {
        Some(property) => html! {
            <p class="replay-broken" role="status">
                <span aria-hidden="true">{ "✗ " }</span>
                { format!("The property “{}” broke: {}.", property.name, property.detail) }
            </p>
        },
        None => html! {
            <p class="replay-broken" role="status">{ "Every property held in this replay." }</p>
        },
    };
    html! {
        <section class="replay-banner" aria-label="Replay">
            <h3>{ "A replay of a learner's controller on exercise " }<code>{ replay.exercise }</code></h3>
            <p class="replay-what">
                { format!("Its goal: {}. ", replay.goal.trim_end_matches('.')) }
                { "This replays the run the check found, from its record of calls and answers: \
                   neither the learner's code nor the contract controller runs." }
            </p>
            { broken }
            <p class="replay-story-intro">{ "What happened:" }</p>
            if replay.story.is_empty() {
                <p class="replay-story">{ "No faults: it broke on a calm run." }</p>
            } else {
                <ol class="replay-story">
                    { for replay.story.iter().map(|sentence| html! { <li>{ sentence }</li> }) }
                </ol>
            }
            <p class="replay-where" data-moment={broke_at.to_string()}>
                { format!("It had broken by {where_broke}, marked ✗ in the timeline. ") }
                <button type="button" class="replay-go" onclick={go}>{ "Go to where it broke" }</button>
            </p>
            { calls_at(timeline, &replay.record, run.moment_at(position)) }
        </section>
    }
}

/// The calls of the reconcile that ended at `moment`, and what it returned.
fn calls_at(
    timeline: &Timeline,
    record: &[ReconcileRecord],
    moment: reconcile_sim::Moment,
) -> Html {
    let pass = timeline.passes_at(moment);
    let Some(reconcile) = record.iter().find(|r| r.pass == pass) else {
        return html! {
            <p class="replay-calls muted">{ "At this moment no reconcile of the record has just ended." }</p>
        };
    };
    let returned = match &reconcile.outcome {
        Some(ReconcileOutcome::Done) => "done".to_owned(),
        Some(ReconcileOutcome::RequeueAfter { ms }) => format!("requeue after {ms} ms"),
        Some(ReconcileOutcome::Error { message }) => format!("an error ({message})"),
        Some(ReconcileOutcome::Terminal { message }) => format!("a terminal error ({message})"),
        Some(ReconcileOutcome::Crashed) => "nothing: the process crashed".to_owned(),
        None => "nothing: the run stopped during it".to_owned(),
    };
    html! {
        <div class="replay-calls">
            <p>{ format!("Pass {pass}: the controller's calls (reconcile of {}, process {}):",
                         reconcile.name, reconcile.incarnation) }</p>
            <ol aria-label={format!("Calls of pass {pass}")}>
                { for reconcile.calls.iter().map(|call| {
                    let answer = match &call.answer {
                        Ok(_) => "answered".to_owned(),
                        Err(error) => error.to_string(),
                    };
                    let receiver = if call.call.is_cloud() { "cloud" } else { "client" };
                    html! { <li><code>{ format!("{receiver}.{}", call.call.method()) }</code>{ format!(" → {answer}") }</li> }
                }) }
            </ol>
            <p>{ format!("It returned: {returned}.") }</p>
        </div>
    }
}

/// Why the replay does not open, where it would have shown.
pub fn replay_refused(message: &str) -> Html {
    html! {
        <p class="replay-refused" role="alert">
            { format!("This replay cannot be opened: {message}") }
        </p>
    }
}

/// A view that does not apply to a replay, and why.
pub fn not_for_a_replay(class: &'static str, words: &'static str) -> Html {
    html! { <p class={classes!(class, "not-for-replay", "muted")}>{ words }</p> }
}
