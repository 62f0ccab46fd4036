//! The plan: summary line and the ordered, explained action list.

use std::rc::Rc;

use reconcile_core::{ActionKind, Drift, ExplainedAction, Json, Plan};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ActionListProps {
    pub plan: Option<Rc<Plan>>,
    /// The input has errors, so this is the last valid plan, not the current one.
    pub stale: bool,
}

#[component]
pub fn ActionList(props: &ActionListProps) -> Html {
    let summary = props
        .plan
        .as_ref()
        .map(|plan| plan.summary_text.clone())
        .unwrap_or_else(|| "No valid input yet".to_owned());
    let items = props
        .plan
        .iter()
        .flat_map(|plan| plan.actions.iter())
        .map(|explained| {
            let key = format!("{}:{}", explained.action.kind, explained.action.name);
            html! { <ActionItem {key} explained={explained.clone()} /> }
        });
    html! {
        <section class={classes!("pane", "plan-pane", props.stale.then_some("stale"))}
                 aria-labelledby="plan-heading">
            <header class="pane-header">
                <h2 id="plan-heading">{ "Plan" }</h2>
                if props.stale {
                    <span class="stale-badge">{ "Stale" }</span>
                }
            </header>
            if props.stale {
                <p class="stale-note">
                    { "The input has errors. Showing the last valid result until they are fixed." }
                </p>
            }
            <p id="plan-summary" class="summary" aria-live="polite">{ summary }</p>
            <ol class="actions" aria-label="Actions" aria-describedby="plan-summary"
                data-stale={props.stale.to_string()}>
                { for items }
            </ol>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct ActionItemProps {
    explained: ExplainedAction,
}

fn kind_class(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Create => "kind-create",
        ActionKind::Update => "kind-update",
        ActionKind::Finalize => "kind-finalize",
        ActionKind::Delete => "kind-delete",
    }
}

#[component]
fn ActionItem(props: &ActionItemProps) -> Html {
    let action = &props.explained.action;
    let drift = &props.explained.drift;
    html! {
        <li class={classes!("action", kind_class(action.kind))}>
            <div class="action-head">
                <span class="badge" aria-hidden="true">{ action.kind.symbol() }</span>
                <span class="kind">{ action.kind.as_str() }</span>
                <code class="name">{ &action.name }</code>
            </div>
            if let Some(spec) = &action.spec {
                <code class="spec">{ spec.to_compact_string() }</code>
            }
            <p class="reason">{ props.explained.reason.to_string() }</p>
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
