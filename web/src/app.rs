//! The page: header, the three editors, the plan and the simulation.
//! Reads its options from the query (`?embed&readonly&panes=…`, see docs/embedding.md).

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use reconcile_core::{export_scenario, Document};
use reconcile_protocol::section::SectionFrame;
use yew::prelude::*;

use crate::browser;
use crate::components::lesson_panel::{lesson_invite, lesson_loading, lesson_menu, LessonPanel};
use crate::components::recent_sessions::RecentSessionsMenu;
use crate::components::toolbar::{
    notice_banner, storage_notice, toolbar, NoticeCallbacks, ToolbarCallbacks,
};
use crate::components::{
    exercise_host, preset_menu, update_notice, ActionList, JsonEditor, Simulation,
};
use crate::embed::{EmbedOptions, Pane};
use crate::hooks::{
    report_checked, share_link, use_debounce, use_embed_bridge, use_exercise_pane,
    use_lesson_fetch, use_lesson_progress, use_persistence, use_previous_session,
    use_recent_sessions, use_service_worker, use_shortcuts, use_simulation_section, use_yaml,
    SectionView, YamlLoad,
};
use crate::sessions::Autosave;
use crate::startup::initial_state;
use crate::state::{
    hold_first_run, Action, ExerciseAction, LessonAction, LessonLoad, Notice, SimAction,
    YamlAction, DOCUMENTS,
};
use reconcile_core::Format;
use reconcile_protocol::pane::PaneEvent;

/// Typing pauses this long before the documents are re-checked.
const CHECK_DELAY_MS: u32 = 120;

#[component]
pub fn App() -> Html {
    let options = use_memo((), |()| {
        EmbedOptions::from_query(&browser::query_params()).with_link(&browser::location_hash())
    });
    // Where the page autosaves, and the state it starts from (read from it once).
    let start = use_memo((), |()| {
        let (autosave, opened) = Autosave::open(&options);
        hold_first_run();
        let state = initial_state(&options, opened);
        (Rc::new(RefCell::new(autosave)), RefCell::new(Some(state)))
    });
    let autosave = Rc::clone(&start.0);
    let state = use_reducer(|| start.1.borrow_mut().take().unwrap_or_default());
    let dispatch = {
        let dispatcher = state.dispatcher();
        Callback::from(move |action: Action| dispatcher.dispatch(action))
    };

    use_debounce(
        state.revision,
        CHECK_DELAY_MS,
        dispatch.reform(|()| Action::Check),
    );
    let link_hash = use_persistence(
        state.persisted(),
        Rc::clone(&autosave),
        !options.embed,
        dispatch.clone(),
    );
    let recent = use_recent_sessions(autosave, state.persisted(), dispatch.clone());
    use_previous_session(state.restorable.clone(), options.previous_key());
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
            PaneEvent::Checked { report } => report_checked(&options, &report),
        })
    };
    let exercise_pane = use_exercise_pane(&state, !options.embed, on_pane_event);
    let yaml = use_yaml(&state, dispatch.clone());

    let on_share = {
        let (state, dispatch, embed) = (state.clone(), dispatch.clone(), options.embed);
        Callback::from(move |()| {
            let url = share_link(&state);
            // Embeds never write the address (it is the course page's frame's).
            if !embed {
                browser::replace_hash(&url[url.find('#').unwrap_or(url.len())..]);
            }
            let copied = browser::copy_to_clipboard(&url);
            let of = Box::new(state.persisted());
            dispatch.emit(Action::SetNotice(Some(Notice::LinkReady {
                url,
                copied,
                of,
            })));
        })
    };
    use_shortcuts(
        dispatch.reform(|()| Action::Sim(SimAction::Step)),
        on_share.clone(),
    );

    // Lets benchmarks measure navigation → first action list without polling.
    // Then, once the browser has had a chance to paint it, the loop below it
    // is simulated (its run was held while the page started).
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |()| {
            if let Some(performance) = gloo::utils::window().performance() {
                let _ = performance.mark("first-action-list");
            }
            Timeout::new(0, move || dispatch.emit(Action::FirstPainted)).forget();
        });
    }
    // Not in embeds: a course page's frame may not get a worker, and a notice
    // there would be the course page's to give (docs/offline.md).
    let update_ready = use_service_worker(!options.embed);

    let callbacks = ToolbarCallbacks {
        on_share,
        on_export_scenario: {
            // Read when pressed, not on every render (a large document's edits).
            let state = state.clone();
            Callback::from(move |()| {
                if let Some(scenario) = &state.scenario_to_export() {
                    browser::download("scenario.json", &export_scenario(scenario));
                }
            })
        },
        on_export_yaml: yaml.export_desired.clone(),
        // The simulation's module writes the results: the plan and its run.
        on_export_results: dispatch.reform(|()| Action::Sim(SimAction::DownloadResults)),
        on_import: {
            let (dispatch, import) = (dispatch.clone(), yaml.import.clone());
            Callback::from(move |file: web_sys::File| {
                let (dispatch, import) = (dispatch.clone(), import.clone());
                browser::read_text_file(file, move |file_name, result| match result {
                    Ok(text) => import.emit((file_name, text)),
                    Err(message) => dispatch.emit(Action::SetNotice(Some(Notice::ImportFailed(
                        format!("{file_name}: {message}"),
                    )))),
                });
            })
        },
    };
    // A file dragged over the page shows where it goes; dropped anywhere, it is
    // imported (never opened by the browser in place of the page and the work).
    let dragging = use_state(|| false);
    let ondragenter = {
        let (dragging, readonly) = (dragging.clone(), options.readonly);
        Callback::from(move |e: DragEvent| {
            if carries_files(&e) {
                e.prevent_default();
                dragging.set(!readonly);
            }
        })
    };
    let ondragover = {
        let readonly = options.readonly;
        Callback::from(move |e: DragEvent| {
            if carries_files(&e) {
                e.prevent_default();
                if let Some(transfer) = e.data_transfer() {
                    transfer.set_drop_effect(if readonly { "none" } else { "copy" });
                }
            }
        })
    };
    let ondragleave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let ondrop = {
        let (on_import, dragging, readonly) = (
            callbacks.on_import.clone(),
            dragging.clone(),
            options.readonly,
        );
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            let file = e
                .data_transfer()
                .and_then(|d| d.files())
                .and_then(|files| files.get(0));
            if let (Some(file), false) = (file, readonly) {
                on_import.emit(file);
            }
        })
    };
    let drop_zone = dragging.then(|| {
        html! {
            // Over and drop bubble to the page's own handlers.
            <div class="drop-zone" {ondragleave}>
                <p>{ "Drop a scenario file to import it" }</p>
            </div>
        }
    });

    // Stable callbacks (made once), so memoized children are not re-rendered
    // just because a new closure was created.
    let on_edit = {
        let dispatcher = state.dispatcher();
        let panic_on_edit = options.panic_on_edit;
        use_callback((), move |(document, text): (Document, String), ()| {
            if panic_on_edit {
                panic!("deliberate panic on edit, requested with ?debug=panic");
            }
            dispatcher.dispatch(Action::Edit { document, text });
        })
    };
    let on_switch = {
        let dispatcher = state.dispatcher();
        use_callback((), move |(document, format): (Document, Format), ()| {
            dispatcher.dispatch(Action::Yaml(YamlAction::Switch(document, format)))
        })
    };
    let on_sim_action = {
        let dispatcher = state.dispatcher();
        use_callback((), move |action: SimAction, ()| {
            dispatcher.dispatch(Action::Sim(action))
        })
    };
    let on_lesson = {
        let dispatcher = state.dispatcher();
        use_callback((), move |action: LessonAction, ()| {
            dispatcher.dispatch(Action::Lesson(action))
        })
    };
    use_lesson_fetch(
        state.lesson_load.as_ref().and_then(LessonLoad::request),
        on_lesson.clone(),
    );
    let progress = use_lesson_progress(
        state
            .lesson
            .as_ref()
            .map(|l| (l.lesson.id.clone(), l.step, l.answered.clone())),
    );
    let (conceal_plan, conceal_sim) = (state.plan_concealed(), state.simulation_concealed());
    // Past the start, the plan and the world follow the simulation's cursor
    // (hidden while a lesson asks for a prediction about either).
    let at_cursor = state.sim.has_run() && state.sim.cursor > 0 && !conceal_plan && !conceal_sim;
    let world_now_shown = at_cursor && options.shows(Pane::Editors);
    let section = use_simulation_section(
        &state.sim,
        SectionView {
            shown: options.shows_simulation(),
            frame: SectionFrame {
                concealed: conceal_sim,
                readonly: options.readonly,
                timeline: options.shows(Pane::Timeline),
                faults: options.shows(Pane::Faults),
                embed: options.embed,
            },
            world_now: world_now_shown,
        },
        &dispatch,
    );
    let (shown_plan, plan_moment) = match (at_cursor, &state.sim.next_plan) {
        (true, Some(next)) => (
            Some(next.plan.clone()),
            Some((
                AttrValue::from(format!("Plan for pass {}", next.pass)),
                AttrValue::from(Rc::clone(&next.note)),
            )),
        ),
        _ => (state.plan.clone(), None),
    };
    // Until a first lesson is opened: where to begin, without blocking free play.
    let invite = (!options.embed && state.lesson_id().is_none() && progress.is_empty())
        .then(|| lesson_invite(&on_lesson));
    let editor = |document: Document| {
        let (on_edit, on_switch) = (on_edit.clone(), on_switch.clone());
        let (on_convert, on_retry) = (yaml.convert.clone(), yaml.retry.clone());
        let format = state.format_of(document);
        let yaml_load =
            (format == Format::Yaml && yaml.load != YamlLoad::Ready).then(|| yaml.load.clone());
        html! {
            <JsonEditor key={document.label()} {document}
                text={state.texts.value(document).clone()}
                error={state.error_of(document).cloned()}
                readonly={options.readonly}
                {format} {yaml_load}
                {on_edit} {on_switch} {on_convert} {on_retry} />
        }
    };
    let on_choose = dispatch.reform(Action::LoadPreset);
    let lesson_documents = state
        .lesson
        .as_ref()
        .filter(|_| state.pristine && state.preset_id.is_none())
        .map(|l| l.lesson.title.as_str());
    let exercise_pane = exercise_host(state.exercise_open, &exercise_pane);
    let open_exercise = (!state.exercise_open).then(|| {
        html! {
            <button type="button" class="open-exercise"
                    onclick={dispatch.reform(|_: MouseEvent| Action::Exercise(ExerciseAction::Open(None)))}>
                { "Your reconcile" }
            </button>
        }
    });
    // The notice's buttons vanish with it; the focus goes to what follows the
    // notice rather than to the page's start (or back to the toolbar).
    let layout = use_node_ref();
    let then_focus_layout = |action: fn() -> Action| {
        let (dispatch, layout) = (dispatch.clone(), layout.clone());
        Callback::from(move |()| {
            dispatch.emit(action());
            if let Some(layout) = layout.cast::<web_sys::HtmlElement>() {
                // Without scrolling: what is left of the banner stays in view.
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = layout.focus_with_options(&options);
            }
        })
    };
    let notice = notice_banner(
        state.notice.as_ref(),
        state.shown_link_is_outdated(),
        state.restorable.is_some(),
        &NoticeCallbacks {
            on_dismiss: then_focus_layout(|| Action::Dismiss),
            on_restore: then_focus_layout(|| Action::RestorePrevious),
            on_show_recent: recent.on_show.reform(|()| true),
            on_yaml: dispatch.reform(Action::Yaml),
        },
    );
    let can_export = state.scenario.is_some() && state.errors.is_empty();
    let storage_notice = storage_notice(
        state.autosave_problem,
        options.embed,
        &callbacks,
        can_export,
    );
    // Made when typing pauses (compressing costs time); only embeds show it.
    let open_full = options.embed.then(|| {
        format!(
            "{}{}",
            browser::page_base(),
            link_hash.as_deref().unwrap_or_default()
        )
    });

    html! {
        <div class={classes!("app", options.embed.then_some("embed"), options.readonly.then_some("readonly"))}
             {ondragenter} {ondragover} {ondrop}>
            if options.shows_simulation() {
                { skip_link() }
            }
            { drop_zone }
            if options.embed {
                <header class="embed-bar">
                    <h1 class="embed-title">{ "Reconcile Playground" }</h1>
                    <a href={open_full.unwrap_or_default()} target="_blank" rel="noopener">{ "Open in playground ↗" }</a>
                </header>
            } else {
                <header class="topbar">
                    <div class="title">
                        <h1>{ "Reconcile Playground" }</h1>
                        <p class="tagline">
                            { "Edit what you want (desired) and what exists (observed). \
                               Reconcile computes the actions that close the gap." }
                        </p>
                    </div>
                    { preset_menu(state.preset_id, lesson_documents, &on_choose) }
                    { lesson_menu(state.lesson_id(), &progress, &on_lesson) }
                    // A stable slot: the menu before it keeps the focus when the invitation goes.
                    <span class="invite-slot">{ invite }</span>
                    { open_exercise }
                    <RecentSessionsMenu recent={recent.clone()} />
                    { toolbar(&callbacks, can_export) }
                </header>
            }
            { storage_notice }
            { update_notice(update_ready) }
            { notice }
            <div class={classes!("layout", state.lesson_id().is_some().then_some("with-lesson"))} ref={layout} tabindex="-1">
            if let Some(load) = &state.lesson_load {
                { lesson_loading(load, &on_lesson) }
            } else if let Some(lesson) = &state.lesson {
                <LessonPanel lesson={lesson.clone()} saved={progress.get(&lesson.lesson.id).cloned()}
                             on_action={on_lesson.clone()} />
            }
            <main class="workspace">
                if options.shows(Pane::Editors) {
                    // One column in every state, so the editors keep their
                    // place (and their caret) when the world view comes and goes.
                    <div class="scenario-column">
                        if world_now_shown {
                            // Past the start, two worlds are on the page: say which is which.
                            <h2 class="editors-heading">{ "Starting scenario (what you edit)" }</h2>
                        }
                        <div class="editors">
                            { for DOCUMENTS.iter().map(|d| editor(*d)) }
                        </div>
                        // World now, which the simulation's module renders here.
                        <div id="world-now-host"></div>
                    </div>
                }
                { exercise_pane }
                if options.shows(Pane::Plan) {
                    <ActionList plan={shown_plan} stale={state.is_stale()} concealed={conceal_plan} moment={plan_moment} />
                }
                if options.shows_simulation() {
                    <Simulation sim={state.sim.clone()} on_action={on_sim_action} concealed={conceal_sim} {section} />
                }
            </main>
            </div>
            if !options.embed {
                <footer class="help">
                    <p>
                        { "Ctrl+Enter (Cmd+Enter) runs one pass; Ctrl+S (Cmd+S) copies a share link. \
                           Tab moves on through an editor until you type in it or press Enter there; then Tab indents and Shift+Tab outdents, until Esc. \
                           Escape closes the panel that has the focus. \
                           Drop a scenario file anywhere to import it. \
                           Specs compare as JSON values: key order is ignored and 1 equals 1.0." }
                    </p>
                </footer>
            }
        </div>
    }
}

/// Whether a drag carries files (not text or a link being dragged about).
fn carries_files(e: &DragEvent) -> bool {
    e.data_transfer()
        .is_some_and(|transfer| transfer.types().includes(&"Files".into(), 0))
}

/// The first stop for a keyboard: past the header and the editors, straight
/// to the simulation. The address's hash is the share link's, so the link
/// moves the focus itself rather than navigating to `#sim-heading`.
fn skip_link() -> Html {
    let onclick = Callback::from(|e: MouseEvent| {
        e.prevent_default();
        browser::focus_element("sim-heading");
    });
    html! {
        <a class="skip-link" href="#sim-heading" {onclick}>{ "Skip to the simulation" }</a>
    }
}
