//! Where a JSON path is in a YAML text: the line and column of an error that
//! core's readers found in a value the YAML reader built.
//!
//! It reads the text's events again, tracking the path of each value, so the
//! reader keeps no positions for the values that never have an error. Keys
//! are taken as the reader takes them (a scalar key's text).

use reconcile_core::path::Segment;
use reconcile_core::{Document, ErrorKind, InputError, JsonPath, UnlocatedError};
use saphyr_parser::{Event, Parser};

use crate::reader::Position;

/// What to find at the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// The value at the path (or the alias the path goes through).
    Value,
    /// The second key named as the path's last member: a duplicate.
    RepeatedKey,
}

/// Places `error`, found at its path in document `index` of the stream, in `text`.
pub(crate) fn place(
    document: Document,
    text: &str,
    index: usize,
    error: UnlocatedError,
) -> InputError {
    let target = match error.kind {
        ErrorKind::DuplicateKey => Target::RepeatedKey,
        _ => Target::Value,
    };
    place_at(document, text, index, error, target)
}

/// Places `error` at `target` of its path, or at the start of the text.
pub(crate) fn place_at(
    document: Document,
    text: &str,
    index: usize,
    error: UnlocatedError,
    target: Target,
) -> InputError {
    let position =
        locate(text, index, &error.path, target).unwrap_or(Position { line: 1, column: 1 });
    error.at(document, position.line, position.column)
}

/// One open collection while reading events.
enum Open {
    Sequence { next: usize },
    Mapping { key: Option<String> },
}

/// What the walk of a document's events meets.
enum Met<'e> {
    /// A mapping's key, with the path of its mapping.
    Key(&'e [Segment], &'e str),
    /// A value (a scalar, an alias, or the start of a collection) at its path.
    Value(&'e [Segment], bool),
}

/// Walks document `index` of `text`, telling `visit` each key and value
/// with its position, until `visit` says stop (returns `true`).
fn walk(text: &str, index: usize, mut visit: impl FnMut(Met<'_>, Position) -> bool) {
    let mut parser = Parser::new_from_str(text);
    let mut document = None::<usize>;
    let mut stack: Vec<Open> = Vec::new();
    let mut current: Vec<Segment> = Vec::new();
    while let Some(Ok((event, span))) = parser.next_event() {
        let at = Position::of(&span.start);
        if let Event::DocumentStart(_) = event {
            document = Some(document.map_or(0, |d| d + 1));
            continue;
        }
        if document != Some(index) {
            if document.is_some_and(|d| d > index) {
                return;
            }
            continue;
        }
        // A mapping waiting for its next key gets one, unless this is its end.
        let mapping_ends = matches!(event, Event::MappingEnd);
        if let Some(Open::Mapping { key: slot @ None }) = stack.last_mut().filter(|_| !mapping_ends)
        {
            let key = match &event {
                Event::Scalar(text, ..) => text.to_string(),
                _ => String::new(),
            };
            if visit(Met::Key(&current, &key), at) {
                return;
            }
            *slot = Some(key);
            continue;
        }
        match event {
            Event::SequenceEnd | Event::MappingEnd => {
                stack.pop();
                current.pop();
                value_done(&mut stack);
                continue;
            }
            Event::DocumentEnd | Event::StreamEnd | Event::StreamStart | Event::Nothing => continue,
            _ => {}
        }
        let segment = match stack.last() {
            Some(Open::Sequence { next }) => Some(Segment::Index(*next)),
            Some(Open::Mapping { key }) => key.clone().map(Segment::Key),
            None => None,
        };
        current.extend(segment);
        if visit(Met::Value(&current, matches!(event, Event::Alias(_))), at) {
            return;
        }
        match event {
            Event::SequenceStart(..) => stack.push(Open::Sequence { next: 0 }),
            Event::MappingStart(..) => stack.push(Open::Mapping { key: None }),
            _ => {
                current.pop();
                value_done(&mut stack);
            }
        }
    }
}

/// The position of `target` at `path` in document `index`; when the text
/// has no value there (a missing member), that of the deepest value on the
/// way to it.
pub(crate) fn locate(
    text: &str,
    index: usize,
    path: &JsonPath,
    target: Target,
) -> Option<Position> {
    let wanted = path.segments();
    let mut repeats = 0;
    let mut found = None;
    let mut deepest: Option<(usize, Position)> = None;
    walk(text, index, |met, at| match met {
        Met::Key(map, key) => {
            let repeat = target == Target::RepeatedKey
                && wanted.len() == map.len() + 1
                && wanted[..map.len()] == *map
                && matches!(wanted.last(), Some(Segment::Key(k)) if k == key);
            if repeat {
                repeats += 1;
                if repeats == 2 {
                    found = Some(at);
                }
            }
            found.is_some()
        }
        Met::Value(current, is_alias) => {
            let here = *current == *wanted;
            if target == Target::Value && (here || (is_alias && wanted.starts_with(current))) {
                found = Some(at);
                return true;
            }
            if wanted.starts_with(current) && deepest.is_none_or(|(depth, _)| current.len() > depth)
            {
                deepest = Some((current.len(), at));
            }
            false
        }
    });
    found.or(deepest.map(|(_, position)| position))
}

/// Where each item of the sequence at `path` in document `index` starts, in
/// one reading of the text (a `kind: List`'s items).
pub(crate) fn item_positions(text: &str, index: usize, path: &JsonPath) -> Vec<Position> {
    let prefix = path.segments();
    let mut positions = Vec::new();
    walk(text, index, |met, at| {
        if let Met::Value(current, _) = met {
            if current.len() == prefix.len() + 1
                && current.starts_with(prefix)
                && matches!(current.last(), Some(Segment::Index(_)))
            {
                positions.push(at);
            }
        }
        false
    });
    positions
}

/// After a value: the sequence moves to its next item, the mapping to its next key.
fn value_done(stack: &mut [Open]) {
    match stack.last_mut() {
        Some(Open::Sequence { next }) => *next += 1,
        Some(Open::Mapping { key }) => *key = None,
        None => {}
    }
}
