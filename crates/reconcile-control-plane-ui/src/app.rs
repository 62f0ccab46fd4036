//! The view's root: draws what [`crate::state::ViewState`] holds, and turns
//! the plots' clicks and keys into requests to move the page's cursor.

use yew::prelude::*;

use crate::components::control_plane_view;
use crate::state::Shown;

#[derive(Properties, PartialEq)]
pub struct ViewProps {
    pub shown: Shown,
    /// Asks the page to move its cursor to a position of the timeline's moments.
    pub on_move: Callback<usize>,
}

#[component]
pub fn ViewApp(props: &ViewProps) -> Html {
    control_plane_view(&props.shown, &props.on_move)
}
