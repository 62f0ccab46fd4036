//! Reading an edited YAML text again without reading all of it: an editor's
//! keystroke in a 10,000-resource document changes one resource.
//!
//! A text whose only document is a block mapping with every key at column 0,
//! and that has no anchors, aliases, directives or document markers, is a
//! list of top-level entries that YAML reads independently of each other.
//! For such a text [`StreamCache`] keeps each entry's value and where it
//! starts; the next text is compared with the last one, and only the entries
//! the change touches (with one more on each side) are read again, as a text
//! of their own, by the same reader. Any doubt (an error, a marker, a key off
//! column 0, a different shape) reads the whole text instead, so this changes
//! speed, never a value or an error: errors always come from a whole read
//! (a property test checks that both agree).

use reconcile_core::{Document, InputError, Json};

use crate::reader::{read_stream_with_keys, Position, RootKeys, YamlDocument};

/// The last text read for one document, and what it read to.
#[derive(Debug, Default)]
pub struct StreamCache {
    last: Option<Last>,
    in_part: bool,
}

#[derive(Debug)]
struct Last {
    text: String,
    documents: Vec<YamlDocument>,
    /// Each top-level entry's first byte, when the text reads in parts.
    entries: Option<Vec<usize>>,
}

impl StreamCache {
    /// [`crate::read_stream`] of `text`, reading again only what changed
    /// since the last text, when it can.
    pub fn read(
        &mut self,
        document: Document,
        text: &str,
    ) -> Result<Vec<YamlDocument>, InputError> {
        self.in_part = false;
        if let Some(last) = &self.last {
            if last.text == text {
                return Ok(last.documents.clone());
            }
            if let Some((documents, entries)) = last.read_changed(document, text) {
                self.in_part = true;
                return Ok(self.keep(text, documents, Some(entries)));
            }
        }
        self.last = None;
        let (documents, keys) = read_stream_with_keys(document, text)?;
        let entries = entry_starts(text, &documents, &keys);
        Ok(self.keep(text, documents, entries))
    }

    /// Whether the last read read only part of its text (for tests).
    pub fn last_read_was_in_part(&self) -> bool {
        self.in_part
    }

    fn keep(
        &mut self,
        text: &str,
        documents: Vec<YamlDocument>,
        entries: Option<Vec<usize>>,
    ) -> Vec<YamlDocument> {
        self.last = Some(Last {
            text: text.to_owned(),
            documents: documents.clone(),
            entries,
        });
        documents
    }
}

impl Last {
    /// The documents of `text`, read in part, and its entries' starts; `None`
    /// when it must be read whole.
    fn read_changed(
        &self,
        document: Document,
        text: &str,
    ) -> Option<(Vec<YamlDocument>, Vec<usize>)> {
        let starts = self.entries.as_ref()?;
        let [YamlDocument { value: root, start }] = self.documents.as_slice() else {
            return None;
        };
        let members = root.as_object()?;
        let (old, new) = (self.text.as_bytes(), text.as_bytes());
        let (prefix, suffix) = common_ends(old, new, |a, b| a == b);
        let changed_end = old.len() - suffix;
        // The entries the change touches, and one more on each side.
        let first = starts.partition_point(|&s| s <= prefix).saturating_sub(2);
        let touched = starts.partition_point(|&s| s <= changed_end);
        let last = (touched + 1).min(starts.len());
        let from = if first == 0 { 0 } else { starts[first] };
        let to = starts.get(last).copied().unwrap_or(old.len());
        let new_to = to + new.len() - old.len();
        let part = text.get(from..new_to)?;
        if !reads_in_parts(part) {
            return None;
        }
        let (documents, keys) = read_stream_with_keys(document, part).ok()?;
        let part_starts = entry_starts(part, &documents, &keys)?;
        let [YamlDocument {
            value: part_root,
            start: part_start,
        }] = documents.as_slice()
        else {
            return None;
        };
        let part_members = part_root.as_object()?;
        // The unchanged entries on either side read as they did: the change
        // did not reach past them (say, into a quoted string left open).
        let delta = |s: usize| s + new.len() - old.len();
        let same_before = first == 0 || part_members.first() == members.get(first);
        let same_after = touched >= starts.len()
            || (part_members.last() == members.get(touched)
                && part_starts.last().map(|s| s + from) == Some(delta(starts[touched])));
        if !same_before || !same_after {
            return None;
        }
        let mut joined = members[..first].to_vec();
        joined.extend_from_slice(part_members);
        joined.extend_from_slice(&members[last..]);
        let mut joined_starts = starts[..first].to_vec();
        joined_starts.extend(part_starts.iter().map(|s| s + from));
        joined_starts.extend(starts[last..].iter().map(|&s| delta(s)));
        let start = if first == 0 { *part_start } else { *start };
        let value = Json::object(joined);
        Some((vec![YamlDocument { value, start }], joined_starts))
    }
}

/// How many items `old` and `new` share at their start, and then at their
/// end (never overlapping the start): what lies between is what changed.
pub(crate) fn common_ends<T>(
    old: &[T],
    new: &[T],
    same: impl Fn(&T, &T) -> bool,
) -> (usize, usize) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| same(a, b)).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| same(a, b))
        .count();
    (prefix, suffix)
}

/// Whether a text may be read in parts: nothing in it reaches beyond its own
/// entry (anchors and aliases, tags' directives, document markers).
fn reads_in_parts(text: &str) -> bool {
    !text.contains(['&', '*', '\t'])
        && !text
            .lines()
            .any(|line| ["---", "...", "%"].iter().any(|m| line.starts_with(m)))
}

/// The first byte of each top-level entry of a text that reads in parts:
/// one document, a block mapping whose keys are all at column 0. The first
/// entry starts at the text's start, with whatever comments precede it.
fn entry_starts(text: &str, documents: &[YamlDocument], keys: &RootKeys) -> Option<Vec<usize>> {
    let [YamlDocument { value, .. }] = documents else {
        return None;
    };
    let first = keys.keys.first()?;
    let at_margin = |p: &Position| p.column == 1;
    let fits = keys.start == Some(*first)
        && keys.keys.iter().all(at_margin)
        && value
            .as_object()
            .is_some_and(|m| m.len() == keys.keys.len())
        && reads_in_parts(text);
    if !fits {
        return None;
    }
    let mut line_starts = std::iter::once(0).chain(
        text.bytes()
            .enumerate()
            .filter(|(_, b)| *b == b'\n')
            .map(|(i, _)| i + 1),
    );
    let mut line = 1;
    let mut starts = Vec::with_capacity(keys.keys.len());
    let mut at = 0;
    for key in &keys.keys {
        while line <= key.line {
            at = line_starts.next()?;
            line += 1;
        }
        starts.push(at);
    }
    starts[0] = 0;
    Some(starts)
}
