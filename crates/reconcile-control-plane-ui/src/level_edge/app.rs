//! The level-vs-edge view's root: draws what [`super::LevelEdgeState`]
//! holds; "Show the conclusion" becomes a request to the page.

use yew::prelude::*;

use super::view::level_edge_view;
use super::LevelEdgeShown;

#[derive(Properties, PartialEq)]
pub struct LevelEdgeProps {
    pub shown: LevelEdgeShown,
    /// Asks the page to reveal the conclusion.
    pub on_reveal: Callback<()>,
}

#[component]
pub fn LevelEdgeApp(props: &LevelEdgeProps) -> Html {
    level_edge_view(&props.shown, &props.on_reveal)
}
