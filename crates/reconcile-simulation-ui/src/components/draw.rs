//! The drawing: six labelled boxes placed by a layout, cards and lines in
//! them, and arrows for what flows between them. Whole SVG units.

use reconcile_sim::events::SimEvent;
use reconcile_sim::picture::{CardPair, Freshness, Picture, Position};
use yew::prelude::*;

use super::{words, CARDS};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Store, watch and cache side by side; the queue and controller below.
    Wide,
    /// One part under the other, for narrow screens (view.css).
    Stacked,
}

const HEAD: usize = 30;
const CARD_H: usize = 46;
const CARD_STEP: usize = 52;
const LINE: usize = 18;
const GAP: usize = 46;

#[derive(Clone, Copy)]
struct Rect {
    x: usize,
    y: usize,
    w: usize,
    h: usize,
}

/// Which part the event at this position moves (highlighted).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Store,
    Cache,
    Queue,
    Controller,
}

fn focus(picture: &Picture) -> Option<Part> {
    match (&picture.event, picture.position) {
        (_, Position::ActorEvent(_)) => Some(Part::Store),
        (Some(entry), _) => Some(match entry.what {
            SimEvent::Request { .. }
            | SimEvent::StatusWrite { .. }
            | SimEvent::FinalizerWrite { .. } => Part::Store,
            SimEvent::WatchDelivered { .. } => Part::Cache,
            SimEvent::Enqueued { .. } | SimEvent::RequeueDelayed { .. } => Part::Queue,
            // The picture draws no cloud: its calls are the controller's.
            SimEvent::ReconcileStarted { .. }
            | SimEvent::ReconcileEnded { .. }
            | SimEvent::Cloud { .. } => Part::Controller,
        }),
        _ => None,
    }
}

/// An arrow between two parts: a path, its label and where the label sits.
struct Arrow {
    d: String,
    label: &'static str,
    at: (usize, usize),
    lit: bool,
}

fn arrow(from: (usize, usize), to: (usize, usize), label: &'static str) -> Arrow {
    Arrow {
        d: format!("M{},{} L{},{}", from.0, from.1, to.0, to.1),
        label,
        at: ((from.0 + to.0) / 2 + 6, (from.1 + to.1) / 2 - 4),
        lit: false,
    }
}

/// Room around the drawing for the highlighted part's wide border.
const MARGIN: usize = 4;

pub fn svg(picture: &Picture, layout: Layout) -> Html {
    let cards = picture.cards(CARDS);
    let custom_resource = picture.custom_resource();
    let pairs: Vec<&CardPair> = std::iter::once(&custom_resource)
        .chain(&cards.pairs)
        .collect();
    // Widths of the text boxes, so long lines wrap inside them.
    let (side_w, bottom_w) = match layout {
        Layout::Wide => (300, 440),
        Layout::Stacked => (344, 344),
    };
    let flight = wrap(words::in_flight(picture), side_w);
    let others = wrap(words::others(picture), side_w);
    let controller = wrap(words::controller(&picture.controller), bottom_w);
    let queue = wrap(words::queue(picture), bottom_w);
    let lines = |n: usize| HEAD + LINE * n.max(1) + 8;
    let cards_h = HEAD + CARD_STEP * pairs.len() + LINE * usize::from(cards.hidden > 0) + 6;
    let (watch_h, others_h) = (lines(flight.len()), lines(others.len()));
    let (queue_h, controller_h) = (lines(queue.len()), lines(controller.len()));
    let (width, height, boxes, mut arrows) = match layout {
        Layout::Wide => {
            let others_y = 40 + watch_h + GAP / 2;
            let top = cards_h.max(others_y + others_h);
            let below = top + GAP + 10;
            let bottom = queue_h.max(controller_h);
            let boxes = [
                Rect {
                    x: 0,
                    y: 0,
                    w: 300,
                    h: top,
                },
                Rect {
                    x: 330,
                    y: 40,
                    w: side_w,
                    h: watch_h,
                },
                Rect {
                    x: 660,
                    y: 0,
                    w: 300,
                    h: top,
                },
                Rect {
                    x: 520,
                    y: below,
                    w: bottom_w,
                    h: bottom,
                },
                Rect {
                    x: 0,
                    y: below,
                    w: bottom_w,
                    h: bottom,
                },
                Rect {
                    x: 330,
                    y: others_y,
                    w: side_w,
                    h: others_h,
                },
            ];
            let arrows = vec![
                arrow((300, 22), (660, 22), "watch: every write's event"),
                arrow((810, top), (810, below), "the handler adds the key"),
                arrow((520, below + 24), (440, below + 24), "takes"),
                arrow((150, below), (150, top), "one request per action"),
                arrow((330, others_y + 24), (300, others_y + 24), ""),
            ];
            (960, below + bottom, boxes, arrows)
        }
        Layout::Stacked => {
            let mut y = 0;
            let mut place = |h: usize| {
                let rect = Rect {
                    x: 16,
                    y,
                    w: side_w,
                    h,
                };
                y += h + GAP;
                rect
            };
            let boxes @ [store, watch, cache, queue_box, controller_box, others_box] = {
                let others_box = place(others_h);
                let store = place(cards_h);
                let watch = place(watch_h);
                let cache = place(cards_h);
                let queue_box = place(queue_h);
                [
                    store,
                    watch,
                    cache,
                    queue_box,
                    place(controller_h),
                    others_box,
                ]
            };
            let down =
                |from: Rect, to: Rect, label| arrow((180, from.y + from.h), (180, to.y), label);
            let mut requests = arrow((0, 0), (0, 0), "");
            // The controller's requests go back up to the store, along the left edge.
            requests.d = format!(
                "M16,{} L6,{} L6,{} L16,{}",
                controller_box.y + 20,
                controller_box.y + 20,
                store.y + 20,
                store.y + 20
            );
            let arrows = vec![
                down(store, watch, "writes raise watch events"),
                down(watch, cache, "the informer takes it"),
                down(cache, queue_box, "the handler adds the key"),
                down(queue_box, controller_box, "the worker takes the key"),
                down(others_box, store, "they write to the store too"),
                requests,
            ];
            (360, y - GAP, boxes, arrows)
        }
    };
    let lit = focus(picture);
    // The watch arrow carries what the cache takes.
    arrows[0].lit = lit == Some(Part::Cache);
    let [store, watch, cache, queue_box, controller_box, others_box] = boxes;
    let (class, marker) = match layout {
        Layout::Wide => ("cp-svg cp-wide", "cp-head-wide"),
        Layout::Stacked => ("cp-svg cp-stacked", "cp-head-stacked"),
    };
    let view_box = format!(
        "-{MARGIN} -{MARGIN} {} {}",
        width + 2 * MARGIN,
        height + 2 * MARGIN
    );
    html! {
        <svg class={class} viewBox={view_box} aria-hidden="true" focusable="false">
            <defs>
                <marker id={marker} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 z" class="cp-arrowhead" />
                </marker>
            </defs>
            { part(store, "API server: store", lit == Some(Part::Store), card_column(&pairs, cards.hidden, store.w, true)) }
            { part(watch, "Watch events in flight", false, text_lines(&flight, "none")) }
            { part(cache, "Informer cache", lit == Some(Part::Cache), card_column(&pairs, cards.hidden, cache.w, false)) }
            { part(queue_box, "Work queue", lit == Some(Part::Queue), text_lines(&queue, "")) }
            { part(controller_box, "Controller (one worker)", lit == Some(Part::Controller), text_lines(&controller, "")) }
            { part(others_box, "Finalizer owners, garbage collector", false, text_lines(&others, "nothing to do")) }
            { for arrows.iter().map(|a| html! {
                <g class={classes!("cp-arrow", a.lit.then_some("cp-lit"))}>
                    <path d={a.d.clone()} marker-end={format!("url(#{marker})")} />
                    if !a.label.is_empty() {
                        <text x={a.at.0.to_string()} y={a.at.1.to_string()} class="cp-arrow-label">{ a.label }</text>
                    }
                </g>
            }) }
        </svg>
    }
}

fn part(rect: Rect, title: &str, lit: bool, content: Html) -> Html {
    html! {
        <g class={classes!("cp-part", lit.then_some("cp-lit"))} transform={format!("translate({},{})", rect.x, rect.y)}>
            <rect class="cp-box" width={rect.w.to_string()} height={rect.h.to_string()} rx="8" />
            <text x="10" y="20" class="cp-title">{ title }</text>
            // A nested svg clips what is too long for the box; the words have it whole.
            <svg width={rect.w.to_string()} height={rect.h.to_string()}>{ content }</svg>
        </g>
    }
}

/// Width of a character of `.cp-line` (12px sans-serif), in tenths of an
/// SVG unit: a little over the average, so a line of wide letters fits too.
const CHAR_W_TENTHS: usize = 65;

/// `lines` broken at spaces so each fits a box `width` wide (a word longer
/// than the box stays whole; the box clips it and the words keep it).
fn wrap(lines: Vec<String>, width: usize) -> Vec<String> {
    let fits = (width - 24) * 10 / CHAR_W_TENTHS;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let mut current = String::new();
        for word in line.split(' ') {
            let needed = current.chars().count() + 1 + word.chars().count();
            if !current.trim().is_empty() && needed > fits {
                out.push(std::mem::take(&mut current));
                // Continuation lines are indented.
                current.push_str("  ");
            } else if !current.trim().is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push(current);
    }
    out
}

fn text_lines(lines: &[String], none: &str) -> Html {
    let none = [none.to_owned()];
    let shown = if lines.is_empty() { &none[..] } else { lines };
    html! {
        { for shown.iter().enumerate().map(|(i, line)| html! {
            <text x="10" y={(HEAD + 12 + LINE * i).to_string()} class="cp-line">{ line }</text>
        }) }
    }
}
/// The store's cards (`store`) or the cache's, one row per object in both.
fn card_column(pairs: &[&CardPair], hidden: usize, width: usize, store: bool) -> Html {
    let w = width - 16;
    let chars = w / 7;
    let rows = pairs.iter().enumerate().map(|(i, pair)| {
        let y = HEAD + CARD_STEP * i;
        let (card, note) = if store {
            (pair.store.as_ref(), None)
        } else {
            let note = (pair.freshness != Freshness::Fresh).then(|| words::freshness(pair));
            (pair.cache.as_ref(), note)
        };
        let name = pair.store.as_ref().or(pair.cache.as_ref()).map_or("", |c| &c.name);
        let class = match (card, pair.freshness, store) {
            (None, _, _) => "cp-card cp-ghost",
            (_, Freshness::Stale { .. } | Freshness::Deleted, false) => "cp-card cp-stale",
            _ => "cp-card",
        };
        let lines = match card {
            Some(card) => vec![words::spec(card, chars), words::card_meta(card)],
            None if store => vec!["not in the store".to_owned()],
            None => vec!["not in the cache yet".to_owned()],
        };
        html! {
            <g class={class} transform={format!("translate(8,{y})")}>
                <rect width={w.to_string()} height={CARD_H.to_string()} rx="4" />
                <text x="6" y="14" class="cp-name">{ name }
                    if let Some(note) = note { <tspan class="cp-note">{ format!(" — {note}") }</tspan> }
                </text>
                { for lines.iter().enumerate().map(|(j, line)| html! {
                    <text x="6" y={(28 + 13 * j).to_string()} class="cp-meta">{ line }</text>
                }) }
            </g>
        }
    });
    html! {
        <>
            { for rows }
            if hidden > 0 {
                <text x="10" y={(HEAD + CARD_STEP * pairs.len() + 12).to_string()} class="cp-line">
                    { format!("…and {hidden} more objects") }
                </text>
            }
        </>
    }
}
