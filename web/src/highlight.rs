//! Splits one line of JSON text into tokens for syntax colouring.
//!
//! It is deliberately forgiving: it colours half-typed and invalid text too,
//! and never fails. Validation is the parser's job, not this module's.

/// What a run of characters is, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A string followed by `:`.
    Key,
    String,
    Number,
    /// `true`, `false`, `null`.
    Literal,
    /// `{ } [ ] , :`
    Punctuation,
    Whitespace,
    /// Anything else (typos, comments, stray words).
    Other,
}

impl TokenKind {
    /// CSS class for the token; whitespace needs none.
    pub fn class(self) -> Option<&'static str> {
        match self {
            TokenKind::Key => Some("tok-key"),
            TokenKind::String => Some("tok-string"),
            TokenKind::Number => Some("tok-number"),
            TokenKind::Literal => Some("tok-literal"),
            TokenKind::Punctuation => Some("tok-punct"),
            TokenKind::Whitespace => None,
            TokenKind::Other => Some("tok-other"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokenKind,
    pub text: &'a str,
}

/// Tokens of one line; concatenating their texts gives the line back exactly.
pub fn tokenize_line(line: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let kind = match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = next_char_boundary(line, i + 1);
                let rest = line[i..].trim_start();
                if rest.starts_with(':') {
                    TokenKind::Key
                } else {
                    TokenKind::String
                }
            }
            b'{' | b'}' | b'[' | b']' | b',' | b':' => {
                i += 1;
                TokenKind::Punctuation
            }
            b' ' | b'\t' | b'\r' => {
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\r') {
                    i += 1;
                }
                TokenKind::Whitespace
            }
            b'-' | b'0'..=b'9' => {
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                TokenKind::Number
            }
            _ => {
                while i < bytes.len()
                    && !matches!(
                        bytes[i],
                        b'"' | b'{' | b'}' | b'[' | b']' | b',' | b':' | b' ' | b'\t'
                    )
                {
                    i += 1;
                }
                match &line[start..i] {
                    "true" | "false" | "null" => TokenKind::Literal,
                    _ => TokenKind::Other,
                }
            }
        };
        i = next_char_boundary(line, i);
        tokens.push(Token {
            kind,
            text: &line[start..i],
        });
    }
    tokens
}

/// `i` clamped to the line, moved forward to the next UTF-8 boundary. An escape
/// (`\\` plus one byte) can stop inside a multi-byte character or past the end.
fn next_char_boundary(line: &str, i: usize) -> usize {
    let mut i = i.min(line.len());
    while !line.is_char_boundary(i) {
        i += 1;
    }
    i
}
