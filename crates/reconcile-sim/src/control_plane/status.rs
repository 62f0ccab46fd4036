//! The custom resource's status subresource: what `/status` stores and how
//! an update of it is answered.

use reconcile_core::json::Json;

use crate::apiserver::{ApiError, UpdateOutcome};
use crate::ownership::ObjectKey;
use crate::world::World;

/// The status of custom resource `name` as stored (`None`: never written).
pub fn stored_status(world: &World, name: &str) -> Option<Json> {
    let state = world.get(&ObjectKey::custom_resource(name))?;
    state.spec.get("status").cloned()
}

/// A write to the custom resource's `/status`: only `status` is taken, the
/// generation stays, and a status equal to the stored one writes nothing.
/// `resource_version`: the version read, for an update (or a patch with an
/// optimistic lock), which a write since makes a 409; `None` for a plain
/// merge patch.
pub fn write_status(
    world: &mut World,
    name: &str,
    status: Json,
    resource_version: Option<u64>,
) -> Result<UpdateOutcome, ApiError> {
    let key = ObjectKey::custom_resource(name);
    world.in_key_space(&key, |space, name| {
        let mut state = space.object(name).ok_or_else(|| ApiError::NotFound {
            name: name.to_owned(),
        })?;
        if resource_version.is_some_and(|v| v != state.meta.resource_version) {
            return Err(ApiError::Conflict {
                name: name.to_owned(),
            });
        }
        if state.spec.get("status") == Some(&status) {
            return Ok(UpdateOutcome::Unchanged);
        }
        state.spec.set_path(&["status".to_owned()], status);
        state.meta.resource_version = space.next_resource_version();
        space.put_object(name, state);
        Ok(UpdateOutcome::Updated)
    })
}

/// A patch of the custom resource's `/status`: it applies to the custom
/// resource as the server returns it (with `desired` as its spec); only
/// `status` is kept, and a resourceVersion the patch carries is checked.
pub fn patch_status(
    world: &mut World,
    name: &str,
    desired: &Json,
    patch: &crate::patch::Patch,
) -> Result<UpdateOutcome, ApiError> {
    let state = world
        .get(&ObjectKey::custom_resource(name))
        .ok_or_else(|| ApiError::NotFound {
            name: name.to_owned(),
        })?;
    let old = crate::object::render_custom_resource(world, name, &state, desired);
    let patched = patch.apply(&old)?;
    let read = crate::object::read_status(name, &old, patched, state.meta.uid)?;
    write_status(world, name, read.0, read.1)
}

#[cfg(test)]
mod tests {
    use reconcile_core::json::Number;

    use super::*;
    use crate::ownership::CUSTOM_RESOURCE;

    fn number(n: u64) -> Json {
        Json::Number(Number::Unsigned(n))
    }

    /// apiextensions `status_strategy.go` `PrepareForUpdate`: a status PUT
    /// keeps the generation; the store's no-op rule: the same status writes nothing.
    #[test]
    fn a_status_write_moves_the_resource_version_not_the_generation() {
        let mut world = World::with_custom_resource(Default::default(), None);
        let before = world
            .get(&ObjectKey::the_custom_resource())
            .expect("stored")
            .meta;
        let status = Json::object(vec![("observedGeneration".into(), number(1))]);
        let outcome = write_status(
            &mut world,
            CUSTOM_RESOURCE,
            status.clone(),
            Some(before.resource_version),
        );
        assert_eq!(outcome, Ok(UpdateOutcome::Updated));
        let after = world
            .get(&ObjectKey::the_custom_resource())
            .expect("stored")
            .meta;
        assert_eq!(after.generation, before.generation);
        assert!(after.resource_version > before.resource_version);
        assert_eq!(stored_status(&world, CUSTOM_RESOURCE), Some(status.clone()));
        assert_eq!(
            write_status(
                &mut world,
                CUSTOM_RESOURCE,
                status.clone(),
                Some(after.resource_version)
            ),
            Ok(UpdateOutcome::Unchanged)
        );
        assert_eq!(
            write_status(
                &mut world,
                CUSTOM_RESOURCE,
                status,
                Some(before.resource_version)
            ),
            Err(ApiError::Conflict {
                name: CUSTOM_RESOURCE.to_owned()
            }),
            "a stale read conflicts"
        );
    }
}
