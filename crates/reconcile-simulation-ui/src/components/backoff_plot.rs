//! The backoff plot: each failure of the key, the delay its requeue actually
//! took against the policy's curve (log scale), where the cap or the token
//! bucket decided, and the same as a table, from `reconcile_sim::BackoffSeries`.
//! The failure at the cursor's pass is marked; a point or a table row's
//! button moves the cursor to its pass.

use std::fmt::Write as _;

use reconcile_sim::{
    format_millis, BackoffPoint, BackoffPolicy, BackoffSeries, DelaySetBy, Millis, Moment, Timeline,
};
use yew::prelude::*;

const WIDTH: u64 = 360;
const HEIGHT: u64 = 170;
const LEFT: u64 = 56;
const RIGHT: u64 = 12;
const TOP: u64 = 14;
const BOTTOM: u64 = 30;
/// Table rows at most: the latest failures up to the revealed pass.
const ROWS: usize = 12;
/// A later run of failures in a row (after a success reset the count) is
/// drawn this far right of the one before, so its points do not hide theirs.
const STREAK_SHIFT: u64 = 6;
/// Runs shifted at most (the fourth and later share the third's place).
const STREAKS_SHIFTED: u64 = 3;

/// A delay on a log scale in quarter powers of two (whole units keep float
/// formatting out of the bundle): 1 ms is 0, 2 ms is 4, 3 ms is 6.
fn log_units(ms: Millis) -> u64 {
    let ms = ms.max(1);
    let bits = u64::from(63 - ms.leading_zeros());
    let floor = 1u64 << bits;
    bits * 4 + (ms - floor) * 4 / floor
}

/// The policy in words.
fn policy_words(policy: &BackoffPolicy) -> String {
    match policy {
        BackoffPolicy::ClientGo {
            base_ms, max_ms, qps, burst,
        } => format!(
            "client-go: {} · 2ⁿ⁻¹ after the n-th failure in a row, at most {}; a token bucket of {qps} qps, burst {burst}, may wait longer",
            format_millis(*base_ms),
            format_millis(*max_ms)
        ),
        BackoffPolicy::FixedDelay { delay_ms } => format!(
            "a fixed delay: {} after every failure (kube-rs's error_policy returning Action::requeue)",
            format_millis(*delay_ms)
        ),
    }
}

pub fn backoff_view(
    series: &BackoffSeries,
    timeline: &Timeline,
    cursor: usize,
    revealed: usize,
    on_move: &Callback<usize>,
) -> Html {
    let passes_at = |position: usize| {
        timeline.passes_at(
            timeline
                .moments
                .get(position)
                .copied()
                .unwrap_or(Moment::Start),
        )
    };
    let (cursor_pass, revealed_pass) = (passes_at(cursor), passes_at(revealed));
    let shown: Vec<&BackoffPoint> = series
        .points
        .iter()
        .filter(|p| p.pass <= revealed_pass)
        .collect();
    let intro = html! {
        <p class="muted small">{ format!("The key {}'s requeue delays against the policy: {}.", series.key, policy_words(&series.policy)) }</p>
    };
    if shown.is_empty() {
        let none = if series.points.is_empty() {
            "No pass failed in this run: the key was never requeued with backoff."
        } else {
            "No failure yet at the revealed moment: Step or Run on."
        };
        return html! {
            <figure class="bo-figure">
                <figcaption>{ "Backoff: actual delays against the policy's curve" }</figcaption>
                { intro }
                <p class="bo-none">{ none }</p>
            </figure>
        };
    }
    // The actual delay, once the pass its requeue brought is revealed.
    let actual = |p: &BackoffPoint| {
        p.actual()
            .filter(|_| p.retry.is_some_and(|r| r.pass <= revealed_pass))
    };
    let move_to = |pass: usize| {
        let position = timeline.position_of(Moment::AfterPass(pass)).unwrap_or(0);
        on_move.reform(move |_: MouseEvent| position)
    };
    let summary = {
        let measured: Vec<String> = shown
            .iter()
            .filter_map(|p| actual(p))
            .map(format_millis)
            .collect();
        let curve: Vec<String> = shown
            .iter()
            .filter(|p| actual(p).is_some())
            .map(|p| format_millis(p.policy_delay))
            .collect();
        format!(
            "Actual delays: {}; the policy's curve: {}.",
            measured.join(", "),
            curve.join(", ")
        )
    };
    html! {
        <figure class="bo-figure">
            <figcaption>{ "Backoff: actual delays against the policy's curve" }</figcaption>
            { intro }
            { plot(series, &shown, cursor_pass, &actual, &move_to) }
            <p class="legend">
                <span class="key">{ "━ the policy's curve" }</span>
                <span class="key">{ "● the delay it took" }</span>
                <span class="key">{ "○ not taken yet" }</span>
                <span class="key">{ "cap, bucket, merged, lost: what set it, when not the curve" }</span>
            </p>
            <p class="bo-summary">{ summary }</p>
            { table(&shown, cursor_pass, revealed_pass, &actual, &move_to) }
        </figure>
    }
}

fn plot(
    series: &BackoffSeries,
    shown: &[&BackoffPoint],
    cursor_pass: usize,
    actual: &dyn Fn(&BackoffPoint) -> Option<Millis>,
    move_to: &dyn Fn(usize) -> Callback<MouseEvent>,
) -> Html {
    let last = shown.iter().map(|p| p.failure).max().unwrap_or(1).max(5);
    let curve = series.curve(last);
    let top = curve
        .iter()
        .copied()
        .chain(shown.iter().filter_map(|p| p.scheduled.max(actual(p))))
        .map(log_units)
        .max()
        .unwrap_or(1)
        .max(4);
    // Room on the right for the later runs' shift.
    let span = WIDTH - LEFT - RIGHT - STREAK_SHIFT * (STREAKS_SHIFTED - 1);
    let x = |failure: u32| LEFT + span * u64::from(failure - 1) / u64::from(last - 1);
    let y = |ms: Millis| TOP + (HEIGHT - TOP - BOTTOM) * (top - log_units(ms).min(top)) / top;
    let mut line = String::new();
    for (n, delay) in (1u32..).zip(&curve) {
        let _ = write!(line, "{},{} ", x(n), y(*delay));
    }
    let max_delay = curve.iter().copied().max().unwrap_or(1);
    let cap = series.capped_from().filter(|from| *from <= last);
    // Which run of failures in a row each point belongs to (0: the first shown).
    let streaks = shown.iter().scan(0u64, |streak, point| {
        if (point.failure == 1 || *streak == 0) && *streak < STREAKS_SHIFTED {
            *streak += 1;
        }
        Some(*streak - 1)
    });
    let points = shown.iter().zip(streaks).map(|(point, streak)| {
        let current = point.pass == cursor_pass;
        let cx = x(point.failure) + STREAK_SHIFT * streak;
        let cy = y(actual(point).or(point.scheduled).unwrap_or(point.policy_delay));
        let mark = match point.set_by {
            DelaySetBy::Curve => None,
            DelaySetBy::Cap => Some("cap"),
            DelaySetBy::Bucket => Some("bucket"),
            DelaySetBy::EarlierRequeue => Some("merged"),
            DelaySetBy::LostInCrash => Some("lost"),
        };
        let shape = if actual(point).is_some() {
            html! { <circle cx={cx.to_string()} cy={cy.to_string()} r={if current { "6" } else { "4" }} /> }
        } else {
            // Not measured (yet): a hollow ring at the delay it was given.
            html! { <circle class="bo-open" cx={cx.to_string()} cy={cy.to_string()} r={if current { "6" } else { "4" }} /> }
        };
        html! {
            <g class={classes!("bo-point", current.then_some("current"))} data-pass={point.pass.to_string()} onclick={move_to(point.pass)}>
                <title>{ point_words(point, actual(point)) }</title>
                { shape }
                if let Some(mark) = mark {
                    <text class="bo-mark" x={(cx + 7).to_string()} y={(cy + 12).to_string()}>{ mark }</text>
                }
            </g>
        }
    });
    html! {
        <svg class="bo-svg" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} aria-hidden="true" focusable="false">
            <line class="axis" x1={LEFT.to_string()} y1={(HEIGHT - BOTTOM).to_string()} x2={(WIDTH - RIGHT).to_string()} y2={(HEIGHT - BOTTOM).to_string()} />
            <line class="axis" x1={LEFT.to_string()} y1={TOP.to_string()} x2={LEFT.to_string()} y2={(HEIGHT - BOTTOM).to_string()} />
            <text class="tick" x={(LEFT - 4).to_string()} y={(y(max_delay) + 4).to_string()} text-anchor="end">{ format_millis(max_delay) }</text>
            <text class="tick" x={(LEFT - 4).to_string()} y={(y(curve[0]) + 4).to_string()} text-anchor="end">{ format_millis(curve[0]) }</text>
            <text class="tick" x={LEFT.to_string()} y={(HEIGHT - 14).to_string()} text-anchor="middle">{ "1st" }</text>
            <text class="tick" x={(WIDTH - RIGHT).to_string()} y={(HEIGHT - 14).to_string()} text-anchor="end">{ format!("{last}th failure in a row") }</text>
            if let Some(from) = cap {
                <line class="bo-cap" x1={x(from).to_string()} y1={TOP.to_string()} x2={x(from).to_string()} y2={(HEIGHT - BOTTOM).to_string()} />
                <text class="tick" x={(x(from) - 3).to_string()} y={(TOP + 8).to_string()} text-anchor="end">{ format!("capped from the {from}th") }</text>
            }
            <polyline class="series bo-curve" points={line} />
            { for points }
        </svg>
    }
}

/// One failure in words: for the point's title and the table.
fn point_words(point: &BackoffPoint, actual: Option<Millis>) -> String {
    let given = point
        .scheduled
        .map_or_else(|| "no requeue".to_owned(), format_millis);
    let took = actual.map_or_else(|| "not yet".to_owned(), format_millis);
    format!(
        "failure {} in a row, pass {}: the curve says {}, the queue gave {given} ({}), it took {took}",
        point.failure,
        point.pass,
        format_millis(point.policy_delay),
        point.set_by.words()
    )
}

/// What the actual delay column says.
fn actual_words(point: &BackoffPoint, actual: Option<Millis>, revealed_pass: usize) -> String {
    let sooner = point
        .sooner
        .filter(|pass| *pass <= revealed_pass)
        .map(|pass| format!("; pass {pass} ran the key sooner"))
        .unwrap_or_default();
    let text = match (actual, point.scheduled, point.retry) {
        (Some(took), Some(given), _) if took > given => {
            format!("{} (the worker was busy)", format_millis(took))
        }
        (Some(took), _, _) => format_millis(took),
        (None, None, _) => "none: the requeue was lost in the crash".to_owned(),
        (None, Some(_), Some(retry)) => format!("waiting: pass {} comes later", retry.pass),
        (None, Some(_), None) => "no pass of its own".to_owned(),
    };
    text + &sooner
}

fn table(
    shown: &[&BackoffPoint],
    cursor_pass: usize,
    revealed_pass: usize,
    actual: &dyn Fn(&BackoffPoint) -> Option<Millis>,
    move_to: &dyn Fn(usize) -> Callback<MouseEvent>,
) -> Html {
    let earlier = shown.len().saturating_sub(ROWS);
    html! {
        <div class="bo-table-wrap" tabindex="0" role="region" aria-label="Backoff, failure by failure">
            <table class="bo-table">
                <caption>{ "Each failure of the key: the policy's curve, the delay the queue gave, the delay it took" }</caption>
                <thead><tr>
                    <th scope="col">{ "Failed pass" }</th><th scope="col">{ "Failure in a row" }</th>
                    <th scope="col">{ "The curve" }</th><th scope="col">{ "The queue gave" }</th>
                    <th scope="col">{ "Set by" }</th><th scope="col">{ "Actual" }</th>
                </tr></thead>
                <tbody>
                    { for shown[earlier..].iter().map(|point| {
                        let current = point.pass == cursor_pass;
                        html! {
                            <tr class={classes!("bo-row", current.then_some("current"))} data-pass={point.pass.to_string()}
                                aria-current={current.then_some("step")}>
                                <th scope="row">
                                    <button type="button" onclick={move_to(point.pass)}
                                            aria-label={format!("Pass {}: move the cursor there", point.pass)}>
                                        { format!("pass {}", point.pass) }
                                    </button>
                                </th>
                                <td>{ point.failure }</td>
                                <td class="bo-curve-ms">{ format_millis(point.policy_delay) }</td>
                                <td>{ point.scheduled.map_or_else(|| "—".to_owned(), format_millis) }</td>
                                <td>{ point.set_by.words() }</td>
                                <td class="bo-actual-ms">{ actual_words(point, actual(point), revealed_pass) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            if earlier > 0 {
                <p class="muted small">{ format!("…{earlier} earlier failures not listed.") }</p>
            }
        </div>
    }
}
