//! The editors' custom resources: one tab each, the shown one's documents
//! in the page's own fields. Start at [`Tabs`].
//!
//! Why a zipper: every editor, the plan, YAML and formatting already work
//! on the page's `texts`, `formats`, `errors`, `plan` and `scenario`. The
//! shown tab keeps them there; the others keep theirs in [`Kept`]. So
//! switching tabs moves one tab's fields in and one out, and loses nothing.
//!
//! Invariant: the page neither writes nor checks a run of several custom
//! resources. It sends each tab's name and scenario
//! (`reconcile_protocol::control_plane::NamedScenario`); the simulation
//! section writes their list form and checks it, and answers a repeated
//! name with `SimulationEvent::Refused`, which marks the tab here.

use std::rc::Rc;

use reconcile_content::share::{DocumentFormats, SharedCustomResource, SharedState};
use reconcile_core::{check_scenario, export_scenario, plan, InputError, Plan, Scenario};
use reconcile_protocol::control_plane::NamedScenario;
use yew::AttrValue;

use super::{Playground, Texts};
use crate::shared::Shared;

/// The name of a scenario's one custom resource, as the simulation names it.
pub const FIRST_NAME: &str = "custom-resource";

/// What a run starts from, and its objects counted: one custom resource's
/// scenario, or every tab's with its name. Its text is written only for a
/// run asked of the module ([`RunScenario::write`]): a large scenario's run
/// waits, and its edits must not pay for a text nobody reads.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunScenario {
    /// The one custom resource's scenario, while there is one.
    one: Option<Rc<Scenario>>,
    /// Every tab's name and scenario, in order, while there are several.
    several: Vec<(AttrValue, Rc<Scenario>)>,
    pub size: usize,
}

impl RunScenario {
    /// The run as the module reads it: core's text of the one scenario, or
    /// each tab's name and text (`reconcile_protocol`'s `ViewRun` fields).
    pub fn write(&self) -> (String, Vec<NamedScenario>) {
        let text = self.one.as_deref().map(export_scenario);
        let named = self.several.iter().map(|(name, scenario)| NamedScenario {
            name: name.to_string(),
            scenario: export_scenario(scenario),
        });
        (text.unwrap_or_default(), named.collect())
    }
}

/// What a tab not shown keeps: its documents and what they read as.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    pub texts: Texts,
    pub formats: DocumentFormats,
    pub errors: Vec<InputError>,
    pub plan: Option<Shared<Plan>>,
    /// Its last valid documents, parsed.
    pub scenario: Option<Rc<Scenario>>,
}

impl Kept {
    /// New documents, read with core's reader. A YAML document waits for
    /// its tab to be shown, where the YAML module reads it.
    pub fn of(texts: Texts, formats: DocumentFormats) -> Self {
        let mut kept = Self {
            texts,
            formats,
            errors: Vec::new(),
            plan: None,
            scenario: None,
        };
        match check_scenario(
            &kept.texts.desired,
            &kept.texts.observed,
            &kept.texts.finalizers,
        ) {
            Ok(scenario) => {
                let fresh = plan(
                    &scenario.desired,
                    &scenario.observed,
                    scenario.finalizers.as_ref(),
                );
                kept.plan = Some(Shared::new(fresh));
                kept.scenario = Some(Rc::new(scenario));
            }
            Err(errors) => kept.errors = errors,
        }
        kept
    }

    /// An empty custom resource: no objects, nothing observed.
    fn empty() -> Self {
        Self::of(
            Texts::from_strings(["{}\n".into(), "{}\n".into(), String::new()]),
            DocumentFormats::default(),
        )
    }
}

/// A tab not shown: its name and what it keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptTab {
    pub name: AttrValue,
    pub kept: Kept,
}

/// The tabs, in order: those before the shown one, its name, those after.
#[derive(Debug, Clone, PartialEq)]
pub struct Tabs {
    before: Vec<KeptTab>,
    pub name: AttrValue,
    after: Vec<KeptTab>,
    /// Why the custom resources cannot run together (a repeated name),
    /// and in which tab: as the simulation section refused the run.
    pub conflict: Option<(usize, String)>,
}

impl Default for Tabs {
    fn default() -> Self {
        Self {
            before: Vec::new(),
            name: AttrValue::Static(FIRST_NAME),
            after: Vec::new(),
            conflict: None,
        }
    }
}

/// One tab as the tab row shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct TabView {
    pub name: AttrValue,
    pub shown: bool,
    /// Its documents have an error, or its name or objects conflict.
    pub has_error: bool,
}

impl Tabs {
    /// How many tabs: never none (the shown one is always there).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.before.len() + 1 + self.after.len()
    }

    /// The shown tab's position.
    pub fn shown(&self) -> usize {
        self.before.len()
    }

    /// One custom resource of the default name: the page as it always was.
    pub fn is_one(&self) -> bool {
        self.len() == 1 && self.name == FIRST_NAME
    }

    /// Every tab's name, in order.
    pub fn names(&self) -> impl Iterator<Item = &AttrValue> {
        let before = self.before.iter().map(|tab| &tab.name);
        let after = self.after.iter().map(|tab| &tab.name);
        before.chain(std::iter::once(&self.name)).chain(after)
    }

    fn kept(&self, index: usize) -> Option<&KeptTab> {
        let shown = self.shown();
        match index.cmp(&shown) {
            std::cmp::Ordering::Less => self.before.get(index),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => self.after.get(index - shown - 1),
        }
    }

    /// The tab row: `shown_has_error` is the shown tab's own errors.
    pub fn views(&self, shown_has_error: bool) -> Vec<TabView> {
        let conflict = self.conflict.as_ref().map(|(tab, _)| *tab);
        self.names()
            .enumerate()
            .map(|(index, name)| TabView {
                name: name.clone(),
                shown: index == self.shown(),
                has_error: conflict == Some(index)
                    || match self.kept(index) {
                        Some(tab) => !tab.kept.errors.is_empty(),
                        None => shown_has_error,
                    },
            })
            .collect()
    }

    /// The first error of a tab not shown, for its mark's description.
    pub fn kept_error(&self, index: usize) -> Option<&InputError> {
        self.kept(index)?.kept.errors.first()
    }

    /// A name no tab has: `custom-resource-2`, `-3`, …
    fn fresh_name(&self) -> String {
        (2..)
            .map(|n| format!("{FIRST_NAME}-{n}"))
            .find(|name| self.names().all(|taken| taken != name))
            .unwrap_or_default()
    }

    /// Shows tab `index`, keeping `shown` (the page's fields) in its place;
    /// returns what tab `index` kept.
    fn swap(&mut self, index: usize, shown: Kept) -> Option<Kept> {
        if index == self.shown() || index >= self.len() {
            return None;
        }
        let name = self.name.clone();
        let mut all: Vec<KeptTab> = std::mem::take(&mut self.before);
        all.push(KeptTab { name, kept: shown });
        all.append(&mut self.after);
        let taken = all.remove(index);
        self.after = all.split_off(index);
        self.before = all;
        self.name = taken.name;
        Some(taken.kept)
    }
}

/// What the tab row asks.
#[derive(Debug, Clone, PartialEq)]
pub enum CustomResourceAction {
    /// Show tab `index`'s documents in the editors.
    Select(usize),
    /// A new, empty custom resource, shown.
    Add,
    /// Remove tab `index`; never the last one.
    Remove(usize),
    Rename(usize, String),
    /// The simulation section refused run `revision`: tab `entry` repeats a name.
    Refused {
        revision: usize,
        entry: usize,
        message: String,
    },
}

impl Playground {
    /// Applies a tab row's action; false when nothing changed.
    pub(super) fn apply_custom_resource(&mut self, action: CustomResourceAction) -> bool {
        match action {
            CustomResourceAction::Select(index) => return self.show_tab(index),
            CustomResourceAction::Refused {
                revision,
                entry,
                message,
            } => {
                let refused = Some((entry, message));
                if revision != self.sim.revision() || self.tabs.conflict == refused {
                    return false;
                }
                self.tabs.conflict = refused;
                return true;
            }
            CustomResourceAction::Add => {
                let name = self.tabs.fresh_name();
                let shown = self.take_shown(Kept::empty());
                self.shown_changed();
                let after = std::mem::take(&mut self.tabs.after);
                let old = std::mem::replace(&mut self.tabs.name, name.into());
                self.tabs.before.push(KeptTab {
                    name: old,
                    kept: shown,
                });
                self.tabs.before.extend(after);
            }
            CustomResourceAction::Remove(index) => {
                if self.tabs.len() == 1 || index >= self.tabs.len() {
                    return false;
                }
                let shown = self.tabs.shown();
                if index == shown {
                    // Its neighbour is shown instead: the next one, else the one before.
                    let next = if self.tabs.after.is_empty() {
                        shown - 1
                    } else {
                        shown + 1
                    };
                    self.show_tab(next);
                    return self.apply_custom_resource(CustomResourceAction::Remove(index));
                }
                if index < shown {
                    self.tabs.before.remove(index);
                } else {
                    self.tabs.after.remove(index - shown - 1);
                }
            }
            CustomResourceAction::Rename(index, name) => {
                let shown = self.tabs.shown();
                let slot = if index == shown {
                    &mut self.tabs.name
                } else if index < shown {
                    match self.tabs.before.get_mut(index) {
                        Some(tab) => &mut tab.name,
                        None => return false,
                    }
                } else {
                    match self.tabs.after.get_mut(index - shown - 1) {
                        Some(tab) => &mut tab.name,
                        None => return false,
                    }
                };
                if *slot == name {
                    return false;
                }
                *slot = name.into();
            }
        }
        self.preset_id = None;
        self.pristine = false;
        self.revision += 1;
        self.checked_revision = self.revision;
        self.rerun();
        true
    }

    /// Moves the shown tab's fields out, and `kept`'s in.
    fn take_shown(&mut self, kept: Kept) -> Kept {
        // What was typed and not checked yet is checked now, so its tab's mark is right.
        if self.revision != self.checked_revision {
            self.check();
        }
        Kept {
            texts: std::mem::replace(&mut self.texts, kept.texts),
            formats: std::mem::replace(&mut self.formats, kept.formats),
            errors: std::mem::replace(&mut self.errors, kept.errors),
            plan: std::mem::replace(&mut self.plan, kept.plan),
            scenario: std::mem::replace(&mut self.scenario, kept.scenario),
        }
    }

    fn show_tab(&mut self, index: usize) -> bool {
        if index == self.tabs.shown() || index >= self.tabs.len() {
            return false;
        }
        let placeholder = Kept::of(Texts::default(), DocumentFormats::default());
        let shown = self.take_shown(placeholder);
        let Some(taken) = self.tabs.swap(index, shown) else {
            return false;
        };
        let _ = self.take_shown(taken);
        self.shown_changed();
        true
    }

    /// Another tab's documents are in the editors now.
    fn shown_changed(&mut self) {
        // The YAML module's read and its cache were the other tab's.
        self.yaml_request = None;
        self.yaml_parsed = Default::default();
        // A YAML document is read now that its tab is shown.
        let scenario = self.scenario.clone();
        self.request_yaml_read(scenario.as_deref());
    }

    /// The scenario the simulation section runs; `None` while a tab has
    /// no valid documents. A conflict waits for the section's answer.
    pub fn run_scenario(&mut self) -> Option<RunScenario> {
        self.tabs.conflict = None;
        let count = |scenario: &Scenario| scenario.desired.len() + scenario.observed.len();
        if self.tabs.is_one() {
            let scenario = self.scenario.as_ref()?;
            return Some(RunScenario {
                size: count(scenario),
                one: Some(Rc::clone(scenario)),
                several: Vec::new(),
            });
        }
        let shown = (&self.tabs.name, self.scenario.as_ref());
        fn kept(tab: &KeptTab) -> (&AttrValue, Option<&Rc<Scenario>>) {
            (&tab.name, tab.kept.scenario.as_ref())
        }
        let before = self.tabs.before.iter().map(kept);
        let after = self.tabs.after.iter().map(kept);
        let several = before
            .chain(Some(shown))
            .chain(after)
            .map(|(name, scenario)| Some((name.clone(), Rc::clone(scenario?))))
            .collect::<Option<Vec<_>>>()?;
        Some(RunScenario {
            size: several.iter().map(|(_, scenario)| count(scenario)).sum(),
            one: None,
            several,
        })
    }

    /// Asks for the run of every custom resource as they are now.
    pub(super) fn rerun(&mut self) {
        let run = self.run_scenario();
        self.sim.recompute(run.as_ref(), false);
    }

    /// The tabs a link or an autosave keeps, after the first.
    pub(super) fn shared_custom_resources(&self) -> (Option<String>, Vec<SharedCustomResource>) {
        let first = |texts: &Texts, formats: DocumentFormats, name: &AttrValue| {
            (texts.clone(), formats, name.clone())
        };
        let mut all = Vec::with_capacity(self.tabs.len());
        for tab in &self.tabs.before {
            all.push(first(&tab.kept.texts, tab.kept.formats, &tab.name));
        }
        all.push(first(&self.texts, self.formats, &self.tabs.name));
        for tab in &self.tabs.after {
            all.push(first(&tab.kept.texts, tab.kept.formats, &tab.name));
        }
        let name =
            (self.tabs.name != FIRST_NAME || self.tabs.len() > 1).then(|| all[0].2.to_string());
        let others = all
            .into_iter()
            .skip(1)
            .map(|(texts, formats, name)| SharedCustomResource {
                name: name.to_string(),
                desired: texts.desired.to_string(),
                observed: texts.observed.to_string(),
                finalizers: texts.finalizers.to_string(),
                formats,
            })
            .collect();
        (name, others)
    }

    /// The first tab's documents and the others' from a link or an
    /// autosave; the first is shown.
    pub(super) fn take_shared_custom_resources(&mut self, shared: &SharedState) {
        if let Some(name) = &shared.custom_resource_name {
            self.tabs.name = name.clone().into();
        }
        for other in &shared.custom_resources {
            let texts = Texts::from_strings([
                other.desired.clone(),
                other.observed.clone(),
                other.finalizers.clone(),
            ]);
            self.tabs.after.push(KeptTab {
                name: other.name.clone().into(),
                kept: Kept::of(texts, other.formats),
            });
        }
    }

    /// The first tab's texts, formats and name, wherever it is.
    pub(super) fn first_tab(&self) -> (&Texts, DocumentFormats) {
        match self.tabs.before.first() {
            Some(tab) => (&tab.kept.texts, tab.kept.formats),
            None => (&self.texts, self.formats),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Action;
    use reconcile_core::Document;
    use reconcile_protocol::control_plane::ViewRun;
    use reconcile_sim::list_entry_of;
    use yew::Reducible;

    fn reduce(state: Rc<Playground>, action: CustomResourceAction) -> Rc<Playground> {
        state.reduce(Action::CustomResource(action))
    }

    fn edit(state: Rc<Playground>, document: Document, text: &str) -> Rc<Playground> {
        let state = state.reduce(Action::Edit {
            document,
            text: text.to_owned(),
        });
        state.reduce(Action::Check)
    }

    #[test]
    fn one_custom_resource_is_the_page_as_before() {
        let state = Playground::default();
        assert!(state.tabs.is_one());
        let shared = state.shared();
        assert!(!shared.is_several(), "{shared:?}");
    }

    #[test]
    fn each_tab_keeps_its_documents_and_the_plan_is_the_shown_ones() {
        let state = Rc::new(Playground::default());
        let first_plan = state.plan.clone();
        let state = reduce(state, CustomResourceAction::Add);
        assert_eq!(state.tabs.len(), 2);
        assert_eq!(state.tabs.shown(), 1);
        assert_eq!(state.tabs.name, "custom-resource-2");
        assert_eq!(state.texts.get(Document::Desired), "{}\n");
        let state = edit(
            state,
            Document::Desired,
            r#"{"cache-b-0": {"image": "redis:7"}}"#,
        );
        let plan = state.plan.as_deref().expect("a plan");
        assert_eq!(plan.actions.len(), 1);
        // The first tab's documents and plan are as they were.
        let state = reduce(state, CustomResourceAction::Select(0));
        assert_eq!(state.plan, first_plan);
        let state = reduce(state, CustomResourceAction::Select(1));
        assert!(state.texts.get(Document::Desired).contains("cache-b-0"));
    }

    #[test]
    fn an_error_in_a_tab_not_shown_marks_it_with_its_location() {
        let state = reduce(Rc::new(Playground::default()), CustomResourceAction::Add);
        // Typed, then switched away before the check: checked on the way out.
        let state = state.reduce(Action::Edit {
            document: Document::Desired,
            text: "{\n  \"a\": 1,\n}".into(),
        });
        let state = reduce(state, CustomResourceAction::Select(0));
        let views = state.tabs.views(!state.errors.is_empty());
        assert!(!views[0].has_error && views[1].has_error, "{views:?}");
        let error = state.tabs.kept_error(1).expect("kept");
        assert_eq!((error.line, error.column), (3, 1));
    }

    /// The run the page asks for, as the simulation section reads it.
    fn section_reads(state: &Rc<Playground>) -> Result<usize, (usize, String)> {
        let run = state.clone().run_scenario_for_test().expect("runs");
        let (scenario, custom_resources) = run.write();
        let view_run = ViewRun {
            scenario,
            options: "{}".into(),
            custom_resources,
        };
        match view_run.read_scenario() {
            Ok(read) => Ok(read.entries().len()),
            Err(error) => Err((list_entry_of(&error).expect("an entry"), error.message)),
        }
    }

    #[test]
    fn a_repeated_object_marks_the_tab_the_section_names() {
        let state = Rc::new(Playground::default());
        let observed = state.texts.get(Document::Observed).to_owned();
        let state = reduce(state, CustomResourceAction::Add);
        let state = edit(state, Document::Observed, &observed);
        // The page sends both; the section refuses them, naming the second.
        let (entry, message) = section_reads(&state).expect_err("a repeated object");
        assert_eq!(entry, 1);
        assert!(message.contains("two custom resources"), "{message}");
        let revision = state.sim.revision();
        let refused = |revision| CustomResourceAction::Refused {
            revision,
            entry,
            message: message.clone(),
        };
        // An answer about an earlier run is late: nothing is marked.
        let late = reduce(state.clone(), refused(revision.wrapping_sub(1)));
        assert_eq!(late.tabs.conflict, None);
        let state = reduce(state, refused(revision));
        assert_eq!(state.tabs.conflict, Some((1, message)));
        let views = state.tabs.views(!state.errors.is_empty());
        assert!(!views[0].has_error && views[1].has_error, "{views:?}");
        // The next run asked clears the mark until the section answers again.
        let state = edit(state, Document::Observed, "{}");
        assert_eq!(state.tabs.conflict, None);
        assert_eq!(section_reads(&state), Ok(2));
    }

    #[test]
    fn several_run_in_the_list_form_and_travel_in_links() {
        let state = reduce(Rc::new(Playground::default()), CustomResourceAction::Add);
        let state = reduce(state, CustomResourceAction::Rename(1, "cache-b".into()));
        let (_, custom_resources) = state.clone().run_scenario_for_test().expect("runs").write();
        let names: Vec<&str> = custom_resources.iter().map(|cr| &*cr.name).collect();
        assert_eq!(names, ["custom-resource", "cache-b"]);
        assert_eq!(section_reads(&state), Ok(2));
        let shared = state.shared();
        assert!(shared.is_several());
        assert_eq!(shared.custom_resources[0].name, "cache-b");
        let reopened = Playground::from_shared(&shared);
        assert_eq!(reopened.tabs.len(), 2);
        assert_eq!(reopened.shared(), shared);
        // Removing the second leaves one: the page as before.
        let state = reduce(state, CustomResourceAction::Remove(1));
        assert!(state.tabs.is_one());
        let state = reduce(state, CustomResourceAction::Remove(0));
        assert_eq!(state.tabs.len(), 1, "never the last");
    }

    /// A large scenario's run waits for Step, and only then is its text
    /// written: the text core writes of the scenario, as before.
    #[test]
    fn a_large_scenarios_run_is_written_when_it_is_asked_for() {
        use crate::state::sim::AUTO_SIMULATE_LIMIT;
        use crate::state::SimAction;
        let objects: Vec<String> = (0..=AUTO_SIMULATE_LIMIT)
            .map(|i| format!("\"web-{i:05}\": {{\"replicas\": 1}}"))
            .collect();
        let desired = format!("{{{}}}", objects.join(", "));
        let state = edit(Rc::new(Playground::default()), Document::Desired, &desired);
        assert!(state.sim.deferred() && state.sim.run().is_none());
        let state = state.reduce(Action::Sim(SimAction::Step));
        let run = state.sim.run().expect("Step asks for the run");
        let scenario = state.scenario.as_deref().expect("valid");
        assert_eq!(run.run.scenario, export_scenario(scenario));
        assert!(run.run.custom_resources.is_empty());
    }

    impl Playground {
        fn run_scenario_for_test(mut self: Rc<Self>) -> Option<RunScenario> {
            Rc::make_mut(&mut self).run_scenario()
        }
    }
}
