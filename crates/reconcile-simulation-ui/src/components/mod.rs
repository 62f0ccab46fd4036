//! The control plane as a picture: an SVG of the store, the watch stream,
//! the informer cache, the work queue, the controller and the other actors
//! (finalizer owners, the garbage collector) at the simulation's cursor,
//! with a text equivalent for screen readers. Everything shown comes from
//! `reconcile_sim::picture`; this module only places and words it. Below
//! the picture, its plots: the run's swimlanes and the key's backoff.

mod backoff_plot;
mod draw;
mod swimlanes;
pub(crate) mod words;

use reconcile_sim::picture::Picture;
use reconcile_sim::{EventMoment, Timeline};
use yew::prelude::*;

use crate::state::Shown;

/// Objects shown as cards in the store and the cache; the rest are counted.
pub(crate) const CARDS: usize = 6;
/// Lines shown per list (in flight, the plan, the other actors).
pub(crate) const LINES: usize = 6;

/// The picture and the plots at the cursor (the page keeps the `<details>`
/// and its summary around them). `at_event`: the cursor's event, which the
/// plots, drawn by moment, can only mark at its pass's end.
pub fn control_plane_view(
    shown: &Shown,
    at_event: Option<&EventMoment>,
    on_move: &Callback<usize>,
) -> Html {
    let Some(run) = &shown.run else {
        return Html::default();
    };
    let timeline = &run.timeline;
    let cursor = shown.cursor;
    let picture = match &shown.picture {
        Some(picture) => html! {
            <figure class="cp-figure">
                // Two drawings of one picture: wide and stacked (view.css shows one).
                { draw::svg(picture, draw::Layout::Wide) }
                { draw::svg(picture, draw::Layout::Stacked) }
                { text_equivalent(timeline, picture) }
            </figure>
        },
        None => html! {
            <p class="muted">{ "No picture here: the event log keeps the first 10,000 events of a run." }</p>
        },
    };
    html! {
        <>
            { picture }
            <div class="cp-plots">
                { swimlanes::swimlanes_view(&run.lanes, timeline, cursor, at_event, on_move) }
                { backoff_plot::backoff_view(&run.backoff, timeline, cursor.position, cursor.revealed, on_move) }
            </div>
        </>
    }
}
/// What the picture shows, part by part, in words: read by screen readers,
/// and by the tests that compare it with the timeline.
fn text_equivalent(timeline: &Timeline, picture: &Picture) -> Html {
    let cards = picture.cards(CARDS);
    let custom_resource = picture.custom_resource();
    let pairs = || std::iter::once(&custom_resource).chain(&cards.pairs);
    let more = |what: &str| {
        if cards.hidden > 0 {
            format!("; and {} more {what}", cards.hidden)
        } else {
            String::new()
        }
    };
    let store: Vec<String> = pairs()
        .filter_map(|p| p.store.as_ref())
        .map(|c| {
            format!(
                "{} {} ({})",
                c.name,
                words::card_meta(c),
                words::spec(c, 60)
            )
        })
        .collect();
    let cache: Vec<String> = pairs()
        .filter(|p| p.cache.is_some() || p.store.is_some())
        .map(|p| {
            let name = p
                .cache
                .as_ref()
                .or(p.store.as_ref())
                .map_or("", |c| &c.name);
            let meta = p.cache.as_ref().map(words::card_meta).unwrap_or_default();
            format!("{name} {meta} {}", words::freshness(p))
        })
        .collect();
    let list = |items: Vec<String>, none: &str| {
        if items.is_empty() {
            none.to_owned()
        } else {
            items.join("; ")
        }
    };
    let rows = [
        (
            "now",
            format!(
                "Now ({}): {}",
                words::time(picture.at),
                words::now(timeline, picture)
            ),
        ),
        (
            "store",
            format!(
                "API server store: {}{}",
                list(store, "empty"),
                more("objects")
            ),
        ),
        (
            "watch",
            format!(
                "Watch events in flight: {}",
                list(words::in_flight(picture), "none")
            ),
        ),
        (
            "cache",
            format!(
                "Informer cache: {}{}",
                list(cache, "empty"),
                more("objects")
            ),
        ),
        (
            "queue",
            format!("Work queue: {}", list(words::queue(picture), "")),
        ),
        (
            "controller",
            format!(
                "Controller: {}",
                list(words::controller(&picture.controller), "")
            ),
        ),
        (
            "others",
            format!(
                "Finalizer owners and garbage collector: {}",
                list(words::others(picture), "nothing to do")
            ),
        ),
    ];
    html! {
        <ul class="visually-hidden cp-text" aria-label="The control plane in words">
            { for rows.into_iter().map(|(part, text)| html! { <li data-part={part}>{ text }</li> }) }
        </ul>
    }
}
