//! Reading the editors' documents again after an edit, doing only what the
//! edit changed: a text that stayed is not read again; a YAML text is read
//! again around the change ([`crate::StreamCache`]); and of a `{name: spec}`
//! document, core reads again only the entries whose values are new, while
//! the others are taken from the last read. Anything unusual reads the
//! whole document, so results and errors are always a whole read's (a
//! property test checks this).

use std::sync::Arc;

use reconcile_core::{
    resources_from_value, Document, Format, InputError, Json, Resources, Scenario, UnlocatedError,
};

use crate::incremental::common_ends;
use crate::{
    merge_finalizers, read_finalizers_in, read_resources_cached, ManifestOptions, ReadResources,
    ReadScenario, StreamCache,
};

/// What reading the editors' documents keeps for the next read.
#[derive(Debug, Default)]
pub struct ReadCache {
    desired: DocumentCache,
    observed: DocumentCache,
}

impl ReadCache {
    /// A number per desired and observed document that changes whenever
    /// the read of that document changes, and only then: a reader that has
    /// passed a document on need not pass it on again while it stays.
    pub fn revisions(&self) -> [u64; 2] {
        [self.desired.revision, self.observed.revision]
    }
}

/// One document's last read, and the stream of its last YAML text.
#[derive(Debug, Default)]
struct DocumentCache {
    stream: StreamCache,
    last: Option<LastRead>,
    revision: u64,
}

/// What a text read to, with what it was read from.
#[derive(Debug)]
struct LastRead {
    format: Format,
    text: String,
    cluster_scoped: Vec<String>,
    read: ReadResources,
    /// A `{name: spec}` YAML document's value, beside its resources.
    value: Option<(Json, Resources)>,
}

impl DocumentCache {
    fn read(
        &mut self,
        format: Format,
        document: Document,
        text: &str,
        options: &ManifestOptions,
    ) -> Result<ReadResources, InputError> {
        let same = |last: &&LastRead| {
            last.format == format
                && last.text == text
                && last.cluster_scoped == options.cluster_scoped
        };
        if let Some(last) = self.last.as_ref().filter(same) {
            return Ok(last.read.clone());
        }
        self.revision += 1;
        let last = self.last.take().and_then(|last| last.value);
        let (read, value) = read_resources_cached(
            format,
            document,
            text,
            options,
            &mut self.stream,
            last.as_ref(),
        )?;
        self.last = Some(LastRead {
            format,
            text: text.to_owned(),
            cluster_scoped: options.cluster_scoped.clone(),
            value: value.map(|value| (value, read.resources.clone())),
            read: read.clone(),
        });
        Ok(read)
    }
}

/// [`crate::read_documents_in`] with a cache of the last read (the same results).
pub fn read_documents_cached(
    cache: &mut ReadCache,
    [desired_format, observed_format, finalizers_format]: [Format; 3],
    desired: &str,
    observed: &str,
    finalizers: &str,
    options: &ManifestOptions,
) -> Result<ReadScenario, Vec<InputError>> {
    let desired = cache
        .desired
        .read(desired_format, Document::Desired, desired, options);
    let observed = cache
        .observed
        .read(observed_format, Document::Observed, observed, options);
    let listed = read_finalizers_in(finalizers_format, finalizers);
    let (desired, observed, listed) = match (desired, observed, listed) {
        (Ok(d), Ok(o), Ok(f)) => (d, o, f),
        (d, o, f) => return Err([d.err(), o.err(), f.err()].into_iter().flatten().collect()),
    };
    let finalizers = merge_finalizers(listed, &desired.manifests, &observed.manifests, finalizers)
        .map_err(|error| vec![error])?;
    Ok(ReadScenario {
        scenario: Scenario {
            desired: desired.resources.clone(),
            observed: observed.resources.clone(),
            finalizers,
        },
        desired,
        observed,
    })
}

/// Core's [`resources_from_value`] of `value`, which reads again only the
/// entries that are not, by pointer, the values of `last` (a value read
/// before, with its resources): a keystroke in a 10,000-entry document
/// has core read one entry.
pub(crate) fn resources_from_value_reusing(
    value: &Json,
    last: Option<&(Json, Resources)>,
) -> Result<Resources, UnlocatedError> {
    match last.and_then(|(last_value, resources)| reuse(value, last_value, resources)) {
        Some(resources) => Ok(resources),
        None => resources_from_value(value),
    }
}

/// `last`'s resources with the entries of `value` that differ from
/// `last_value`'s read by core; `None` when the whole should be read: most
/// entries differ, or the new ones do not read alone or repeat a kept name
/// (then the whole read reports it).
fn reuse(value: &Json, last_value: &Json, last: &Resources) -> Option<Resources> {
    let (new, old) = (value.as_object()?, last_value.as_object()?);
    let same = |a: &Member, b: &Member| a.0 == b.0 && identical(&a.1, &b.1);
    let (prefix, suffix) = common_ends(old, new, same);
    let (added, gone) = (
        &new[prefix..new.len() - suffix],
        &old[prefix..old.len() - suffix],
    );
    if added.len() + gone.len() > new.len() / 2 {
        return None;
    }
    let read = resources_from_value(&Json::object(added.to_vec())).ok()?;
    let mut resources = last.clone();
    for (name, _) in gone {
        resources.remove(name);
    }
    for (name, spec) in read.iter() {
        if resources.insert(name, spec.clone()).is_some() {
            return None;
        }
    }
    Some(resources)
}

/// A member of an object: its key and value.
type Member = (Box<str>, Json);

/// The very same value (shared, not equal): what was read once stays read.
fn identical(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::String(a), Json::String(b)) => Arc::ptr_eq(a, b),
        (Json::Array(a), Json::Array(b)) => Arc::ptr_eq(a, b),
        (Json::Object(a), Json::Object(b)) => Arc::ptr_eq(a, b),
        _ => false,
    }
}
