//! JSON paths as shown to people: `$`, `$.web.replicas`, `$["my app"][0]`.

use std::fmt;

/// One step into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

/// A path from the document root. Displays in JSONPath's dot/bracket notation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JsonPath {
    segments: Vec<Segment>,
}

impl JsonPath {
    pub fn root() -> Self {
        Self::default()
    }

    pub fn from_segments(segments: Vec<Segment>) -> Self {
        Self { segments }
    }

    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// This path extended by one member name.
    pub fn key(&self, key: &str) -> Self {
        let mut next = self.clone();
        next.segments.push(Segment::Key(key.to_owned()));
        next
    }

    /// This path extended by one array index.
    pub fn index(&self, index: usize) -> Self {
        let mut next = self.clone();
        next.segments.push(Segment::Index(index));
        next
    }

    /// `self` followed by `rest` (a path relative to the value at `self`).
    pub fn join(&self, rest: &JsonPath) -> Self {
        let mut next = self.clone();
        next.segments.extend(rest.segments.iter().cloned());
        next
    }

    /// The member names of a path that names object members only, or `None`
    /// if it has an array index.
    pub fn keys(&self) -> Option<Vec<String>> {
        self.segments
            .iter()
            .map(|segment| match segment {
                Segment::Key(key) => Some(key.clone()),
                Segment::Index(_) => None,
            })
            .collect()
    }

    /// A path of member names.
    pub fn of_keys<S: AsRef<str>>(keys: &[S]) -> Self {
        Self::from_segments(
            keys.iter()
                .map(|key| Segment::Key(key.as_ref().to_owned()))
                .collect(),
        )
    }

    /// Reads a path as [`JsonPath`]'s `Display` writes it: `$.web.replicas`,
    /// `$.metadata.labels["app.kubernetes.io/name"]`, `$.items[0]`.
    ///
    /// People type paths too, so it also takes what they tend to write: the
    /// leading `$` may be left out (`spec.replicas`), and a dotted member may
    /// be any text up to the next `.` or `[` (`$.my-app`); a member with a dot
    /// in it needs the bracketed, quoted form.
    pub fn parse(text: &str) -> Result<Self, PathError> {
        PathReader::new(text).read()
    }
}

/// Why a path could not be read: `column` is the 1-based character where it went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub column: usize,
    pub message: String,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for PathError {}

/// The byte length of the JSON string literal `text` starts with (quotes included).
fn string_literal_len(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (at, byte) in text.bytes().enumerate().skip(1) {
        match byte {
            b'"' if !escaped => return Some(at + 1),
            b'\\' => escaped = !escaped,
            _ => escaped = false,
        }
    }
    None
}

/// The reader behind [`JsonPath::parse`]: one pass over the characters.
struct PathReader<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    at: usize,
    segments: Vec<Segment>,
}

impl<'a> PathReader<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            at: 0,
            segments: Vec::new(),
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T, PathError> {
        Err(PathError {
            column: self.text[..self.at].chars().count() + 1,
            message: message.into(),
        })
    }

    fn read(mut self) -> Result<JsonPath, PathError> {
        if let Some(after) = self.rest().strip_prefix('$') {
            self.at = self.text.len() - after.len();
        } else if !self.rest().is_empty() && !self.rest().starts_with('[') {
            // `spec.replicas`: a first member without `$.`.
            self.dotted_member()?;
        }
        while let Some(next) = self.rest().chars().next() {
            self.at += next.len_utf8();
            match next {
                '.' => self.dotted_member()?,
                '[' => self.bracket()?,
                _ => {
                    self.at -= next.len_utf8();
                    return self.fail(format!("expected `.` or `[`, found `{next}`"));
                }
            }
        }
        Ok(JsonPath::from_segments(self.segments))
    }

    /// A member name after `.`: any text up to the next `.` or `[`.
    fn dotted_member(&mut self) -> Result<(), PathError> {
        let rest = self.rest();
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        if end == 0 {
            return self.fail("expected a member name");
        }
        self.segments.push(Segment::Key(rest[..end].to_owned()));
        self.at += end;
        Ok(())
    }

    /// `["member"]` or `[index]`, after the `[`.
    fn bracket(&mut self) -> Result<(), PathError> {
        let rest = self.rest();
        if rest.starts_with('"') {
            // A JSON string literal, as `Display` writes it: it ends at the first unescaped quote.
            let literal = string_literal_len(rest).and_then(|len| {
                serde_json::from_str::<String>(&rest[..len])
                    .ok()
                    .map(|key| (len, key))
            });
            let Some((len, key)) = literal else {
                return self.fail("expected a member name in double quotes");
            };
            self.at += len;
            self.segments.push(Segment::Key(key));
        } else {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            match rest[..digits].parse() {
                Ok(index) => self.segments.push(Segment::Index(index)),
                Err(_) => return self.fail("expected an array index or a quoted member name"),
            }
            self.at += digits;
        }
        match self.rest().strip_prefix(']') {
            Some(_) => {
                self.at += 1;
                Ok(())
            }
            None => self.fail("expected `]`"),
        }
    }
}

/// Keys that read unambiguously after a dot; anything else is bracketed and quoted.
fn is_plain_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for segment in &self.segments {
            match segment {
                Segment::Key(key) if is_plain_identifier(key) => write!(f, ".{key}")?,
                Segment::Key(key) => {
                    // A JSON string literal is an unambiguous, escaped rendering of any key.
                    let quoted = serde_json::to_string(key).map_err(|_| fmt::Error)?;
                    write!(f, "[{quoted}]")?;
                }
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// Serializes a value through its `Display` text (a path as `$.web.replicas`).
pub(crate) fn serialize_display<T: fmt::Display, S: serde::Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// A path as [`JsonPath::parse`] reads it, from its `Display` text.
pub(crate) fn deserialize_display<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<JsonPath, D::Error> {
    let text = <String as serde::Deserialize>::deserialize(deserializer)?;
    JsonPath::parse(&text).map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_dots_brackets_and_escapes() {
        let path = JsonPath::root()
            .key("web")
            .key("my app")
            .index(2)
            .key("a\"b");
        assert_eq!(path.to_string(), r#"$.web["my app"][2]["a\"b"]"#);
        assert_eq!(JsonPath::root().to_string(), "$");
        assert_eq!(JsonPath::root().key("9lives").to_string(), r#"$["9lives"]"#);
    }

    #[test]
    fn parse_reads_what_display_writes() {
        let path = JsonPath::root()
            .key("metadata")
            .key("labels")
            .key("app.kubernetes.io/name")
            .index(3)
            .key("a\"b]")
            .key("")
            .key("é");
        let text = path.to_string();
        assert_eq!(JsonPath::parse(&text), Ok(path));
        assert_eq!(JsonPath::parse("$"), Ok(JsonPath::root()));
        assert_eq!(JsonPath::parse(""), Ok(JsonPath::root()));
    }

    #[test]
    fn parse_takes_what_people_type() {
        let replicas = JsonPath::of_keys(&["spec", "replicas"]);
        assert_eq!(JsonPath::parse("spec.replicas"), Ok(replicas.clone()));
        assert_eq!(JsonPath::parse("$.spec.replicas"), Ok(replicas));
        assert_eq!(
            JsonPath::parse("my-app.ports[0]"),
            Ok(JsonPath::root().key("my-app").key("ports").index(0))
        );
        assert_eq!(
            JsonPath::parse(r#"labels["app.kubernetes.io/name"]"#),
            Ok(JsonPath::of_keys(&["labels", "app.kubernetes.io/name"]))
        );
    }

    #[test]
    fn parse_errors_name_the_column() {
        let error = |text| JsonPath::parse(text).expect_err(text);
        assert_eq!(error("a..b").column, 3);
        assert_eq!(error("a..b").message, "expected a member name");
        assert_eq!(error("$x").message, "expected `.` or `[`, found `x`");
        assert_eq!(
            error(r#"a["b"#).message,
            "expected a member name in double quotes"
        );
        assert_eq!(
            error("a[x]").message,
            "expected an array index or a quoted member name"
        );
        assert_eq!(error("a[1").message, "expected `]`");
        assert_eq!(error("é.").column, 3);
    }

    #[test]
    fn keys_are_only_for_member_paths() {
        assert_eq!(
            JsonPath::parse("a.b").ok().and_then(|p| p.keys()),
            Some(vec!["a".to_owned(), "b".to_owned()])
        );
        assert_eq!(JsonPath::parse("a[0]").ok().and_then(|p| p.keys()), None);
        let base = JsonPath::root().key("sim");
        assert_eq!(
            base.join(&JsonPath::root().key("crash")).to_string(),
            "$.sim.crash"
        );
    }
}
