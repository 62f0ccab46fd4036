use yew::prelude::*;

/// When a lesson reveals what it hid (`concealed` turns false), brings the
/// pane into view if it sits below the screen: on a phone the lesson panel
/// is above it, and the answer would otherwise stay out of sight.
#[hook]
pub fn use_reveal_scroll(concealed: bool) -> NodeRef {
    let node = use_node_ref();
    let was_concealed = use_mut_ref(|| concealed);
    {
        let node = node.clone();
        use_effect_with(concealed, move |concealed| {
            let revealed =
                std::mem::replace(&mut *was_concealed.borrow_mut(), *concealed) && !concealed;
            if let Some(element) = node.cast::<web_sys::Element>().filter(|_| revealed) {
                let below = gloo::utils::window()
                    .inner_height()
                    .ok()
                    .and_then(|h| h.as_f64())
                    .is_some_and(|height| element.get_bounding_client_rect().top() > height);
                if below {
                    element.scroll_into_view();
                }
            }
        });
    }
    node
}
