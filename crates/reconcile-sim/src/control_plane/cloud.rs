//! An external system: a cloud that keeps load balancers, one per custom
//! resource of a controller that uses it. Start at [`Cloud`].
//!
//! It knows nothing of Kubernetes: no watch, no finalizers, no garbage
//! collector. Only the controller creates and deletes load balancers, so
//! only the controller can leak one. This is why the canonical controller
//! puts its own finalizer on its custom resource (kubebuilder's "Using
//! Finalizers"): the API server then keeps the resource, terminating, until
//! the controller has deleted what it made outside the cluster.
//!
//! # Caveats
//! - A call takes effect when it is sent; its answer comes after the
//!   cloud's latency (the settings' `cloud.latencyMs`).
//! - A failed call changes nothing (503). A lost answer is not modelled.

use super::apiserver::ApiError;

/// The finalizer the controller puts on its custom resource.
pub const FINALIZER: &str = "reconcile.example.com/load-balancer";

/// The load balancer of custom resource `owner`.
pub fn load_balancer_of(owner: &str) -> String {
    format!("lb-{owner}")
}

/// A call to the cloud's API.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum CloudCall {
    /// Creates the load balancer unless it exists (idempotent).
    Ensure { name: String },
    /// Reads it; changes nothing (the caller looks at the cloud's state).
    Get { name: String },
    /// Deletes it; 404 when it does not exist.
    Delete { name: String },
}

impl std::fmt::Display for CloudCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CloudCall::Ensure { name } => write!(f, "ensure load balancer {name}"),
            CloudCall::Get { name } => write!(f, "get load balancer {name}"),
            CloudCall::Delete { name } => write!(f, "delete load balancer {name}"),
        }
    }
}

/// The cloud's load balancers, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cloud {
    load_balancers: Vec<String>,
}

impl Cloud {
    /// Answers `call`: whether it changed anything, or 404 for a delete of
    /// a load balancer that does not exist.
    pub fn call(&mut self, call: &CloudCall) -> Result<bool, ApiError> {
        match call {
            CloudCall::Ensure { name } => Ok(match self.load_balancers.binary_search(name) {
                Ok(_) => false,
                Err(index) => {
                    self.load_balancers.insert(index, name.clone());
                    true
                }
            }),
            CloudCall::Get { .. } => Ok(false),
            CloudCall::Delete { name } => match self.load_balancers.binary_search(name) {
                Ok(index) => {
                    self.load_balancers.remove(index);
                    Ok(true)
                }
                Err(_) => Err(ApiError::NotFound { name: name.clone() }),
            },
        }
    }

    pub fn has(&self, name: &str) -> bool {
        self.load_balancers
            .binary_search_by(|lb| lb.as_str().cmp(name))
            .is_ok()
    }

    pub fn load_balancers(&self) -> &[String] {
        &self.load_balancers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ensure_is_idempotent_and_delete_of_nothing_is_404() {
        let mut cloud = Cloud::default();
        let name = load_balancer_of("shop");
        let ensure = CloudCall::Ensure { name: name.clone() };
        assert_eq!(cloud.call(&ensure), Ok(true));
        assert_eq!(cloud.call(&ensure), Ok(false));
        assert!(cloud.has("lb-shop"));
        let delete = CloudCall::Delete { name };
        assert_eq!(cloud.call(&delete), Ok(true));
        assert!(matches!(
            cloud.call(&delete),
            Err(ApiError::NotFound { .. })
        ));
        assert!(cloud.load_balancers().is_empty());
    }
}
