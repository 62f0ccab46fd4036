//! Core's JSON values as YAML text: for "Convert to YAML" and for exporting
//! a manifest stream that `kubectl apply -f` reads.
//!
//! Guarantees (a property test checks them): reading the text back with
//! [`crate::read_value`] gives the same value, with members in the same
//! order and every string exactly as it was; and YAML 1.1 readers such as
//! kubectl's read the same value too, because every string a 1.1 or 1.2
//! reader could take for something else (`yes`, `on`, `0777`, `1_000`,
//! `2001-12-14`, `~`) is quoted.
//!
//! Style: block mappings and sequences indented by two spaces (a sequence
//! inside a mapping too, as the Kubernetes documentation writes them); `{}`
//! and `[]` for empty ones; strings plain when that is safe, else
//! double-quoted with JSON's escapes plus `\u` escapes for the characters
//! YAML may not hold as they are. Saphyr's emitter was not used: it writes
//! strings such as `on` and `0777` unquoted, which YAML 1.1 readers take for
//! a boolean and a number.

use reconcile_core::{Json, Number};

/// One value as a YAML document (no `---`), ending with a newline.
pub fn to_yaml(value: &Json) -> String {
    let mut out = String::new();
    write_document(&mut out, value);
    out
}

/// Values as a YAML stream, each document after the first starting with
/// `---`: what `kubectl apply -f` takes.
pub fn to_yaml_stream<'a>(values: impl IntoIterator<Item = &'a Json>) -> String {
    let mut out = String::new();
    for (index, value) in values.into_iter().enumerate() {
        if index > 0 {
            out.push_str("---\n");
        }
        write_document(&mut out, value);
    }
    out
}

fn write_document(out: &mut String, value: &Json) {
    match value {
        Json::Object(members) if !members.is_empty() => write_members(out, members, 0, false),
        Json::Array(items) if !items.is_empty() => write_items(out, items, 0, false),
        scalar => {
            write_inline(out, scalar);
            out.push('\n');
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    out.extend(std::iter::repeat_n(' ', depth));
}

/// `key: value` lines at `depth`; the first continues the current line when
/// `inline_first` (after a sequence's `- `).
fn write_members(out: &mut String, members: &[(Box<str>, Json)], depth: usize, inline_first: bool) {
    for (index, (key, value)) in members.iter().enumerate() {
        if index > 0 || !inline_first {
            indent(out, depth);
        }
        if key.len() > IMPLICIT_KEY_LIMIT {
            // YAML allows an implicit key of at most 1024 characters; a longer
            // one is written as an explicit `? key` line.
            out.push_str("? ");
            write_double_quoted(out, key);
            out.push('\n');
            indent(out, depth);
        } else {
            write_string(out, key);
        }
        out.push(':');
        write_nested(out, value, depth);
    }
}

/// Keys longer than this (in bytes, so in characters too) get an explicit `? key` line.
const IMPLICIT_KEY_LIMIT: usize = 1000;

/// `- item` lines at `depth`; the first continues the current line when `inline_first`.
fn write_items(out: &mut String, items: &[Json], depth: usize, inline_first: bool) {
    for (index, item) in items.iter().enumerate() {
        if index > 0 || !inline_first {
            indent(out, depth);
        }
        out.push_str("- ");
        match item {
            Json::Object(members) if !members.is_empty() => {
                write_members(out, members, depth + 2, true)
            }
            Json::Array(inner) if !inner.is_empty() => write_items(out, inner, depth + 2, true),
            scalar => {
                write_inline(out, scalar);
                out.push('\n');
            }
        }
    }
}

/// A member's value after its `key:`: on the same line when it is a scalar
/// or empty, else on the next lines, two spaces deeper.
fn write_nested(out: &mut String, value: &Json, depth: usize) {
    match value {
        Json::Object(members) if !members.is_empty() => {
            out.push('\n');
            write_members(out, members, depth + 2, false);
        }
        Json::Array(items) if !items.is_empty() => {
            out.push('\n');
            write_items(out, items, depth + 2, false);
        }
        scalar => {
            out.push(' ');
            write_inline(out, scalar);
            out.push('\n');
        }
    }
}

/// A scalar, or an empty collection, on one line.
fn write_inline(out: &mut String, value: &Json) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // JSON's shortest round-trip form, which YAML's core schema reads as
        // the same number (`1e300`, `0.1`, `-5`, `1.0`).
        Json::Number(number) => out.push_str(&number_text(*number)),
        Json::String(text) => write_string(out, text),
        Json::Array(_) => out.push_str("[]"),
        Json::Object(_) => out.push_str("{}"),
    }
}

fn number_text(number: Number) -> String {
    Json::Number(number).to_compact_string()
}

/// A string, plain when every YAML reader reads it back as this string.
fn write_string(out: &mut String, text: &str) {
    if is_plain_safe(text) {
        out.push_str(text);
    } else {
        write_double_quoted(out, text);
    }
}

/// Plain only for text that no YAML 1.1 or 1.2 reader takes for anything
/// but this string: it starts with a letter (or `/`), holds only letters,
/// digits, spaces and `-_./:@=+`, has no `: ` or ` #`, does not end with a
/// space or `:`, and is not one of the words either version resolves.
fn is_plain_safe(text: &str) -> bool {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !(first.is_alphabetic() || first == '/') {
        return false;
    }
    let allowed = |c: char| c.is_alphanumeric() || " -_./:@=+".contains(c);
    text.chars().all(allowed)
        && !text.contains(": ")
        && !text.ends_with([' ', ':'])
        && !is_resolved_word(text)
}

/// Words YAML 1.2's core schema or YAML 1.1 reads as null, a boolean or a number.
fn is_resolved_word(text: &str) -> bool {
    const WORDS: [&str; 11] = [
        "null", "true", "false", "yes", "no", "on", "off", "y", "n", "nan", "inf",
    ];
    WORDS.iter().any(|word| text.eq_ignore_ascii_case(word))
}

/// `"..."` with JSON's escapes for quotes, backslashes and control
/// characters, and `\u` for characters YAML does not allow as they are
/// (DEL, C1 controls, U+FEFF, U+FFFE, U+FFFF) or that YAML 1.1 took for line
/// breaks (U+0085, U+2028, U+2029).
fn write_double_quoted(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn needs_escape(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00..=0x1F | 0x7F..=0x9F | 0x2028 | 0x2029 | 0xFEFF | 0xFFFE | 0xFFFF
    )
}
