//! The control plane: the API server's store and rules, and the actors'
//! own state (informer, garbage collector, work queues, clock). Start at
//! [`apiserver`] for requests, [`world`] for the store.
//!
//! Invariant: it uses only `reconcile_core` and itself, never a controller,
//! the run's record, the engine or a view (the `layering` test checks).

pub(crate) mod agenda;
pub mod apiserver;
pub mod apply;
pub mod cloud;
pub mod consistency;
pub mod defaulting;
pub(crate) mod gc_graph;
pub(crate) mod gc_record;
pub(crate) mod kube_queue;
pub mod managed_fields;
pub mod names;
pub mod object;
pub mod ownership;
pub mod patch;
pub mod pods;
pub(crate) mod propagation;
pub(crate) mod queue;
pub mod reflector_backoff;
pub mod rfc3339;
pub mod rng;
pub mod sorted;
pub mod status;
pub mod typed_value;
pub(crate) mod unit_names;
pub mod watch_cache;
pub mod workqueue;
pub mod world;
