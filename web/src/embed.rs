//! Query parameters for course pages: `?embed&readonly&panes=editors,plan&preset=…&allow=…`.

use reconcile_check::Language;
use reconcile_content::exercise::is_known_exercise;
use reconcile_core::stable::fnv1a;

/// The parts of the page an embed can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Editors,
    Plan,
    /// The simulation's timeline: its controls, verdict, passes, chart, status
    /// grid and level vs edge.
    Timeline,
    /// The simulation's "Faults and settings".
    Faults,
}

impl Pane {
    /// Every pane, in page order.
    pub const ALL: [Pane; 4] = [Pane::Editors, Pane::Plan, Pane::Timeline, Pane::Faults];

    /// The name `panes=` takes (aliases aside).
    fn name(self) -> &'static str {
        match self {
            Pane::Editors => "editors",
            Pane::Plan => "plan",
            Pane::Timeline => "timeline",
            Pane::Faults => "faults",
        }
    }

    /// The panes one name stands for: `sim` is the whole simulation, as it
    /// was before the timeline and the faults could be named apart.
    fn parse(name: &str) -> &'static [Pane] {
        match name.trim() {
            "editors" => &[Pane::Editors],
            "plan" | "actions" => &[Pane::Plan],
            "sim" | "simulation" => &[Pane::Timeline, Pane::Faults],
            "timeline" => &[Pane::Timeline],
            "faults" => &[Pane::Faults],
            _ => &[],
        }
    }
}

/// Message types of the postMessage protocol (documented in docs/embedding.md).
///
/// Every message, in and out, is one envelope: a plain object whose `type`
/// is one of these and whose `version` is [`MESSAGE_VERSION`], with the
/// kind's own fields beside them. Version 1 kept the type names and fields of
/// the messages before it, so listeners written for those still work.
/// `pkg/reconcile-playground.js` reads the same names; a test compares them.
pub const MESSAGE_HEIGHT: &str = "reconcile-playground:height";
pub const MESSAGE_LOAD: &str = "reconcile-playground:load";
pub const MESSAGE_STEP: &str = "reconcile-playground:step";
pub const MESSAGE_RUN: &str = "reconcile-playground:run";
/// To the course page: how the learner's reconcile did, `{passed, total, counterexample}`.
pub const MESSAGE_CHECKED: &str = "reconcile-playground:checked";
/// To the course page: how the learner's controller did, `{passed, exercise,
/// schedulesExplored, properties, counterexample}` (`ControllerCheckedMessage`
/// in reconcile.d.ts).
pub const MESSAGE_CONTROLLER_CHECKED: &str = "reconcile-playground:controller-checked";
/// To the course page, in presenter mode: a key the frame does not use,
/// `{key, shiftKey}`, for a slide deck to act on (`present.rs`).
pub const MESSAGE_KEY: &str = "reconcile-playground:key";
/// To the course page: the learner's state as a share link's `#v2/…` part
/// (`link`), whenever it changes, once typing pauses. An LMS package stores it
/// to resume there (docs/lms.md).
pub const MESSAGE_STATE: &str = "reconcile-playground:state";
/// To the course page, from an open lesson: `step-reached`, `answered` and
/// `lesson-completed`, named and filled by `reconcile_content::report`.
/// What every message type starts with.
pub const MESSAGE_PREFIX: &str = "reconcile-playground:";
/// The envelope's version, sent as `version` with every message.
pub const MESSAGE_VERSION: u32 = 1;

/// Whether a command's `version` field is one this build obeys: version 1,
/// or none (a parent written before the envelope). A newer version is
/// ignored, so no command is half understood.
pub fn accepts_version(version: Option<f64>) -> bool {
    version.is_none_or(|version| version == f64::from(MESSAGE_VERSION))
}

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
    /// Names the `#v2/…` state an embed was opened with, so that embeds of
    /// different states on one course page keep their work apart.
    pub link_id: Option<String>,
    /// `?exercise=reconcile` (or a controller exercise's name): opens the
    /// "Your reconcile" pane on that exercise.
    pub exercise: Option<String>,
    /// `?lang=python|javascript`: the exercise's language.
    pub language: Option<Language>,
    /// `?theme=light|dark`: the colours, for the page and embeds alike;
    /// `None` follows the system's.
    pub theme: Option<&'static str>,
    /// `?present`: presenter mode, one pane at a time in large type (`present.rs`).
    pub present: bool,
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
                "present" => options.present = flag,
                "panes" => {
                    let panes: Vec<Pane> =
                        value.split(',').flat_map(Pane::parse).copied().collect();
                    options.panes = (!panes.is_empty()).then_some(panes);
                }
                "preset" => options.preset = Some(value.clone()),
                "lesson" => options.lesson = Some(value.clone()),
                "step" => options.step = value.parse().ok(),
                "exercise" => options.exercise = is_known_exercise(value).then(|| value.clone()),
                "lang" => options.language = Language::from_id(value),
                "theme" => {
                    options.theme = ["light", "dark"].into_iter().find(|theme| theme == value);
                }
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

    /// The same options, for a page opened with `hash` (the URL's `#…`).
    pub fn with_link(mut self, hash: &str) -> Self {
        let state = hash.trim_start_matches('#');
        self.link_id = (!state.is_empty()).then(|| format!("{:016x}", fnv1a(state.as_bytes())));
        self
    }

    pub fn shows(&self, pane: Pane) -> bool {
        self.panes
            .as_ref()
            .is_none_or(|panes| panes.contains(&pane))
    }

    /// The simulation section shows with its timeline, its faults, or both.
    pub fn shows_simulation(&self) -> bool {
        self.shows(Pane::Timeline) || self.shows(Pane::Faults)
    }

    /// Exact match only: `https://a.example` does not admit `https://a.example.evil`.
    /// An opaque origin (`"null"`) is never accepted, even when `allow=` lists it:
    /// every sandboxed frame has it, among them the one that runs a learner's own
    /// reconcile, and `data:` and `file:` pages too.
    pub fn accepts_origin(&self, origin: &str) -> bool {
        origin != "null" && self.allowed_origins.iter().any(|allowed| allowed == origin)
    }

    /// Where the replaced session offered by "Restore" is kept; per embed, like the autosave.
    pub fn previous_key(&self) -> String {
        if self.embed {
            format!("{PREVIOUS_KEY}:{}", self.autosave_key())
        } else {
            PREVIOUS_KEY.to_owned()
        }
    }

    /// Where each embed keeps its own autosave, so embeds never clobber the main page's.
    /// The main page's (`AUTOSAVE_KEY`) is where builds before sessions kept
    /// it; the page now keeps a session per tab (`sessions.rs`).
    pub fn autosave_key(&self) -> String {
        if self.embed {
            let mut key = format!(
                "{AUTOSAVE_KEY}:embed:{}:{}",
                self.preset.as_deref().unwrap_or(""),
                self.lesson.as_deref().unwrap_or("")
            );
            // Appended only for links and exercises: keys of other embeds stay as they were.
            if let Some(link) = &self.link_id {
                key.push(':');
                key.push_str(link);
            }
            if self.exercise.is_some() {
                key.push_str(":exercise");
            }
            key
        } else {
            AUTOSAVE_KEY.to_owned()
        }
    }
}

/// What a course author picks when copying an embed snippet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmbedChoice {
    pub editors: bool,
    pub plan: bool,
    pub timeline: bool,
    pub faults: bool,
    pub readonly: bool,
}

impl Default for EmbedChoice {
    fn default() -> Self {
        Self {
            editors: true,
            plan: true,
            timeline: true,
            faults: true,
            readonly: false,
        }
    }
}

impl EmbedChoice {
    /// The panes ticked, in page order.
    pub fn panes(&self) -> Vec<Pane> {
        [self.editors, self.plan, self.timeline, self.faults]
            .into_iter()
            .zip(Pane::ALL)
            .filter_map(|(shown, pane)| shown.then_some(pane))
            .collect()
    }

    /// The snippet's frame height for these panes, in CSS pixels: a host
    /// that cannot resize the frame shows them with no blank below.
    pub fn height(&self) -> usize {
        let shown = [self.editors, self.plan, self.timeline || self.faults];
        let panes = [EDITORS_HEIGHT, PLAN_HEIGHT, SIMULATION_HEIGHT];
        let sum: usize = (0..3)
            .filter(|i| shown[*i])
            .map(|i| panes[i] + PANE_GAP)
            .sum();
        FRAME_HEIGHT + sum - PANE_GAP
    }

    /// The embed's query: `?embed`, then `panes=` unless every pane shows, then `readonly`.
    pub fn query(&self) -> String {
        let panes = self.panes();
        let mut names: Vec<&str> = panes.iter().map(|pane| pane.name()).collect();
        // The shorter, older name when the whole simulation shows.
        if self.timeline && self.faults {
            names.retain(|name| *name != "faults");
            if let Some(timeline) = names.iter_mut().find(|name| **name == "timeline") {
                *timeline = "sim";
            }
        }
        let mut query = String::from("?embed");
        if panes.len() < Pane::ALL.len() && !panes.is_empty() {
            query.push_str("&panes=");
            query.push_str(&names.join(","));
        }
        if self.readonly {
            query.push_str("&readonly");
        }
        query
    }
}

/// An embed's height before the learner acts, in a 760 px course column
/// (measured with the default scenario by web/e2e/embed-fit.spec.mjs): its
/// bar and margins, each pane, and the gap between two panes. The
/// simulation is as tall with its timeline, its faults or both.
const FRAME_HEIGHT: usize = 40;
const EDITORS_HEIGHT: usize = 209;
const PLAN_HEIGHT: usize = 267;
const SIMULATION_HEIGHT: usize = 156;
const PANE_GAP: usize = 8;

/// HTML for a course page: an iframe showing the state in `link` (a share
/// link, `page#v2/…`) as `choice` says, as tall as its panes before the
/// learner acts, and the listener that resizes it to the height the
/// playground reports, accepting it only from the link's origin.
pub fn embed_snippet(link: &str, choice: EmbedChoice) -> String {
    let (page, hash) = link.split_at(link.find('#').unwrap_or(link.len()));
    let origin = page
        .find("://")
        .and_then(|scheme| {
            page[scheme + 3..]
                .find('/')
                .map(|path| &page[..scheme + 3 + path])
        })
        .unwrap_or(page);
    let src = format!("{page}{}{hash}", choice.query()).replace('&', "&amp;");
    let height = choice.height();
    format!(
        "<iframe title=\"Reconcile Playground\" style=\"width:100%;height:{height}px;border:0\" loading=\"lazy\"\n        \
         src=\"{src}\"></iframe>\n\
         <script>\n\
         \x20 // Resizes the frame to the playground's content; once per page is enough.\n\
         \x20 addEventListener(\"message\", (event) => {{\n\
         \x20   if (event.origin !== \"{origin}\") return;\n\
         \x20   if (event.data?.type !== \"{MESSAGE_HEIGHT}\") return;\n\
         \x20   for (const frame of document.querySelectorAll(\"iframe\")) {{\n\
         \x20     if (frame.contentWindow === event.source) frame.style.height = event.data.height + \"px\";\n\
         \x20   }}\n\
         \x20 }});\n\
         </script>\n"
    )
}

/// The query parameter of deliberate failures for testing (`debug=panic`).
pub const DEBUG_PARAM: &str = "debug";

pub const AUTOSAVE_KEY: &str = "reconcile-playground/v1/autosave";
/// The autosave from before a link replaced it, kept for "Restore your last session".
pub const PREVIOUS_KEY: &str = "reconcile-playground/v1/previous";
