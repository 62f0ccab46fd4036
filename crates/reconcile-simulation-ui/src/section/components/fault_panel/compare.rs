//! Faults and settings → "The controller compares": the whole spec (the
//! contract) or only the fields the controller sets.

use reconcile_sim::SpecComparison;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::SettingProps;

use reconcile_protocol::setting_change::SettingChange;

#[component]
pub fn Compare(props: &SettingProps) -> Html {
    let compare = props.config.compare;
    let on_compare = props.on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        SettingChange::Compare(if value == "fields-it-sets" {
            SpecComparison::FieldsItSets
        } else {
            SpecComparison::WholeSpec
        })
    });
    html! {
        <fieldset>
            <legend>{ "The controller compares" }</legend>
            <select onchange={on_compare} aria-label="What the controller compares">
                <option value="whole-spec" selected={compare == SpecComparison::WholeSpec}>
                    { "the whole spec (the contract)" }
                </option>
                <option value="fields-it-sets" selected={compare == SpecComparison::FieldsItSets}>
                    { "only the fields it sets" }
                </option>
            </select>
            <p class="muted small">{ compare_description(compare) }</p>
        </fieldset>
    }
}

fn compare_description(compare: SpecComparison) -> &'static str {
    match compare {
        SpecComparison::WholeSpec => {
            "Any difference is drift, including fields the API server filled in with defaults."
        }
        SpecComparison::FieldsItSets => {
            "Beyond the contract: members its desired spec leaves out are not compared, and an \
             UPDATE sends them back as it read them, as with controller-runtime's CreateOrUpdate \
             or server-side apply's field ownership."
        }
    }
}
