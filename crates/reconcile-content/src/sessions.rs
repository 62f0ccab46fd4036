//! Sessions: each browser tab keeps its work on its own, and the last
//! [`MAX_SESSIONS`] are listed so any of them can be reopened.
//!
//! The page keeps each session's autosave under a key of its own and this
//! index under one key. The clock and the ids are the page's, passed in, so
//! everything here is deterministic.
//!
//! Guarantees:
//! - The index holds at most [`MAX_SESSIONS`] entries, newest save first,
//!   one per id.
//! - Recording a save evicts the oldest saves, never the session recorded.
//! - The fork rule ([`SessionIndex::may_write`]): a tab writes its session
//!   only if nobody else saved it since the tab last loaded or saved it;
//!   otherwise the tab forks to a new id, so two tabs never overwrite each
//!   other's work.
//!
//! The index's text is one line per session, its fields separated by tabs
//! (`id`, `saved`, `writer`, `title`, `snippet`): small, readable in the
//! storage inspector, and no JSON reader to compile for it. Lines that do
//! not read are skipped.

use std::fmt;

use crate::share::SharedState;

/// The most sessions kept; recording one more evicts the oldest save.
pub const MAX_SESSIONS: usize = 20;
/// The most characters of a session's snippet (its desired document's start).
pub const SNIPPET_CHARS: usize = 60;
/// A session's title when it is neither a preset nor a lesson.
pub const FREE_PLAY: &str = "Free play";

/// One session in the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionEntry {
    pub id: String,
    /// When it was last saved, in milliseconds since the epoch (the page's clock).
    pub saved: u64,
    /// Which page load saved it last (a token of the page's): with `saved`,
    /// it tells a tab's own last save from another tab's.
    pub writer: String,
    /// The lesson's or the preset's name, or [`FREE_PLAY`].
    pub title: String,
    /// The start of the desired document, on one line.
    pub snippet: String,
}

/// Who saved a session last, and when: what a tab compares to tell whether
/// another tab saved its session since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    pub saved: u64,
    pub writer: String,
}

impl SessionEntry {
    /// The entry for a save of `state` by `writer` at `saved`.
    pub fn new(id: &str, saved: u64, writer: &str, state: &SharedState) -> Self {
        Self {
            id: id.to_owned(),
            saved,
            writer: writer.to_owned(),
            title: title_of(state),
            snippet: snippet_of(&state.desired),
        }
    }

    pub fn stamp(&self) -> Stamp {
        Stamp {
            saved: self.saved,
            writer: self.writer.clone(),
        }
    }
}

/// The recent sessions, newest save first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionIndex {
    entries: Vec<SessionEntry>,
}

impl SessionIndex {
    /// Reads the index's text; what does not read is skipped, and more than
    /// [`MAX_SESSIONS`] are cut to the newest.
    pub fn parse(text: &str) -> Self {
        let mut index = Self::default();
        // Oldest first: an entry goes before those saved at the same time,
        // so ties keep the text's order.
        let entries: Vec<SessionEntry> = text.lines().filter_map(parse_line).collect();
        for entry in entries.into_iter().rev() {
            index.insert(entry);
        }
        index.evict(None);
        index
    }

    pub fn render(&self) -> String {
        let mut text = String::new();
        for entry in &self.entries {
            let fields = [
                one_line(&entry.id),
                entry.saved.to_string(),
                one_line(&entry.writer),
                one_line(&entry.title),
                one_line(&entry.snippet),
            ];
            text.push_str(&fields.join("\t"));
            text.push('\n');
        }
        text
    }

    /// Newest save first.
    pub fn entries(&self) -> &[SessionEntry] {
        &self.entries
    }

    pub fn get(&self, id: &str) -> Option<&SessionEntry> {
        self.entries.iter().find(|entry| entry.id == id)
    }

    pub fn newest(&self) -> Option<&SessionEntry> {
        self.entries.first()
    }

    /// Records a save: the session's entry is replaced and moves to its place
    /// by time. Returns the ids evicted to stay within [`MAX_SESSIONS`] (the
    /// oldest saves, never `entry`'s), whose autosaves the page removes.
    pub fn record(&mut self, entry: SessionEntry) -> Vec<String> {
        let current = entry.id.clone();
        self.insert(entry);
        self.evict(Some(&current))
    }

    /// Forgets a session; false if it was not listed.
    pub fn remove(&mut self, id: &str) -> bool {
        let before = self.entries.len();
        self.entries.retain(|entry| entry.id != id);
        self.entries.len() != before
    }

    /// The fork rule: a tab may write session `id` when it is not listed
    /// (new, deleted or evicted meanwhile), or when its last save is the one
    /// the tab `known`s (loaded or saved itself). Anything else means another
    /// tab saved it since: the tab forks instead of overwriting.
    pub fn may_write(&self, id: &str, known: Option<&Stamp>) -> bool {
        self.get(id)
            .is_none_or(|entry| known.is_some_and(|known| *known == entry.stamp()))
    }

    /// Inserts before every entry saved at the same time or earlier, so the
    /// order stays newest first without a sort.
    fn insert(&mut self, entry: SessionEntry) {
        self.entries.retain(|e| e.id != entry.id);
        let at = self
            .entries
            .iter()
            .position(|e| e.saved <= entry.saved)
            .unwrap_or(self.entries.len());
        self.entries.insert(at, entry);
    }

    /// Drops the oldest saves beyond the cap, sparing `keep`.
    fn evict(&mut self, keep: Option<&str>) -> Vec<String> {
        let mut evicted = Vec::new();
        while self.entries.len() > MAX_SESSIONS {
            let Some(at) = self
                .entries
                .iter()
                .rposition(|entry| Some(entry.id.as_str()) != keep)
            else {
                break;
            };
            evicted.push(self.entries.remove(at).id);
        }
        evicted
    }
}

fn parse_line(line: &str) -> Option<SessionEntry> {
    let mut fields = line.split('\t');
    let mut next = || fields.next().map(str::to_owned);
    let id = next().filter(|id| !id.is_empty())?;
    let saved = next()?.parse().ok()?;
    Some(SessionEntry {
        id,
        saved,
        writer: next()?,
        title: next()?,
        snippet: next().unwrap_or_default(),
    })
}

/// The text with every control character (tabs, line breaks) as a space,
/// so it stays one field of one line.
fn one_line(text: &str) -> String {
    text.replace(char::is_control, " ")
}

/// The session's name in the list: its lesson's, its (unedited) preset's, or [`FREE_PLAY`].
pub fn title_of(state: &SharedState) -> String {
    let lesson = state
        .lesson
        .as_deref()
        .and_then(crate::lesson_index::find)
        .map(|(_, lesson)| lesson);
    if let Some(lesson) = lesson {
        return format!("Lesson: {}", lesson.title);
    }
    match state.preset.as_deref().and_then(crate::presets::find) {
        Some(preset) => preset.title.clone(),
        None => FREE_PLAY.to_owned(),
    }
}

/// The start of a document on one line, whitespace runs as one space, at
/// most [`SNIPPET_CHARS`] characters (an ellipsis marks a cut). Reads only
/// as far as it needs, however long the document.
pub fn snippet_of(text: &str) -> String {
    let mut chars = text
        .split_whitespace()
        .flat_map(|word| std::iter::once(' ').chain(word.chars()))
        .skip(1);
    let mut snippet: String = chars.by_ref().take(SNIPPET_CHARS).collect();
    if chars.next().is_some() {
        snippet.pop();
        snippet.push('…');
    }
    snippet
}

/// How long ago a session was saved, as the list says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Age {
    JustNow,
    Minutes(u64),
    Hours(u64),
    Days(u64),
}

impl Age {
    /// The age of a save at `saved` at `now` (both in ms; a clock set back reads as just now).
    pub fn between(saved: u64, now: u64) -> Self {
        let minutes = now.saturating_sub(saved) / 60_000;
        match minutes {
            0 => Age::JustNow,
            1..60 => Age::Minutes(minutes),
            60..1440 => Age::Hours(minutes / 60),
            _ => Age::Days(minutes / 1440),
        }
    }
}

impl fmt::Display for Age {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (count, unit) = match *self {
            Age::JustNow => return f.write_str("just now"),
            Age::Minutes(n) => (n, "minute"),
            Age::Hours(n) => (n, "hour"),
            Age::Days(n) => (n, "day"),
        };
        let plural = if count == 1 { "" } else { "s" };
        write!(f, "{count} {unit}{plural} ago")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entry(id: &str, saved: u64) -> SessionEntry {
        SessionEntry {
            id: id.to_owned(),
            saved,
            writer: "w".to_owned(),
            title: FREE_PLAY.to_owned(),
            snippet: String::new(),
        }
    }

    #[test]
    fn the_index_reads_back_what_it_wrote_and_skips_broken_lines() {
        let mut index = SessionIndex::default();
        index.record(SessionEntry::new("a", 5, "tab1", &SharedState::default()));
        let mut free = SharedState {
            desired: "{\n\t\"web\":   {\"replicas\": 2}\n}\n".to_owned(),
            preset: None,
            ..SharedState::default()
        };
        index.record(SessionEntry::new("b", 9, "tab2", &free));
        free.lesson = Some("finalizers".to_owned());
        index.record(SessionEntry::new("c", 7, "tab3", &free));
        let text = index.render();
        assert_eq!(SessionIndex::parse(&text), index);
        let ids: Vec<_> = index.entries().iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["b", "c", "a"]);
        assert_eq!(
            index.get("a").map(|e| e.title.as_str()),
            Some("Create, update, delete")
        );
        let b = index.get("b").expect("b");
        assert_eq!(
            (b.title.as_str(), b.snippet.as_str()),
            (FREE_PLAY, r#"{ "web": {"replicas": 2} }"#)
        );
        assert!(index
            .get("c")
            .expect("c")
            .title
            .starts_with("Lesson: Finalizers"));

        let damaged = format!("junk\n\tno id\nx\tnot-a-time\tw\tt\ts\n{text}");
        assert_eq!(SessionIndex::parse(&damaged), index);
        assert_eq!(SessionIndex::parse(""), SessionIndex::default());
    }

    #[test]
    fn tabs_and_line_breaks_in_a_field_do_not_break_the_index() {
        let mut index = SessionIndex::default();
        let mut odd = entry("a", 1);
        odd.title = "two\tfields\nand a line".to_owned();
        index.record(odd);
        let read = SessionIndex::parse(&index.render());
        assert_eq!(read.entries().len(), 1);
        assert_eq!(read.entries()[0].title, "two fields and a line");
    }

    #[test]
    fn the_fork_rule() {
        let mut index = SessionIndex::default();
        // A session nobody saved yet, or one deleted meanwhile: write it.
        assert!(index.may_write("s", None));
        let mine = SessionEntry {
            writer: "tab-a".to_owned(),
            ..entry("s", 10)
        };
        index.record(mine.clone());
        assert!(index.may_write("s", Some(&mine.stamp())));
        // Listed, but this tab never loaded it: another tab's.
        assert!(!index.may_write("s", None));
        // Another tab saved it after this one's last save, even in the same millisecond.
        let theirs = SessionEntry {
            writer: "tab-b".to_owned(),
            ..entry("s", 10)
        };
        index.record(theirs.clone());
        assert!(!index.may_write("s", Some(&mine.stamp())));
        assert!(index.may_write("s", Some(&theirs.stamp())));
        assert!(index.remove("s"));
        assert!(!index.remove("s"));
        assert!(index.may_write("s", Some(&mine.stamp())));
    }

    #[test]
    fn recording_evicts_the_oldest_but_never_the_recorded_session() {
        let mut index = SessionIndex::default();
        for n in 0..MAX_SESSIONS as u64 {
            assert!(index.record(entry(&format!("s{n}"), 100 + n)).is_empty());
        }
        assert_eq!(index.record(entry("new", 1_000)), ["s0"]);
        // Saved with a clock set back: the oldest, yet kept.
        assert_eq!(index.record(entry("late", 1)), ["s1"]);
        assert!(index.get("late").is_some());
        assert_eq!(index.entries().len(), MAX_SESSIONS);
    }

    #[test]
    fn snippets_are_short_and_on_one_line() {
        assert_eq!(snippet_of("  {\n  \"a\": 1\n}\n"), r#"{ "a": 1 }"#);
        assert_eq!(snippet_of(""), "");
        let long = snippet_of(&"{\"name\": \"value\", ".repeat(100_000));
        assert_eq!(long.chars().count(), SNIPPET_CHARS);
        assert!(long.ends_with('…'), "{long}");
        let word = snippet_of(&"é".repeat(200));
        assert_eq!(word.chars().count(), SNIPPET_CHARS);
    }

    #[test]
    fn ages_read_as_people_say_them() {
        let minute = 60_000;
        assert_eq!(Age::between(1_000, 1_000).to_string(), "just now");
        assert_eq!(Age::between(5 * minute, 1_000).to_string(), "just now");
        assert_eq!(Age::between(0, minute).to_string(), "1 minute ago");
        assert_eq!(Age::between(0, 59 * minute).to_string(), "59 minutes ago");
        assert_eq!(Age::between(0, 60 * minute).to_string(), "1 hour ago");
        assert_eq!(Age::between(0, 49 * 60 * minute).to_string(), "2 days ago");
    }

    fn arbitrary_saves() -> impl Strategy<Value = Vec<(u8, u64)>> {
        // Few ids (so ids repeat) and few times (so times tie).
        prop::collection::vec((0u8..40, 0u64..30), 0..120)
    }

    proptest! {
        #[test]
        fn the_index_stays_capped_ordered_and_keeps_the_current_session(saves in arbitrary_saves()) {
            let mut index = SessionIndex::default();
            for (id, saved) in saves {
                let id = format!("s{id}");
                let before = index.clone();
                let evicted = index.record(entry(&id, saved));
                prop_assert!(index.entries().len() <= MAX_SESSIONS);
                prop_assert!(index.get(&id).is_some_and(|e| e.saved == saved));
                prop_assert!(!evicted.contains(&id));
                // The evicted are the oldest saves: none newer than any other kept one.
                let kept_oldest = index.entries().iter().filter(|e| e.id != id).map(|e| e.saved).min();
                for gone in &evicted {
                    let was = before.get(gone).map(|e| e.saved);
                    prop_assert!(was.is_some());
                    prop_assert!(index.get(gone).is_none());
                    prop_assert!(kept_oldest.is_none_or(|kept| was <= Some(kept)));
                }
                prop_assert!(index.entries().windows(2).all(|pair| pair[0].saved >= pair[1].saved));
                let mut ids: Vec<&str> = index.entries().iter().map(|e| e.id.as_str()).collect();
                ids.sort_unstable();
                ids.dedup();
                prop_assert_eq!(ids.len(), index.entries().len());
                prop_assert_eq!(SessionIndex::parse(&index.render()), index.clone());
            }
        }

        #[test]
        fn any_text_reads_without_panicking_and_within_the_cap(text in ".{0,400}") {
            let index = SessionIndex::parse(&text);
            prop_assert!(index.entries().len() <= MAX_SESSIONS);
        }

        #[test]
        fn snippets_never_exceed_their_length(text in ".{0,300}") {
            let snippet = snippet_of(&text);
            prop_assert!(snippet.chars().count() <= SNIPPET_CHARS);
            prop_assert!(!snippet.contains(['\n', '\t', '\r']));
            prop_assert!(!snippet.contains("  "));
        }
    }
}
