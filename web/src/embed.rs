//! Query parameters for course pages: `?embed&readonly&panes=editors,plan&preset=…&allow=…`.

/// The parts of the page an embed can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Editors,
    Plan,
    Simulation,
}

impl Pane {
    fn parse(name: &str) -> Option<Self> {
        match name.trim() {
            "editors" => Some(Pane::Editors),
            "plan" | "actions" => Some(Pane::Plan),
            "sim" | "simulation" => Some(Pane::Simulation),
            _ => None,
        }
    }
}

/// Message types of the postMessage protocol (documented in docs/embedding.md).
pub const MESSAGE_HEIGHT: &str = "reconcile-playground:height";
pub const MESSAGE_LOAD: &str = "reconcile-playground:load";
pub const MESSAGE_STEP: &str = "reconcile-playground:step";
pub const MESSAGE_RUN: &str = "reconcile-playground:run";

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EmbedOptions {
    /// Compact layout without the header chrome.
    pub embed: bool,
    /// Editors locked; simulation controls stay live.
    pub readonly: bool,
    /// `None` shows every pane.
    pub panes: Option<Vec<Pane>>,
    pub preset: Option<String>,
    pub lesson: Option<String>,
    pub step: Option<usize>,
    /// Origins whose postMessage commands are obeyed; empty obeys none.
    pub allowed_origins: Vec<String>,
    /// `?debug=panic`: the next edit panics on purpose, to show (and test)
    /// the crash banner in the release build. Harmless: the banner keeps the work.
    pub panic_on_edit: bool,
}

impl EmbedOptions {
    /// Reads the query pairs; unknown keys and bad values are ignored.
    pub fn from_query(pairs: &[(String, String)]) -> Self {
        let mut options = Self::default();
        for (key, value) in pairs {
            let flag = value.is_empty() || value == "1" || value == "true";
            match key.as_str() {
                "embed" => options.embed = flag,
                "readonly" => options.readonly = flag,
                "panes" => {
                    let panes: Vec<Pane> = value.split(',').filter_map(Pane::parse).collect();
                    options.panes = (!panes.is_empty()).then_some(panes);
                }
                "preset" => options.preset = Some(value.clone()),
                "lesson" => options.lesson = Some(value.clone()),
                "step" => options.step = value.parse().ok(),
                DEBUG_PARAM => options.panic_on_edit = value == "panic",
                "allow" => {
                    options.allowed_origins = value
                        .split(',')
                        .map(str::trim)
                        .filter(|o| !o.is_empty())
                        .map(str::to_owned)
                        .collect();
                }
                _ => {}
            }
        }
        options
    }

    pub fn shows(&self, pane: Pane) -> bool {
        self.panes
            .as_ref()
            .is_none_or(|panes| panes.contains(&pane))
    }

    /// Exact match only: `https://a.example` does not admit `https://a.example.evil`.
    pub fn accepts_origin(&self, origin: &str) -> bool {
        self.allowed_origins.iter().any(|allowed| allowed == origin)
    }

    /// Where each embed keeps its own autosave, so embeds never clobber the main page's.
    pub fn autosave_key(&self) -> String {
        if self.embed {
            format!(
                "{AUTOSAVE_KEY}:embed:{}:{}",
                self.preset.as_deref().unwrap_or(""),
                self.lesson.as_deref().unwrap_or("")
            )
        } else {
            AUTOSAVE_KEY.to_owned()
        }
    }
}

/// The query parameter of deliberate failures for testing (`debug=panic`).
pub const DEBUG_PARAM: &str = "debug";

pub const AUTOSAVE_KEY: &str = "reconcile-playground/v1/autosave";
/// The autosave from before a link replaced it, kept for "Restore your last session".
pub const PREVIOUS_KEY: &str = "reconcile-playground/v1/previous";
