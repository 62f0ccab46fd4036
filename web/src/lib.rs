//! The playground page, written with yew.
//!
//! Invariant: no reconcile logic lives here. Components render state and
//! dispatch typed [`state::Action`]s; the reducer calls `reconcile-core`.

pub mod app;
pub mod browser;
pub mod components;
pub mod editor_window;
pub mod embed;
pub mod highlight;
pub mod hooks;
pub mod on_demand;
pub mod panic_banner;
pub mod sessions;
pub mod shared;
pub mod startup;
pub mod state;
pub mod yaml_worker;

/// Mounts the playground on `<body>`.
pub fn run() {
    panic_banner::install();
    yew::Renderer::<app::App>::new().render();
}
