//! The plan: summary line and the ordered, explained action list.

use reconcile_core::{ActionKind, Drift, ExplainedAction, Json, Plan};
use yew::prelude::*;

use crate::shared::Shared;

/// Actions listed at most.
const ITEM_LIMIT: usize = 200;

#[derive(Properties, PartialEq)]
pub struct ActionListProps {
    pub plan: Option<Shared<Plan>>,
    /// The input has errors, so this is the last valid plan, not the current one.
    pub stale: bool,
    /// A lesson asks for a prediction first: the actions stay hidden until then.
    #[prop_or_default]
    pub concealed: bool,
}

/// A component (not a plain function) so it is skipped while its plan is unchanged.
#[component]
pub fn ActionList(props: &ActionListProps) -> Html {
    let (plan, stale) = (props.plan.as_deref(), props.stale);
    if props.concealed {
        return html! {
            <section class="pane plan-pane concealed" aria-labelledby="plan-heading">
                <header class="pane-header"><h2 id="plan-heading">{ "Plan" }</h2></header>
                <p class="summary">{ "Hidden until you make your prediction in the lesson panel." }</p>
            </section>
        };
    }
    let summary = plan
        .map(|plan| plan.summary_text.clone())
        .unwrap_or_else(|| "No valid input yet".to_owned());
    // Thousands of items would freeze the page; the summary counts them all.
    let total = plan.map_or(0, |plan| plan.actions.len());
    let items = plan
        .iter()
        .flat_map(|plan| plan.actions.iter())
        .take(ITEM_LIMIT)
        .map(action_item);
    html! {
        <section class={classes!("pane", "plan-pane", stale.then_some("stale"))}
                 aria-labelledby="plan-heading">
            <header class="pane-header">
                <h2 id="plan-heading">{ "Plan" }</h2>
                if stale {
                    <span class="stale-badge">{ "Stale" }</span>
                }
            </header>
            if stale {
                <p class="stale-note">
                    { "The input has errors. Showing the last valid result until they are fixed." }
                </p>
            }
            <p id="plan-summary" class="summary" aria-live="polite">{ summary }</p>
            <ol class="actions" aria-label="Actions" aria-describedby="plan-summary"
                data-stale={stale.to_string()}>
                { for items }
                if total > ITEM_LIMIT {
                    <li class="more-actions">
                        { format!("…and {} more actions. Download results to see them all.", total - ITEM_LIMIT) }
                    </li>
                }
            </ol>
        </section>
    }
}

fn kind_class(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Create => "kind-create",
        ActionKind::Update => "kind-update",
        ActionKind::Finalize => "kind-finalize",
        ActionKind::Delete => "kind-delete",
    }
}

fn action_item(explained: &ExplainedAction) -> Html {
    let action = &explained.action;
    let drift = &explained.drift;
    let key = format!("{}:{}", action.kind, action.name);
    html! {
        <li {key} class={classes!("action", kind_class(action.kind))}>
            <div class="action-head">
                <span class="badge" aria-hidden="true">{ action.kind.symbol() }</span>
                <span class="kind">{ action.kind.as_str() }</span>
                <code class="name">{ &action.name }</code>
            </div>
            if let Some(spec) = &action.spec {
                <code class="spec">{ spec.to_compact_string() }</code>
            }
            <p class="reason">{ explained.reason.to_string() }</p>
            if !drift.is_empty() {
                <ul class="drift" aria-label={format!("Drift of {}", action.name)}>
                    { for drift.iter().map(drift_row) }
                </ul>
            }
        </li>
    }
}

fn drift_row(drift: &Drift) -> Html {
    let show = |value: &Option<Json>| match value {
        Some(value) => value.to_compact_string(),
        None => "(absent)".to_owned(),
    };
    html! {
        <li class="drift-row">
            <code class="drift-path">{ drift.path.to_string() }</code>{ ": " }
            <span class="drift-observed" title="observed">{ show(&drift.observed) }</span>
            <span aria-hidden="true">{ " → " }</span><span class="visually-hidden">{ " becomes " }</span>
            <span class="drift-desired" title="desired">{ show(&drift.desired) }</span>
        </li>
    }
}
