//! Chooses a built-in scenario.

use reconcile_content::presets::presets;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// `current`: the preset the editors still hold, or None once edited.
/// `lesson`: the title of the open lesson, while the editors hold its own
/// documents unedited (they are not the learner's edits).
pub fn preset_menu(
    current: Option<&'static str>,
    lesson: Option<&str>,
    on_choose: &Callback<&'static str>,
) -> Html {
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
    let preset = current.and_then(|id| presets().iter().find(|p| p.id == id));
    let (placeholder, described) = match (preset, lesson) {
        (Some(preset), _) => ("Custom (edited)", preset.summary.clone()),
        (None, Some(title)) => (
            "From the lesson",
            format!("The lesson “{title}” set these documents."),
        ),
        (None, None) => ("Custom (edited)", "Edited by you.".to_owned()),
    };
    html! {
        <div class="preset-menu">
            <label for="preset-select">{ "Preset" }</label>
            <select id="preset-select" {onchange} aria-describedby="preset-summary">
                <option value="" disabled=true selected={current.is_none()}>{ placeholder }</option>
                { for presets().iter().map(|preset| html! {
                    <option value={preset.id.as_str()} selected={current == Some(preset.id.as_str())}>{ preset.title.as_str() }</option>
                }) }
            </select>
            <p id="preset-summary" class="preset-summary">{ described }</p>
        </div>
    }
}
