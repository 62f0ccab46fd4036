//! The three editors, in one column with World now's place under them.

use reconcile_core::{Document, Format};
use yew::prelude::*;

use super::custom_resource_tabs::custom_resource_tabs;
use super::JsonEditor;
use crate::hooks::{PageCallbacks, YamlLoad, YamlSupport};
use crate::state::{Action, Playground, DOCUMENTS};

/// One column in every state, so the editors keep their place (and their
/// caret) when the world view comes and goes. `world_now`: World now is
/// shown (past the start, two worlds are on the page: say which is which).
/// The tab row above the editors picks the custom resource they show.
pub fn scenario_column(
    state: &Playground,
    (readonly, embed): (bool, bool),
    yaml: &YamlSupport,
    callbacks: &PageCallbacks,
    dispatch: &Callback<Action>,
    world_now: bool,
) -> Html {
    let editor = |document: Document| {
        let (on_edit, on_switch) = (callbacks.on_edit.clone(), callbacks.on_switch.clone());
        let (on_convert, on_retry) = (yaml.convert.clone(), yaml.retry.clone());
        let format = state.format_of(document);
        let yaml_load =
            (format == Format::Yaml && yaml.load != YamlLoad::Ready).then(|| yaml.load.clone());
        html! {
            <JsonEditor key={document.label()} {document}
                text={state.texts.value(document).clone()}
                error={state.error_of(document).cloned()}
                {readonly} {format} {yaml_load}
                {on_edit} {on_switch} {on_convert} {on_retry} />
        }
    };
    html! {
        <div class="scenario-column">
            if world_now {
                <h2 class="editors-heading">{ "Starting scenario (what you edit)" }</h2>
            }
            { custom_resource_tabs(state, !readonly, embed, dispatch) }
            <div class="editors">
                { for DOCUMENTS.iter().map(|d| editor(*d)) }
            </div>
            // World now, which the simulation's module renders here.
            <div id="world-now-host"></div>
        </div>
    }
}
