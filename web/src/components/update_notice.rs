//! The offer to reload into a newer version of the playground (docs/offline.md).

use yew::prelude::*;

/// The offer, once a newer version is ready. Its button is handled by
/// `sw-register.js` (it lets the new version take over, then reloads).
pub fn update_notice(ready: bool) -> Html {
    if !ready {
        return Html::default();
    }
    html! {
        <div class="notice info update-notice" role="status">
            <p>{ "A new version of the playground is available. Your work is kept when it reloads." }</p>
            <button type="button">{ "Reload" }</button>
        </div>
    }
}
