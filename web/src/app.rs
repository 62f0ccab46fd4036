//! The page: header, the three editors, the plan and the simulation.
//! Reads its options from the query (`?embed&readonly&panes=…`, see docs/embedding.md).
//! A small root, as yew's `function_todomvc`: the state is a `Reducible`
//! with a typed `Action`, and the logic is in hooks (`crate::hooks`).

use std::rc::Rc;

use reconcile_protocol::section::SectionFrame;
use yew::prelude::*;

use crate::browser;
use crate::components::action_list::plan_on_show;
use crate::components::lesson_panel::{lesson_loading, LessonPanel};
use crate::components::page_frame::{embed_bar, help_footer, skip_link, top_bar, Header};
use crate::components::present_bar::present_bar;
use crate::components::replay_note::replay_note;
use crate::components::scenario_column::scenario_column;
use crate::components::toolbar::storage_notice;
use crate::components::{exercise_host, update_notice, ActionList, Simulation};
use crate::embed::{EmbedOptions, Pane, MESSAGE_CHECKED, MESSAGE_CONTROLLER_CHECKED};
use crate::hooks::{
    report_checked, use_drop_import, use_embed_bridge, use_exercise_pane, use_first_paint,
    use_lessons, use_notice, use_page_callbacks, use_playground, use_presenter,
    use_progress_reports, use_service_worker, use_sessions, use_shortcuts, use_simulation_section,
    use_state_reports, use_toolbar, use_yaml, SectionView,
};
use crate::state::{Action, ExerciseAction, SimAction};
use reconcile_protocol::pane::PaneEvent;

#[component]
pub fn App() -> Html {
    let options = use_memo((), |()| {
        let options =
            EmbedOptions::from_query(&browser::query_params()).with_link(&browser::location_hash());
        // Before the first paint, so a chosen theme never flashes the other.
        browser::set_theme(options.theme);
        options
    });
    let page = use_playground(&options);
    let (state, dispatch) = (&page.state, &page.dispatch);
    let (link_hash, recent) = use_sessions(&options, &page);
    use_embed_bridge(Rc::clone(&options), dispatch.clone());
    // Only the first one is kept (it holds the reducer's dispatcher, which stays).
    let on_pane_event = {
        let (dispatcher, options) = (state.dispatcher(), Rc::clone(&options));
        Callback::from(move |event: PaneEvent| match event {
            PaneEvent::Edited { code } => {
                dispatcher.dispatch(Action::Exercise(ExerciseAction::Edited(code)))
            }
            PaneEvent::LoadDocuments { documents } => dispatcher.dispatch(Action::LoadDocuments {
                documents,
                what: "the counterexample".to_owned(),
            }),
            PaneEvent::Close => dispatcher.dispatch(Action::Exercise(ExerciseAction::Close)),
            PaneEvent::Checked { report } => report_checked(&options, &report, MESSAGE_CHECKED),
            PaneEvent::ControllerChecked { report } => {
                report_checked(&options, &report, MESSAGE_CONTROLLER_CHECKED)
            }
        })
    };
    let exercise_pane = use_exercise_pane(state, &options, on_pane_event);
    let yaml = use_yaml(state, dispatch.clone());
    let toolbar = use_toolbar(state, dispatch, &yaml, options.embed);
    use_shortcuts(
        dispatch.reform(|()| Action::Sim(SimAction::Step)),
        toolbar.on_share.clone(),
    );
    use_first_paint(dispatch);
    // Not in embeds: a course page's frame may not get a worker, and a notice
    // there would be the course page's to give (docs/offline.md).
    let update_ready = use_service_worker(!options.embed);
    let drop = use_drop_import(options.readonly, toolbar.on_import.clone());
    let callbacks = use_page_callbacks(state, options.panic_on_edit);
    let on_lesson = &callbacks.on_lesson;
    let progress = use_lessons(state, on_lesson);
    use_progress_reports(&options, state, &progress);
    let lesson_open = state.lesson_load.is_some() || state.lesson.is_some();
    let presenter = use_presenter(&options, lesson_open);
    use_state_reports(&options, link_hash.clone());
    let (conceal_plan, conceal_sim) = (state.plan_concealed(), state.simulation_concealed());
    // Past the start, the plan and the world follow the simulation's cursor
    // (hidden while a lesson asks for a prediction about either).
    let at_cursor = state.sim.has_run() && state.sim.cursor > 0 && !conceal_plan && !conceal_sim;
    // A replay's input is not the editors': they give way to a note.
    let replaying = state.sim.replay.is_some();
    let world_now_shown = at_cursor && options.shows(Pane::Editors) && !replaying;
    let frame = SectionFrame {
        concealed: conceal_sim,
        readonly: options.readonly,
        timeline: options.shows(Pane::Timeline),
        faults: options.shows(Pane::Faults),
        embed: options.embed,
    };
    let section = use_simulation_section(
        &state.sim,
        SectionView {
            shown: options.shows_simulation(),
            frame,
            world_now: world_now_shown,
        },
        dispatch,
    );
    let (shown_plan, plan_moment) = plan_on_show(state, at_cursor);
    let (notice, layout) = use_notice(state, dispatch, &recent);
    let can_export = state.scenario.is_some() && state.errors.is_empty();
    let storage_notice =
        storage_notice(state.autosave_problem, options.embed, &toolbar, can_export);
    let header = Header {
        state,
        progress: &progress,
        recent: &recent,
        toolbar: &toolbar,
        callbacks: &callbacks,
        dispatch,
        can_export,
    };

    html! {
        <div class={classes!("app", options.embed.then_some("embed"), options.readonly.then_some("readonly"), presenter.is_some().then_some("present"))}
             data-pane={presenter.as_ref().and_then(|p| p.current()).map(|pane| pane.name())}
             ondragenter={drop.ondragenter} ondragover={drop.ondragover} ondrop={drop.ondrop}>
            if options.shows_simulation() {
                { skip_link() }
            }
            { drop.zone }
            if options.embed { { embed_bar(link_hash.as_deref()) } } else { { top_bar(&header) } }
            if let Some(presenter) = &presenter { { present_bar(presenter) } }
            { storage_notice }
            { update_notice(update_ready) }
            { notice }
            <div class={classes!("layout", state.lesson_id().is_some().then_some("with-lesson"))} ref={layout} tabindex="-1">
            if let Some(load) = &state.lesson_load {
                { lesson_loading(load, on_lesson) }
            } else if let Some(lesson) = &state.lesson {
                <LessonPanel lesson={lesson.clone()} saved={progress.get(&lesson.lesson.id).cloned()}
                             on_action={on_lesson.clone()} />
            }
            <main class="workspace">
                if replaying {
                    { replay_note(state, dispatch) }
                } else if options.shows(Pane::Editors) {
                    { scenario_column(state, (options.readonly, options.embed), &yaml, &callbacks, dispatch, world_now_shown) }
                }
                { exercise_host(state.exercise_open, &exercise_pane) }
                if options.shows(Pane::Plan) && !replaying {
                    <ActionList plan={shown_plan} stale={state.is_stale()} concealed={conceal_plan} moment={plan_moment} />
                }
                if options.shows_simulation() {
                    <Simulation sim={state.sim.clone()} on_action={callbacks.on_sim_action.clone()} concealed={conceal_sim}
                                outcome_concealed={state.outcome_concealed()} {section} />
                }
            </main>
            </div>
            if !options.embed {
                { help_footer() }
            }
        </div>
    }
}
