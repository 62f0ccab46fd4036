//! Which part of a document the editor puts in the DOM.
//!
//! A browser lays out every character of a `<textarea>` on each change, so a
//! 2 MB document costs seconds per keystroke. Past [`WHOLE_BYTES`] the editor
//! holds only a window of lines around what is on screen (and around the caret),
//! with spacers standing in for the lines above and below; scrolling or moving
//! the caret near an edge moves the window. Edits are spliced back into the
//! whole document, so the document itself is never cut.
//!
//! Guarantees: a window starts and ends on `char` boundaries, and on line
//! boundaries unless a single line is longer than [`WINDOW_BYTES`]; splicing a
//! window's edited text back gives the whole edited document.
//! Caveats: a selection cannot reach past the window, except Select All (a
//! selection of the whole window), which stands for the whole document.

/// Documents up to this size are held whole: the textarea behaves natively.
pub const WHOLE_BYTES: usize = 64 * 1024;
/// Lines loaded above the anchor line (the first one on screen).
pub const LINES_ABOVE: usize = 80;
/// Lines loaded from the anchor line on.
pub const LINES_BELOW: usize = 160;
/// At most this much text is loaded, for documents with very long lines.
pub const WINDOW_BYTES: usize = 32 * 1024;
/// The window moves when the screen or the caret comes this close to its edge.
pub const EDGE_LINES: usize = 40;
/// Within a very long line, the window moves when the caret comes this close to its edge.
pub const EDGE_BYTES: usize = 4 * 1024;

/// Where each line starts, by byte offset.
#[derive(Debug, Clone, PartialEq)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl Default for LineIndex {
    fn default() -> Self {
        Self::new("")
    }
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Self {
            starts,
            len: text.len(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|start| *start <= offset) - 1
    }

    pub fn start_of(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.len)
    }

    /// The end of `line`, before its line break.
    pub fn end_of(&self, line: usize) -> usize {
        self.starts.get(line + 1).map_or(self.len, |next| next - 1)
    }
}

/// A byte range of the document, with the lines it spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextWindow {
    pub start: usize,
    pub end: usize,
    /// 0-based lines of `start` and `end`.
    pub first_line: usize,
    pub last_line: usize,
    pub total_lines: usize,
}

impl TextWindow {
    pub fn whole(index: &LineIndex) -> Self {
        Self {
            start: 0,
            end: index.len,
            first_line: 0,
            last_line: index.line_count() - 1,
            total_lines: index.line_count(),
        }
    }

    /// Lines of the document above the window, shown as space.
    pub fn lines_above(&self) -> usize {
        self.first_line
    }

    /// Lines of the document below the window, shown as space.
    pub fn lines_below(&self) -> usize {
        self.total_lines - 1 - self.last_line
    }

    pub fn is_whole(&self, text_len: usize) -> bool {
        self.start == 0 && self.end == text_len
    }

    pub fn contains_line(&self, line: usize) -> bool {
        (self.first_line..=self.last_line).contains(&line)
    }

    /// Whether lines `first..=last` (those on screen) are inside the window,
    /// with `EDGE_LINES` to spare where the document goes on.
    pub fn covers(&self, first: usize, last: usize) -> bool {
        let top_ok = self.first_line == 0 || first >= self.first_line + EDGE_LINES;
        let bottom_ok = self.lines_below() == 0 || last + EDGE_LINES <= self.last_line;
        top_ok && bottom_ok
    }

    /// The whole document after the window's text became `edited`.
    pub fn splice(&self, text: &str, edited: &str) -> String {
        let mut next = String::with_capacity(text.len() - (self.end - self.start) + edited.len());
        next.push_str(&text[..self.start]);
        next.push_str(edited);
        next.push_str(&text[self.end..]);
        next
    }
}

/// The window to show: lines around `anchor_line` (the first line on screen),
/// or around `caret` (a byte offset) when the caret is outside those lines.
pub fn window_for(
    text: &str,
    index: &LineIndex,
    anchor_line: usize,
    caret: Option<usize>,
) -> TextWindow {
    if text.len() <= WHOLE_BYTES {
        return TextWindow::whole(index);
    }
    let last = index.line_count() - 1;
    let anchor = anchor_line.min(last);
    let mut first_line = anchor.saturating_sub(LINES_ABOVE);
    let mut last_line = (anchor + LINES_BELOW).min(last);
    let caret = caret.map(|c| c.min(text.len()));
    if let Some(caret_line) = caret.map(|c| index.line_of(c)) {
        if !(first_line..=last_line).contains(&caret_line) {
            first_line = caret_line.saturating_sub(LINES_BELOW / 2);
            last_line = (caret_line + LINES_BELOW / 2).min(last);
        }
    }
    let (mut start, mut end) = (index.start_of(first_line), index.end_of(last_line));
    if end - start > WINDOW_BYTES {
        // Long lines: keep WINDOW_BYTES around the caret, or around the anchor line.
        let focus = caret
            .filter(|c| (start..=end).contains(c))
            .unwrap_or_else(|| index.start_of(anchor.clamp(first_line, last_line)));
        let from = focus.saturating_sub(WINDOW_BYTES / 2).max(start);
        let to = (from + WINDOW_BYTES).min(end);
        let from = to.saturating_sub(WINDOW_BYTES).max(start);
        // Prefer a line boundary when one is near.
        let line_start = index.start_of(index.line_of(from));
        start = floor_char_boundary(
            text,
            if from - line_start < 1024 {
                line_start
            } else {
                from
            },
        );
        end = ceil_char_boundary(text, to);
        let line_end = index.end_of(index.line_of(end));
        if line_end - end < 1024 && line_end - start <= WINDOW_BYTES + 1024 {
            end = line_end;
        }
    }
    TextWindow {
        start,
        end,
        first_line: index.line_of(start),
        last_line: index.line_of(end),
        total_lines: index.line_count(),
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Textarea offsets count UTF-16 units; Rust strings index bytes.
pub fn byte_index_of_utf16(text: &str, utf16_index: u32) -> usize {
    let mut units = 0u32;
    for (byte, ch) in text.char_indices() {
        if units >= utf16_index {
            return byte;
        }
        units += u32::try_from(ch.len_utf16()).unwrap_or(2);
    }
    text.len()
}

/// The UTF-16 offset of byte `byte` (clamped to `text`).
pub fn utf16_index_of_byte(text: &str, byte: usize) -> u32 {
    let byte = floor_char_boundary(text, byte.min(text.len()));
    u32::try_from(text[..byte].encode_utf16().count()).unwrap_or(u32::MAX)
}

pub fn utf16_len(text: &str) -> u32 {
    u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX)
}
