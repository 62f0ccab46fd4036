//! YAML in the editors: each document's format, the reads the YAML module
//! (loaded on demand, in a worker) is asked for, and conversions with their
//! Undo. The module reads; core parses its answer and plans, as for JSON.

use std::rc::Rc;

use reconcile_core::{
    detect_format, parse_finalizers, parse_resources, scenario_from_reads, Document, Format,
    InputError, Resources, Scenario,
};
use yew::AttrValue;

use super::{Notice, Playground, Texts, DOCUMENTS};
use crate::shared::Shared;

/// A read of the three documents, for the YAML module. The page takes the
/// answer only while this exact request (by identity) is the latest.
#[derive(Debug)]
pub struct YamlRequest {
    /// Desired, observed, finalizers.
    pub formats: [Format; 3],
    pub texts: Texts,
}

/// What the YAML module answered.
#[derive(Debug, Clone, PartialEq)]
pub enum YamlReply {
    /// The scenario as read, for core's reader.
    Scenario(ReadDocuments),
    /// Each document's located error.
    Errors(Vec<InputError>),
}

/// The scenario the YAML module read.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadDocuments {
    /// Desired and observed as JSON texts: the same `Rc` as in an earlier
    /// answer when the document reads as it did then.
    pub resources: [Rc<str>; 2],
    /// The finalizers as a JSON text.
    pub finalizers: String,
    /// The observed objects whose manifests have a `metadata.deletionTimestamp`.
    pub terminating: Vec<String>,
}

/// The desired and observed resources core parsed from the YAML module's
/// last answers, with the text each came from (compared by identity).
#[derive(Debug, Clone, Default)]
pub struct ParsedAnswers([Option<Rc<ParsedText>>; 2]);

#[derive(Debug)]
struct ParsedText {
    text: Rc<str>,
    resources: Resources,
}

impl PartialEq for ParsedAnswers {
    fn eq(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).all(|pair| match pair {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        })
    }
}

/// A JSON document read as resources named `apiVersion` and `kind` with
/// string specs: the top level of a Kubernetes object. The YAML module's
/// manifest rule (`reconcile_yaml::manifest`) decides what it is; this only
/// keeps the module from loading for plain `{name: spec}` documents.
fn may_be_manifest(resources: &Resources) -> bool {
    ["apiVersion", "kind"]
        .iter()
        .all(|key| matches!(resources.get(key), Some(reconcile_core::Json::String(_))))
}

/// Core's read of `text`, or the last one when it is of the same text.
fn parse_once(
    parsed: &mut Option<Rc<ParsedText>>,
    document: Document,
    text: &Rc<str>,
) -> Result<Resources, InputError> {
    if let Some(last) = parsed.as_ref().filter(|last| Rc::ptr_eq(&last.text, text)) {
        return Ok(last.resources.share());
    }
    let resources = parse_resources(document, text);
    *parsed = resources.as_ref().ok().map(|resources| {
        Rc::new(ParsedText {
            text: Rc::clone(text),
            resources: resources.share(),
        })
    });
    resources
}

/// A document's text in another format, or pretty-printed in its own.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    pub text: String,
    /// The YAML it came from had comments, which this text has not.
    pub dropped_comments: bool,
}

/// Everything about YAML a user (or the YAML module) does to the page.
#[derive(Debug, Clone, PartialEq)]
pub enum YamlAction {
    /// The module read `request`'s texts.
    Read {
        request: Shared<YamlRequest>,
        reply: YamlReply,
    },
    /// Read a document in this format from now on (its text unchanged).
    Switch(Document, Format),
    /// The module converted `source`, the document's text when it was asked.
    Converted {
        document: Document,
        source: AttrValue,
        to: Format,
        result: Result<Converted, InputError>,
    },
    /// "Convert anyway" after the warning that comments will be lost.
    Confirm,
    /// Put back the text and format from before the last conversion.
    Undo,
}

impl Playground {
    /// The format a document is read in: chosen, or detected from its text.
    pub fn format_of(&self, document: Document) -> Format {
        self.formats
            .get(document)
            .unwrap_or_else(|| detect_format(self.texts.get(document)))
    }

    fn formats_now(&self) -> [Format; 3] {
        DOCUMENTS.map(|document| self.format_of(document))
    }

    /// Asks the YAML module for a read when a document is YAML, or when
    /// core's read of the JSON documents (`json`) has one that may be a
    /// Kubernetes object or List (`kubectl get -o json`), which the module
    /// reads as manifests; true then.
    pub(super) fn request_yaml_read(&mut self, json: Option<&Scenario>) -> bool {
        let formats = self.formats_now();
        let manifests =
            json.is_some_and(|s| may_be_manifest(&s.desired) || may_be_manifest(&s.observed));
        self.yaml_request = (manifests || formats.contains(&Format::Yaml)).then(|| {
            Shared::new(YamlRequest {
                formats,
                texts: self.texts.clone(),
            })
        });
        self.yaml_request.is_some()
    }

    /// Applies a YAML action; false when nothing changed.
    pub(super) fn apply_yaml(&mut self, action: YamlAction) -> bool {
        match action {
            YamlAction::Read { request, reply } => {
                if self.yaml_request.as_ref() != Some(&request) {
                    return false;
                }
                self.yaml_request = None;
                match reply {
                    YamlReply::Scenario(read) => match self.parse_read(&read) {
                        Ok(scenario) => self.accept(scenario, read.terminating),
                        Err(errors) => self.errors = errors,
                    },
                    YamlReply::Errors(errors) => self.errors = errors,
                }
            }
            YamlAction::Switch(document, format) => {
                if self.format_of(document) == format {
                    return false;
                }
                self.formats.set(document, Some(format));
                self.edited();
            }
            YamlAction::Converted {
                document,
                source,
                to,
                result,
            } => {
                if !super::same_text(self.texts.value(document), &source) {
                    return false; // typed over since: the conversion is of an older text
                }
                match result {
                    Err(error) => self.show_error(error),
                    Ok(converted) if converted.dropped_comments => {
                        self.notice = Some(Notice::CommentsWillBeLost {
                            document,
                            to,
                            converted: converted.text.into(),
                        });
                    }
                    Ok(converted) => self.convert(document, to, converted.text.into()),
                }
            }
            YamlAction::Confirm => {
                let Some(Notice::CommentsWillBeLost {
                    document,
                    to,
                    converted,
                }) = self.notice.clone()
                else {
                    return false;
                };
                self.convert(document, to, converted);
            }
            YamlAction::Undo => {
                let Some(Notice::Converted {
                    document,
                    previous,
                    previous_formats,
                    ..
                }) = self.notice.take()
                else {
                    return false;
                };
                self.texts.set_shared(document, previous);
                self.formats = previous_formats;
                self.edited();
            }
        }
        true
    }

    /// The YAML module's scenario, parsed by core; a desired or observed
    /// text the last answer had too is not parsed again.
    fn parse_read(&mut self, read: &ReadDocuments) -> Result<Scenario, Vec<InputError>> {
        let [desired, observed] = &mut self.yaml_parsed.0;
        let [desired_text, observed_text] = &read.resources;
        scenario_from_reads(
            parse_once(desired, Document::Desired, desired_text),
            parse_once(observed, Document::Observed, observed_text),
            parse_finalizers(&read.finalizers),
        )
    }

    /// Replaces a document with its conversion, keeping what Undo puts back.
    fn convert(&mut self, document: Document, to: Format, text: AttrValue) {
        self.notice = Some(Notice::Converted {
            document,
            to,
            previous: self.texts.value(document).clone(),
            previous_formats: self.formats,
        });
        self.texts.set_shared(document, text);
        self.formats.set(document, Some(to));
        self.edited();
    }

    /// After a change of a document's text or format: checked again at once.
    fn edited(&mut self) {
        self.revision += 1;
        self.preset_id = None;
        self.pristine = false;
        self.check();
    }

    /// Shows a document's error in place of the one it had.
    pub(super) fn show_error(&mut self, error: InputError) {
        self.errors.retain(|e| e.document != error.document);
        self.errors.push(error);
    }
}
