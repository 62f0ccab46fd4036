//! What the page says in the editors' place while the simulation section
//! shows a replay (a `#v4/` link), and the way back to the playground.

use yew::prelude::*;

use crate::state::{Action, Playground, SimAction};
use crate::{browser, links};

/// The note and "Leave the replay", which puts the state's own address back
/// (the autosave's documents, kept as they were) and runs them again.
pub fn replay_note(state: &Playground, dispatch: &Callback<Action>) -> Html {
    let (shared, dispatch) = (state.shared(), dispatch.clone());
    let onclick = Callback::from(move |_: MouseEvent| {
        browser::replace_hash(&links::hash_now(&shared));
        dispatch.emit(Action::Sim(SimAction::LeaveReplay));
    });
    html! {
        <aside class="replay-note" aria-label="Replay">
            <h2>{ "A replay of a learner's controller" }</h2>
            <p>
                { "The simulation shows a failing run of a learner's controller, replayed from a link. \
                   The desired, observed and finalizers documents are not its input, so the editors \
                   and the plan are hidden while it shows. Your own work stays as it was saved." }
            </p>
            <button type="button" class="leave-replay" {onclick}>{ "Leave the replay" }</button>
        </aside>
    }
}
