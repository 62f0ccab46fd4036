//! Start at `Check` (`session`), then `generate`, `shrink` and `diagnosis`.
//!
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
//!
//! # Modules
//!
//! - `case`: `Case`, one call's arguments (the finalizers omitted, `null` or
//!   given), the contract's answer, its JSON for a runner, and its size for
//!   the shrinker.
//! - `generate`: cases from the contract's traps, from a seed: code-point
//!   against UTF-16 order, member order, `1` against `1.0`, `true` against
//!   `1`, `null` and non-object specs, finalizers on desired names, empty
//!   lists, names only in the finalizers, large cases; integers within ±2⁵³;
//!   names every JavaScript object inherits (`constructor`), integer-like
//!   names (`"9"`, `"10"`), falsy specs (`0`, `""`, `[]`, `{}`, `false`).
//! - `shrink`: smaller cases to try in place of a failing one, biggest cut
//!   first; each strictly smaller, so shrinking ends.
//! - `diagnosis`: a `Counterexample`: expected and returned lists with each
//!   action marked (same, missing, unexpected, moved), the rule broken, and
//!   `EqualityNote`s where Python's `==`, JavaScript's `===`, JSON text or the
//!   default `sort()` differ from the contract, or where a trap of the
//!   language is the cause.
//! - `trap`: the language's traps a counterexample may hold (inherited names,
//!   integer-like names, `null` and falsy specs), and probes: the
//!   counterexample with one trap taken out. A right answer to a probe names
//!   its trap.
//! - `readable`: the one place that says which characters are invisible or
//!   easy to confuse (`\u{E000}`, zero-width, bidi controls, other spaces,
//!   lone combining marks, Cyrillic among Latin), and escapes them for
//!   display, with a note.
//! - `session`: `Check`: at least 500 generated cases after the editors'
//!   scenario, then shrinking from the first failure (at most 2,000 tries),
//!   then at most four probes.

mod case;
mod diagnosis;
mod generate;
mod readable;
mod session;
mod shrink;
mod trap;

pub use case::{Case, FinalizersArg};
pub use diagnosis::{Answer, Counterexample, EqualityNote, Language, Mark};
pub use generate::generate;
pub use readable::{escape_char, escapes_note, hard_to_see, readable};
pub use session::{Check, Outcome, MIN_GENERATED};
pub use shrink::candidates;
pub use trap::{is_inherited_name, is_integer_like, INHERITED_NAMES};
