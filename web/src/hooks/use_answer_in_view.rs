//! After Check, the feedback and the lesson's Next stay in view: the page
//! never scrolls away to the answer (on a phone it is far below), and when
//! the feedback pushes Next below the screen, the page scrolls just enough
//! to show it. The answer itself is one tap away (`reveal_link`).

use yew::prelude::*;

/// The node to keep in view (the lesson's Next) once `revealed` turns true.
#[hook]
pub fn use_answer_in_view(revealed: bool) -> NodeRef {
    let node = use_node_ref();
    let was_revealed = use_mut_ref(|| revealed);
    {
        let node = node.clone();
        use_effect_with(revealed, move |revealed| {
            let newly = !std::mem::replace(&mut *was_revealed.borrow_mut(), *revealed) && *revealed;
            if let Some(element) = node.cast::<web_sys::Element>().filter(|_| newly) {
                let below = gloo::utils::window()
                    .inner_height()
                    .ok()
                    .and_then(|h| h.as_f64())
                    .is_some_and(|height| element.get_bounding_client_rect().bottom() > height);
                if below {
                    // Its bottom at the screen's: the feedback above it stays in view.
                    element.scroll_into_view_with_bool(false);
                }
            }
        });
    }
    node
}
