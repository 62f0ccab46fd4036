//! Finding the fenced code blocks of a chapter, line by line.
//!
//! Only top-level fences are read: an opening fence of three or more
//! backticks or tildes, indented at most three spaces, closed by a fence of
//! the same character at least as long. Every fence is tracked, so a
//! `reconcile` fence shown inside a longer fence stays text.

/// One fenced code block of a chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence<'a> {
    /// The info string after the opening fence, trimmed.
    pub info: &'a str,
    /// The lines between the fences, each with its line ending.
    pub body: String,
    /// The 1-based line of the opening fence.
    pub line: usize,
    /// The byte range of the whole block, closing fence and line ending included.
    pub span: std::ops::Range<usize>,
}

/// An opening or closing fence: its character, its length and what follows it.
struct Marker<'a> {
    char: char,
    len: usize,
    rest: &'a str,
}

/// The fence marker a line starts with, if any.
fn marker(line: &str) -> Option<Marker<'_>> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let char = trimmed.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let len = trimmed.chars().take_while(|c| *c == char).count();
    let rest = &trimmed[len..];
    // A backtick fence's info string may hold no backtick (CommonMark).
    (len >= 3 && !(char == '`' && rest.contains('`'))).then_some(Marker { char, len, rest })
}

/// Every top-level fenced code block of `markdown`, in order. A fence left
/// open runs to the end of the text, as in CommonMark.
pub fn fences(markdown: &str) -> Vec<Fence<'_>> {
    let mut found = Vec::new();
    let mut open: Option<(Marker<'_>, usize, usize, String)> = None;
    let mut offset = 0;
    for (index, line) in markdown.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        match open.take() {
            None => {
                if let Some(marker) = marker(content) {
                    open = Some((marker, index + 1, start, String::new()));
                }
            }
            Some((opening, line_number, begin, mut body)) => {
                let closes = marker(content).is_some_and(|m| {
                    m.char == opening.char && m.len >= opening.len && m.rest.trim().is_empty()
                });
                if closes {
                    found.push(Fence {
                        info: opening.rest.trim(),
                        body,
                        line: line_number,
                        span: begin..offset,
                    });
                } else {
                    body.push_str(line);
                    open = Some((opening, line_number, begin, body));
                }
            }
        }
    }
    if let Some((opening, line, begin, body)) = open {
        found.push(Fence {
            info: opening.rest.trim(),
            body,
            line,
            span: begin..markdown.len(),
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fences_with_their_info_line_and_span() {
        let text = "# Title\n\n```reconcile preset=x\n{}\n```\nafter\n~~~~\nplain\n~~~~\n";
        let found = fences(text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].info, "reconcile preset=x");
        assert_eq!(found[0].body, "{}\n");
        assert_eq!(found[0].line, 3);
        assert_eq!(
            &text[found[0].span.clone()],
            "```reconcile preset=x\n{}\n```\n"
        );
        assert_eq!((found[1].info, found[1].line), ("", 7));
    }

    #[test]
    fn a_fence_inside_a_longer_fence_is_text() {
        let text = "````markdown\n```reconcile\n{}\n```\n````\n";
        let found = fences(text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].info, "markdown");
        assert_eq!(found[0].body, "```reconcile\n{}\n```\n");
    }

    #[test]
    fn indented_code_and_inline_backticks_open_no_fence() {
        assert!(fences("    ```reconcile\n    {}\n    ```\n").is_empty());
        assert!(fences("``` a ` b\n").is_empty());
        assert!(fences("``not a fence``\n").is_empty());
    }

    #[test]
    fn an_unclosed_fence_runs_to_the_end() {
        let found = fences("```reconcile\n{\"desired\": {}}\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].body, "{\"desired\": {}}\n");
    }
}
