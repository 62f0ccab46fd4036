//! Start at `section` (the simulation section) and `pane` ("Your reconcile").
//!
//! What the page and the apps it loads on demand tell each other. Each app is
//! a wasm module of its own, so the two sides talk through JavaScript: each
//! message is one of these types as JSON text. The page writes its input with
//! serde. It reads an app's answer with core's JSON reader, through
//! `reconcile_content::data::Reader`, like lessons: a serde reader would be
//! one more in the page's first load (docs/SIZE.md).
//!
//! Invariant: these only carry data. The page's reducer owns the cursor and
//! the settings; the apps ask, and show what the page says. No web
//! dependencies.
//!
//! # Modules
//!
//! - `pane`: the page and "Your reconcile".
//! - `section`: the page and the simulation section.
//! - `control_plane`: the run and the cursor as the section's views take them.
//! - `simulation`: `RunFacts`, what the page needs of a run to own the one
//!   cursor, and every position computed from them (Step's end, a link's
//!   position, the cursor kept on its moment after an edit, stepping by
//!   event).
//! - `setting_change`: a change made in Faults and settings, and how it
//!   changes the settings the section sends back.
//! - `yaml`: the YAML worker's input errors and terminating objects.

pub mod control_plane;
pub mod pane;
pub mod section;
pub mod setting_change;
pub mod simulation;
pub mod yaml;

#[cfg(test)]
mod readers_match_serde;
