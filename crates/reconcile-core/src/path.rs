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
}
