//! How far a learner got in each lesson, as saved in their browser.
//!
//! The saved text is `id=step` or `id=step:answered`, entries joined by
//! commas, `answered` being the 0-based steps whose exercise was answered,
//! joined by dots: tiny, readable, and no JSON reader for it. Text saved
//! before answers were kept (`id=step`) still reads.

use std::collections::BTreeMap;

use crate::lesson_index::LessonEntry;

/// One lesson's progress.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LessonProgress {
    /// The furthest step reached, 0-based: a lesson reopens there.
    pub reached: usize,
    /// The steps whose exercise was answered (right, or revealed), sorted.
    pub answered: Vec<usize>,
}

/// Progress per lesson id.
pub type Progress = BTreeMap<String, LessonProgress>;

impl LessonProgress {
    /// Takes in what one visit did: the furthest step and every answer count.
    pub fn merge(&mut self, reached: usize, answered: &[usize]) {
        self.reached = self.reached.max(reached);
        for step in answered {
            if let Err(at) = self.answered.binary_search(step) {
                self.answered.insert(at, *step);
            }
        }
    }

    /// Done means every exercise of the lesson answered, not merely the last
    /// step reached.
    pub fn is_complete(&self, lesson: &LessonEntry) -> bool {
        lesson
            .exercise_steps()
            .all(|step| self.answered.binary_search(&step).is_ok())
    }

    /// The steps (1-based) whose exercise is still unanswered.
    pub fn unanswered(&self, lesson: &LessonEntry) -> Vec<usize> {
        lesson
            .exercise_steps()
            .filter(|step| self.answered.binary_search(step).is_err())
            .map(|step| step + 1)
            .collect()
    }
}

/// Reads saved progress; what does not read is skipped. A repeated id keeps
/// its last entry. (Inserted one by one: collecting into a map sorts, and a
/// sort costs the page ~1 KB gzipped.)
pub fn parse_progress(text: &str) -> Progress {
    let mut progress = Progress::new();
    for (id, entry) in text
        .split(',')
        .filter_map(|pair| pair.split_once('='))
        .filter_map(|(id, entry)| Some((id.to_owned(), parse_entry(entry)?)))
    {
        progress.insert(id, entry);
    }
    progress
}

fn parse_entry(entry: &str) -> Option<LessonProgress> {
    let (reached, answered) = entry.split_once(':').unwrap_or((entry, ""));
    let mut progress = LessonProgress {
        reached: reached.parse().ok()?,
        answered: Vec::new(),
    };
    let steps: Option<Vec<usize>> = answered
        .split('.')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok())
        .collect();
    progress.merge(0, &steps?);
    Some(progress)
}

/// The text [`parse_progress`] reads back.
pub fn render_progress(progress: &Progress) -> String {
    let entry = |entry: &LessonProgress| {
        let answered: Vec<String> = entry.answered.iter().map(usize::to_string).collect();
        if answered.is_empty() {
            entry.reached.to_string()
        } else {
            format!("{}:{}", entry.reached, answered.join("."))
        }
    };
    progress
        .iter()
        .map(|(id, progress)| format!("{id}={}", entry(progress)))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson_index::LESSON_INDEX;

    #[test]
    fn progress_round_trips_and_skips_what_does_not_read() {
        let progress = parse_progress("four-actions=2:1.3,drift=0,broken,x=y,z=1:a");
        assert_eq!(progress.len(), 2);
        assert_eq!(
            progress.get("four-actions"),
            Some(&LessonProgress {
                reached: 2,
                answered: vec![1, 3]
            })
        );
        assert_eq!(parse_progress(&render_progress(&progress)), progress);
        let repeated = parse_progress("drift=3,four-actions=1,drift=2");
        assert_eq!(
            render_progress(&repeated),
            "drift=2,four-actions=1",
            "the last one counts"
        );
    }

    #[test]
    fn a_lesson_is_complete_when_every_exercise_is_answered_not_when_its_end_is_reached() {
        let lesson = &LESSON_INDEX[0];
        let last = lesson.steps() - 1;
        let mut progress = parse_progress(&format!("{}={last}", lesson.id))[lesson.id].clone();
        assert!(
            !progress.is_complete(lesson),
            "reached the end, answered nothing"
        );
        let exercises: Vec<usize> = lesson.exercise_steps().collect();
        assert!(exercises.len() > 1);
        progress.merge(0, &exercises[1..]);
        assert_eq!(progress.unanswered(lesson), vec![exercises[0] + 1]);
        assert!(!progress.is_complete(lesson));
        progress.merge(0, &exercises[..1]);
        assert!(progress.is_complete(lesson));
        assert_eq!(progress.reached, last, "merging never goes back");
    }
}
