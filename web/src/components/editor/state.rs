//! What the editor keeps between a render and the events that follow it, and
//! how those events ask the next render to place the window ([`Action`]).
//!
//! Not a yew `use_reducer`: a handler must see what the event before it
//! changed at once, before the render that change asks for, and most changes
//! (a `beforeinput`, a scroll inside the window) must not render at all. So the
//! state lives in `use_mut_ref` cells ([`EditorState`]), and the next render reads it.

use std::cell::{Ref, RefCell, RefMut};
use std::rc::Rc;

use yew::functional::UseForceUpdateHandle;
use yew::AttrValue;

use crate::editor_window::{
    window_for, LineIndex, TextWindow, LINES_ABOVE, LINES_BELOW, WHOLE_BYTES, WINDOW_BYTES,
};
use crate::state::same_text;

/// What the editor's handlers share: the last render, and how to place the next.
///
/// Every borrow of the two cells, and every slice of the document's text, is
/// made in this file: each place that can panic costs the bundle a location,
/// and each file with such places its name.
#[derive(Clone)]
pub(super) struct EditorState {
    rendered: Rc<RefCell<Rendered>>,
    placement: Rc<RefCell<Placement>>,
    rerender: UseForceUpdateHandle,
}

impl EditorState {
    pub fn new(
        rendered: Rc<RefCell<Rendered>>,
        placement: Rc<RefCell<Placement>>,
        rerender: UseForceUpdateHandle,
    ) -> Self {
        Self {
            rendered,
            placement,
            rerender,
        }
    }

    pub fn rendered(&self) -> Ref<'_, Rendered> {
        self.rendered.borrow()
    }

    pub fn placement(&self) -> Ref<'_, Placement> {
        self.placement.borrow()
    }

    pub fn placement_mut(&self) -> RefMut<'_, Placement> {
        self.placement.borrow_mut()
    }

    pub fn apply(&self, action: Action) {
        self.placement_mut().apply(action);
    }

    pub fn rerender(&self) {
        self.rerender.force_update();
    }

    /// Places the window around `caret` on the next render, puts `selection`
    /// (document byte offsets) back once it is there, and renders.
    pub fn move_window(&self, caret: usize, selection: (usize, usize)) {
        self.apply(Action::MoveTo { caret, selection });
        self.rerender();
    }

    /// Places this render's window on `text`, and keeps it for the handlers.
    pub fn place(&self, text: &AttrValue, index: &Rc<LineIndex>) -> TextWindow {
        let window = place_window(text, index, &self.rendered(), &mut self.placement_mut());
        *self.rendered.borrow_mut() = Rendered {
            text: text.clone(),
            index: Rc::clone(index),
            window,
        };
        window
    }
}

/// The part of `text` that `window` shows.
pub(super) fn window_text(text: &str, window: TextWindow) -> &str {
    &text[window.start..window.end]
}

/// What the editor last rendered, for its event handlers.
#[derive(Default)]
pub(super) struct Rendered {
    pub text: AttrValue,
    pub index: Rc<LineIndex>,
    pub window: TextWindow,
}

impl Rendered {
    pub fn is_whole(&self) -> bool {
        self.window.is_whole(self.text.len())
    }

    /// What the textarea was given.
    pub fn shown(&self) -> &str {
        window_text(&self.text, self.window)
    }

    /// The text with bytes `from..to` replaced by `inserted`.
    pub fn replaced(&self, (from, to): (usize, usize), inserted: &str) -> String {
        let mut next = String::with_capacity(self.text.len() - (to - from) + inserted.len());
        next.push_str(&self.text[..from]);
        next.push_str(inserted);
        next.push_str(&self.text[to..]);
        next
    }

    /// The byte offset of a line and column (both counted from 1, the column
    /// in characters), clamped to the line and the text.
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let line = line.saturating_sub(1).min(self.index.line_count() - 1);
        let (start, end) = (self.index.start_of(line), self.index.end_of(line));
        self.text[start..end]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(end, |(at, _)| start + at)
    }
}

/// How the window should be placed on the next render.
pub(super) struct Placement {
    /// The first line on screen.
    pub anchor_line: usize,
    /// Lines that fit on screen, and one line's height in CSS pixels (measured).
    pub screen_lines: usize,
    pub line_px: f64,
    /// Keep the window on this byte range of the next text (after an edit inside it).
    keep: Option<(usize, usize)>,
    /// Bring this byte offset (the caret after an edit) on screen.
    reveal: Option<usize>,
    /// Scroll so that this line is the first on screen (set when revealing).
    pub scroll_to: Option<usize>,
    /// The selection to put back (document byte offsets) once the window moved.
    pub selection: Option<(usize, usize)>,
    /// Place the window again, even though the text did not change (scrolling).
    moved: bool,
    /// Whether the coming input replaces a whole-window selection (Select All).
    replaces_all: bool,
}

impl Default for Placement {
    /// Until the first measure: a 24-line screen of 19.5 px lines.
    fn default() -> Self {
        Self {
            anchor_line: 0,
            screen_lines: 24,
            line_px: 19.5,
            keep: None,
            reveal: None,
            scroll_to: None,
            selection: None,
            moved: false,
            replaces_all: false,
        }
    }
}

/// What an event asks of the next render.
pub(super) enum Action {
    /// A `beforeinput` (or a cut): whether the coming input replaces a
    /// whole-window selection (Select All), so the whole document.
    InputReplacesAll(bool),
    /// The window's text was edited: keep the window on the edited byte range
    /// (`None`: the edit replaced the whole document), the caret at `caret`.
    Edited {
        keep: Option<(usize, usize)>,
        caret: usize,
    },
    /// Text went into the document past the textarea (a large paste), up to `caret`.
    Pasted { caret: usize },
    /// Place the window around `caret`, and select `selection` (document byte
    /// offsets) once it is there.
    MoveTo {
        caret: usize,
        selection: (usize, usize),
    },
    /// The screen scrolled; `first_line` is now the first line on it.
    Scrolled { first_line: usize },
    /// The screen scrolled near the window's edge: place the window again and
    /// carry the textarea's selection over.
    ScrolledPastEdge { selection: Option<(usize, usize)> },
}

impl Placement {
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::InputReplacesAll(replaces_all) => self.replaces_all = replaces_all,
            Action::Edited { keep, caret } => {
                self.keep = keep;
                self.put_caret(caret);
            }
            Action::Pasted { caret } => self.put_caret(caret),
            Action::MoveTo { caret, selection } => {
                self.moved = true;
                self.reveal = Some(caret);
                self.selection = Some(selection);
            }
            Action::Scrolled { first_line } => self.anchor_line = first_line,
            Action::ScrolledPastEdge { selection } => {
                self.moved = true;
                self.selection = selection;
            }
        }
    }

    fn put_caret(&mut self, caret: usize) {
        self.reveal = Some(caret);
        self.selection = Some((caret, caret));
    }

    /// Whether the input now arriving replaces the whole document (and forgets it for the next).
    pub fn take_replaces_all(&mut self) -> bool {
        std::mem::take(&mut self.replaces_all)
    }

    /// A move of the window is under way: yew renders, and runs effects, in
    /// later tasks (it yields to the browser every 16 ms), so events can come in
    /// between, and must not read the caret from the half-moved window.
    pub fn settling(&self) -> bool {
        self.moved || self.selection.is_some() || self.scroll_to.is_some()
    }
}

/// The window for this render: kept where an edit happened, or placed around
/// the screen (or the caret to reveal) when the text or the scroll position moved.
fn place_window(
    text: &AttrValue,
    index: &LineIndex,
    rendered: &Rendered,
    placement: &mut Placement,
) -> TextWindow {
    let moved = std::mem::take(&mut placement.moved);
    let keep = placement.keep.take();
    let reveal = placement.reveal.take();
    if text.len() <= WHOLE_BYTES {
        return TextWindow::whole(index);
    }
    if !moved && same_text(&rendered.text, text) && rendered.window.end <= text.len() {
        return rendered.window;
    }
    if let Some((start, end)) = keep.filter(|(start, end)| {
        *end <= text.len()
            && text.is_char_boundary(*start)
            && text.is_char_boundary(*end)
            && end - start <= 2 * WINDOW_BYTES
    }) {
        let (first_line, last_line) = (index.line_of(start), index.line_of(end));
        if last_line - first_line <= 2 * (LINES_ABOVE + LINES_BELOW) {
            return TextWindow {
                start,
                end,
                first_line,
                last_line,
                total_lines: index.line_count(),
            };
        }
    }
    if let Some(line) = reveal.map(|caret| index.line_of(caret.min(text.len()))) {
        let on_screen = placement.anchor_line..placement.anchor_line + placement.screen_lines;
        if !on_screen.contains(&line) {
            placement.anchor_line = line.saturating_sub(placement.screen_lines / 2);
            placement.scroll_to = Some(placement.anchor_line);
        }
    }
    window_for(text, index, placement.anchor_line, reveal)
}
