//! A replay opened for the simulation section's views (issue 30's "Open in
//! the simulation"). Start at [`ReplayLink::open_for_views`].
//!
//! The replay runs once, from the link's script, without the learner's
//! code. It keeps what the views read: the engine's timeline, the
//! control-plane picture at every event (no contract run could give them
//! again), each reconcile's record, and what broke, in the check's words:
//! the same properties ([`properties::check`]) and the same story
//! ([`story::tell`]).

use super::exercise::{exercise_with, Exercise};
use super::faulted::FaultedRun;
use super::properties::{self, Property};
use super::record::ReconcileRecord;
use super::replay::{replay_in, ReplayLink};
use super::schedule::Schedule;
use super::story;
use crate::picture::Picture;
use crate::{Moment, Timeline};

/// A failing run replayed for the views.
#[derive(Debug)]
pub struct ReplayedRun {
    /// The exercise: its name, goal, scenario and settings.
    pub exercise: Exercise,
    pub timeline: Timeline,
    /// The picture at the start, then at every event and actor's event.
    pub pictures: Vec<Picture>,
    pub record: Vec<ReconcileRecord>,
    /// The property that broke, as the check reports it; `None` if the
    /// replayed run kept them all.
    pub broken: Option<Property>,
    /// The faults placed, as the link gives them.
    pub schedule: Schedule,
    /// The schedule as the check tells it, one sentence a fault.
    pub story: Vec<String>,
}

impl ReplayLink {
    /// The replayed run with what its views read; an unknown exercise,
    /// options that do not read, or a replay that parts from its script is
    /// an error in a sentence.
    pub fn open_for_views(&self) -> Result<ReplayedRun, String> {
        let exercise = exercise_with(&self.exercise, self.options.as_deref())?;
        let mut run = FaultedRun::new(exercise.clone(), &self.script.schedule);
        let start = run.keep_pictures();
        let mut run = replay_in(run, &self.script).map_err(|e| e.to_string())?;
        let mut pictures = vec![start];
        pictures.extend(run.take_pictures());
        let properties = properties::check(run.run());
        let broken = properties::first_broken(&properties).cloned();
        let story = story::tell(&self.script.schedule, run.fired());
        let record = run.run().record().to_vec();
        Ok(ReplayedRun {
            exercise,
            timeline: run.into_run().into_timeline(),
            pictures,
            record,
            broken,
            schedule: self.script.schedule.clone(),
            story,
        })
    }
}

impl ReplayedRun {
    /// The position in the timeline's moments where the property had
    /// broken: the end of its pass, else (it broke at the end, or held)
    /// the last moment.
    pub fn broke_at(&self) -> usize {
        let moments = &self.timeline.moments;
        let last = moments.len().saturating_sub(1);
        let pass = self.broken.as_ref().and_then(|p| p.pass);
        let moment = match pass {
            Some(0) => Some(Moment::Start),
            Some(pass) => Some(Moment::AfterPass(pass)),
            None => None,
        };
        moment
            .and_then(|m| self.timeline.position_of(m))
            .unwrap_or(last)
    }
}
