//! The API server's write requests on its store ([`World`]), with its rules.
//!
//! Follows `k8s.io/apiserver` `pkg/registry/generic/registry/store.go`
//! (`Create`, `Update` with `ShouldDeleteDuringUpdate`, `Delete` with
//! `deletionFinalizersForGarbageCollection` and `markAsDeleting`) and
//! `k8s.io/apimachinery` `pkg/api/validation/objectmeta.go`
//! (`ValidateNoNewFinalizers`, `ValidateFinalizers`). Their unit tests are
//! ported below, named after them.
//!
//! # Guarantees
//! - Every write takes the store's next resourceVersion; a request that
//!   changes nothing writes nothing and keeps it (`TestNoOpUpdates`).
//! - A spec change, and the start of a deletion, bump the generation.
//! - Delete: an object without finalizers is gone at once. One with
//!   finalizers gets a deletionTimestamp (an earlier one is kept) and goes in
//!   the very update that removes its last finalizer, not later.
//! - While an object is being deleted no *new* finalizer names may be added:
//!   the rule is a set difference, so sending one it already has is allowed.
//! - A stale resourceVersion gets 409 Conflict; creating an existing name,
//!   AlreadyExists; updating or deleting a missing one, NotFound.
//! - The propagation policy of a delete adds or removes the garbage
//!   collector's finalizers `orphan` and `foregroundDeletion` on the deleted
//!   object, as the store does, before deciding whether it goes at once.
//!
//! # Caveats
//! - Only pods have a grace period ([`crate::pods`]); every other kind
//!   deletes like one without graceful deletion, as custom resources and
//!   most built-in kinds do.
//! - Defaulting ([`crate::defaulting`]) applies to every write, before an
//!   update is compared with what is stored; objects of the starting
//!   Observed state are taken as stored. No other admission, dry run,
//!   generateName, status subresource or managed fields.
//! - Finalizer names are not checked to be qualified names.

use std::fmt;
use std::sync::Arc;

use reconcile_core::json::Json;

pub use crate::control_plane::propagation::{
    deletion_finalizers_for_gc, DeleteOptions, DeleteStrategy, GcPolicy, PropagationPolicy,
    FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS,
};
use crate::defaulting::apply_defaults;
use crate::ownership::OwnerRefs;
use crate::pods::{self, seconds_ms, PendingDelete};
use crate::workqueue::Millis;
use crate::world::{ObjectMeta, World};

/// apiserver's `OptimisticLockErrorMsg`.
pub const OPTIMISTIC_LOCK_ERROR: &str =
    "the object has been modified; please apply your changes to the latest version and try again";

/// A refused request, as the API server answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// 404.
    NotFound { name: String },
    /// 409, on create.
    AlreadyExists { name: String },
    /// 409: the request's resourceVersion is not the stored one.
    Conflict { name: String },
    /// 409: an apply would change fields other managers own
    /// (`NewApplyConflict`). Each cause is its message and its field, as
    /// `NewConflictError` builds them; `message` lists them all.
    ApplyConflict {
        name: String,
        causes: Vec<(String, String)>,
        message: String,
    },
    /// 422: new finalizers on an object that is being deleted (a Forbidden field error).
    NewFinalizersWhileDeleting { name: String, added: Vec<String> },
    /// 422: `orphan` and `foregroundDeletion` together.
    ConflictingGcFinalizers { name: String },
    /// 422: a field the request may not set, or of the wrong type
    /// (`NewInvalid`); also a JSON patch that fails to apply.
    Invalid {
        name: String,
        field: String,
        message: String,
    },
    /// 400: a request the server cannot read, such as a malformed patch
    /// (`NewBadRequest`).
    BadRequest { message: String },
    /// 503: a transient failure (the simulation's failure rate); retrying may succeed.
    Unavailable,
}

impl ApiError {
    /// The HTTP status code of the response.
    pub fn code(&self) -> u16 {
        match self {
            ApiError::NotFound { .. } => 404,
            ApiError::AlreadyExists { .. }
            | ApiError::Conflict { .. }
            | ApiError::ApplyConflict { .. } => 409,
            ApiError::NewFinalizersWhileDeleting { .. }
            | ApiError::ConflictingGcFinalizers { .. }
            | ApiError::Invalid { .. } => 422,
            ApiError::BadRequest { .. } => 400,
            ApiError::Unavailable => 503,
        }
    }
}

/// The messages of `k8s.io/apimachinery/pkg/api/errors`, for a resource the
/// playground calls "object".
impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::NotFound { name } => write!(f, "object {name:?} not found"),
            ApiError::AlreadyExists { name } => write!(f, "object {name:?} already exists"),
            ApiError::Conflict { name } => write!(
                f,
                "Operation cannot be fulfilled on object {name:?}: {OPTIMISTIC_LOCK_ERROR}"
            ),
            ApiError::ApplyConflict { message, .. } => f.write_str(message),
            ApiError::NewFinalizersWhileDeleting { name, added } => write!(
                f,
                "object {name:?} is invalid: metadata.finalizers: Forbidden: {}, found new finalizers {added:?}",
                crate::world::NO_NEW_FINALIZERS
            ),
            ApiError::ConflictingGcFinalizers { name } => write!(
                f,
                "object {name:?} is invalid: metadata.finalizers: Invalid value: finalizer {FINALIZER_ORPHAN_DEPENDENTS} and {FINALIZER_DELETE_DEPENDENTS} cannot be both set"
            ),
            ApiError::Invalid {
                name,
                field,
                message,
            } => write!(f, "object {name:?} is invalid: {field}: {message}"),
            ApiError::BadRequest { message } => f.write_str(message),
            // apimachinery's message for a 503 (`NewGenericServerResponse`).
            ApiError::Unavailable => {
                f.write_str("the server is currently unable to handle the request")
            }
        }
    }
}

impl std::error::Error for ApiError {}

/// What a delete did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteOutcome {
    /// Gone from the store.
    Deleted,
    /// Finalizers are pending: the object stays, terminating. `written` is
    /// false when it was terminating already and nothing changed.
    Terminating { written: bool },
}

/// What an update did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateOutcome {
    Updated,
    /// Nothing changed, so nothing was written.
    Unchanged,
    /// The update removed the last finalizer of an object being deleted, so
    /// the store deleted it (`ShouldDeleteDuringUpdate`).
    Deleted,
}

/// An update (PUT) of one object: the fields it sets, the rest kept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Update {
    pub spec: Option<Json>,
    pub finalizers: Option<Vec<String>>,
    /// The garbage collector's patches of ownerReferences.
    pub owner_references: Option<OwnerRefs>,
    /// The version the writer read. `None` stands for a patch, which the
    /// server applies to whatever it stores (a PUT must carry a version).
    pub resource_version: Option<u64>,
}

impl World {
    /// POST: a new object, or AlreadyExists.
    pub fn create(
        &mut self,
        name: &Arc<str>,
        spec: Json,
        finalizers: Vec<String>,
    ) -> Result<(), ApiError> {
        self.create_owned(name, spec, finalizers, OwnerRefs::default())
    }

    /// POST of an object with ownerReferences.
    pub fn create_owned(
        &mut self,
        name: &Arc<str>,
        spec: Json,
        finalizers: Vec<String>,
        owners: OwnerRefs,
    ) -> Result<(), ApiError> {
        if self.observed.contains(name) {
            return Err(ApiError::AlreadyExists {
                name: name.to_string(),
            });
        }
        validate_finalizers(name, &finalizers)?;
        self.write_spec_shared(name, spec);
        // Part of the same create: no writes of their own.
        if !finalizers.is_empty() {
            self.put_finalizers(name, finalizers);
        }
        if !owners.is_empty() {
            self.put_owner_references(name, owners);
        }
        Ok(())
    }

    /// PUT: store `update` over the object, under the API server's rules.
    pub fn update(&mut self, name: &str, update: Update) -> Result<UpdateOutcome, ApiError> {
        let meta = self.meta(name).ok_or_else(|| not_found(name))?;
        if update
            .resource_version
            .is_some_and(|v| v != meta.resource_version)
        {
            return Err(ApiError::Conflict {
                name: name.to_owned(),
            });
        }
        let old = self.pending(name);
        let finalizers = update.finalizers.unwrap_or_else(|| old.to_vec());
        validate_finalizers(name, &finalizers)?;
        let deleting = self.is_terminating(name);
        if deleting {
            validate_no_new_finalizers(name, &finalizers, old)?;
        }
        // `ShouldDeleteDuringUpdate`: not while a grace period runs.
        let graceful = meta.deletion_grace_period_seconds.is_some_and(|s| s != 0);
        if finalizers.is_empty() && deleting && !graceful {
            self.remove(name);
            return Ok(UpdateOutcome::Deleted);
        }
        let finalizers_changed = finalizers.as_slice() != old;
        // Defaulted before comparing: a PUT that only leaves out what the
        // server fills in changes nothing, and writes nothing.
        let spec = update
            .spec
            .map(|mut spec| {
                apply_defaults(&mut spec);
                spec
            })
            .filter(|spec| self.observed.get(name) != Some(spec));
        let owners = update
            .owner_references
            .filter(|owners| *owners != meta.owner_references);
        if spec.is_none() && !finalizers_changed && owners.is_none() {
            return Ok(UpdateOutcome::Unchanged);
        }
        if finalizers_changed {
            self.put_finalizers(name, finalizers);
        }
        if let Some(owners) = owners {
            self.put_owner_references(name, owners);
        }
        match spec {
            // Writes the metadata too, with a new generation.
            Some(spec) => {
                self.write_spec(name, spec);
            }
            None => self.written(name, false),
        }
        Ok(UpdateOutcome::Updated)
    }

    /// DELETE: gone at once; terminating while finalizers are pending; or,
    /// for a running pod, terminating for its grace period
    /// (`Store.Delete` with `rest.BeforeDelete`).
    pub fn delete(
        &mut self,
        name: &str,
        options: &DeleteOptions,
        strategy: &DeleteStrategy,
        now: Millis,
    ) -> Result<DeleteOutcome, ApiError> {
        let meta = self.meta(name).ok_or_else(|| not_found(name))?;
        if options
            .resource_version
            .is_some_and(|v| v != meta.resource_version)
        {
            return Err(ApiError::Conflict {
                name: name.to_owned(),
            });
        }
        let grace = match self.before_delete(name, &meta, options, now) {
            BeforeDelete::Pending => return Ok(DeleteOutcome::Terminating { written: false }),
            BeforeDelete::NotGraceful => None,
            BeforeDelete::Graceful(grace) => Some(grace),
        };
        let old = self.pending(name).to_vec();
        let (changed, finalizers) = deletion_finalizers_for_gc(&old, options, strategy);
        if let Some((deletion_timestamp, seconds)) = grace {
            // `updateForGracefulDeletionAndFinalizers`: gone now only with no
            // grace left and no finalizer pending.
            if seconds == 0 && finalizers.is_empty() {
                self.remove(name);
                return Ok(DeleteOutcome::Deleted);
            }
            if changed {
                self.put_finalizers(name, finalizers);
            }
            self.mark_graceful(name, deletion_timestamp, seconds);
            return Ok(DeleteOutcome::Terminating { written: true });
        }
        if finalizers.is_empty() {
            self.remove(name);
            return Ok(DeleteOutcome::Deleted);
        }
        let started = !self.is_terminating(name);
        if changed {
            self.put_finalizers(name, finalizers);
        }
        if started {
            // Writes the metadata, with a new generation (`markAsDeleting`).
            self.mark_terminating(name, now);
        } else if changed {
            self.written(name, false);
        }
        Ok(DeleteOutcome::Terminating {
            written: started || changed,
        })
    }

    /// `rest.BeforeDelete`'s grace period for a delete of `name` at `now`.
    fn before_delete(
        &self,
        name: &str,
        meta: &ObjectMeta,
        options: &DeleteOptions,
        now: Millis,
    ) -> BeforeDelete {
        let requested = options.grace_period_seconds;
        let Some(&deletion_timestamp) = self.terminating.get(name) else {
            let period = self
                .observed
                .get(name)
                .and_then(|spec| pods::grace_period(spec, requested));
            return match period {
                None => BeforeDelete::NotGraceful,
                Some(seconds) => {
                    BeforeDelete::Graceful((now.saturating_add(seconds_ms(seconds)), seconds))
                }
            };
        };
        let current = meta.deletion_grace_period_seconds;
        match pods::pending_delete(current, requested) {
            PendingDelete::NotGraceful => BeforeDelete::NotGraceful,
            PendingDelete::Pending => BeforeDelete::Pending,
            PendingDelete::Shorten(seconds) => {
                // The same start, a shorter period.
                let start = deletion_timestamp.saturating_sub(seconds_ms(current.unwrap_or(0)));
                BeforeDelete::Graceful((start.saturating_add(seconds_ms(seconds)), seconds))
            }
        }
    }
}

/// What `rest.BeforeDelete` decided.
enum BeforeDelete {
    /// No grace period: removed at once, or waiting for finalizers.
    NotGraceful,
    /// A grace period is running and stands: nothing to write.
    Pending,
    /// A grace period starts or is shortened: (deletionTimestamp, seconds).
    Graceful((Millis, i64)),
}

fn not_found(name: &str) -> ApiError {
    ApiError::NotFound {
        name: name.to_owned(),
    }
}

/// `ValidateFinalizers`: `orphan` and `foregroundDeletion` exclude each other.
fn validate_finalizers(name: &str, finalizers: &[String]) -> Result<(), ApiError> {
    let has = |f: &str| finalizers.iter().any(|x| x == f);
    if has(FINALIZER_ORPHAN_DEPENDENTS) && has(FINALIZER_DELETE_DEPENDENTS) {
        return Err(ApiError::ConflictingGcFinalizers {
            name: name.to_owned(),
        });
    }
    Ok(())
}

/// `ValidateNoNewFinalizers`: the set difference new − old must be empty.
fn validate_no_new_finalizers(name: &str, new: &[String], old: &[String]) -> Result<(), ApiError> {
    // `sets.String.List()`: sorted and unique. Inserted in place, as there
    // are a few: a sort is code of its own per element type.
    let mut added: Vec<String> = Vec::new();
    for name in new.iter().filter(|f| !old.contains(f)) {
        if let Err(index) = added.binary_search(name) {
            added.insert(index, name.clone());
        }
    }
    if added.is_empty() {
        return Ok(());
    }
    Err(ApiError::NewFinalizersWhileDeleting {
        name: name.to_owned(),
        added,
    })
}

#[cfg(test)]
#[path = "apiserver_tests.rs"]
mod tests;
