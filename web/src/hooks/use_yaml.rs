use std::cell::RefCell;
use std::rc::Rc;

use reconcile_core::{Document, Format};
use yew::prelude::*;

use crate::shared::Shared;
use crate::state::{is_yaml_file, Action, Notice, Playground, YamlAction, YamlRequest, DOCUMENTS};
use crate::yaml_worker::{self, Unavailable};

/// Where the YAML reader stands.
#[derive(Debug, Clone, PartialEq)]
pub enum YamlLoad {
    /// No document has been YAML yet: nothing was downloaded.
    Idle,
    Loading,
    /// The download or the start failed, with the browser's words.
    Failed(String),
    Ready,
}

/// YAML support as the page uses it.
pub struct YamlSupport {
    pub load: YamlLoad,
    /// Loads a failed reader again and repeats the last read.
    pub retry: Callback<()>,
    /// Converts a document to a format (its own: formats it).
    pub convert: Callback<(Document, Format)>,
    /// Downloads the desired state as a YAML manifest stream.
    pub export_desired: Callback<()>,
    /// Imports a file (its name and text): a YAML scenario file into the
    /// three editors, any other file as `Action::Import` takes it.
    pub import: Callback<(String, String)>,
}

/// What the callbacks need of the page at the moment they run.
#[derive(Default)]
struct Latest {
    request: Option<Shared<YamlRequest>>,
    texts: [AttrValue; 3],
    formats: [Option<Format>; 3],
}

/// Sends each read the page asks for (a document is YAML) to the YAML
/// module's worker, started on the first one, and gives the answers back
/// as actions; converts and exports through it too.
#[hook]
pub fn use_yaml(state: &Playground, dispatch: Callback<Action>) -> YamlSupport {
    let load = use_state_eq(|| YamlLoad::Idle);
    let latest = use_mut_ref(Latest::default);
    {
        let mut latest = latest.borrow_mut();
        latest.texts = DOCUMENTS.map(|document| state.texts.value(document).clone());
        latest.formats = DOCUMENTS.map(|document| Some(state.format_of(document)));
    }
    {
        let (latest, load, dispatch) = (Rc::clone(&latest), load.clone(), dispatch.clone());
        use_effect_with(state.yaml_request.clone(), move |request| {
            latest.borrow_mut().request = request.clone();
            if let Some(request) = request {
                read(request.clone(), load, dispatch);
            }
        });
    }
    // Made once, so the editors are not rendered again for a new closure.
    let retry = {
        let (latest, load, dispatch) = (Rc::clone(&latest), load.clone(), dispatch.clone());
        use_callback((), move |(), ()| match latest.borrow().request.clone() {
            Some(request) => read(request, load.clone(), dispatch.clone()),
            None => load.set(YamlLoad::Idle),
        })
    };
    let convert = {
        let (latest, load, dispatch) = (Rc::clone(&latest), load.clone(), dispatch.clone());
        use_callback((), move |(document, to): (Document, Format), ()| {
            convert(&latest, document, to, load.clone(), dispatch.clone());
        })
    };
    let export_desired = {
        let (latest, load) = (Rc::clone(&latest), load.clone());
        Callback::from(move |()| export_desired(&latest, load.clone()))
    };
    let import = {
        let load = load.clone();
        Callback::from(move |(file_name, text): (String, String)| {
            import(file_name, text, load.clone(), dispatch.clone());
        })
    };
    YamlSupport {
        load: (*load).clone(),
        retry,
        convert,
        export_desired,
        import,
    }
}

/// Says "Loading" until the reader answers, unless it already has.
fn loading(load: &UseStateHandle<YamlLoad>) {
    if **load != YamlLoad::Ready {
        load.set(YamlLoad::Loading);
    }
}

fn unavailable(load: &UseStateHandle<YamlLoad>, Unavailable(message): Unavailable) {
    load.set(YamlLoad::Failed(message));
}

fn read(request: Shared<YamlRequest>, load: UseStateHandle<YamlLoad>, dispatch: Callback<Action>) {
    loading(&load);
    let texts = DOCUMENTS.map(|document| request.texts.value(document).clone());
    yaml_worker::read(request.formats, texts, move |reply| match reply {
        Ok(reply) => {
            load.set(YamlLoad::Ready);
            if let Some(reply) = reply {
                dispatch.emit(Action::Yaml(YamlAction::Read { request, reply }));
            }
        }
        Err(error) => unavailable(&load, error),
    });
}

fn convert(
    latest: &RefCell<Latest>,
    document: Document,
    to: Format,
    load: UseStateHandle<YamlLoad>,
    dispatch: Callback<Action>,
) {
    let at = DOCUMENTS.iter().position(|d| *d == document).unwrap_or(0);
    let (source, from) = {
        let latest = latest.borrow();
        (
            latest.texts[at].clone(),
            latest.formats[at].unwrap_or(Format::Json),
        )
    };
    if (from, to) == (Format::Json, Format::Json) {
        // JSON formats as it always has, without the YAML module.
        return dispatch.emit(Action::Format(document));
    }
    loading(&load);
    wasm_bindgen_futures::spawn_local(async move {
        match yaml_worker::convert(document, &source, from, to).await {
            Ok(result) => {
                load.set(YamlLoad::Ready);
                dispatch.emit(Action::Yaml(YamlAction::Converted {
                    document,
                    source,
                    to,
                    result,
                }));
            }
            Err(error) => unavailable(&load, error),
        }
    });
}

/// Offered only while the documents have no error: the desired text is the
/// state the page shows.
fn export_desired(latest: &RefCell<Latest>, load: UseStateHandle<YamlLoad>) {
    let (text, format) = {
        let latest = latest.borrow();
        (
            latest.texts[0].clone(),
            latest.formats[0].unwrap_or(Format::Json),
        )
    };
    loading(&load);
    wasm_bindgen_futures::spawn_local(async move {
        match yaml_worker::desired_stream(format, &text).await {
            Ok(text) => {
                load.set(YamlLoad::Ready);
                crate::browser::download("desired.yaml", &text);
            }
            Err(error) => unavailable(&load, error),
        }
    });
}

/// A YAML file may be a scenario file, which the YAML module splits; any
/// other file, or a YAML file when the module cannot be had, is imported as
/// it always was.
fn import(
    file_name: String,
    text: String,
    load: UseStateHandle<YamlLoad>,
    dispatch: Callback<Action>,
) {
    if !is_yaml_file(&file_name, &text) {
        return dispatch.emit(Action::Import { file_name, text });
    }
    loading(&load);
    wasm_bindgen_futures::spawn_local(async move {
        let split = yaml_worker::scenario_documents(&text).await;
        if split.is_ok() {
            load.set(YamlLoad::Ready);
        }
        dispatch.emit(match split {
            Ok(Ok(Some(documents))) => Action::LoadDocuments {
                documents,
                what: file_name,
            },
            Ok(Err(error)) => Action::SetNotice(Some(Notice::ImportFailed {
                file_name,
                error: error.to_string(),
            })),
            Ok(Ok(None)) | Err(_) => Action::Import { file_name, text },
        });
    });
}
