//! "World now": the store at the simulation's cursor, beside the editors'
//! starting scenario, with what changed since the start marked in words and
//! a symbol (never colour alone).

use reconcile_sim::{ObjectChange, WorldRow};
use yew::prelude::*;

/// Rows shown at most; the rest are counted.
const ROW_LIMIT: usize = 100;

fn mark(change: ObjectChange) -> (&'static str, &'static str) {
    match change {
        ObjectChange::Unchanged => ("", "change-unchanged"),
        ObjectChange::Added => ("+", "change-added"),
        ObjectChange::Changed => ("~", "change-changed"),
        ObjectChange::Removed => ("−", "change-removed"),
        ObjectChange::Terminating => ("◐", "change-terminating"),
    }
}

/// `moment` names the cursor ("pass 2"); `rows` come from reconcile-sim.
pub fn world_now(moment: &str, rows: &[WorldRow]) -> Html {
    let changed = rows
        .iter()
        .filter(|row| row.change != ObjectChange::Unchanged)
        .count();
    let hidden = rows.len().saturating_sub(ROW_LIMIT);
    html! {
        <section class="pane world-now" aria-labelledby="world-now-heading">
            <header class="pane-header">
                <h2 id="world-now-heading">{ format!("World now — after {moment}") }</h2>
            </header>
            <p class="muted small">
                { format!("The cluster at the simulation's cursor: {changed} change(s) since the start. \
                           The editors keep the starting scenario.") }
            </p>
            <table class="world-table" aria-label="World now">
                <thead><tr>
                    <th scope="col">{ "Object" }</th><th scope="col">{ "Since the start" }</th>
                    <th scope="col">{ "Spec" }</th><th scope="col">{ "Finalizers" }</th>
                </tr></thead>
                <tbody>
                    // Collected into one keyed list (see the status grid).
                    { rows.iter().take(ROW_LIMIT).map(|row| {
                        let (symbol, class) = mark(row.change);
                        html! {
                            <tr key={row.name.clone()} class={class}>
                                <th scope="row"><code>{ &row.name }</code></th>
                                <td class="change">
                                    if !symbol.is_empty() {
                                        <span aria-hidden="true">{ symbol }{ " " }</span>
                                    }
                                    { row.change.label() }
                                </td>
                                <td><code>{ row.spec.to_string() }</code></td>
                                <td>{ row.finalizers.join(", ") }</td>
                            </tr>
                        }
                    }).collect::<Html>() }
                    if hidden > 0 {
                        <tr><td colspan="4">{ format!("…and {hidden} more objects.") }</td></tr>
                    }
                </tbody>
            </table>
        </section>
    }
}
