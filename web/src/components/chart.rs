//! Out-of-sync resources per pass, drawn as SVG, with terminating objects as a second line.

use std::fmt::Write as _;

use reconcile_sim::Timeline;
use yew::prelude::*;

// Whole SVG units: integer coordinates keep float formatting out of the bundle.
const WIDTH: usize = 360;
const HEIGHT: usize = 150;
const PAD_LEFT: usize = 30;
const PAD_BOTTOM: usize = 22;
const PAD_TOP: usize = 10;

pub fn convergence_chart(timeline: &Timeline, cursor: usize, selected: Option<usize>) -> Html {
    let shown = cursor.min(timeline.passes.len());
    // Point k is what pass k found out of sync when it started (its action count):
    // that includes changes other actors made between passes. The last point is
    // the state after the last revealed pass.
    let revealed = &timeline.passes[..shown];
    let mut out_of_sync: Vec<usize> = revealed.iter().map(|p| p.actions.len()).collect();
    let mut terminating: Vec<usize> = std::iter::once(timeline.initial.terminating.len())
        .chain(revealed.iter().map(|p| p.terminating))
        .take(shown)
        .collect();
    if let Some(last) = revealed.last() {
        out_of_sync.push(last.out_of_sync);
        terminating.push(last.terminating);
    }
    let max_y = out_of_sync
        .iter()
        .chain(&terminating)
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    // x = 0 is the start of pass 1; x = n is the end of pass n.
    let max_x = timeline.passes.len().max(1);
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
    let description = format!(
        "Out of sync at the start of each pass, then after the last one: {}. Terminating: {}.",
        join(&out_of_sync),
        join(&terminating)
    );
    html! {
        <figure class="chart">
            <figcaption>{ "Out-of-sync resources per pass" }</figcaption>
            <svg viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-labelledby="chart-desc"
                 preserveAspectRatio="xMidYMid meet">
                <desc id="chart-desc">{ description }</desc>
                <line class="axis" x1={PAD_LEFT.to_string()} y1={y(0).to_string()}
                      x2={(WIDTH - 4).to_string()} y2={y(0).to_string()} />
                <line class="axis" x1={PAD_LEFT.to_string()} y1={PAD_TOP.to_string()}
                      x2={PAD_LEFT.to_string()} y2={y(0).to_string()} />
                <text class="tick" x={(PAD_LEFT - 6).to_string()} y={(y(max_y) + 4).to_string()} text-anchor="end">{ max_y }</text>
                <text class="tick" x={(PAD_LEFT - 6).to_string()} y={(y(0) + 4).to_string()} text-anchor="end">{ "0" }</text>
                <text class="tick" x={x(0).to_string()} y={(HEIGHT - 6).to_string()} text-anchor="middle">{ "pass 1" }</text>
                <text class="tick" x={x(max_x).to_string()} y={(HEIGHT - 6).to_string()} text-anchor="end">{ format!("after pass {max_x}") }</text>
                if let Some(selected) = selected {
                    <line class="selected-marker" x1={x(selected.saturating_sub(1)).to_string()} y1={PAD_TOP.to_string()}
                          x2={x(selected.saturating_sub(1)).to_string()} y2={y(0).to_string()} />
                }
                <polyline class="series terminating" points={line(&terminating)} />
                <polyline class="series out-of-sync" points={line(&out_of_sync)} />
                { for out_of_sync.iter().enumerate().map(|(i, v)| html! {
                    <circle class="point" cx={x(i).to_string()} cy={y(*v).to_string()} r="3" />
                }) }
            </svg>
            <p class="legend">
                <span class="key out-of-sync">{ "━ out of sync" }</span>
                <span class="key terminating">{ "┅ terminating" }</span>
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
