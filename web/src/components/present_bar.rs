//! Presenter mode's bar: Previous, which pane of how many, Next.

use yew::prelude::*;

use crate::hooks::Presenter;

pub fn present_bar(presenter: &Presenter) -> Html {
    let (index, count) = (presenter.index, presenter.shown.len());
    let label = presenter.current().map_or("", |pane| pane.label());
    let to = |index: usize| presenter.on_move.reform(move |_: MouseEvent| index);
    html! {
        <nav class="present-bar" aria-label="Presenter">
            <button type="button" disabled={index == 0} onclick={to(index.saturating_sub(1))}>
                { "← Previous pane" }
            </button>
            <span class="present-place" aria-live="polite">
                { format!("{} / {count} {label}", index + 1) }
            </span>
            <button type="button" disabled={index + 1 >= count} onclick={to(index + 1)}>
                { "Next pane →" }
            </button>
        </nav>
    }
}
