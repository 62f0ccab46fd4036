//! The timeline: one entry per revealed pass, with its trigger, actions and
//! results, and a row for each other actor's event; each moves the cursor.

use reconcile_sim::{
    format_millis, ActionResult, ActorEventRecord, Happening, Moment, Timeline, WatchedKind,
};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use reconcile_ui_shared::words::{change_text, event_text, result_text};

use reconcile_ui_shared::Shared;

#[derive(Properties, PartialEq)]
pub struct PassListProps {
    pub timeline: Shared<Timeline>,
    /// The cursor and how far the run is revealed: positions in the
    /// timeline's moments.
    pub cursor: usize,
    pub revealed: usize,
    /// The event Step event shows, if any (an index into the event log).
    pub event: Option<usize>,
    pub on_move: Callback<usize>,
    /// A replay: the moment where its property had broken, marked.
    #[prop_or_default]
    pub broke_at: Option<usize>,
}

/// Where one pass and the actors' events after it sit in the run's moments.
struct PassPlace {
    /// 0-based position in `timeline.passes`.
    position: usize,
    /// Its own moment's position.
    at: usize,
    /// Its actors' events that are revealed.
    events: usize,
}

#[component]
pub fn PassList(props: &PassListProps) -> Html {
    let timeline = &props.timeline;
    let (cursor, revealed) = (props.cursor, props.revealed);
    let first_key = timeline.passes.first().map(|pass| &pass.custom_resource);
    let several_keys =
        (timeline.passes.iter()).any(|pass| Some(&pass.custom_resource) != first_key);
    let list = use_node_ref();
    {
        // Keep the newest moment in view as Step, Play and Run reveal them. The
        // list scrolls smoothly unless the reader asked for reduced motion
        // (main.css), in which case it jumps.
        let list = list.clone();
        let shown_before = use_mut_ref(|| revealed);
        use_effect_with(revealed, move |revealed| {
            let revealed_more =
                *revealed > std::mem::replace(&mut *shown_before.borrow_mut(), *revealed);
            if let (true, Some(list)) = (revealed_more, list.cast::<web_sys::Element>()) {
                // In the next frame: reading the height here, amid the step's
                // render, would force a layout of the whole page that the
                // rest of the render undoes (14 ms of a 50-object step).
                let scroll =
                    Closure::once_into_js(move || list.set_scroll_top(list.scroll_height()));
                let _ = gloo::utils::window().request_animation_frame(scroll.unchecked_ref());
            }
        });
    }
    // One sweep over the revealed moments: each pass's position and its
    // events' (they follow it), and the events before pass 1.
    let mut places: Vec<PassPlace> = Vec::new();
    let mut before_first = 0;
    for (at, moment) in timeline.moments.iter().enumerate().take(revealed + 1) {
        match moment {
            Moment::AfterPass(pass) => places.push(PassPlace {
                position: pass - 1,
                at,
                events: 0,
            }),
            Moment::AfterActorEvent(_) => match places.last_mut() {
                Some(place) => place.events += 1,
                None => before_first += 1,
            },
            Moment::Start => {}
        }
    }
    let (earliest, cursor_before_first) = (1, cursor >= 1 && cursor <= before_first);
    html! {
        <div class="pass-list-wrap">
            <h3>{ "Timeline" }</h3>
            if before_first > 0 {
                <ol class="moment-list" aria-label="Before pass 1">
                    { for timeline.actor_events.iter().take(before_first).enumerate().map(|(i, event)| {
                        let at = earliest + i;
                        actor_event_row(event, at, cursor_before_first && cursor == at, &props.on_move)
                    }) }
                </ol>
            }
            if places.is_empty() {
                <p class="muted">{ "No passes yet. Press Step to run the first one." }</p>
            }
            <ol class="pass-list" aria-label="Passes" ref={list}>
                { for places.iter().map(|place| {
                    let index = timeline.passes[place.position].index;
                    let current = (place.at..=place.at + place.events)
                        .contains(&cursor)
                        .then(|| cursor - place.at);
                    html! {
                        <PassItem key={index} timeline={timeline.clone()} position={place.position} {several_keys}
                            at={place.at} events={place.events} {current}
                            event={props.event.filter(|_| current == Some(0))}
                            broke={props.broke_at == Some(place.at)}
                            on_move={props.on_move.clone()} />
                    }
                }) }
            </ol>
        </div>
    }
}

/// Another actor's event, a moment of its own: a row that moves the cursor there.
fn actor_event_row(
    event: &ActorEventRecord,
    at: usize,
    current: bool,
    on_move: &Callback<usize>,
) -> Html {
    let onclick = on_move.reform(move |_| at);
    html! {
        <li class={classes!("actor-event", current.then_some("selected"))}
            aria-current={current.then_some("step")} data-moment={at.to_string()}>
            <button type="button" class="moment-row" {onclick} aria-pressed={current.to_string()}>
                { format!("t = {}: {}: {}", format_millis(event.at), event.event, event.effect) }
            </button>
        </li>
    }
}

#[derive(Properties, PartialEq)]
struct PassItemProps {
    timeline: Shared<Timeline>,
    /// The run has several custom resources: each pass names its key.
    several_keys: bool,
    /// 0-based position in `timeline.passes`.
    position: usize,
    /// Its moment's position in the run's moments; its actors' events follow.
    at: usize,
    /// How many of the actors' events after it are revealed.
    events: usize,
    /// Where the cursor is, when it is here: 0 on the pass, k on its k-th event.
    current: Option<usize>,
    /// The event Step event shows, if any (an index into the event log).
    event: Option<usize>,
    /// A replay's property had broken by this pass's end.
    broke: bool,
    on_move: Callback<usize>,
}

/// One pass. A component so revealing pass n+1 does not re-render passes 1..=n.
#[component]
fn PassItem(props: &PassItemProps) -> Html {
    let timeline = &props.timeline;
    let pass = &timeline.passes[props.position];
    // The actors' events after this pass are rows of their own (moments);
    // the rest of what happened is told in its place among them.
    let first_event = timeline
        .actor_events
        .iter()
        .position(|e| e.after_pass >= pass.index)
        .unwrap_or(timeline.actor_events.len());
    let mut actor_events = timeline.actor_events[first_event..]
        .iter()
        .take_while(|e| e.after_pass == pass.index)
        .take(props.events)
        .enumerate();
    let after: Vec<Html> = timeline
        .log
        .iter()
        .filter(|e| e.after_pass == pass.index)
        .filter_map(|entry| match &entry.what {
            Happening::ActorEvent { .. } => actor_events.next().map(|(i, event)| {
                let current = props.current == Some(i + 1);
                actor_event_row(event, props.at + i + 1, current, &props.on_move)
            }),
            what => Some(html! {
                <li>{ format!("t = {}: {}", format_millis(entry.at), happening_text(what)) }</li>
            }),
        })
        .collect();
    // A pass of a thousand actions would otherwise be a thousand rows on
    // every beat of Play: the rest are counted until asked for.
    let all_actions = use_state(|| false);
    let shown_actions = if *all_actions {
        pass.actions.len()
    } else {
        pass.actions.len().min(ACTIONS_SHOWN)
    };
    let hidden_actions = pass.actions.len() - shown_actions;
    let show_all = Callback::from(move |_: MouseEvent| all_actions.set(true));
    let selected = props.current == Some(0);
    let (index, at) = (pass.index, props.at);
    let onclick = props.on_move.reform(move |_| at);
    let observed = shorten(
        &pass.world_after.observed.to_json_string(),
        OBSERVED_PREVIEW_CHARS,
    );
    html! {
        <li key={index} class={classes!("pass", selected.then_some("selected"), pass.crashed.then_some("crashed"),
                                        props.broke.then_some("broke"))}
            aria-current={selected.then_some("step")} data-pass={index.to_string()} data-moment={at.to_string()}>
            <button type="button" class="pass-head" {onclick} aria-pressed={selected.to_string()}>
                // The spaces keep the button's accessible name readable
                // ("Pass 1 t = 1 ms why: …"); the flex layout spaces them on screen.
                <span class="pass-no">{ format!("Pass {index}") }</span>{ " " }
                <span class="pass-time">{ format!("t = {}", format_millis(pass.started_at)) }</span>{ " " }
                // A run of several custom resources names each pass's key; the one default key is left unsaid.
                if props.several_keys {
                    <span class="pass-key">{ format!("key: {}", pass.custom_resource) }</span>{ " " }
                }
                <span class="trigger">{ format!("why: {}", pass.trigger) }</span>
                if props.broke {
                    { " " }<span class="broke-mark">{ "✗ the property had broken here" }</span>
                }
            </button>
            if let Some(skip) = &pass.skipped {
                <p class="no-actions skipped">{ skip.to_string() }</p>
            } else if pass.actions.is_empty() {
                <p class="no-actions">{ "reconcile returned nothing: in sync" }</p>
            } else {
                <ul class="pass-actions" aria-label={format!("Actions of pass {index}")}>
                    { for pass.actions.iter().take(shown_actions).map(|outcome| html! {
                        <li class={classes!("pass-action", result_class(&outcome.result))}>
                            <span class="kind">{ outcome.action.kind.as_str() }</span>{ " " }
                            <code class="name">{ &outcome.action.name }</code>
                            if let Some(object) = &outcome.object {
                                { " " }<span class="object">{ "as " }<code>{ object.to_string() }</code></span>
                            }
                            { " → " }
                            <span class="result">{ result_text(&outcome.result) }</span>
                        </li>
                    }) }
                    if hidden_actions > 0 {
                        <li class="more-pass-actions">
                            { format!("…and {hidden_actions} more: {}. ", results_summary(&pass.actions[shown_actions..])) }
                            <button type="button" onclick={show_all}>
                                { format!("Show all {} actions", pass.actions.len()) }
                            </button>
                        </li>
                    }
                </ul>
            }
            if let Some(write) = &pass.status_write {
                <p class={classes!("status-write", result_class(&write.result))}>
                    { "then PUT /status: " }<code class="status-sent">{ status_summary(&write.status) }</code>{ " → " }
                    <span class="result">{ status_result_text(&write.result) }</span>
                </p>
            }
            <p class="observed-line">
                { "observed after: " }<code class="observed-after">{ observed }</code>
            </p>
            if !after.is_empty() {
                <ul class="happenings" aria-label={format!("Then, after pass {index}")}>
                    { for after }
                </ul>
            }
            if selected {
                <PassEvents timeline={props.timeline.clone()} position={props.position} current={props.event} />
            }
        </li>
    }
}

/// A status write in a few words: `observedGeneration 1, Ready=True (InSync), lastReconcileTime …`.
fn status_summary(status: &reconcile_core::Json) -> String {
    let mut parts = Vec::new();
    if let Some(generation) = status.get("observedGeneration") {
        parts.push(format!("observedGeneration {generation}"));
    }
    let conditions = status.get("conditions").and_then(|c| c.as_array());
    for condition in conditions.unwrap_or_default() {
        let text = |name: &str| condition.get(name).and_then(|v| v.as_str()).unwrap_or("");
        parts.push(format!(
            "{}={} ({})",
            text("type"),
            text("status"),
            text("reason")
        ));
    }
    if let Some(time) = status.get("lastReconcileTime").and_then(|t| t.as_str()) {
        parts.push(format!("lastReconcileTime {time}"));
    }
    parts.join(", ")
}

/// What became of a status write, in words.
fn status_result_text(result: &ActionResult) -> String {
    match result {
        ActionResult::Applied => {
            "written: a new resourceVersion, same generation; its watch event is on its way"
                .to_owned()
        }
        ActionResult::Unchanged => {
            "unchanged: the status stored already (no write, no event)".to_owned()
        }
        other => result_text(other),
    }
}

/// Actions listed per pass until "Show all" is pressed.
const ACTIONS_SHOWN: usize = 100;

/// "950 ok, 50 failed": how the actions not listed ended, in words.
fn results_summary(outcomes: &[reconcile_sim::ActionOutcome]) -> String {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for outcome in outcomes {
        let word = result_word(&outcome.result);
        match counts.iter_mut().find(|(w, _)| *w == word) {
            Some((_, n)) => *n += 1,
            None => counts.push((word, 1)),
        }
    }
    counts
        .iter()
        .map(|(word, n)| format!("{n} {word}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn result_word(result: &ActionResult) -> &'static str {
    match result {
        ActionResult::Applied => "ok",
        ActionResult::AlreadyTerminating => "already terminating",
        ActionResult::Unchanged => "unchanged",
        ActionResult::AlreadyGone => "already gone",
        ActionResult::Failed { .. } => "failed",
        ActionResult::NotAttempted => "not attempted",
        ActionResult::LostInCrash => "lost in the crash",
    }
}

/// Longer observed states are cut here; the status grid shows every resource.
const OBSERVED_PREVIEW_CHARS: usize = 400;

fn shorten(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!(
            "{}… ({} characters in all)",
            &text[..cut],
            text.chars().count()
        ),
        None => text.to_owned(),
    }
}

fn result_class(result: &ActionResult) -> &'static str {
    match result {
        ActionResult::Applied => "ok",
        ActionResult::AlreadyTerminating | ActionResult::AlreadyGone | ActionResult::Unchanged => {
            "noop"
        }
        ActionResult::Failed { .. } => "failed",
        ActionResult::NotAttempted | ActionResult::LostInCrash => "skipped",
    }
}

#[derive(Properties, PartialEq)]
struct PassEventsProps {
    timeline: Shared<Timeline>,
    position: usize,
    /// The event Step event shows, if any (an index into the event log).
    current: Option<usize>,
}

/// Every step from this pass's start to the next pass's, from the event log:
/// the view that steps by event (shown for the selected pass). While Step
/// event walks through it, `current` is the event shown, and the list stops
/// there. Its rows exist only while it is open: a pass of a thousand
/// actions has thousands of steps, and the selected pass changes on every
/// beat of Play.
#[component]
fn PassEvents(props: &PassEventsProps) -> Html {
    let timeline = &props.timeline;
    let opened = use_state(|| false);
    let ontoggle = {
        let opened = opened.clone();
        Callback::from(move |e: Event| {
            opened.set(
                e.target_unchecked_into::<web_sys::HtmlDetailsElement>()
                    .open(),
            )
        })
    };
    let index = timeline.passes[props.position].index;
    let range = timeline.events.of_pass(index);
    let (from, to) = (range.start, range.end);
    let current = props.current.filter(|i| range.contains(i));
    let open = *opened || current.is_some();
    let shown_to = current.map_or(to, |i| i + 1);
    let events = if open {
        &timeline.events.entries[from..shown_to]
    } else {
        &[]
    };
    let summary = match current {
        Some(i) => format!(
            "Step by event: event {} of {} until the next pass",
            i - from + 1,
            to - from
        ),
        None => format!("Every step until the next pass ({} events)", to - from),
    };
    html! {
        <details class="pass-events" {open} {ontoggle}>
            <summary>{ summary }</summary>
            <ol aria-label={format!("Events from pass {index}")}>
                { for events.iter().enumerate().map(|(offset, entry)| {
                    let is_current = current == Some(from + offset);
                    html! {
                        <li class={classes!(is_current.then_some("current-event"))} aria-current={is_current.then_some("step")}>
                            { format!("t = {}: {}", format_millis(entry.at), event_text(&entry.what)) }
                        </li>
                    }
                }) }
            </ol>
            if open && timeline.events.truncated && to == timeline.events.entries.len() {
                <p class="muted small">{ "The event log keeps the first 10,000 events of a run." }</p>
            }
        </details>
    }
}

/// Whose informer, in a sentence.
fn informer_text(informer: WatchedKind) -> &'static str {
    match informer {
        WatchedKind::CustomResource => "custom resource's",
        WatchedKind::Object => "objects'",
    }
}

/// One sentence per thing that happened between passes.
pub fn happening_text(what: &Happening) -> String {
    match what {
        Happening::WatchBroken { name, change } => format!(
            "the watch closed before the event for {name} ({}): the reflector starts \
             a new watch from the last resourceVersion it saw",
            change_text(*change)
        ),
        Happening::WatchResumed {
            informer,
            resource_version,
            replayed,
        } => format!(
            "the {} informer's new watch started from resourceVersion {resource_version}: \
             the API server replayed {replayed} missed event{} from its watch cache",
            informer_text(*informer),
            if *replayed == 1 { "" } else { "s" }
        ),
        Happening::WatchExpired {
            informer,
            resource_version,
            oldest,
        } => format!(
            "410 Gone for the {} informer: too old resource version {resource_version} \
             (the watch cache starts after {oldest}); it lists again after its backoff",
            informer_text(*informer)
        ),
        Happening::Relisted { informer, deleted } if deleted.is_empty() => format!(
            "the {} informer listed again: its cache now matches the API server",
            informer_text(*informer)
        ),
        Happening::Relisted { informer, deleted } => format!(
            "the {} informer listed again: its cache now matches the API server, and the \
             deletes it missed are synthesized for the handlers: {}",
            informer_text(*informer),
            deleted.join(", ")
        ),
        Happening::Deferred { trigger } => {
            format!("{trigger} while the key was processing: deferred until the pass ends")
        }
        Happening::ActorEvent { event, effect } => format!("{}: {effect}", event),
        Happening::FinalizerRemoved {
            object,
            finalizer,
            object_deleted: false,
        } => format!("the owner of {finalizer} removed it from {object}"),
        Happening::FinalizerRemoved {
            object,
            finalizer,
            object_deleted: true,
        } => format!(
            "the owner of {finalizer} removed it from {object}, the last finalizer: \
             the API server deleted {object} in that update"
        ),
        Happening::PodStopped {
            object,
            object_deleted: true,
        } => format!(
            "the kubelet stopped {object}'s containers and deleted it with grace period 0: \
             the API server removed it"
        ),
        Happening::PodStopped {
            object,
            object_deleted: false,
        } => format!(
            "the kubelet stopped {object}'s containers and deleted it with grace period 0: \
             it stays until its finalizers are removed"
        ),
        Happening::Rejected { object, reason } => {
            format!("API server rejected a write to {object}: {reason}")
        }
        Happening::OtherWriterWrote {
            writer,
            object,
            path,
            value,
        } => {
            format!("{writer} set {path} of {object} to {value}")
        }
        Happening::Crashed { pass } => format!("the controller crashed during pass {pass}"),
        Happening::Restarted => {
            "the controller restarted with an empty queue and re-listed the world".to_owned()
        }
        Happening::RequeueMerged {
            requested_at,
            ready_at,
        } => format!(
            "a requeue for t = {} merged into the one already waiting for t = {}: \
             the queue keeps one waiting entry per key, the earlier",
            format_millis(*requested_at),
            format_millis(*ready_at)
        ),
        Happening::GarbageCollector { action } => action.to_string(),
    }
}
