//! Presenter mode (`?present`): one pane at a time, in large type, for a
//! projector. ArrowLeft and ArrowRight move between the panes; keys the
//! frame does not use go to the course page (a slide deck), see
//! docs/embedding.md. The keys are read in `hooks/use_presenter.rs`.

use crate::embed::{EmbedOptions, Pane};

/// A pane presenter mode shows on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Lesson,
    Editors,
    Plan,
    Simulation,
}

impl Shown {
    /// The name main.css reads in the page's `data-pane`.
    pub fn name(self) -> &'static str {
        match self {
            Shown::Lesson => "lesson",
            Shown::Editors => "editors",
            Shown::Plan => "plan",
            Shown::Simulation => "simulation",
        }
    }

    /// What the presenter's bar calls it.
    pub fn label(self) -> &'static str {
        match self {
            Shown::Lesson => "Lesson",
            Shown::Editors => "Editors",
            Shown::Plan => "Plan",
            Shown::Simulation => "Simulation",
        }
    }
}

/// The panes to present, in page order: the lesson while one is open, then
/// those `panes=` shows.
pub fn presented(options: &EmbedOptions, lesson_open: bool) -> Vec<Shown> {
    let mut shown = Vec::with_capacity(4);
    if lesson_open {
        shown.push(Shown::Lesson);
    }
    if options.shows(Pane::Editors) {
        shown.push(Shown::Editors);
    }
    if options.shows(Pane::Plan) {
        shown.push(Shown::Plan);
    }
    if options.shows_simulation() {
        shown.push(Shown::Simulation);
    }
    shown
}

/// What holds the keyboard focus, as far as keys go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// A text field, a select or editable content: it keeps every key.
    Editing,
    /// A button, link or summary: Space and Enter press it.
    Control,
    /// Anything else (the page itself).
    Other,
}

/// What a key does in presenter mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyUse {
    /// Shows the pane at this index.
    Move(usize),
    /// Sent to the course page: the frame does not use it.
    Forward,
    /// Left to the browser and the page.
    Keep,
}

/// What `key` (a `KeyboardEvent.key`) does with the pane `index` of `count`
/// shown. Arrows past the first or last pane, Space, PageUp, PageDown, N and
/// P go to the course page. Keys with Ctrl, Alt or Meta stay.
pub fn key_use(key: &str, modified: bool, focus: Focus, index: usize, count: usize) -> KeyUse {
    if modified || focus == Focus::Editing {
        return KeyUse::Keep;
    }
    match key {
        "ArrowRight" if index + 1 < count => KeyUse::Move(index + 1),
        "ArrowLeft" if index > 0 => KeyUse::Move(index - 1),
        "ArrowRight" | "ArrowLeft" | "PageDown" | "PageUp" | "n" | "N" | "p" | "P" => {
            KeyUse::Forward
        }
        " " if focus == Focus::Other => KeyUse::Forward,
        _ => KeyUse::Keep,
    }
}
