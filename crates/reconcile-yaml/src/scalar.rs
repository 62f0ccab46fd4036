//! What a YAML scalar means: the YAML 1.2 core schema, and the tags the
//! playground accepts.
//!
//! A plain (unquoted) scalar is resolved by the core schema's patterns
//! (YAML 1.2.2, section 10.3.2); every other scalar is a string:
//!
//! | plain scalar | value |
//! |---|---|
//! | `~`, `null`, `Null`, `NULL`, nothing | `null` |
//! | `true`/`True`/`TRUE`, `false`/`False`/`FALSE` | a boolean |
//! | `yes`, `no`, `on`, `off`, `y`, `n` (YAML 1.1 booleans) | **strings** |
//! | `12`, `-3`, `+7`, `017` (decimal: 17, not YAML 1.1's octal 15) | an integer |
//! | `0o17` (octal: 15), `0x1F` (hexadecimal: 31) | an integer |
//! | `1.5`, `.5`, `1.`, `6e3`, `-2.5E-3` | a number |
//! | `.inf`, `-.inf`, `.nan` (any case the schema allows) | an **error**: JSON has no such numbers |
//! | `1_000`, `0b101`, `2001-12-14`, anything else | a string |
//!
//! Integers wider than 64 bits are kept as the nearest `f64`, and numbers
//! beyond the `f64` range are errors, as in the JSON reader.
//!
//! Tags: `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`, `!!seq` and `!!map`
//! (the core schema's) and the non-specific `!` are read as the schema says;
//! a scalar tagged `!!int` that is not an integer is an error. Every other
//! tag, `!!binary`, `!!timestamp`, `!!set` or a custom `!Thing`, is an error
//! (`ErrorKind::Unsupported`): its meaning is not a JSON value.

use reconcile_core::{ErrorKind, Json, Number};
use saphyr_parser::{ScalarStyle, Tag};

/// Why a scalar or a tag cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScalarError {
    pub kind: ErrorKind,
    pub message: String,
}

impl ScalarError {
    fn unsupported(message: String) -> Self {
        Self {
            kind: ErrorKind::Unsupported,
            message,
        }
    }
}

/// The handle saphyr-parser resolves `!!` to.
const CORE_HANDLE: &str = "tag:yaml.org,2002:";

/// A tag as its author wrote it: `!!binary`, `!Thing`, `!<tag:x>`.
pub(crate) fn tag_text(tag: &Tag) -> String {
    match tag.handle.as_str() {
        CORE_HANDLE => format!("!!{}", tag.suffix),
        "!" => format!("!{}", tag.suffix),
        // The non-specific tag `!` arrives as an empty handle and the suffix "!".
        "" => tag.suffix.clone(),
        handle => format!("{handle}{}", tag.suffix),
    }
}

/// What a tag asks for, when the playground can honour it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TagMeaning {
    /// The non-specific `!`: not resolved, so a scalar is a string.
    NonSpecific,
    Str,
    Int,
    Float,
    Bool,
    Null,
    Seq,
    Map,
}

/// The meaning of `tag`, or the error that names it.
pub(crate) fn tag_meaning(tag: &Tag) -> Result<TagMeaning, ScalarError> {
    let meaning = match (tag.handle.as_str(), tag.suffix.as_str()) {
        ("", "!") => Some(TagMeaning::NonSpecific),
        (CORE_HANDLE, "str") => Some(TagMeaning::Str),
        (CORE_HANDLE, "int") => Some(TagMeaning::Int),
        (CORE_HANDLE, "float") => Some(TagMeaning::Float),
        (CORE_HANDLE, "bool") => Some(TagMeaning::Bool),
        (CORE_HANDLE, "null") => Some(TagMeaning::Null),
        (CORE_HANDLE, "seq") => Some(TagMeaning::Seq),
        (CORE_HANDLE, "map") => Some(TagMeaning::Map),
        _ => None,
    };
    meaning.ok_or_else(|| {
        ScalarError::unsupported(format!(
            "the tag {} is not supported; expected an untagged value (a string, number, boolean, null, sequence or mapping), since only those have a JSON value",
            tag_text(tag)
        ))
    })
}

/// The JSON value of a scalar, by its style and tag.
pub(crate) fn resolve(
    text: &str,
    style: ScalarStyle,
    tag: Option<&Tag>,
) -> Result<Json, ScalarError> {
    let meaning = tag.map(tag_meaning).transpose()?;
    match meaning {
        None if style == ScalarStyle::Plain => resolve_plain(text),
        None | Some(TagMeaning::NonSpecific | TagMeaning::Str) => Ok(Json::string(text)),
        Some(TagMeaning::Seq | TagMeaning::Map) => Err(ScalarError {
            kind: ErrorKind::Shape,
            message: format!(
                "the tag {} is for a collection; expected a sequence or mapping, found a scalar",
                tag.map(tag_text).unwrap_or_default()
            ),
        }),
        Some(wanted) => {
            let value = resolve_plain(text)?;
            let fits = match (&value, wanted) {
                (Json::Null, TagMeaning::Null) | (Json::Bool(_), TagMeaning::Bool) => true,
                (Json::Number(n), TagMeaning::Int) => !matches!(n, Number::Float(_)),
                (Json::Number(_), TagMeaning::Float) => true,
                _ => false,
            };
            if fits {
                Ok(value)
            } else {
                Err(ScalarError {
                    kind: ErrorKind::Shape,
                    message: format!(
                        "{} is not {}; the tag {} asks for one",
                        reconcile_core::json::quoted(text),
                        meaning_name(wanted),
                        tag.map(tag_text).unwrap_or_default()
                    ),
                })
            }
        }
    }
}

fn meaning_name(meaning: TagMeaning) -> &'static str {
    match meaning {
        TagMeaning::Int => "an integer",
        TagMeaning::Float => "a number",
        TagMeaning::Bool => "a boolean",
        TagMeaning::Null => "null",
        _ => "a string",
    }
}

/// The core schema's resolution of a plain scalar.
pub(crate) fn resolve_plain(text: &str) -> Result<Json, ScalarError> {
    Ok(match text {
        "" | "~" | "null" | "Null" | "NULL" => Json::Null,
        "true" | "True" | "TRUE" => Json::Bool(true),
        "false" | "False" | "FALSE" => Json::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => {
            return Err(ScalarError::unsupported(format!(
                "{text} is a YAML number with no JSON value (JSON has no infinity or NaN); expected a finite number, or quote it for a string"
            )))
        }
        _ => match number(text) {
            Some(number) => Json::Number(number?),
            None => Json::string(text),
        },
    })
}

/// The number a plain scalar is, if it matches one of the core schema's
/// number patterns; an error if it does but has no `f64` value.
fn number(text: &str) -> Option<Result<Number, ScalarError>> {
    if let Some(digits) = text.strip_prefix("0o") {
        return radix_integer(text, digits, 8);
    }
    if let Some(digits) = text.strip_prefix("0x") {
        return radix_integer(text, digits, 16);
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return Some(decimal_integer(text));
    }
    is_core_float(unsigned).then(|| finite(text))
}

/// `[-+]?[0-9]+`: the exact integer when it fits 64 bits, else the nearest `f64`.
fn decimal_integer(text: &str) -> Result<Number, ScalarError> {
    let plain = text.strip_prefix('+').unwrap_or(text);
    if let Ok(u) = plain.parse::<u64>() {
        return Ok(Number::Unsigned(u));
    }
    if let Ok(i) = plain.parse::<i64>() {
        return Ok(Number::Signed(i));
    }
    finite(text)
}

/// `0o[0-7]+` and `0x[0-9a-fA-F]+`.
fn radix_integer(text: &str, digits: &str, radix: u32) -> Option<Result<Number, ScalarError>> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    Some(
        u64::from_str_radix(digits, radix)
            .map(Number::Unsigned)
            .map_err(|_| {
                ScalarError::unsupported(format!(
            "{text} does not fit 64 bits; expected an integer below 2^64, or quote it for a string"
        ))
            }),
    )
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the sign already taken off.
fn is_core_float(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match fraction {
        // `.5` needs fraction digits; `1.` needs whole digits.
        Some(fraction) => {
            digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty())
        }
        None => !whole.is_empty() && digits(whole),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

/// A number's `f64` value, which must be finite (as in the JSON reader).
fn finite(text: &str) -> Result<Number, ScalarError> {
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(Number::Float(value)),
        _ => Err(ScalarError {
            kind: ErrorKind::Syntax,
            message: format!("number out of range: {text}; numbers here must fit a 64-bit float"),
        }),
    }
}
