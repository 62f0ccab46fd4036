//! Chooses a built-in scenario.

use reconcile_core::presets::PRESETS;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PresetMenuProps {
    /// The preset the editors still hold, or None once edited.
    pub current: Option<&'static str>,
    pub on_choose: Callback<&'static str>,
}

#[component]
pub fn PresetMenu(props: &PresetMenuProps) -> Html {
    let onchange = {
        let on_choose = props.on_choose.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let chosen = select.value();
            if let Some(preset) = PRESETS.iter().find(|p| p.id == chosen) {
                on_choose.emit(preset.id);
            }
        })
    };
    let described = props
        .current
        .and_then(|id| PRESETS.iter().find(|p| p.id == id))
        .map(|p| p.summary)
        .unwrap_or("Edited by you.");
    html! {
        <div class="preset-menu">
            <label for="preset-select">{ "Preset" }</label>
            <select id="preset-select" {onchange} aria-describedby="preset-summary">
                <option value="" disabled=true selected={props.current.is_none()}>{ "Custom (edited)" }</option>
                { for PRESETS.iter().map(|preset| html! {
                    <option value={preset.id} selected={props.current == Some(preset.id)}>{ preset.title }</option>
                }) }
            </select>
            <p id="preset-summary" class="preset-summary">{ described }</p>
        </div>
    }
}
