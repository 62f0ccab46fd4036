//! The plan: summary line and the ordered, explained action list.

use gloo::timers::callback::Timeout;
use reconcile_core::{ActionKind, Drift, ExplainedAction, Json, Plan};
use reconcile_sim::defaulting::defaulted_drift;
use yew::prelude::*;

use crate::shared::Shared;
use crate::state::Playground;

/// Actions listed at most.
const ITEM_LIMIT: usize = 200;
/// The plan is announced once it has stayed the same this long: typing
/// re-plans at every pause, and a screen reader should hear the result once.
const ANNOUNCE_DELAY_MS: u32 = 1_000;
/// Actions named in an announcement at most; the summary counts them all.
const ANNOUNCED_ACTIONS: usize = 5;

#[derive(Properties, PartialEq)]
pub struct ActionListProps {
    pub plan: Option<Shared<Plan>>,
    /// The input has errors, so this is the last valid plan, not the current one.
    pub stale: bool,
    /// A lesson asks for a prediction first: the actions stay hidden until then.
    #[prop_or_default]
    pub concealed: bool,
    /// While the simulation's cursor is past the start: the plan is the next
    /// pass's ("Plan for pass 3"), with a line that says what it is.
    #[prop_or_default]
    pub moment: Option<(AttrValue, AttrValue)>,
}

/// The plan on show and its moment: past the start (`at_cursor`), the next
/// pass's plan once the module has said it; otherwise the page's own plan.
pub fn plan_on_show(
    state: &Playground,
    at_cursor: bool,
) -> (Option<Shared<Plan>>, Option<(AttrValue, AttrValue)>) {
    match (at_cursor, &state.sim.next_plan) {
        (true, Some(next)) => (
            Some(next.plan.clone()),
            Some((
                AttrValue::from(format!("Plan for pass {}", next.pass)),
                AttrValue::from(std::rc::Rc::clone(&next.note)),
            )),
        ),
        _ => (state.plan.clone(), None),
    }
}

/// A component (not a plain function) so it is skipped while its plan is unchanged.
#[component]
pub fn ActionList(props: &ActionListProps) -> Html {
    let (plan, stale) = (props.plan.as_deref(), props.stale);
    // Concealed, the plan is the answer to the lesson's question: never announce it.
    let announcement = plan.filter(|_| !props.concealed).map(announcement_text);
    let live_region = use_plan_announcement(announcement);
    if props.concealed {
        return html! {
            <section class="pane plan-pane concealed" aria-labelledby="plan-heading">
                { live_region }
                <header class="pane-header"><h2 id="plan-heading" tabindex="-1">{ "Plan" }</h2></header>
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
    let heading = props
        .moment
        .as_ref()
        .map_or(AttrValue::Static("Plan"), |(heading, _)| heading.clone());
    html! {
        <section class={classes!("pane", "plan-pane", stale.then_some("stale"), props.moment.is_some().then_some("at-cursor"))}
                 aria-labelledby="plan-heading">
            { live_region }
            <header class="pane-header">
                <h2 id="plan-heading" tabindex="-1">{ heading }</h2>
                if stale {
                    <span class="stale-badge">{ "Stale" }</span>
                }
            </header>
            if stale {
                <p class="stale-note">
                    { "The input has errors. Showing the last valid result until they are fixed." }
                </p>
            }
            if let Some((_, note)) = &props.moment {
                <p class="plan-moment-note">{ note.clone() }</p>
            }
            <p id="plan-summary" class="summary">{ summary }</p>
            if plan.is_some_and(|plan| plan.actions.is_empty()) {
                <p class="nothing-to-do">{ "Nothing to do: reconcile returns no actions." }</p>
            }
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

/// A polite live region that speaks the plan when it changes, once it has
/// settled. The plan the page opens with is on screen already, so it is not
/// announced; nor is the last valid plan again while the input has errors.
#[hook]
fn use_plan_announcement(announcement: Option<String>) -> Html {
    let announced = use_state(String::new);
    let first = use_mut_ref(|| true);
    {
        let announced = announced.clone();
        use_effect_with(announcement, move |text| {
            let opening = std::mem::replace(&mut *first.borrow_mut(), false);
            let timeout = match text {
                Some(text) if !opening => {
                    let text = text.clone();
                    Some(Timeout::new(ANNOUNCE_DELAY_MS, move || announced.set(text)))
                }
                _ => None,
            };
            move || drop(timeout)
        });
    }
    html! {
        <p id="plan-announcement" class="visually-hidden" aria-live="polite" aria-atomic="true">
            { (*announced).clone() }
        </p>
    }
}

/// "Plan: 1 to create, 1 to update, 0 to finalize, 1 to delete. CREATE a, UPDATE b, DELETE c."
fn announcement_text(plan: &Plan) -> String {
    if plan.actions.is_empty() {
        return "Plan: nothing to do, in sync.".to_owned();
    }
    let named: Vec<String> = plan
        .actions
        .iter()
        .take(ANNOUNCED_ACTIONS)
        .map(|explained| {
            format!(
                "{} {}",
                explained.action.kind.as_str(),
                explained.action.name
            )
        })
        .collect();
    let more = plan.actions.len().saturating_sub(ANNOUNCED_ACTIONS);
    let rest = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("Plan: {}. {}{rest}.", plan.summary_text, named.join(", "))
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
    let defaulted = action.spec.as_ref().map_or(0, |spec| {
        drift
            .iter()
            .filter(|d| defaulted_drift(spec, d).is_some())
            .count()
    });
    // Unkeyed on purpose: a plan change usually shifts every item by one, and
    // yew's keyed diff then moves all of them; patching in place is cheaper.
    html! {
        <li class={classes!("action", kind_class(action.kind))}>
            <div class="action-head">
                <span class="badge" aria-hidden="true">{ action.kind.symbol() }</span>
                <span class="kind">{ action.kind.as_str() }</span>{ " " }
                <code class="name">{ &action.name }</code>
            </div>
            if let Some(spec) = &action.spec {
                <code class="spec">{ spec.to_compact_string() }</code>
            }
            <p class="reason">{ explained.reason.to_string() }</p>
            if defaulted > 0 {
                <p class="defaults-note">{ defaults_note(defaulted, drift.len()) }</p>
            }
            if !drift.is_empty() {
                <ul class="drift" aria-label={format!("Drift of {}", action.name)}>
                    { for drift.iter().map(|d| drift_row(d, action.spec.as_ref())) }
                </ul>
            }
        </li>
    }
}

fn defaults_note(defaulted: usize, fields: usize) -> String {
    let which = if defaulted == fields {
        "All of them are".to_owned()
    } else {
        format!("{defaulted} of them are")
    };
    format!(
        "{which} defaults the API server fills in on every write. Desired leaves them out, so a \
         controller that compares whole specs finds this drift after every write; one that \
         compares only the fields it sets does not."
    )
}

fn drift_row(drift: &Drift, desired: Option<&Json>) -> Html {
    let show = |value: &Option<Json>| match value {
        Some(value) => value.to_compact_string(),
        None => "(absent)".to_owned(),
    };
    let defaulted = desired.and_then(|spec| defaulted_drift(spec, drift));
    html! {
        <li class="drift-row">
            <code class="drift-path">{ drift.path.to_string() }</code>{ ": " }
            <span class="drift-observed" title="observed">{ show(&drift.observed) }</span>
            <span aria-hidden="true">{ " → " }</span><span class="visually-hidden">{ " becomes " }</span>
            <span class="drift-desired" title="desired">{ show(&drift.desired) }</span>
            if let Some(source) = defaulted {
                <span class="drift-default">{ format!(" — server default ({source})") }</span>
            }
        </li>
    }
}
