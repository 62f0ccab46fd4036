//! Start at [`rewrite`]; `main.rs` speaks mdBook's preprocessor protocol.
//!
//! An mdBook preprocessor: each `reconcile` code fence of a chapter becomes a
//! `<reconcile-playground>` element, and the chapter loads the component's
//! module once, from the playground's own site.
//!
//! Two forms of fence:
//! - a scenario in its body (JSON or YAML), opened as a `#v2/…` state;
//! - attributes on its info line (`preset=…`, `lesson=… step=…`, `panes=…`,
//!   `readonly`, `present`), passed to the element as they are.
//!
//! Invariant: a bad fence fails the book's build, with the chapter's file,
//! the fence's line, and the reader's own located error. The fence is read
//! by the playground's readers and written by its share module: no second
//! parser, no second encoder.

mod attributes;
mod fence;
mod scenario;

use std::fmt;

pub use attributes::Attributes;
pub use scenario::ScenarioError;

/// The info string's first word that marks a playground fence.
pub const LANGUAGE: &str = "reconcile";
/// Where the playground is when `book.toml` does not say: a copy of `dist/`
/// in the book's `src/playground/`, which mdBook copies beside the chapters.
pub const DEFAULT_PLAYGROUND: &str = "playground/";

/// Where a chapter is, for its errors and its relative links.
#[derive(Debug, Clone)]
pub struct Chapter<'a> {
    /// As the author knows it, e.g. `src/scenarios.md`.
    pub file: &'a str,
    /// Folders between the book's root and the chapter's page (0 at the root).
    pub depth: usize,
}

/// Why a chapter's fence could not become a playground.
#[derive(Debug, Clone, PartialEq)]
pub struct FenceError {
    pub file: String,
    /// The 1-based line of the fence's opening line in the chapter.
    pub fence_line: usize,
    pub kind: ErrorKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// The info line's attributes: what is wrong and what was expected.
    Attributes(String),
    /// A scenario with a preset, lesson, step or exercise beside it.
    Both(String),
    /// The scenario in the body.
    Scenario(ScenarioError),
}

impl fmt::Display for FenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, fence) = (&self.file, self.fence_line);
        match &self.kind {
            ErrorKind::Attributes(why) => {
                write!(f, "{file}:{fence}: the reconcile fence's info line: {why}")
            }
            ErrorKind::Both(name) => write!(
                f,
                "{file}:{fence}: the reconcile fence holds a scenario and `{name}`; \
                 expected one of them: a scenario opens on its own documents"
            ),
            ErrorKind::Scenario(ScenarioError::Input(error)) => write!(
                f,
                "{file}:{}:{}: the reconcile fence at line {fence} holds a bad scenario: \
                 line {} of the fence, column {}, at {}: {}",
                fence + error.line,
                error.column,
                error.line,
                error.column,
                error.path,
                error.message
            ),
            ErrorKind::Scenario(ScenarioError::NotScenario) => write!(
                f,
                "{file}:{fence}: the reconcile fence holds no scenario; expected \
                 desired, observed and, optionally, finalizers"
            ),
        }
    }
}

impl std::error::Error for FenceError {}

/// The playground's address as a chapter at `depth` links to it, ending in `/`.
/// An absolute URL or path is kept; a relative one is from the book's root.
pub fn playground_from(chapter: &Chapter<'_>, configured: &str) -> String {
    let mut base = configured.to_owned();
    if !base.ends_with('/') {
        base.push('/');
    }
    if base.contains("://") || base.starts_with('/') {
        base
    } else {
        "../".repeat(chapter.depth) + &base
    }
}

/// Rewrites a chapter's markdown: each `reconcile` fence becomes the element,
/// and the component's script comes once, before the first. Other text is
/// kept byte for byte. `playground` is the base from [`playground_from`].
pub fn rewrite(
    markdown: &str,
    chapter: &Chapter<'_>,
    playground: &str,
) -> Result<String, FenceError> {
    let mut out = String::with_capacity(markdown.len());
    let mut copied = 0;
    let mut scripted = false;
    for fence in fence::fences(markdown) {
        let Some(rest) = reconcile_info(fence.info) else {
            continue;
        };
        let element = element(&fence, rest).map_err(|kind| FenceError {
            file: chapter.file.to_owned(),
            fence_line: fence.line,
            kind,
        })?;
        out.push_str(&markdown[copied..fence.span.start]);
        if !scripted {
            out.push_str(&script(playground));
            scripted = true;
        }
        out.push_str(&element);
        copied = fence.span.end;
    }
    out.push_str(&markdown[copied..]);
    Ok(out)
}

/// The component's module, in the playground's site.
const SCRIPT: &str = "pkg/reconcile-playground.js";

/// The info line after the language, if the fence is a playground.
fn reconcile_info(info: &str) -> Option<&str> {
    let rest = info.strip_prefix(LANGUAGE)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

fn script(playground: &str) -> String {
    format!(
        "\n<script type=\"module\" src=\"{}{SCRIPT}\"></script>\n\n",
        escape(playground)
    )
}

/// The element for one fence, as an HTML block with blank lines around it.
fn element(fence: &fence::Fence<'_>, rest: &str) -> Result<String, ErrorKind> {
    let mut attributes = attributes::parse(rest).map_err(ErrorKind::Attributes)?;
    if !fence.body.trim().is_empty() {
        if let Some(name) = attributes::OPENERS.iter().find(|n| attributes.has(n)) {
            return Err(ErrorKind::Both((*name).to_owned()));
        }
        let documents = scenario::documents(&fence.body).map_err(ErrorKind::Scenario)?;
        attributes
            .0
            .push(("state".to_owned(), Some(scenario::state_link(documents))));
    }
    let mut html = String::from("\n<reconcile-playground");
    for (name, value) in &attributes.0 {
        html.push(' ');
        html.push_str(name);
        if let Some(value) = value {
            html.push_str(&format!("=\"{}\"", escape(value)));
        }
    }
    // The open tag alone on its line makes an HTML block, not a paragraph.
    html.push_str(">\n</reconcile-playground>\n\n");
    Ok(html)
}

/// Text safe inside a double-quoted HTML attribute.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '"' => escaped.push_str("&quot;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests;
