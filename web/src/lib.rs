//! The playground page, written with yew: start at `app::App`, then
//! `state::Playground::reduce`.
//!
//! Invariant: no reconcile logic lives here. Components render state and
//! dispatch typed [`state::Action`]s; the reducer calls `reconcile-core`.
//! Syntax colouring (`highlight`) is presentation only and never validates.
//!
//! # Paths through the page
//!
//! - **An edit**: `main.rs` calls [`run`], which installs the panic banner
//!   and renders `app::App` (the reducer, the hooks, the panes). A typed
//!   `state::Action` is reduced in `state::Playground::reduce`, which calls
//!   `reconcile_core::check_scenario`, `plan` and `format_document`.
//!   `reconcile_content` gives the presets, lessons, links and the autosave.
//!   The first state comes from `startup` (a link, else the autosave, else
//!   the default preset).
//! - **YAML in the editors**: `state::Playground::check` reads three JSON
//!   documents with core (`reconcile_core::detect_format`, or the format
//!   chosen with "Read as", `state::yaml`). Otherwise it sets a
//!   `YamlRequest`, and so it does when core read a JSON document as
//!   resources named `apiVersion` and `kind` (maybe `kubectl get -o json`).
//!   `hooks/use_yaml.rs` sends the request to the YAML worker
//!   (`yaml_worker/reads.rs`), which runs
//!   `crates/reconcile-wasm/src/yaml_page.rs` and
//!   `reconcile_yaml::read_documents_cached`. The answer comes back as
//!   `YamlAction::Read`, taken only while its request is the latest. Its JSON
//!   texts go through core's `parse_resources` and `plan`, the path of JSON;
//!   a document that reads as at the last answer comes back `null` and is
//!   not parsed again. The observed manifests' `deletionTimestamp` names
//!   become the simulation's `terminating`. Conversions
//!   (`reconcile_yaml::convert`) come back as `YamlAction::Converted`;
//!   `Notice::CommentsWillBeLost` and `Notice::Converted` (with the text
//!   Undo puts back) show in the notice bar.
//! - **"Your reconcile"**: the first time the pane opens,
//!   `hooks/use_exercise_pane.rs` imports `pkg/reconcile_exercise_ui.js`
//!   with its stylesheet (`on_demand`) and calls its
//!   `mount(host, input, onEvent)`. The page gives the pane a
//!   `reconcile_protocol::pane::PaneInput` as JSON at mount and on every
//!   change: the code, the editors' scenario while valid, the settings. The
//!   pane answers with `PaneEvent`s as JSON (the code edited, documents to
//!   load, closed, a Check's result), read with core's JSON reader.
//! - **The simulation section**: once the first view has painted
//!   (`Action::FirstPainted` releases the held run),
//!   `hooks/use_simulation_section.rs` imports
//!   `pkg/reconcile_simulation_ui.js` with the same loader and calls its
//!   `mount_simulation(host, input, onEvent)` with a
//!   `reconcile_protocol::section::SimulationInput`. The module answers with
//!   `SimulationEvent`s, read with core's JSON reader and dispatched as
//!   `SimAction`s (`Simulated`, `NextPass`, `MoveTo`, `Settings`,
//!   `ShowPicture`, `ShowLevelEdge`, `RevealConclusion`) or
//!   `LessonAction::Checked`. The page gives it a new input on every change,
//!   with the run only when its revision is new to the module. Moves made
//!   before a run's facts come (Step, Run, Play, an embed's `step()`) are
//!   queued in `SimState` and applied when they come. The control-plane view
//!   and level vs edge are components of that module.
//! - **A replay link** (`#v4/…`, a learner's failing controller): `startup`
//!   starts from what the page would open without it and keeps the replay's
//!   JSON in `SimState::replay`, unread; `RunInput::replay` carries it to
//!   the section, which opens and shows it. The editors and the plan give
//!   way to `components/replay_note.rs`; the address keeps the link until
//!   "Leave the replay" (`SimAction::LeaveReplay`) writes the state's own.
//!
//! # Modules
//!
//! - `state`: `Playground` (a yew `Reducible`) and its typed `Action`s.
//!   `state/sim.rs` holds the settings, the run asked of the module (with a
//!   revision counted for the whole page), what the module said of it
//!   (`RunFacts`), the one cursor (`SimState::shown_moment`, the moment every
//!   view shows), how far the run is revealed, the queued moves and the plan
//!   for the pass after the cursor. Step, Play, Run and clicks only move the
//!   cursor. `state/lesson.rs` holds the open lesson, its step, the core's
//!   feedback and the lesson whose file is being fetched (`LessonLoad`).
//!   `state/exercise.rs` holds what the page keeps of "Your reconcile":
//!   whether it is open and the learner's code
//!   (`reconcile_content::exercise::LearnerCode`), with a revision that counts
//!   the page's own replacements of it, the only changes the pane takes.
//! - `components`: the editor (a component: it has a hook), the simulation
//!   section's frame (`simulation.rs`: heading, controls, Play's beat, the
//!   module's element), the share notice's embed code (its own state), and
//!   plain render functions for everything stateless. Each `#[component]`
//!   type costs its own copy of yew's lifecycle code in the bundle.
//!   `components/on_demand_host.rs` is the one place for an on-demand app's
//!   element and its loading line ("Loading …", or Try again).
//! - `hooks`: debounce, shortcuts, persistence (autosave and hash, the
//!   storage listener that forks, the failed save that turns the storage
//!   notice on), Recent sessions, lesson progress, the fetch of a lesson's
//!   file, the embed bridge (height messages, origin-checked commands, a
//!   Check's result to the origins `allow=` names), the pane, the simulation
//!   section, and the offline cache (`use_service_worker`: once the first
//!   view is on screen, outside embeds, it adds `sw-register.js`).
//! - `yaml_worker`: starts `yaml-worker.js` (a module worker running
//!   `pkg/reconcile_yaml.js`) on the first YAML document. It passes reads,
//!   conversions, the split of an imported YAML scenario and the manifest
//!   export. Answers are JSON text or core's `InputError`s as JSON. A failed
//!   start is retried with a new URL. `reads.rs` keeps one read at a time (a
//!   newer one replaces a waiting one) and sends each document as what
//!   changed since the worker's last read.
//! - `on_demand`, `hooks/use_on_demand.rs`: the loader of the apps loaded on
//!   demand (each an `OnDemandApp`: its module, its mount export, its host's
//!   class). A dynamic import of `pkg/MODULE.js` and its stylesheet; a retry
//!   imports another URL, since the browser keeps a failed import failed.
//! - `startup`: the first state; what it replaces stays restorable.
//! - `sessions`: each tab's session (its id in `sessionStorage`), the index
//!   of recent sessions, forking, an embed's own key (docs/sessions.md).
//! - `embed`: query parameters for course pages.
//! - `present`: presenter mode's panes and what each key does in it;
//!   `hooks/use_presenter.rs` listens to the keys and sends the ones the
//!   frame does not use to the course page.
//! - `browser`: thin wrappers over storage, history, clipboard, downloads and
//!   file reading; none can crash the page.
//! - `panic_banner`: saves the last state with the editors' texts, then
//!   shows a plain-DOM banner whose buttons call browser built-ins, never the
//!   trapped wasm.
//! - `highlight`: the editor's colouring.
//! - `editor_window`: which part of a large document the editor puts in the
//!   DOM, and how an edit of that window splices back; pure, tested in
//!   `web/tests/browser.rs`.

pub mod app;
pub mod browser;
pub mod components;
pub mod editor_window;
pub mod embed;
pub mod highlight;
pub mod hooks;
pub mod links;
pub mod on_demand;
pub mod panic_banner;
pub mod present;
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
