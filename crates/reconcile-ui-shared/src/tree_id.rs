//! Two yew apps on one page: the page's, and one that a module loaded on
//! demand mounts into an element of the page's layout (docs/SIZE.md, "Two yew
//! apps on one page").

use yew::prelude::*;

/// The page's yew and the module's are two wasm instances, and each numbers
/// the DOM trees it controls from 1, under the same JS property on the
/// elements (`__yew_subtree_id`). The page's tree is `<body>`, an ancestor of
/// `host`, and its event handler there takes an event for its own when the
/// nearest numbered element has its number: with the module's tree numbered
/// 1 too, a click in the module's app would run a listener of the page's. So
/// trees are made and dropped until the number after them is above every
/// number on `host`'s ancestors, and the module's tree gets that one. Call it
/// right before mounting into `host`.
///
/// `#[inline]`: called from another crate, it otherwise cost each module
/// about 1.6 KB of wasm (the pane's 354,479 B against 356,133 B; measured).
#[inline]
pub fn claim_a_tree_id_the_page_does_not_use(host: &web_sys::Element) {
    let number = |element: &web_sys::Element| {
        js_sys::Reflect::get(element, &TREE_ID.into())
            .ok()
            .and_then(|id| id.as_f64())
    };
    let highest = std::iter::successors(host.parent_element(), |element| element.parent_element())
        .filter_map(|element| number(&element))
        .fold(0.0, f64::max);
    let document = gloo::utils::document();
    loop {
        let Ok(scratch) = document.create_element("div") else {
            return;
        };
        yew::Renderer::<Scratch>::with_root(scratch.clone())
            .render()
            .destroy();
        if number(&scratch).is_none_or(|taken| taken >= highest) {
            return;
        }
    }
}

/// The property yew numbers its trees' elements with.
const TREE_ID: &str = "__yew_subtree_id";

/// An empty app, mounted only to take a tree number.
#[component]
fn Scratch() -> Html {
    html! {}
}
