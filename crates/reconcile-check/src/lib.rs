//! Checking a reconcile someone else wrote against the contract.
//!
//! A learner's `reconcile` (Python or JavaScript, run in a sandbox elsewhere)
//! is called on cases built from the contract's traps; its answers are
//! compared with the contract's own [`reconcile`](reconcile_core::reconcile).
//! On the first mismatch the failing case is shrunk to a minimal
//! counterexample (fewest names, smallest specs), which comes with the rule
//! it broke, in words taken from the core's reasons, and with what the
//! learner's language's own equality says where it differs from JSON's.
//!
//! Invariant: this crate knows nothing about browsers, workers or languages'
//! runtimes. It depends on the contract alone (and serde), reads no clock and
//! draws from a seeded generator, so a check is a pure function of its seed
//! and the answers it is given.
//!
//! The driver is a state machine ([`Check`]): it names the case to run next
//! and takes the answer, so the learner's function may answer synchronously
//! (tests) or asynchronously (a worker). That is why the shrinker is not
//! proptest's: proptest's runner calls its test synchronously, in-process.

mod case;
mod diagnosis;
mod generate;
mod session;
mod shrink;

pub use case::{Case, FinalizersArg};
pub use diagnosis::{Answer, Counterexample, EqualityNote, Language, Mark};
pub use generate::generate;
pub use session::{Check, Outcome, MIN_GENERATED};
pub use shrink::candidates;
