//! Out-of-sync resources at each moment of the run, drawn as SVG, with
//! terminating objects as a second line and the cursor marked.

use std::fmt::Write as _;

use reconcile_sim::{EventMoment, Moment, Timeline};

use crate::components::words::boundary_note;
use yew::prelude::*;

// Whole SVG units: integer coordinates keep float formatting out of the bundle.
const WIDTH: usize = 360;
const HEIGHT: usize = 150;
const PAD_LEFT: usize = 30;
const PAD_BOTTOM: usize = 22;
const PAD_TOP: usize = 10;

/// One custom resource's out-of-sync and terminating counts per moment.
pub type KeySeries = (Vec<usize>, Vec<usize>);

/// One point per revealed moment (the start, after each pass, after each
/// actor's event): what is out of sync and terminating in the store then.
/// The cursor's point is marked; clicking a point moves the cursor there
/// (with the keyboard, the timeline's rows do the same). Stepping by event
/// (`at_event`), it says that it marks the end of the event's pass.
///
/// `key`: one custom resource of several, with its series
/// ([`reconcile_sim::key_out_of_sync_series`]), drawn instead of the run's.
pub fn convergence_chart(
    timeline: &Timeline,
    revealed: usize,
    cursor: usize,
    at_event: Option<&EventMoment>,
    on_move: &Callback<usize>,
    key: Option<(&str, KeySeries)>,
) -> Html {
    let moments = &timeline.moments[..(revealed + 1).min(timeline.moments.len())];
    let (caption, (out_of_sync, terminating)) = match key {
        Some((key, series)) => (
            format!("Out-of-sync objects of {key} at each moment"),
            series,
        ),
        None => {
            let run = moments.iter().map(|m| {
                let world = timeline.world_at(*m);
                (timeline.out_of_sync_at(*m), world.terminating.len())
            });
            (
                "Out-of-sync resources at each moment".to_owned(),
                run.unzip(),
            )
        }
    };
    let max_y = out_of_sync
        .iter()
        .chain(&terminating)
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    // x = 0 is the start; x = the last position is the end of the run.
    let max_x = timeline.moments.len().saturating_sub(1).max(1);
    let x = |i: usize| PAD_LEFT + (WIDTH - PAD_LEFT - 8) * i / max_x;
    let y = |v: usize| PAD_TOP + (HEIGHT - PAD_TOP - PAD_BOTTOM) * (max_y - v.min(max_y)) / max_y;
    let line = |values: &[usize]| {
        values
            .iter()
            .enumerate()
            .fold(String::new(), |mut points, (i, v)| {
                let _ = write!(points, "{},{} ", x(i), y(*v));
                points
            })
    };
    let at = timeline.describe_moment(moments.get(cursor).copied().unwrap_or(Moment::Start));
    let marked = format!(
        "The cursor is at {at}: {} out of sync.",
        out_of_sync.get(cursor).copied().unwrap_or(0)
    );
    let note = at_event.map(boundary_note);
    let description = format!(
        "Out of sync at the start, after each pass and after each other actor's event: {}. \
         Terminating: {}. {}",
        join(&out_of_sync),
        join(&terminating),
        note.clone().unwrap_or(marked),
    );
    html! {
        <figure class="chart">
            <figcaption>{ caption }</figcaption>
            <svg viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-labelledby="chart-desc"
                 preserveAspectRatio="xMidYMid meet">
                <desc id="chart-desc">{ description }</desc>
                <line class="axis" x1={PAD_LEFT.to_string()} y1={y(0).to_string()}
                      x2={(WIDTH - 4).to_string()} y2={y(0).to_string()} />
                <line class="axis" x1={PAD_LEFT.to_string()} y1={PAD_TOP.to_string()}
                      x2={PAD_LEFT.to_string()} y2={y(0).to_string()} />
                <text class="tick" x={(PAD_LEFT - 6).to_string()} y={(y(max_y) + 4).to_string()} text-anchor="end">{ max_y }</text>
                <text class="tick" x={(PAD_LEFT - 6).to_string()} y={(y(0) + 4).to_string()} text-anchor="end">{ "0" }</text>
                <text class="tick" x={x(0).to_string()} y={(HEIGHT - 6).to_string()} text-anchor="middle">{ "start" }</text>
                <text class="tick" x={x(max_x).to_string()} y={(HEIGHT - 6).to_string()} text-anchor="end">{ "end" }</text>
                <line class="selected-marker" x1={x(cursor).to_string()} y1={PAD_TOP.to_string()}
                      x2={x(cursor).to_string()} y2={y(0).to_string()} />
                <polyline class="series terminating" points={line(&terminating)} />
                <polyline class="series out-of-sync" points={line(&out_of_sync)} />
                { for out_of_sync.iter().enumerate().map(|(i, v)| {
                    let onclick = on_move.reform(move |_: MouseEvent| i);
                    html! {
                        <circle class={classes!("point", (i == cursor).then_some("current"))}
                                cx={x(i).to_string()} cy={y(*v).to_string()} r={if i == cursor { "5" } else { "3" }}
                                data-moment={i.to_string()} data-out-of-sync={v.to_string()} {onclick} />
                    }
                }) }
            </svg>
            if let Some(note) = note {
                <p class="muted small chart-moment">{ note }</p>
            }
            <p class="legend">
                <span class="key out-of-sync">{ "━ out of sync" }</span>
                <span class="key terminating">{ "┅ terminating" }</span>
                <span class="key cursor">{ "│ the cursor" }</span>
            </p>
        </figure>
    }
}

fn join(values: &[usize]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
