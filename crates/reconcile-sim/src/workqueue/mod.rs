//! client-go's work queue and rate limiters, on a simulated clock.

mod policy;
mod queue;

pub use policy::{BackoffPolicy, RateLimiter};
pub use queue::{AddOutcome, Queue, WorkQueue};

/// Simulated milliseconds since the simulation started.
pub type Millis = u64;
