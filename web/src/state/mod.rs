//! The page state and its reducer: every change is a typed [`Action`].

mod custom_resources;
mod exercise;
mod lesson;
mod sim;
mod yaml;

use std::rc::Rc;

use reconcile_check::Language;
use reconcile_content::exercise::LearnerCode;
use reconcile_content::lesson::Feedback;
use reconcile_content::lesson_index;
use reconcile_content::package::PackageTarget;
use reconcile_content::presets::{self, Preset};
use reconcile_content::share::{
    DocumentFormats, LinkNote, ShareError, SharedCustomResource, SharedState,
};
use reconcile_core::json::Json;
use reconcile_core::{
    check_scenario, format_document, plan, Document, Format, InputError, Plan, Scenario,
};
use reconcile_sim::SimSettings;
use yew::{AttrValue, Reducible};

use crate::browser::StorageProblem;
use crate::shared::Shared;

pub use custom_resources::{CustomResourceAction, RunScenario, TabView, Tabs, FIRST_NAME};
pub use exercise::ExerciseAction;
pub use lesson::{Answer, LessonAction, LessonLoad, LessonOpening, LessonState};
pub use sim::{hold_first_run, release_first_run, Replay, SimAction, SimState, SPEEDS};
pub use yaml::{Converted, ParsedAnswers, ReadDocuments, YamlAction, YamlReply, YamlRequest};

/// The three editable documents, in display order.
pub const DOCUMENTS: [Document; 3] = [Document::Desired, Document::Observed, Document::Finalizers];

/// Editor texts, exactly as typed. Shared, not copied: a render, the reducer's
/// copy of the state and the autosave's snapshot all hold the same text.
#[derive(Debug, Clone, Default)]
pub struct Texts {
    pub desired: AttrValue,
    pub observed: AttrValue,
    pub finalizers: AttrValue,
}

impl PartialEq for Texts {
    fn eq(&self, other: &Self) -> bool {
        same_text(&self.desired, &other.desired)
            && same_text(&self.observed, &other.observed)
            && same_text(&self.finalizers, &other.finalizers)
    }
}

/// Equal texts; the same shared text is equal without comparing megabytes.
pub fn same_text(a: &AttrValue, b: &AttrValue) -> bool {
    match (a, b) {
        (AttrValue::Rc(a), AttrValue::Rc(b)) if Rc::ptr_eq(a, b) => true,
        _ => a == b,
    }
}

impl Texts {
    pub fn of(preset: &'static Preset) -> Self {
        Self {
            desired: AttrValue::Static(&preset.desired),
            observed: AttrValue::Static(&preset.observed),
            finalizers: AttrValue::Static(&preset.finalizers),
        }
    }

    pub fn from_strings([desired, observed, finalizers]: [String; 3]) -> Self {
        Self {
            desired: desired.into(),
            observed: observed.into(),
            finalizers: finalizers.into(),
        }
    }

    pub fn get(&self, document: Document) -> &str {
        self.value(document)
    }

    /// A document's text, shared (cheap to clone).
    pub fn value(&self, document: Document) -> &AttrValue {
        match document {
            Document::Desired => &self.desired,
            Document::Observed => &self.observed,
            // A scenario or an action list is never edited here; the finalizers slot is the only other one.
            Document::Finalizers | Document::Scenario | Document::Actions => &self.finalizers,
        }
    }

    fn set(&mut self, document: Document, text: String) {
        self.set_shared(document, text.into());
    }

    fn set_shared(&mut self, document: Document, text: AttrValue) {
        let slot = match document {
            Document::Desired => &mut self.desired,
            Document::Observed => &mut self.observed,
            Document::Finalizers | Document::Scenario | Document::Actions => &mut self.finalizers,
        };
        *slot = text;
    }
}

/// What a link or an autosave keeps, held cheaply (shared texts) so a render
/// can compare it; [`Persisted::to_shared`] copies it out when it is saved.
#[derive(Debug, Clone, PartialEq)]
pub struct Persisted {
    /// The first custom resource's texts.
    texts: Texts,
    sim: SimSettings,
    pass: usize,
    selected: Option<usize>,
    level_edge: bool,
    preset: Option<&'static str>,
    lesson: Option<(String, usize)>,
    code: Option<LearnerCode>,
    exercise_open: bool,
    formats: DocumentFormats,
    /// The lesson's steps answered, and whether its step's answer shows.
    answers: (Vec<usize>, bool),
    picture_open: bool,
    /// The first custom resource's name and the others, while there are
    /// several (copied out then: a render with one copies nothing).
    others: Rc<(Option<String>, Vec<SharedCustomResource>)>,
}

impl Persisted {
    /// What an LMS package of this state opens: its lesson, else the
    /// exercise in its language when the pane is open (docs/lms.md).
    pub fn package_target(&self) -> Option<PackageTarget> {
        if let Some((id, _)) = &self.lesson {
            return lesson_index::find(id).map(|(_, entry)| PackageTarget::Lesson(entry));
        }
        let language = self
            .code
            .as_ref()
            .map_or(Language::Python, |code| code.language);
        self.exercise_open
            .then_some(PackageTarget::Exercise(language))
    }

    pub fn to_shared(&self) -> SharedState {
        SharedState {
            desired: self.texts.desired.to_string(),
            observed: self.texts.observed.to_string(),
            finalizers: self.texts.finalizers.to_string(),
            sim: self.sim.clone(),
            pass: self.pass,
            selected: self.selected,
            level_edge: self.level_edge,
            preset: self.preset.map(str::to_owned),
            lesson: self.lesson.as_ref().map(|(id, _)| id.clone()),
            step: self.lesson.as_ref().map(|(_, step)| *step),
            code: self.code.clone(),
            exercise: self.exercise_open,
            formats: self.formats,
            answered: self.answers.0.clone(),
            answer_shown: self.answers.1,
            picture: self.picture_open,
            custom_resource_name: self.others.0.clone(),
            custom_resources: self.others.1.clone(),
        }
    }

    /// The documents' total size in bytes.
    pub fn text_size(&self) -> usize {
        let code = self.code.as_ref().map_or(0, |code| {
            code.source.len() + code.other.as_ref().map_or(0, String::len)
        });
        let others: usize = (self.others.1.iter())
            .map(|cr| cr.desired.len() + cr.observed.len() + cr.finalizers.len())
            .sum();
        let texts = &self.texts;
        texts.desired.len() + texts.observed.len() + texts.finalizers.len() + code + others
    }
}

/// Everything the page shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Playground {
    /// The shown custom resource's texts; [`Tabs`] keeps the others'.
    pub texts: Texts,
    /// One entry per document that failed to parse at the last check.
    pub errors: Vec<InputError>,
    /// The last plan computed from valid input; kept while the input is invalid.
    pub plan: Option<Shared<Plan>>,
    /// The last valid documents, parsed: what the simulation starts from.
    pub scenario: Option<Rc<Scenario>>,
    pub sim: SimState,
    /// The preset the texts came from, while they are unedited.
    pub preset_id: Option<&'static str>,
    /// Bumped on every edit; the debounced check compares it to `checked_revision`.
    pub revision: u64,
    pub checked_revision: u64,
    /// A message about links, autosave or import, shown until dismissed.
    pub notice: Option<Notice>,
    /// The autosave from before a link was opened, offered back to the user.
    pub restorable: Option<Rc<SharedState>>,
    /// The lesson open in the side panel.
    pub lesson: Option<LessonState>,
    /// The lesson whose file is being fetched: it replaces `lesson` once read.
    pub lesson_load: Option<LessonLoad>,
    /// The texts are exactly what a preset or a lesson put there: replacing
    /// them loses nothing. Otherwise they are someone's work, and replacing
    /// them keeps them restorable.
    pub pristine: bool,
    /// The learner's own reconcile, once the exercise was opened; it stays
    /// (and is saved) when the pane is closed.
    pub code: Option<LearnerCode>,
    /// Counts the times the page itself replaced `code` (a link or an
    /// autosave opened, a session restored), for the pane: it takes the
    /// page's code only then, since every other change of it came from the pane.
    pub code_revision: u32,
    pub exercise_open: bool,
    /// Each document's format where the user chose one; detected otherwise.
    pub formats: DocumentFormats,
    /// The read the YAML module is asked for, while a document is YAML and
    /// the module has not answered.
    pub yaml_request: Option<Shared<YamlRequest>>,
    /// Core's reads of the YAML module's last answers.
    pub yaml_parsed: ParsedAnswers,
    /// Why autosave is off, while it is: shown until a save succeeds.
    pub autosave_problem: Option<StorageProblem>,
    /// The custom resources, one tab each; the shown one's documents are above.
    pub tabs: Tabs,
}

/// What put documents in the editors, as a notice names it (its wording is
/// the notice banner's, in `components/toolbar.rs`).
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded {
    /// A file, by its name.
    File(String),
    /// Documents sent by a part of the page ("the counterexample").
    Documents(String),
    Preset(&'static str),
    Lesson(String),
    /// The documents a replacement kept.
    Restored,
}

/// Messages the page shows above the editors.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// A link could not be opened, and why; the default scenario was loaded instead.
    LinkProblem(ShareError),
    /// The simulation could not read the settings (a link's, an autosave's),
    /// and why; it runs with the default settings instead.
    SettingsRefused(String),
    /// A link opened, but one of its settings means something else now.
    LinkNote(LinkNote),
    /// The saved session in this browser was unreadable and was ignored.
    AutosaveCorrupt,
    /// The documents are over the autosave limit.
    TooLargeToAutosave,
    /// The share link was made; `copied` tells whether the clipboard took it.
    LinkReady {
        url: String,
        copied: bool,
        /// What the link holds, to tell when the page has moved on from it.
        of: LinkOf,
    },
    /// A preset, a lesson or an imported file replaced edited documents,
    /// which stay restorable.
    Replaced(Loaded),
    /// An imported file, or other documents, were loaded.
    Imported(Loaded),
    /// A file could not be imported, and why.
    ImportFailed { file_name: String, error: String },
    /// Converting a document would drop its YAML comments: asks first.
    CommentsWillBeLost {
        document: Document,
        to: Format,
        converted: AttrValue,
    },
    /// A document was converted (or its YAML formatted); Undo puts back
    /// `previous` and the formats from before.
    Converted {
        document: Document,
        to: Format,
        previous: AttrValue,
        previous_formats: DocumentFormats,
    },
    /// This new tab started from a copy of the newest session; the others
    /// are in Recent sessions.
    StartedFromLatest,
    /// Another tab saved this tab's session: this tab now keeps its own copy.
    Forked,
    /// A session from Recent sessions was opened; the tab's earlier one is kept there.
    SessionOpened,
    /// The session chosen in Recent sessions was deleted meanwhile (by another tab).
    SessionGone,
}

/// What a share link holds.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkOf {
    /// The page's state when Share was pressed.
    State(Box<Persisted>),
    /// A replay: the address it was opened from (`#v4/…`).
    Replay(Rc<str>),
}

impl Playground {
    /// True while a share link is shown that no longer holds what the page shows.
    pub fn shown_link_is_outdated(&self) -> bool {
        let Some(Notice::LinkReady { of, .. }) = &self.notice else {
            return false;
        };
        match of {
            LinkOf::State(of) => **of != self.persisted(),
            LinkOf::Replay(link) => self.sim.replay.as_ref().map(|r| &r.link) != Some(link),
        }
    }

    pub fn from_preset(preset: &'static Preset) -> Self {
        let mut state = Self::new(Texts::of(preset), preset.sim.clone(), Some(preset));
        state.take_preset_custom_resources(preset);
        state
    }

    /// A preset of several custom resources opens its tabs, as a `#v3/`
    /// link of them does; the first is shown.
    fn take_preset_custom_resources(&mut self, preset: &'static Preset) {
        let Some(name) = &preset.custom_resource_name else {
            return;
        };
        let others = preset
            .custom_resources
            .iter()
            .map(|other| SharedCustomResource {
                name: other.name.clone(),
                desired: other.desired.clone(),
                observed: other.observed.clone(),
                finalizers: other.finalizers.clone(),
                formats: DocumentFormats::default(),
            });
        let shared = SharedState {
            custom_resource_name: Some(name.clone()),
            custom_resources: others.collect(),
            ..SharedState::default()
        };
        self.take_shared_custom_resources(&shared);
        self.rerun();
    }

    /// A checked state; it names `preset` only while the texts are exactly its texts.
    fn new(texts: Texts, config: SimSettings, preset: Option<&'static Preset>) -> Self {
        Self::with_formats(texts, DocumentFormats::default(), config, preset)
    }

    fn with_formats(
        texts: Texts,
        formats: DocumentFormats,
        config: SimSettings,
        preset: Option<&'static Preset>,
    ) -> Self {
        let preset_id = preset
            .filter(|p| Texts::of(p) == texts)
            .map(|p| p.id.as_str());
        Self {
            texts,
            errors: Vec::new(),
            plan: None,
            scenario: None,
            sim: SimState::with_config(config),
            preset_id,
            revision: 0,
            checked_revision: 0,
            notice: None,
            restorable: None,
            lesson: None,
            lesson_load: None,
            pristine: preset_id.is_some(),
            code: None,
            code_revision: 0,
            exercise_open: false,
            formats,
            yaml_request: None,
            yaml_parsed: ParsedAnswers::default(),
            autosave_problem: None,
            tabs: Tabs::default(),
        }
        .checked()
    }

    /// A state restored from a link or an autosave.
    pub fn from_shared(shared: &SharedState) -> Self {
        let texts = Texts::from_strings([
            shared.desired.clone(),
            shared.observed.clone(),
            shared.finalizers.clone(),
        ]);
        let preset = shared.preset.as_deref().and_then(presets::find);
        let mut state = Self::with_formats(texts, shared.formats, shared.sim.clone(), preset);
        if shared.is_several() {
            state.take_shared_custom_resources(shared);
            state.rerun();
        }
        state.sim.restore(shared.pass, shared.selected);
        if shared.level_edge {
            state.sim.open_level_edge_for_class();
        }
        state.sim.picture_open = shared.picture;
        // The documents are the link's; the lesson's text follows when fetched.
        state.lesson_load = shared.lesson.as_deref().and_then(|id| {
            let load = LessonLoad::of(id, shared.step.unwrap_or(0), LessonOpening::Carried)?;
            let answers = (shared.answered.clone(), shared.answer_shown);
            Some(LessonLoad {
                shared: answers,
                ..load
            })
        });
        state.code = shared.code.clone();
        state.exercise_open = shared.exercise && state.code.is_some();
        state
    }

    /// Everything a link or an autosave keeps.
    pub fn shared(&self) -> SharedState {
        self.persisted().to_shared()
    }

    /// The same, without copying the texts.
    pub fn persisted(&self) -> Persisted {
        let (texts, formats) = self.first_tab();
        let others = if self.tabs.is_one() {
            Rc::default()
        } else {
            Rc::new(self.shared_custom_resources())
        };
        Persisted {
            texts: texts.clone(),
            sim: self.sim.config.clone(),
            pass: self.sim.saved_position().0,
            selected: self.sim.saved_position().1,
            level_edge: self.sim.show_level_edge,
            preset: self.preset_id,
            lesson: self.saved_lesson(),
            code: self.code.clone(),
            exercise_open: self.exercise_open,
            formats,
            others,
            answers: self.saved_answers(),
            picture_open: self.sim.picture_open,
        }
    }

    /// The open lesson's answers a link or an autosave keeps: the steps
    /// answered and whether this one's answer shows; or a fetched link's.
    fn saved_answers(&self) -> (Vec<usize>, bool) {
        match (&self.lesson, &self.lesson_load) {
            (Some(open), _) => (open.answered.clone(), open.answer_shown()),
            (None, Some(load)) if load.opening == LessonOpening::Carried => load.shared.clone(),
            _ => (Vec::new(), false),
        }
    }

    /// The lesson a link or an autosave keeps, with its step: the open one,
    /// or one being fetched for the documents already shown. (A lesson asked
    /// for from the menu has replaced nothing yet while it is fetched.)
    fn saved_lesson(&self) -> Option<(String, usize)> {
        let open = self.lesson.as_ref().map(|l| (l.lesson.id.clone(), l.step));
        let fetched = self
            .lesson_load
            .as_ref()
            .filter(|l| l.opening == LessonOpening::Carried);
        open.or_else(|| fetched.map(|l| (l.entry.id.to_owned(), l.step)))
    }

    /// The id of the lesson in the panel: the one being fetched, else the open one.
    pub fn lesson_id(&self) -> Option<&str> {
        match (&self.lesson_load, &self.lesson) {
            (Some(load), _) => Some(load.entry.id),
            (None, Some(open)) => Some(&open.lesson.id),
            (None, None) => None,
        }
    }

    /// Asks for lesson `id` at `step`: its file is fetched, then its
    /// documents and simulation settings replace the editors'.
    pub fn with_lesson_asked(mut self, id: &str, step: usize, opening: LessonOpening) -> Self {
        if let Some(load) = LessonLoad::of(id, step, opening) {
            self.lesson_load = Some(LessonLoad {
                asked_at_revision: self.revision,
                ..load
            });
        }
        self
    }

    /// Opens a lesson, loading its documents and simulation settings.
    fn with_lesson(self, lesson: LessonState) -> Self {
        let texts = Texts::from_strings(lesson.lesson.texts());
        let preset = lesson.lesson.preset.as_deref().and_then(presets::find);
        let mut next = Self::new(texts, lesson.lesson.settings(), preset);
        (next.notice, next.restorable) = (self.notice, self.restorable);
        (next.code, next.exercise_open) = (self.code, self.exercise_open);
        next.lesson = Some(lesson);
        next.pristine = true;
        next
    }

    /// The fetched text of the lesson being loaded: read, it opens (over the
    /// editors' documents when asked for so); else the load shows the error.
    /// Applies a lesson panel's action; false when nothing changed.
    fn apply_lesson(&mut self, previous: &Rc<Playground>, action: LessonAction) -> bool {
        // A question about the run asked on another step is not answered there.
        if matches!(
            action,
            LessonAction::Open { .. } | LessonAction::Close | LessonAction::GoTo(_)
        ) {
            self.sim.check = None;
        }
        match action {
            LessonAction::Open { id, step } => {
                *self = self
                    .clone()
                    .with_lesson_asked(&id, step, LessonOpening::Asked);
            }
            LessonAction::Close => (self.lesson, self.lesson_load) = (None, None),
            LessonAction::Fetched { path, text } => *self = previous.lesson_fetched(&path, &text),
            LessonAction::FetchFailed { path, message } => {
                match self.lesson_load.as_mut().filter(|l| l.entry.path() == path) {
                    Some(load) => load.failed = Some(message),
                    None => return false,
                }
            }
            LessonAction::Refetch => match self.lesson_load.as_mut() {
                Some(load) if load.failed.is_some() => {
                    load.failed = None;
                    load.attempt += 1;
                }
                _ => return false,
            },
            LessonAction::GoTo(step) => {
                if let Some(lesson) = &mut self.lesson {
                    lesson.go_to(step);
                }
            }
            LessonAction::Pick(action) => {
                if let Some(lesson) = &mut self.lesson {
                    if !lesson.picked.contains(&action) {
                        lesson.picked.push(action);
                    }
                }
            }
            LessonAction::ClearPicks => {
                if let Some(lesson) = &mut self.lesson {
                    lesson.picked.clear();
                }
            }
            LessonAction::ShowAnswer => {
                if let Some(lesson) = &mut self.lesson {
                    lesson.show_answer();
                }
            }
            LessonAction::Checked { id, feedback } => {
                if !self.sim.answered(id) {
                    return false;
                }
                if let Some(lesson) = &mut self.lesson {
                    lesson.take_feedback(Feedback::clone(&feedback));
                }
            }
            check => {
                let plan = self.plan.clone();
                let can_simulate = self.scenario.is_some() && self.errors.is_empty();
                let question = self
                    .lesson
                    .as_mut()
                    .and_then(|lesson| lesson.check(&check, plan.as_deref(), can_simulate));
                if let Some(question) = question {
                    if self.sim.deferred() {
                        let run = self.run_scenario();
                        self.sim.recompute(run.as_ref(), true);
                    }
                    self.sim.ask(question);
                }
            }
        }
        true
    }

    fn lesson_fetched(self: &Rc<Self>, path: &str, text: &str) -> Playground {
        let mut next = (**self).clone();
        let Some(load) = next.lesson_load.as_mut().filter(|l| l.entry.path() == path) else {
            return next;
        };
        let Some(lesson) = load.read(text) else {
            return next;
        };
        match load.opening {
            LessonOpening::Carried => {
                next.lesson_load = None;
                next.lesson = Some(lesson);
                next
            }
            // Edits typed while the file loaded are kept as a menu's opening keeps them.
            LessonOpening::Addressed if self.revision == load.asked_at_revision => {
                next.with_lesson(lesson)
            }
            LessonOpening::Addressed | LessonOpening::Asked => {
                let title = lesson.lesson.title.clone();
                let mut next = next.with_lesson(lesson);
                self.keep_replaced_work(&mut next, || Loaded::Lesson(title));
                next
            }
        }
    }

    /// The same state with other documents, checked.
    fn with_documents(mut self, documents: [String; 3]) -> Self {
        self.texts = Texts::from_strings(documents);
        self.formats = DocumentFormats::default();
        self.preset_id = None;
        self.revision += 1;
        self.pristine = false;
        self.checked()
    }

    /// Opens the "Your reconcile" pane, in `language` when given (the code's
    /// own otherwise; Python for a first start).
    /// A lesson's prediction hides the plan until it is answered.
    pub fn plan_concealed(&self) -> bool {
        self.pending_exercise()
            .is_some_and(|kind| kind.conceals_plan())
            || self.asked_later(reconcile_content::lesson::ExerciseKind::Actions)
    }

    /// A later step asks how many passes the loop takes: the pass count
    /// and the verdict stay hidden until then.
    pub fn outcome_concealed(&self) -> bool {
        self.asked_later(reconcile_content::lesson::ExerciseKind::Passes)
    }

    /// A later step of the open lesson, not answered yet, asks this kind.
    fn asked_later(&self, kind: reconcile_content::lesson::ExerciseKind) -> bool {
        let lesson = self.lesson.as_ref().filter(|_| self.lesson_load.is_none());
        lesson.is_some_and(|lesson| lesson.later_exercises().any(|k| k == kind))
    }

    /// A lesson's prediction hides the simulation, and stops it, until it
    /// is answered.
    pub fn simulation_concealed(&self) -> bool {
        self.pending_exercise()
            .is_some_and(|kind| kind.conceals_simulation())
    }

    fn pending_exercise(&self) -> Option<reconcile_content::lesson::ExerciseKind> {
        match &self.lesson_load {
            Some(load) => load.pending_exercise(),
            None => self.lesson.as_ref()?.pending_exercise(),
        }
    }

    pub fn open_exercise(&mut self, language: Option<Language>) {
        self.code = Some(exercise::code_to_open(self.code.take(), language));
        self.exercise_open = true;
    }

    /// Opens, closes or changes the exercise; false when nothing changed.
    fn apply_exercise(&mut self, action: ExerciseAction) -> bool {
        match action {
            ExerciseAction::Open(language) => {
                self.open_exercise(language);
                true
            }
            ExerciseAction::Close => std::mem::replace(&mut self.exercise_open, false),
            ExerciseAction::Edited(code) => {
                if self.code.as_ref() == Some(&code) {
                    return false;
                }
                self.code = Some(code);
                true
            }
        }
    }

    /// Before `self` is replaced by `next`: if `self` holds edited documents,
    /// `next` keeps them restorable and says what replaced them.
    fn keep_replaced_work(&self, next: &mut Playground, replaced_by: impl FnOnce() -> Loaded) {
        if self.pristine {
            return;
        }
        next.restorable = Some(Rc::new(self.shared()));
        next.notice = Some(Notice::Replaced(replaced_by()));
    }

    /// The error of one document, if it has one.
    pub fn error_of(&self, document: Document) -> Option<&InputError> {
        self.errors.iter().find(|e| e.document == document)
    }

    /// The scenario "Download scenario" writes: what the editors hold now.
    /// Checking waits for typing to pause, so right after an edit of JSON
    /// documents they are read here (core's reader, as the check will);
    /// otherwise, and for YAML (read by its worker), the scenario last read.
    pub fn scenario_to_export(&self) -> Option<Rc<Scenario>> {
        let all_json = DOCUMENTS
            .iter()
            .all(|document| self.format_of(*document) == Format::Json);
        if self.revision != self.checked_revision && all_json {
            let texts = &self.texts;
            if let Ok(typed) = check_scenario(&texts.desired, &texts.observed, &texts.finalizers) {
                return Some(Rc::new(typed));
            }
        }
        self.scenario.clone()
    }

    /// True while the input has errors, so the shown plan is the last valid one.
    pub fn is_stale(&self) -> bool {
        !self.errors.is_empty()
    }

    fn checked(mut self) -> Self {
        self.check();
        self
    }

    /// Parses the documents and plans; with a YAML document, asks the YAML
    /// module instead, and its answer comes back as [`YamlAction::Read`].
    fn check(&mut self) {
        self.checked_revision = self.revision;
        if self.request_yaml_read(None) {
            return;
        }
        let texts = &self.texts;
        match check_scenario(&texts.desired, &texts.observed, &texts.finalizers) {
            Ok(scenario) if self.request_yaml_read(Some(&scenario)) => {}
            // `{name: spec}` documents say of nothing that it is terminating.
            Ok(scenario) => self.accept(scenario, Vec::new()),
            Err(errors) => self.errors = errors,
        }
    }

    /// Valid documents, with the observed objects they mark terminating
    /// (manifests' `metadata.deletionTimestamp`): planned, and simulated
    /// when they changed.
    fn accept(&mut self, scenario: Scenario, terminating: Vec<String>) {
        let names = Json::array(terminating.iter().map(|name| Json::string(name)).collect());
        let unchanged = match self.sim.config.get("terminating") {
            Some(given) => *given == names,
            None => terminating.is_empty(),
        };
        if !unchanged {
            self.sim.config.set("terminating", names);
            // What the simulation starts from changed: simulated again below.
            self.scenario = None;
        }
        let fresh = plan(
            &scenario.desired,
            &scenario.observed,
            scenario.finalizers.as_ref(),
        );
        self.plan = Some(Shared::new(fresh));
        self.errors.clear();
        if self.scenario.as_deref() != Some(&scenario) {
            self.scenario = Some(Rc::new(scenario));
            self.rerun();
        }
    }
}

/// A file to import as YAML: `.yaml`, `.yml`, or text that is YAML.
pub fn is_yaml_file(file_name: &str, text: &str) -> bool {
    let yaml_name = [".yaml", ".yml"]
        .iter()
        .any(|end| file_name.to_ascii_lowercase().ends_with(end));
    yaml_name || reconcile_core::detect_format(text) == Format::Yaml
}

/// The editors' documents after importing a file: a scenario file's three
/// (JSON), or a YAML file (`.yaml`, `.yml`, or text that is YAML) as the
/// desired state, exactly as it is (comments and all), with the others kept.
/// (A YAML scenario file is split by the YAML module first: `hooks::use_yaml`.)
fn import_documents(
    state: &Playground,
    file_name: &str,
    text: String,
) -> Result<[String; 3], InputError> {
    if is_yaml_file(file_name, &text) {
        let keep = |document| state.texts.get(document).to_owned();
        return Ok([text, keep(Document::Observed), keep(Document::Finalizers)]);
    }
    reconcile_core::import_scenario(&text)
}

impl Default for Playground {
    fn default() -> Self {
        Self::from_preset(presets::default_preset())
    }
}

/// Everything a user can do to the page state.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// The user changed an editor's text. Checking waits for [`Action::Check`].
    Edit {
        document: Document,
        text: String,
    },
    /// Parse all documents and re-plan (sent after typing pauses).
    Check,
    /// Pretty-print one document; on invalid JSON, report the error and keep the text.
    Format(Document),
    /// Replace all three documents with a preset, and its simulation settings.
    LoadPreset(&'static str),
    /// The simulation section's module could not read run `revision`'s
    /// settings: its options parser's error (where and what).
    SettingsRefused {
        revision: usize,
        message: String,
    },
    Sim(SimAction),
    /// The page has painted its first action list: the simulation it held
    /// back runs now.
    FirstPainted,
    /// Replace everything with a state from a link, an autosave or the embedding page.
    LoadShared(Rc<SharedState>),
    /// Put back the autosave from before a link was opened.
    RestorePrevious,
    /// Replace everything with a session chosen in Recent sessions.
    OpenSession(Rc<SharedState>),
    /// A save failed (and autosave is off), or succeeded (`None`).
    AutosaveProblem(Option<StorageProblem>),
    /// Replace the three documents with an imported scenario file's text.
    Import {
        file_name: String,
        text: String,
    },
    SetNotice(Option<Notice>),
    /// The banner's Dismiss: hides the message; with none left, forgets the
    /// session offered for "Restore".
    Dismiss,
    Lesson(LessonAction),
    Exercise(ExerciseAction),
    Yaml(YamlAction),
    /// The tab row: show, add, remove or rename a custom resource.
    CustomResource(CustomResourceAction),
    /// Replace the three documents with `documents` (a counterexample's),
    /// keeping edited ones restorable; `what` names them for the notice.
    LoadDocuments {
        documents: [String; 3],
        what: String,
    },
}

impl Reducible for Playground {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let from_pane = matches!(action, Action::Exercise(ExerciseAction::Edited(_)));
        // Whatever replaces the state, autosave stays off until a save succeeds.
        let autosave_problem = match &action {
            Action::AutosaveProblem(problem) => *problem,
            _ => self.autosave_problem,
        };
        let mut next = (*self).clone();
        match action {
            Action::Edit { document, text } => {
                if next.texts.get(document) == text {
                    return self;
                }
                next.texts.set(document, text);
                next.revision += 1;
                next.preset_id = None;
                next.pristine = false;
            }
            Action::Check => {
                if next.revision == next.checked_revision {
                    return self;
                }
                next = next.checked();
            }
            // A YAML document is formatted by the YAML module (`YamlAction::Converted`).
            Action::Format(document) if next.format_of(document) == Format::Yaml => return self,
            Action::Format(document) => match format_document(document, next.texts.get(document)) {
                Ok(mut pretty) => {
                    pretty.push('\n');
                    if pretty != next.texts.get(document) {
                        next.texts.set(document, pretty);
                        next.revision += 1;
                        next.pristine = false;
                    }
                    next = next.checked();
                }
                Err(error) => next.show_error(error),
            },
            Action::SettingsRefused { revision, message } => {
                if revision != next.sim.revision() {
                    return self;
                }
                // As with a link that does not open: the defaults, and why.
                // The documents' terminating objects are marked again.
                next.sim.config = SimSettings::default();
                next.scenario = None;
                next.check();
                next.notice = Some(Notice::SettingsRefused(message));
            }
            Action::LoadPreset(id) => {
                let Some(preset) = presets::find(id) else {
                    return self;
                };
                next.texts = Texts::of(preset);
                next.formats = DocumentFormats::default();
                next.tabs = Tabs::default();
                next.preset_id = Some(preset.id.as_str());
                next.revision += 1;
                next.sim = SimState::with_config(preset.sim.clone());
                next.scenario = None;
                next.pristine = true;
                next = next.checked();
                next.take_preset_custom_resources(preset);
                self.keep_replaced_work(&mut next, || Loaded::Preset(preset.title.as_str()));
            }
            // Hidden for a prediction, the loop does not move either: a
            // shortcut must not run what the lesson asks to predict.
            Action::FirstPainted => {
                release_first_run();
                let run = next.run_scenario();
                next.sim.run_held(run.as_ref());
            }
            Action::Sim(action) if self.simulation_concealed() && action.needs_timeline() => {}
            Action::Sim(action) => {
                if next.sim.deferred() && action.forces_run() {
                    let run = next.run_scenario();
                    next.sim.recompute(run.as_ref(), true);
                }
                if next.sim.apply(action) {
                    let force = next.sim.run().is_some();
                    let run = next.run_scenario();
                    next.sim.recompute(run.as_ref(), force);
                }
            }
            Action::LoadShared(shared) => {
                let keep = (next.notice.clone(), next.restorable.clone());
                let exercise = (next.code.take(), next.exercise_open);
                next = Playground::from_shared(&shared);
                (next.notice, next.restorable) = keep;
                // Documents from an embedding page carry no code: the learner's stays.
                if shared.code.is_none() {
                    (next.code, next.exercise_open) = exercise;
                }
            }
            Action::OpenSession(shared) => {
                let restorable = next.restorable.take();
                next = Playground::from_shared(&shared);
                next.restorable = restorable;
                next.notice = Some(Notice::SessionOpened);
            }
            Action::AutosaveProblem(problem) => {
                if next.autosave_problem == problem {
                    return self;
                }
            }
            Action::RestorePrevious => {
                let Some(previous) = next.restorable.take() else {
                    return self;
                };
                next = Playground::from_shared(&previous);
                // Edits made since are swapped out, not dropped.
                self.keep_replaced_work(&mut next, || Loaded::Restored);
            }
            Action::Import { file_name, text } => match import_documents(&next, &file_name, text) {
                Ok(documents) => {
                    next = next.with_documents(documents);
                    next.notice = Some(Notice::Imported(Loaded::File(file_name.clone())));
                    self.keep_replaced_work(&mut next, || Loaded::File(file_name));
                }
                Err(error) => {
                    next.notice = Some(Notice::ImportFailed {
                        file_name,
                        error: error.to_string(),
                    });
                }
            },
            Action::SetNotice(notice) => next.notice = notice,
            Action::Dismiss => {
                if next.notice.take().is_none() {
                    next.restorable = None;
                }
            }
            Action::LoadDocuments { documents, what } => {
                next = next.with_documents(documents);
                next.notice = Some(Notice::Imported(Loaded::Documents(what.clone())));
                self.keep_replaced_work(&mut next, || Loaded::Documents(what));
            }
            Action::Exercise(action) => {
                if !next.apply_exercise(action) {
                    return self;
                }
            }
            Action::Yaml(action) => {
                if !next.apply_yaml(action) {
                    return self;
                }
            }
            Action::Lesson(action) => {
                if !next.apply_lesson(&self, action) {
                    return self;
                }
            }
            Action::CustomResource(action) => {
                if !next.apply_custom_resource(action) {
                    return self;
                }
            }
        }
        next.autosave_problem = autosave_problem;
        // Any change of the code but the pane's own edits is news to the pane.
        next.code_revision = if from_pane || next.code == self.code {
            self.code_revision
        } else {
            self.code_revision.wrapping_add(1)
        };
        Rc::new(next)
    }
}

#[cfg(test)]
mod preset_tests {
    use super::*;

    /// A preset of several custom resources opens one tab each, the first
    /// shown, and runs them all; a preset of one opens one tab.
    #[test]
    fn a_preset_of_several_custom_resources_opens_its_tabs() {
        let state = Rc::new(Playground::from_preset(presets::default_preset()));
        assert!(state.tabs.is_one());
        let state = state.reduce(Action::LoadPreset("fair-keys"));
        let names: Vec<&str> = state.tabs.names().map(|n| n.as_str()).collect();
        assert_eq!(
            names,
            ["cache-a", "cache-b", "cache-c", "cache-d", "cache-e"]
        );
        assert_eq!(state.tabs.shown(), 0);
        assert_eq!(state.preset_id, Some("fair-keys"));
        assert!(state.errors.is_empty(), "{:?}", state.errors);
        let mut state = (*state).clone();
        let run = state.run_scenario().expect("every tab is valid");
        assert_eq!(run.write().1.len(), 5);
        let opened = Playground::from_preset(presets::find("client-go-bucket").expect("shipped"));
        assert_eq!(opened.tabs.len(), 120);
    }
}
