//! Chooses a built-in scenario.

use reconcile_content::presets::presets;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// `current`: the preset the editors still hold, or None once edited.
pub fn preset_menu(current: Option<&'static str>, on_choose: &Callback<&'static str>) -> Html {
    let onchange = {
        let on_choose = on_choose.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let chosen = select.value();
            if let Some(preset) = presets().iter().find(|p| p.id == chosen) {
                on_choose.emit(&preset.id);
            }
        })
    };
    let described = current
        .and_then(|id| presets().iter().find(|p| p.id == id))
        .map_or("Edited by you.", |p| p.summary.as_str());
    html! {
        <div class="preset-menu">
            <label for="preset-select">{ "Preset" }</label>
            <select id="preset-select" {onchange} aria-describedby="preset-summary">
                <option value="" disabled=true selected={current.is_none()}>{ "Custom (edited)" }</option>
                { for presets().iter().map(|preset| html! {
                    <option value={preset.id.as_str()} selected={current == Some(preset.id.as_str())}>{ preset.title.as_str() }</option>
                }) }
            </select>
            <p id="preset-summary" class="preset-summary">{ described }</p>
        </div>
    }
}
