//! A deterministic simulation of a controller applying its plan and
//! reconciling again. Start at [`simulate`]; how a run unfolds, its
//! guarantees and its bound are in the engine's doc (`engine/mod.rs`).
//!
//! # Layout
//! Five parts, each using only those listed before it (a test, `layering`,
//! checks; views and drivers share the top):
//! - `control_plane/`: the store, the API server's rules, and each actor's
//!   own state (informer, garbage collector, work queues, clock). Uses
//!   only `reconcile_core`.
//! - `controllers/`: what the contract controller decides (comparison,
//!   naming, expectations, status writes). Uses the control plane.
//! - `run/`: the settings ([`SimConfig`]) and the record ([`Timeline`]):
//!   plain data, which every view reads.
//! - `engine/`: the discrete-event loop that runs the actors and the
//!   controller on one clock; [`Simulation`] and its probe are its public
//!   replay interface. Imports no view.
//! - `views/` and `drivers/`: what reads a run or replays it (moments,
//!   picture, swimlanes, lanes, backoff series, status grid; a learner's
//!   loop check, level vs edge). Nothing below imports them.

mod control_plane;
mod controllers;
mod drivers;
mod engine;
mod run;
mod views;

pub use control_plane::{
    apiserver, apply, cloud, consistency, defaulting, managed_fields, object, ownership, patch,
    pods, reflector_backoff, rfc3339, rng, sorted, status, typed_value, watch_cache, workqueue,
    world,
};
pub use controllers::{
    client, comparison, contract, controller, driven, expectations, naming, status_writes, writes,
};
pub use drivers::{learner, own_reconcile};
pub use run::custom_resources::{CustomResourceScenario, CustomResources, CustomResourcesError};
pub use run::scenario_text::{
    export_sim_scenario, list_entry_of, parse_sim_scenario, write_list_form, CustomResourceEntry,
    CustomResourcesScenario,
};
pub use run::{events, options};
pub use views::picture;

pub use apiserver::PropagationPolicy;
pub use comparison::SpecComparison;
pub use control_plane::gc_record::GcAction;
pub use controllers::outcome::{ActionOutcome, ActionResult};
#[cfg(feature = "level-edge")]
pub use drivers::edge::{compare_level_edge, EdgeStep, LevelEdge};
pub use engine::{
    simulate, simulate_custom_resources, Driven, Injection, NewController, ReconcileCall,
    ResumeError, Simulation, Step,
};
pub use expectations::PassSkip;
pub use naming::ObjectNaming;
pub use options::{options_from_json, parse_options, OptionsError, SimSettings};
pub use run::fault_input::DriftInputError;
pub use run::record::{
    ActorEventRecord, CacheLag, CacheLagEntry, Happening, LogEntry, Moment, PassRecord, Timeline,
    WatchedKind,
};
pub(crate) use run::settings::resources_as_json;
pub use run::settings::{
    CloudSettings, CrashPlan, FinalizerOwner, FinalizerRef, OtherWriter, ScriptedEvent, SimConfig,
    WorldEvent, MAX_PATH_LEN,
};
pub use run::trigger::{format_millis, Trigger};
pub use run::verdict::{NotConvergingReason, Verdict};
pub use status_writes::{StatusWrite, StatusWrites};
pub use views::backoff_series::{BackoffPoint, BackoffSeries, DelaySetBy, Retry};
pub use views::event_moment::{pass_phase, EventMoment, PassPhase};
pub use views::key_status::{key_out_of_sync_series, key_statuses, KeyStatus};
#[cfg(feature = "level-edge")]
pub use views::lanes::{EdgeHearing, LaneColumn, Lanes, ObjectLanes};
pub use views::moments::{
    next_plan_view, pass_view, world_rows, ObjectChange, PassViews, WorldRow,
};
pub use views::status::{resource_statuses, ResourceStatus, SyncState};
pub use views::swimlanes::{column_label, column_window, SwimCell, SwimLane, Swimlanes};
pub use workqueue::{BackoffPolicy, Millis, QueueModel};
pub use world::{Change, World, NO_NEW_FINALIZERS};
pub use writes::ObjectWrites;

/// The starting point of a simulation: the three documents, as everywhere else.
pub use reconcile_core::model::Scenario as SimScenario;
