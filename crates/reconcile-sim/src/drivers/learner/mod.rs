//! Controllers written by learners, in their own language, driven one
//! synchronous client call at a time (issue 30). Start at
//! [`run::DrivenRun`].
//!
//! - [`call`]: the client's calls and their errors;
//! - [`kinds`]: the kinds an exercise has, and their store keys;
//! - [`requests`]: a call, answered by the cache or sent as a request;
//! - [`cloud_calls`]: the cloud's calls, and their answers;
//! - [`run`]: the driven run over the engine;
//! - [`record`]: each reconcile's calls and answers, for replays;
//! - [`exercise`]: the exercises' worlds, goals and safety rules;
//! - [`properties`]: eventually stable, safe, idempotent once converged;
//! - [`schedule`], [`faulted`]: fault schedules, and a run under one;
//! - [`search`], [`session`], [`shrink`], [`story`]: the check that tries to break a
//!   controller, shrinks what broke it, and tells it;
//! - [`replay`]: a failing run again, from its record, without the code;
//!   [`replay_views`]: that run with what the simulation's views read.
//!
//! Invariant: one engine. The run drives the engine's own controller
//! protocol through `controllers::driven`; the API server answers every
//! request, as it answers every controller.

pub mod call;
mod cloud_calls;
pub mod exercise;
pub mod faulted;
pub mod kinds;
pub mod properties;
pub mod record;
pub mod replay;
pub mod replay_views;
mod requests;
pub mod run;
pub mod schedule;
pub mod search;
pub mod session;
pub mod shrink;
pub mod story;

pub use call::{ApiFailure, CallError, ClientCall, PatchKind, Read};
pub use exercise::{
    conflicts, exercise_named, exercise_with, external_finalizer, goal_text_named, owned_configmap,
    replicas, status, Exercise, EXERCISES,
};
pub use properties::{check, Property};
pub use record::{CallRecord, ReconcileOutcome, ReconcileRecord};
pub use replay::{replay, ReplayError, ReplayLink, Script, Scripted};
pub use replay_views::ReplayedRun;
pub use run::{DrivenRun, Finish, Request, RunEnd};
pub use schedule::{Fault, Placed, Schedule};
pub use search::{check as check_controller, Budget, CheckReport, Client, Reconciler};
pub use session::CheckSession;
