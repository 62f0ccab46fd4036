//! Where the page autosaves (issue 17): each tab into a session of its own,
//! listed in an index of recent sessions; an embed under its own key.
//!
//! Local storage holds each session's autosave under `session/<id>` and the
//! index (`reconcile_content::sessions`, which holds the rules) under one
//! key; the tab's own storage (`sessionStorage`) holds which session is the
//! tab's, so a reload reopens it and a new tab starts a new one. A tab that
//! finds another tab saved its session since it last loaded or saved it
//! forks to a new id: [`Autosave::save`] checks before every write, and the
//! page's `storage` listener ([`Autosave::fork_if_taken`]) as soon as the
//! other tab writes.

use reconcile_content::sessions::{SessionEntry, SessionIndex, Stamp};
use reconcile_content::share::{self, SharedState};

use crate::browser::{self, StorageProblem};
use crate::embed::{EmbedOptions, AUTOSAVE_KEY};

/// The index of recent sessions, in local storage.
pub const INDEX_KEY: &str = "reconcile-playground/v1/sessions";
const SESSION_KEY_PREFIX: &str = "reconcile-playground/v1/session/";
/// In the tab's own storage: the id of the tab's session.
const TAB_KEY: &str = "reconcile-playground/v1/tab-session";
/// Where builds before sessions kept their one autosave; moved into a session once.
const LEGACY_KEY: &str = AUTOSAVE_KEY;

fn session_key(id: &str) -> String {
    format!("{SESSION_KEY_PREFIX}{id}")
}

fn new_id() -> String {
    format!("{}-{}", browser::now_ms(), browser::random_token())
}

fn read_index() -> SessionIndex {
    SessionIndex::parse(&browser::storage_get(INDEX_KEY).unwrap_or_default())
}

/// What the page found saved when it opened.
pub struct Opened {
    /// This tab's own session's state (a reload), else the newest session's;
    /// `Some(None)` when it could not be read.
    pub saved: Option<Option<SharedState>>,
    /// The saved state is the newest session's (from another tab or an
    /// earlier visit), and others are listed: this tab starts a new session
    /// from a copy of it, and the page points to the others.
    pub from_latest: bool,
    pub problem: Option<StorageProblem>,
}

/// What a successful save did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    Written,
    /// Another tab had saved this tab's session since: this tab now keeps
    /// its own copy under a new id.
    Forked,
    /// The state is what was last saved or opened: nothing to write.
    Unchanged,
}

/// Where and how this page autosaves.
pub struct Autosave {
    place: Place,
    /// What was last saved or opened: the same state is not written again
    /// (a new tab does not list a copy of the session it started from).
    unchanged: Option<SharedState>,
}

enum Place {
    /// An embed's own key: embeds keep one autosave each, as before sessions.
    Embed(String),
    Tab(TabSession),
}

struct TabSession {
    id: String,
    /// This page load's token, written with each save (see [`Stamp`]).
    writer: String,
    /// The save of the session this tab last loaded or made.
    known: Option<Stamp>,
}

impl Autosave {
    /// Opens the page's autosave and reads what it holds.
    pub fn open(options: &EmbedOptions) -> (Self, Opened) {
        let problem = browser::storage_problem();
        if options.embed {
            let key = options.autosave_key();
            let saved = browser::storage_get(&key).map(|text| share::from_autosave(&text));
            let opened = Opened {
                saved,
                from_latest: false,
                problem,
            };
            return (Self::new(Place::Embed(key), &opened), opened);
        }
        let writer = browser::random_token();
        let legacy = migrate_legacy(&writer);
        let index = read_index();
        let own = browser::tab_storage_get(TAB_KEY)
            .and_then(|id| Some((browser::storage_get(&session_key(&id))?, id)));
        let (tab, opened) = match own {
            // A reload (or a duplicated tab): the tab's own session.
            Some((text, id)) => {
                let known = index.get(&id).map(SessionEntry::stamp);
                let tab = TabSession { id, writer, known };
                (tab, (Some(share::from_autosave(&text)), false))
            }
            None => {
                let latest = index
                    .newest()
                    .and_then(|entry| browser::storage_get(&session_key(&entry.id)))
                    .map(|text| share::from_autosave(&text));
                // Worth a word only when there are other sessions to reopen.
                let from_latest = latest.is_some() && index.entries().len() > 1;
                let id = browser::tab_storage_get(TAB_KEY).unwrap_or_else(new_id);
                browser::tab_storage_set(TAB_KEY, &id);
                let tab = TabSession {
                    id,
                    writer,
                    known: None,
                };
                (tab, (latest.or(legacy), from_latest))
            }
        };
        let opened = Opened {
            saved: opened.0,
            from_latest: opened.1,
            problem,
        };
        (Self::new(Place::Tab(tab), &opened), opened)
    }

    fn new(place: Place, opened: &Opened) -> Self {
        let unchanged = match &opened.saved {
            Some(saved) => saved.clone(),
            // Nothing saved: the defaults need no saving either.
            None => Some(SharedState::default()),
        };
        Self { place, unchanged }
    }

    /// The key the state is saved under now (the panic banner writes there).
    pub fn key(&self) -> String {
        match &self.place {
            Place::Embed(key) => key.clone(),
            Place::Tab(tab) => session_key(&tab.id),
        }
    }

    /// This tab's session, outside embeds.
    pub fn session_id(&self) -> Option<&str> {
        match &self.place {
            Place::Embed(_) => None,
            Place::Tab(tab) => Some(&tab.id),
        }
    }

    /// Saves `state`, unless it is what was last saved or opened. A tab
    /// forks first if another tab saved its session since.
    pub fn save(&mut self, state: &SharedState) -> Result<Saved, StorageProblem> {
        if self.unchanged.as_ref() == Some(state) {
            return Ok(Saved::Unchanged);
        }
        let text = share::to_autosave(state);
        let saved = match &mut self.place {
            Place::Embed(key) => browser::storage_set(key, &text).map(|()| Saved::Written)?,
            Place::Tab(tab) => tab.save(state, &text)?,
        };
        self.unchanged = Some(state.clone());
        Ok(saved)
    }

    /// Forks when `index` (another tab's write) shows this tab's session
    /// saved by another tab; true if it did. The caller saves the tab's
    /// state at once, so its copy exists.
    pub fn fork_if_taken(&mut self, index: &SessionIndex) -> bool {
        let Place::Tab(tab) = &mut self.place else {
            return false;
        };
        if index.may_write(&tab.id, tab.known.as_ref()) {
            return false;
        }
        tab.fork();
        self.unchanged = None;
        true
    }

    /// The recent sessions, newest first.
    pub fn recent(&self) -> SessionIndex {
        read_index()
    }

    /// Makes session `id` this tab's and returns its state; `None` if it is
    /// gone or unreadable (the tab then stays as it is).
    pub fn switch_to(&mut self, id: &str) -> Option<SharedState> {
        let Place::Tab(tab) = &mut self.place else {
            return None;
        };
        let known = read_index().get(id)?.stamp();
        let state = share::from_autosave(&browser::storage_get(&session_key(id))?)?;
        browser::tab_storage_set(TAB_KEY, id);
        (tab.id, tab.known) = (id.to_owned(), Some(known));
        self.unchanged = Some(state.clone());
        Some(state)
    }

    /// Deletes session `id` and its autosave; never this tab's own.
    pub fn delete(&self, id: &str) -> Result<(), StorageProblem> {
        if self.session_id() == Some(id) {
            return Ok(());
        }
        let mut index = read_index();
        if index.remove(id) {
            browser::storage_set(INDEX_KEY, &index.render())?;
        }
        browser::storage_remove(&session_key(id));
        Ok(())
    }
}

impl TabSession {
    fn save(&mut self, state: &SharedState, text: &str) -> Result<Saved, StorageProblem> {
        let index = read_index();
        let forked = !index.may_write(&self.id, self.known.as_ref());
        if forked {
            self.fork();
        }
        browser::storage_set(&session_key(&self.id), text)?;
        let entry = SessionEntry::new(&self.id, browser::now_ms(), &self.writer, state);
        let stamp = entry.stamp();
        record(index, entry)?;
        self.known = Some(stamp);
        Ok(if forked {
            Saved::Forked
        } else {
            Saved::Written
        })
    }

    fn fork(&mut self) {
        self.id = new_id();
        self.known = None;
        browser::tab_storage_set(TAB_KEY, &self.id);
    }
}

/// Moves the autosave of a build before sessions into a session of its own
/// (the newest), once. Returns what it held when it could not be read (it is
/// not moved; the page says it was ignored).
fn migrate_legacy(writer: &str) -> Option<Option<SharedState>> {
    let text = browser::storage_get(LEGACY_KEY)?;
    let Some(state) = share::from_autosave(&text) else {
        browser::storage_remove(LEGACY_KEY);
        return Some(None);
    };
    let id = new_id();
    let entry = SessionEntry::new(&id, browser::now_ms(), writer, &state);
    let moved =
        browser::storage_set(&session_key(&id), &text).and_then(|()| record(read_index(), entry));
    // Left in place when storage is full: nothing is lost, and it is read as before.
    if moved.is_ok() {
        browser::storage_remove(LEGACY_KEY);
        None
    } else {
        Some(Some(state))
    }
}

/// Records a save in the index and writes it, removing the autosaves of the
/// sessions it evicts.
fn record(mut index: SessionIndex, entry: SessionEntry) -> Result<(), StorageProblem> {
    for evicted in index.record(entry) {
        browser::storage_remove(&session_key(&evicted));
    }
    browser::storage_set(INDEX_KEY, &index.render())
}
