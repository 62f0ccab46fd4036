//! Swimlanes: one lane per object through the run's moments, each cell its
//! state (a colour, a symbol and a word) and what the pass did to it, from
//! `reconcile_sim::Swimlanes`. The cursor's column is outlined; clicking a
//! column moves the cursor there, and so do ← and → on the focused lanes.

use reconcile_protocol::control_plane::ViewCursor;
use reconcile_sim::{
    column_label, column_window, EventMoment, Moment, SwimCell, Swimlanes, Timeline,
};
use yew::prelude::*;

use reconcile_ui_shared::words::{cell_text, result_text};

const HEAD_H: usize = 30;
const ROW_H: usize = 36;
const COL_W: usize = 100;

/// The wide drawing and the one for narrow screens (view.css shows one).
#[derive(Clone, Copy)]
struct Layout {
    class: &'static str,
    name_w: usize,
    columns: usize,
}

const WIDE: Layout = Layout {
    class: "sl-svg sl-wide",
    name_w: 120,
    columns: 10,
};
const NARROW: Layout = Layout {
    class: "sl-svg sl-narrow",
    name_w: 84,
    columns: 3,
};

pub fn swimlanes_view(
    lanes: &Swimlanes,
    timeline: &Timeline,
    view_cursor: ViewCursor,
    at_event: Option<&EventMoment>,
    on_move: &Callback<usize>,
) -> Html {
    let (cursor, revealed) = (view_cursor.position, view_cursor.revealed);
    let revealed = revealed.min(lanes.columns.len().saturating_sub(1));
    let onkeydown = {
        let on_move = on_move.clone();
        Callback::from(move |e: KeyboardEvent| {
            let to = match e.key().as_str() {
                "ArrowLeft" => cursor.saturating_sub(1),
                "ArrowRight" => cursor + 1,
                _ => return,
            };
            e.prevent_default();
            on_move.emit(to);
        })
    };
    html! {
        <figure class="sl-figure">
            <figcaption>{ "Swimlanes: each object in the store, moment by moment" }</figcaption>
            if let Some(at_event) = at_event {
                <p class="muted small sl-moment">{ super::words::boundary_note(at_event) }</p>
            }
            <div class="sl-focus" tabindex="0" role="group" {onkeydown}
                 aria-label="Swimlanes. Left and Right arrow keys move the cursor.">
                { svg(lanes, timeline, cursor, revealed, WIDE, on_move) }
                { svg(lanes, timeline, cursor, revealed, NARROW, on_move) }
                { text_equivalent(lanes, timeline, cursor, revealed) }
            </div>
            if lanes.hidden > 0 {
                <p class="muted small">{ format!("…and {} more objects, in sync throughout or later out of sync.", lanes.hidden) }</p>
            }
        </figure>
    }
}

/// "start", "pass 2", "event": short enough for a column head.
fn head(moment: Moment) -> String {
    match moment {
        Moment::Start => "start".to_owned(),
        Moment::AfterPass(pass) => format!("pass {pass}"),
        Moment::AfterActorEvent(_) => "event".to_owned(),
    }
}

/// A cell in words: "a after pass 1: in sync; CREATE a → ok".
fn cell_title(timeline: &Timeline, name: &str, moment: Moment, cell: &SwimCell) -> String {
    let mut text = format!(
        "{name} after {}: {}",
        timeline.describe_moment(moment),
        cell.word()
    );
    if let Some(outcome) = &cell.action {
        text.push_str(&format!(
            "; {} {name} → {}",
            outcome.action.kind.as_str(),
            result_text(&outcome.result)
        ));
    }
    text
}

fn svg(
    lanes: &Swimlanes,
    timeline: &Timeline,
    cursor: usize,
    revealed: usize,
    layout: Layout,
    on_move: &Callback<usize>,
) -> Html {
    let window = column_window(cursor, revealed, layout.columns);
    let width = layout.name_w + COL_W * window.len();
    let height = HEAD_H + ROW_H * lanes.lanes.len().max(1);
    let x = |position: usize| layout.name_w + COL_W * (position - window.start);
    // A column holds its head and its cells: a click anywhere in it moves the cursor.
    let columns = window.clone().map(|position| {
        let moment = lanes.columns[position];
        let current = position == cursor;
        let cx = x(position);
        let onclick = on_move.reform(move |_: MouseEvent| position);
        let cells = lanes.lanes.iter().enumerate().map(|(row, lane)| {
            let y = HEAD_H + ROW_H * row;
            let cell = &lane.cells[position];
            let (symbol, _, class) = cell_text(cell.state);
            html! {
                <g class={classes!("sl-cell", class)} data-object={lane.name.clone()}>
                    <title>{ cell_title(timeline, &lane.name, moment, cell) }</title>
                    <rect x={(cx + 2).to_string()} y={(y + 2).to_string()} width={(COL_W - 4).to_string()} height={(ROW_H - 4).to_string()} rx="4" />
                    <text class="sl-word" x={(cx + 7).to_string()} y={(y + 16).to_string()}>
                        { format!("{symbol} {}", cell.word()).trim_start().to_owned() }
                    </text>
                    if let Some(action) = cell.action_words() {
                        <text class="sl-action" x={(cx + 7).to_string()} y={(y + 29).to_string()}>{ action }</text>
                    }
                </g>
            }
        });
        html! {
            <g class={classes!("sl-col", current.then_some("sl-current"))} data-position={position.to_string()} {onclick}>
                <rect class="sl-col-hit" x={cx.to_string()} y="0" width={COL_W.to_string()} height={height.to_string()} />
                <text class="sl-head" x={(cx + COL_W / 2).to_string()} y="18" text-anchor="middle">
                    { if current { format!("▸ {}", head(moment)) } else { head(moment) } }
                </text>
                { for cells }
            </g>
        }
    });
    let names = lanes.lanes.iter().enumerate().map(|(row, lane)| {
        html! { <text class="sl-name" x="4" y={(HEAD_H + ROW_H * row + 22).to_string()}>{ &lane.name }</text> }
    });
    let current = (window.contains(&cursor)).then(|| {
        html! {
            <rect class="sl-cursor" x={(x(cursor) + 1).to_string()} y="1" width={(COL_W - 2).to_string()} height={(height - 2).to_string()} rx="6" />
        }
    });
    html! {
        // Its own size at most, narrower to fit (view.css): no inline style under the CSP.
        <svg class={layout.class} viewBox={format!("0 0 {width} {height}")} width={width.to_string()} height={height.to_string()}
             aria-hidden="true" focusable="false">
            { for names }
            { for columns }
            { current.unwrap_or_default() }
        </svg>
    }
}

/// The window of the wide drawing as a table, for screen readers.
fn text_equivalent(lanes: &Swimlanes, timeline: &Timeline, cursor: usize, revealed: usize) -> Html {
    let window = column_window(cursor, revealed, WIDE.columns);
    let label = |position: usize| {
        let text = column_label(timeline, lanes.columns[position]);
        if position == cursor {
            format!("{text} (the cursor)")
        } else {
            text
        }
    };
    // In a clipped box: a table is as wide as its cells, whatever its own width says.
    html! {
        <div class="visually-hidden">
        <table class="sl-text">
            <caption>{ format!("Each object's state in the store, from {} to {}", label(window.start), label(window.end - 1)) }</caption>
            <thead><tr>
                <th scope="col">{ "Object" }</th>
                { for window.clone().map(|position| html! { <th scope="col">{ label(position) }</th> }) }
            </tr></thead>
            <tbody>
                { for lanes.lanes.iter().map(|lane| html! {
                    <tr>
                        <th scope="row">{ &lane.name }</th>
                        { for window.clone().map(|position| {
                            let cell = &lane.cells[position];
                            let text = match cell.action_words() {
                                Some(action) => format!("{}; {action}", cell.word()),
                                None => cell.word().to_owned(),
                            };
                            html! { <td>{ text }</td> }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
        </div>
    }
}
