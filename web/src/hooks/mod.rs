//! Hooks shared by components.

mod use_answer_in_view;
mod use_debounce;
mod use_drop_import;
mod use_embed_bridge;
mod use_exercise_pane;
mod use_lesson_fetch;
mod use_lesson_progress;
mod use_lessons;
mod use_notice;
mod use_on_demand;
mod use_page_callbacks;
mod use_persistence;
mod use_playground;
mod use_presenter;
mod use_recent_sessions;
mod use_service_worker;
mod use_shortcut;
mod use_simulation_section;
mod use_toolbar;
mod use_yaml;

pub use use_answer_in_view::use_answer_in_view;
pub use use_debounce::use_debounce;
pub use use_drop_import::use_drop_import;
pub use use_embed_bridge::{
    report_checked, use_embed_bridge, use_progress_reports, use_state_reports,
};
pub use use_exercise_pane::use_exercise_pane;
pub use use_lesson_fetch::use_lesson_fetch;
pub use use_lesson_progress::{use_lesson_progress, LessonVisit};
pub use use_lessons::use_lessons;
pub use use_notice::use_notice;
pub use use_on_demand::{ModuleLoad, OnDemand};
pub use use_page_callbacks::{use_page_callbacks, PageCallbacks};
pub use use_persistence::{
    share_link, use_persistence, use_previous_session, AutosaveHandle, AUTOSAVE_LIMIT,
};
pub use use_playground::{use_first_paint, use_playground, use_sessions};
pub use use_presenter::{use_presenter, Presenter};
pub use use_recent_sessions::{use_recent_sessions, RecentList, RecentSessions};
pub use use_service_worker::use_service_worker;
pub use use_shortcut::use_shortcuts;
pub use use_simulation_section::{use_simulation_section, SectionView};
pub use use_toolbar::use_toolbar;
pub use use_yaml::{use_yaml, YamlLoad, YamlSupport};
