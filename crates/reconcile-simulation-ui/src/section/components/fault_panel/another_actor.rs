//! Faults and settings → "Another actor, right after pass N": deletes,
//! drifts, strays, finalizers and the custom resource's deletion, injected
//! into the run as another actor's changes.

use reconcile_core::Json;
use reconcile_sim::{DriftInputError, PropagationPolicy, WorldEvent};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::RunProps;

use reconcile_protocol::setting_change::SettingChange;

/// Objects offered as targets at most.
const TARGET_LIMIT: usize = 200;

#[component]
pub fn AnotherActor(props: &RunProps) -> Html {
    let run = &props.run;
    let moment = run.moment_at(props.position);
    let world = run.timeline.world_at(moment);
    let shown_pass = run.timeline.passes_at(moment);
    // A long select is unusable and slow to redraw on every pass: offer the first names.
    let names: Vec<String> = world
        .observed
        .names()
        .take(TARGET_LIMIT)
        .map(str::to_owned)
        .collect();
    let target = use_state(String::new);
    let field = use_state(|| "replicas".to_owned());
    let value = use_state(|| "7".to_owned());
    let stray = use_state(|| "stray-pod".to_owned());
    let value_error = use_state(|| None::<String>);
    let chosen = if names.contains(&target) {
        (*target).clone()
    } else {
        names.first().cloned().unwrap_or_default()
    };

    let on_target = {
        let target = target.clone();
        Callback::from(move |e: Event| {
            target.set(e.target_unchecked_into::<HtmlSelectElement>().value())
        })
    };
    let inject = |make: Box<dyn Fn() -> Option<WorldEvent>>| {
        let on_change = props.on_change.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(event) = make() {
                on_change.emit(SettingChange::Inject(event));
            }
        })
    };
    let delete = {
        let name = chosen.clone();
        inject(Box::new(move || {
            (!name.is_empty()).then(|| WorldEvent::Delete { name: name.clone() })
        }))
    };
    let drift = {
        let (name, field, value, value_error) = (
            chosen.clone(),
            (*field).clone(),
            (*value).clone(),
            value_error.clone(),
        );
        inject(Box::new(move || {
            // The simulation reads and checks the typed drift; this only shows its verdict.
            match WorldEvent::drift_from_input(&name, &field, &value) {
                Err(error @ DriftInputError::Value(_)) => {
                    value_error.set(Some(error.to_string()));
                    None
                }
                _ if name.is_empty() => None,
                Err(error) => {
                    value_error.set(Some(error.to_string()));
                    None
                }
                Ok(event) => {
                    value_error.set(None);
                    Some(event)
                }
            }
        }))
    };
    let stray_create = {
        let name = (*stray).clone();
        inject(Box::new(move || {
            let spec = Json::object(vec![("app".into(), Json::string("stray"))]);
            (!name.trim().is_empty()).then(|| WorldEvent::StrayCreate {
                name: name.trim().to_owned(),
                spec,
            })
        }))
    };
    let add_finalizer = {
        let name = chosen.clone();
        inject(Box::new(move || {
            (!name.is_empty()).then(|| WorldEvent::AddFinalizer {
                name: name.clone(),
                finalizer: "example.com/hold".into(),
            })
        }))
    };
    // `kubectl delete --cascade=...` of the custom resource; the garbage collector does the rest.
    let delete_custom_resource = |propagation: PropagationPolicy| {
        inject(Box::new(move || {
            Some(WorldEvent::DeleteCustomResource { propagation })
        }))
    };
    // The API server restarts: its watch cache starts again, every watch closes.
    let restart_api_server = inject(Box::new(|| Some(WorldEvent::RestartApiServer)));
    let cascades = [
        PropagationPolicy::Background,
        PropagationPolicy::Foreground,
        PropagationPolicy::Orphan,
    ];
    let text_setter = |state: &UseStateHandle<String>| {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            state.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };

    html! {
        <fieldset>
            <legend>{ format!("Another actor, right after pass {}", shown_pass) }</legend>
            <label>{ "Object " }
                <select onchange={on_target} aria-label="Target object">
                    { for names.iter().map(|n| html! { <option value={n.clone()} selected={*n == chosen}>{ n }</option> }) }
                </select>
            </label>
            <div class="row">
                <button type="button" onclick={delete} disabled={chosen.is_empty()}>{ "Delete it" }</button>
                <button type="button" onclick={add_finalizer} disabled={chosen.is_empty()}>{ "Add a finalizer" }</button>
            </div>
            <div class="row">
                <label>{ "Field " }<input type="text" value={(*field).clone()} oninput={text_setter(&field)} aria-label="Drift field path" title="A JSON path: replicas, or $.metadata.labels[\"app.kubernetes.io/name\"] for a name with dots" size="10" /></label>
                <label>{ "Value " }<input type="text" value={(*value).clone()} oninput={text_setter(&value)} aria-label="Drift value (JSON)" size="6" /></label>
                <button type="button" onclick={drift} disabled={chosen.is_empty()}>{ "Drift it" }</button>
            </div>
            if let Some(error) = &*value_error {
                <p class="editor-error" role="alert">{ error }</p>
            }
            <div class="row">
                <label>{ "Name " }<input type="text" value={(*stray).clone()} oninput={text_setter(&stray)} aria-label="Stray object name" size="10" /></label>
                <button type="button" onclick={stray_create}
                        title="An object the controller does not own: its event queues nothing, so only a later pass (a resync) finds it">
                    { "Create a stray object" }
                </button>
            </div>
            <div class="row">
                { "Delete the custom resource: " }
                { for cascades.into_iter().map(|propagation| html! {
                    <button type="button" onclick={delete_custom_resource(propagation)}
                            title="Its dependents go to the garbage collector, as this propagation policy says">
                        { propagation.to_string() }
                    </button>
                }) }
            </div>
            <div class="row">
                <button type="button" onclick={restart_api_server}
                        title="Its watch cache starts again from the store; a reflector that missed an event gets 410 Gone and lists again">
                    { "Restart the API server" }
                </button>
            </div>
        </fieldset>
    }
}
