//! The whole playground state in a URL hash: `#v2/<base64url(deflate(json))>`,
//! or `#v3/…` when it holds several custom resources.
//!
//! Guarantees:
//! - Links are versioned; a missing field takes its default, so a link made by
//!   an older build keeps opening after fields are added.
//! - A state of one custom resource is written as `v2`, as before, so older
//!   builds open it. Several are written as `v3`, which older builds refuse
//!   rather than open with one custom resource and drop the rest.
//! - A `v1` link still opens. Where one of its settings now means something
//!   else, [`decode`] says so with a [`LinkNote`], for the page to show.
//! - A `v4` link replays a learner's controller (issue 30). This build
//!   checks its outside (an object with a `replay` object) and hands the
//!   replay's JSON on ([`Opened::replay`]): the simulation reads the rest.
//! - Decoding never panics and never inflates more than [`MAX_DECODED_BYTES`]
//!   (a decompression bomb stops there with an error).
//! - Every failure is a [`ShareError`] with a sentence for the user.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use reconcile_core::json::Json;
use reconcile_core::path::JsonPath;
use reconcile_core::{Document, Format};
use reconcile_sim::SimSettings;

use crate::data::Reader;

/// The version this build writes for one custom resource: since the
/// simulation has an informer, `watchBreakRate` (a `v1` link's `dropRate`)
/// breaks the watch.
pub const VERSION: &str = "v2";
/// The version this build writes for several custom resources
/// (`customResources`): a build before it refuses such a link.
pub const SEVERAL_VERSION: &str = "v3";
/// The version before, still read: its `dropRate` was the share of watch
/// events lost.
pub const EARLIER_VERSION: &str = "v1";
/// The version of a link to a replay of a learner's controller's failing
/// run: a JSON object whose `replay` member is a
/// `reconcile_sim::learner::ReplayLink` (the exercise, its settings, each
/// reconcile's calls; no code). The JS API's `checkController` writes it
/// (`reconcile-wasm/js/controller.js`); a build before it refuses it.
pub const REPLAY_VERSION: &str = "v4";
/// The most a link may inflate to.
pub const MAX_DECODED_BYTES: usize = 1 << 20;

/// What a link or an autosave holds. Missing fields take their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SharedState {
    pub desired: String,
    pub observed: String,
    pub finalizers: String,
    /// The settings as given: the simulation's options parser reads them
    /// where the link runs (a misspelt setting is its error, not a default).
    /// The page never reads them itself (docs/SIZE.md).
    pub sim: SimSettings,
    /// Passes revealed.
    pub pass: usize,
    /// A pass shown as a snapshot.
    pub selected: Option<usize>,
    /// Level vs edge is open: a link opens it at this position for a class,
    /// its conclusion hidden until revealed. Left out when closed.
    /// Its wire name, `compare`, is older than the name level vs edge.
    #[serde(rename = "compare", skip_serializing_if = "std::ops::Not::not")]
    pub level_edge: bool,
    pub preset: Option<String>,
    pub lesson: Option<String>,
    pub step: Option<usize>,
    /// The learner's own reconcile, once the exercise was opened. Left out of
    /// links without one, so they stay as short as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<crate::exercise::LearnerCode>,
    /// The "Your reconcile" pane is open.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exercise: bool,
    /// Each document's format where it was chosen rather than detected from
    /// its text; left out when none was, so older links read the same.
    #[serde(skip_serializing_if = "DocumentFormats::is_detected")]
    pub formats: DocumentFormats,
    /// The teacher's view (issue 33): the lesson's steps (0-based) whose
    /// answers were shown. Left out when none were; older builds ignore it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub answered: Vec<usize>,
    /// The answer on the lesson's step shows.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub answer_shown: bool,
    /// The control-plane view is open.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub picture: bool,
    /// The first custom resource's name, which `desired`, `observed` and
    /// `finalizers` describe; left out while it is the default one's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_resource_name: Option<String>,
    /// The custom resources after the first, in tab order; left out when
    /// there is one, so a `v2` link reads as before.
    /// Read from core's JSON value, as `sim` is: no serde reader of its own
    /// in the page (docs/SIZE.md).
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "read_custom_resources"
    )]
    pub custom_resources: Vec<SharedCustomResource>,
}

/// A custom resource after the first: its name, its three editor texts and
/// their formats, as the first one's are kept in [`SharedState`]. Each
/// member may be left out (empty, detected); [`read_custom_resources`]
/// reads it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SharedCustomResource {
    pub name: String,
    pub desired: String,
    pub observed: String,
    pub finalizers: String,
    #[serde(skip_serializing_if = "DocumentFormats::is_detected")]
    pub formats: DocumentFormats,
}

/// The format chosen for each document, or `None` to detect it from the
/// text (`reconcile_core::detect_format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DocumentFormats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired: Option<Format>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed: Option<Format>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finalizers: Option<Format>,
}

impl DocumentFormats {
    pub fn is_detected(&self) -> bool {
        *self == Self::default()
    }

    /// The chosen format of an editor's document (`None` for the others).
    pub fn get(&self, document: Document) -> Option<Format> {
        match document {
            Document::Desired => self.desired,
            Document::Observed => self.observed,
            Document::Finalizers => self.finalizers,
            Document::Scenario | Document::Actions => None,
        }
    }

    pub fn set(&mut self, document: Document, format: Option<Format>) {
        match document {
            Document::Desired => self.desired = format,
            Document::Observed => self.observed = format,
            Document::Finalizers => self.finalizers = format,
            Document::Scenario | Document::Actions => {}
        }
    }
}

impl Default for SharedState {
    fn default() -> Self {
        let preset = crate::presets::default_preset();
        Self {
            desired: preset.desired.to_owned(),
            observed: preset.observed.to_owned(),
            finalizers: preset.finalizers.to_owned(),
            sim: preset.sim.clone(),
            pass: 0,
            selected: None,
            level_edge: false,
            preset: Some(preset.id.to_owned()),
            lesson: None,
            step: None,
            code: None,
            exercise: false,
            formats: DocumentFormats::default(),
            answered: Vec::new(),
            answer_shown: false,
            picture: false,
            custom_resource_name: None,
            custom_resources: Vec::new(),
        }
    }
}

impl SharedState {
    /// More than one custom resource, or one renamed: only a `v3` link holds it.
    pub fn is_several(&self) -> bool {
        self.custom_resource_name.is_some() || !self.custom_resources.is_empty()
    }
}

/// [`SharedCustomResource`]'s members.
const CUSTOM_RESOURCE_MEMBERS: &[&str] = &["name", "desired", "observed", "finalizers", "formats"];
/// [`DocumentFormats`]' members.
const FORMATS_MEMBERS: &[&str] = &["desired", "observed", "finalizers"];

/// For `#[serde(deserialize_with)]`: `customResources` through core's JSON
/// value and the content reader, unknown members refused at every depth.
fn read_custom_resources<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<SharedCustomResource>, D::Error> {
    let value = Json::deserialize(deserializer)?;
    let reader = Reader::new("the link's customResources");
    let items = match &value {
        Json::Array(items) => &items[..],
        _ => {
            reader.fail(JsonPath::root(), "expected an array".to_owned());
            &[]
        }
    };
    let mut all = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let cr = reader.object(item, JsonPath::root().index(index), CUSTOM_RESOURCE_MEMBERS);
        let text = |name| reader.optional_string(&cr, name).unwrap_or_default();
        let mut formats = DocumentFormats::default();
        if let Some(value) = cr.optional("formats") {
            let chosen = reader.object(value, cr.path_of("formats"), FORMATS_MEMBERS);
            let documents = [Document::Desired, Document::Observed, Document::Finalizers];
            for (name, document) in FORMATS_MEMBERS.iter().zip(documents) {
                let format = match reader.optional_string(&chosen, name).as_deref() {
                    None => None,
                    Some("json") => Some(Format::Json),
                    Some("yaml") => Some(Format::Yaml),
                    Some(other) => {
                        let message = format!("unknown format {other:?}; expected json or yaml");
                        reader.fail(chosen.path_of(name), message);
                        None
                    }
                };
                formats.set(document, format);
            }
        }
        all.push(SharedCustomResource {
            name: text("name"),
            desired: text("desired"),
            observed: text("observed"),
            finalizers: text("finalizers"),
            formats,
        });
    }
    reader
        .finish(all)
        .map_err(|error| serde::de::Error::custom(error.message))
}

/// A link that opened, and what of it changed meaning since it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct Opened {
    pub state: SharedState,
    pub note: Option<LinkNote>,
    /// A `v4` link's replay (`reconcile_sim::learner::ReplayLink`'s JSON
    /// text, unread): the page shows it, not `state` (then the default).
    pub replay: Option<String>,
}

/// What an older link's settings became in this build.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LinkNote {
    /// A `v1` link's `dropRate` lost this share of watch events for good.
    /// The simulation now has an informer, so the same share of events
    /// breaks the watch instead; the informer lists again and loses nothing.
    DropRateIsWatchBreaks { rate: f64 },
}

/// Why a link could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// The hash does not start with a version this build knows.
    UnknownVersion(String),
    /// Not base64url text.
    NotBase64,
    /// Not deflate data (truncated or garbled).
    Corrupt,
    /// Inflates beyond [`MAX_DECODED_BYTES`].
    TooLarge,
    /// Inflated, but not the state this build expects.
    BadContent(String),
}

/// What is wrong with the link; the page says what it does instead.
impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::UnknownVersion(found) => write!(
                f,
                "This link was made by a different version of the playground (\"{found}\")"
            ),
            ShareError::NotBase64 => {
                f.write_str("This link is damaged (it is not valid base64url text)")
            }
            ShareError::Corrupt => {
                f.write_str("This link is damaged or cut short (its compressed data is incomplete)")
            }
            ShareError::TooLarge => write!(
                f,
                "This link holds more than {} KB of state, more than the playground opens",
                MAX_DECODED_BYTES / 1024
            ),
            ShareError::BadContent(detail) => write!(
                f,
                "This link's content is not a playground state ({detail})"
            ),
        }
    }
}

impl std::error::Error for ShareError {}

/// The hash fragment for `state`, including the leading `#`.
pub fn encode(state: &SharedState) -> String {
    let json = serde_json::to_vec(state).unwrap_or_default();
    hash_of(state, &miniz_oxide::deflate::compress_to_vec(&json, 9))
}

/// The hash fragment for `state` whose JSON ([`to_autosave`]'s text) is
/// `deflated`, raw deflate data from any compressor. The page compresses
/// with the browser's own deflate, so it carries no compressor of its own.
pub fn hash_of(state: &SharedState, deflated: &[u8]) -> String {
    let version = if state.is_several() {
        SEVERAL_VERSION
    } else {
        VERSION
    };
    format!("#{version}/{}", URL_SAFE_NO_PAD.encode(deflated))
}

/// `bytes` as raw deflate data in stored (uncompressed) blocks: a link
/// made at once, where waiting for a compressor is not possible.
pub fn stored(bytes: &[u8]) -> Vec<u8> {
    const MAX_BLOCK: usize = u16::MAX as usize;
    let mut out = Vec::with_capacity(bytes.len() + 5 * (bytes.len() / MAX_BLOCK + 1));
    let mut blocks = bytes.chunks(MAX_BLOCK).peekable();
    if blocks.peek().is_none() {
        // One final, empty block.
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(block) = blocks.next() {
        // BFINAL on the last block, BTYPE 00 (stored); then LEN and its complement.
        out.push(u8::from(blocks.peek().is_none()));
        let len = u16::try_from(block.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out
}

/// Reads a hash fragment (with or without the leading `#`).
pub fn decode(hash: &str) -> Result<Opened, ShareError> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    let (version, payload) = hash.split_once('/').unwrap_or((hash, ""));
    if version == REPLAY_VERSION {
        return Ok(Opened {
            state: SharedState::default(),
            note: None,
            replay: Some(replay_of(&inflate(payload)?)?),
        });
    }
    if ![SEVERAL_VERSION, VERSION, EARLIER_VERSION].contains(&version) {
        let shown: String = version.chars().take(12).collect();
        return Err(ShareError::UnknownVersion(shown));
    }
    let state = decode_payload(payload)?;
    // `v1` wrote the setting as `dropRate` (which still reads as the watch break rate).
    let rate = ["dropRate", "watchBreakRate"]
        .iter()
        .find_map(|name| match state.sim.get(name) {
            Some(Json::Number(rate)) => Some(rate.as_f64()),
            _ => None,
        })
        .unwrap_or(0.0);
    let note = (version == EARLIER_VERSION && rate > 0.0)
        .then_some(LinkNote::DropRateIsWatchBreaks { rate });
    Ok(Opened {
        state,
        note,
        replay: None,
    })
}

fn decode_payload(payload: &str) -> Result<SharedState, ShareError> {
    let text = inflate(payload)?;
    serde_json::from_str(&text).map_err(|e| ShareError::BadContent(e.to_string()))
}

/// The replay of a replay link whose JSON is `text`, as JSON text; its
/// shape is read through core's JSON value (the replay itself is the
/// simulation's to read).
fn replay_of(text: &str) -> Result<String, ShareError> {
    let value = serde_json::from_str::<Json>(text)
        .map_err(|error| ShareError::BadContent(error.to_string()))?;
    match value.get("replay") {
        Some(replay @ Json::Object(_)) => Ok(serde_json::to_string(replay).unwrap_or_default()),
        _ => Err(ShareError::BadContent(
            "a replay link without its replay".to_owned(),
        )),
    }
}

/// A link's payload as JSON text of an object: base64url, inflated.
fn inflate(payload: &str) -> Result<String, ShareError> {
    // Base64 of more than the limit cannot be a valid link (deflate never expands much).
    if payload.len() > MAX_DECODED_BYTES * 2 {
        return Err(ShareError::TooLarge);
    }
    let compressed = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|_| ShareError::NotBase64)?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&compressed, MAX_DECODED_BYTES)
        .map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            ShareError::TooLarge
        } else {
            ShareError::Corrupt
        }
    })?;
    // Through `&str`, like every other parse here: serde_json compiles a
    // separate copy of all deserialization code for each input type.
    let text =
        String::from_utf8(json).map_err(|_| ShareError::BadContent("not UTF-8".to_owned()))?;
    if !text.trim_start().starts_with('{') {
        return Err(ShareError::BadContent("expected a JSON object".to_owned()));
    }
    Ok(text)
}

/// The autosave text: plain JSON, readable in the browser's storage inspector.
pub fn to_autosave(state: &SharedState) -> String {
    serde_json::to_string(state).unwrap_or_default()
}

/// Reads an autosave; `None` if it is not a state (corrupt or from elsewhere).
pub fn from_autosave(text: &str) -> Option<SharedState> {
    // serde would also accept an array for a struct; an autosave is always an object.
    text.trim_start()
        .starts_with('{')
        .then(|| serde_json::from_str(text).ok())
        .flatten()
}

/// The state's size as autosaved, to enforce the autosave limit.
pub fn text_size(state: &SharedState) -> usize {
    let others = state.custom_resources.iter();
    let others: usize = others
        .map(|cr| cr.desired.len() + cr.observed.len() + cr.finalizers.len())
        .sum();
    state.desired.len() + state.observed.len() + state.finalizers.len() + others
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The state a link opens, whatever its note.
    fn state_of(hash: &str) -> Result<SharedState, ShareError> {
        decode(hash).map(|opened| opened.state)
    }

    fn link(version: &str, state: &str) -> String {
        let compressed = miniz_oxide::deflate::compress_to_vec(state.as_bytes(), 6);
        format!("#{version}/{}", URL_SAFE_NO_PAD.encode(compressed))
    }

    #[test]
    fn a_link_of_stored_blocks_opens_like_a_compressed_one() {
        let small = SharedState {
            desired: "{\"a\": {\"replicas\": 1}}".into(),
            ..SharedState::default()
        };
        // Over one stored block's 65,535 bytes: three blocks.
        let large = SharedState {
            desired: format!("{{\"a\": \"{}\"}}", "x".repeat(150_000)),
            ..SharedState::default()
        };
        for state in [SharedState::default(), small, large] {
            let json = to_autosave(&state);
            let hash = hash_of(&state, &stored(json.as_bytes()));
            assert!(hash.starts_with("#v2/"), "{hash:.20}");
            assert_eq!(state_of(&hash), Ok(state.clone()));
            assert_eq!(
                hash_of(
                    &state,
                    &miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9)
                ),
                encode(&state)
            );
        }
        assert_eq!(
            miniz_oxide::inflate::decompress_to_vec(&stored(b"")).ok(),
            Some(Vec::new())
        );
    }

    #[test]
    fn a_v1_links_drop_rate_opens_as_the_watch_break_rate_with_a_note() {
        let old = r#"{"desired":"{}","sim":{"dropRate":0.2}}"#;
        let opened = decode(&link(EARLIER_VERSION, old)).expect("a v1 link opens");
        let config = opened.state.sim.read().expect("settings");
        assert_eq!(config.watch_break_rate, 0.2);
        assert_eq!(
            opened.note,
            Some(LinkNote::DropRateIsWatchBreaks { rate: 0.2 })
        );
        // Without the setting, or at 0, nothing changed meaning.
        let calm = decode(&link(EARLIER_VERSION, r#"{"sim":{"dropRate":0}}"#));
        assert_eq!(calm.map(|opened| opened.note), Ok(None));
        // This build's links carry the new name and no note.
        let relinked = encode(&opened.state);
        assert!(relinked.starts_with("#v2/"), "{relinked}");
        assert_eq!(
            decode(&relinked),
            Ok(Opened {
                state: opened.state,
                note: None,
                replay: None
            })
        );
    }

    #[test]
    fn a_chosen_format_travels_and_older_links_detect_theirs() {
        let mut state = SharedState {
            desired: "{a: 1}\n".into(),
            ..SharedState::default()
        };
        state.formats.set(Document::Desired, Some(Format::Yaml));
        let opened = state_of(&encode(&state)).expect("opens");
        assert_eq!(opened.formats.get(Document::Desired), Some(Format::Yaml));
        assert_eq!(opened.formats.get(Document::Observed), None);
        // Detected formats write nothing, so links stay as they were.
        let plain = SharedState::default();
        assert!(!to_autosave(&plain).contains("formats"));
        let old = state_of(&link(VERSION, r#"{"desired":"a: 1"}"#)).expect("opens");
        assert!(old.formats.is_detected());
    }

    #[test]
    fn a_teachers_view_travels_and_older_links_open_without_it() {
        let state = SharedState {
            lesson: Some("finalizers".into()),
            step: Some(2),
            pass: 3,
            answered: vec![0, 2],
            answer_shown: true,
            picture: true,
            ..SharedState::default()
        };
        let hash = encode(&state);
        assert!(hash.starts_with("#v2/"), "{hash}");
        assert_eq!(state_of(&hash), Ok(state));
        // Absent, they write nothing: other links stay as they were.
        let plain = to_autosave(&SharedState::default());
        for name in ["answered", "answerShown", "picture"] {
            assert!(!plain.contains(name), "{plain}");
        }
        // A build without these fields reads past unknown ones, as this one does.
        let newer = r#"{"desired":"{}","answered":[1],"answerShown":true,"later":{"x":1}}"#;
        let opened = state_of(&link(VERSION, newer)).expect("opens");
        assert_eq!((opened.answered, opened.answer_shown), (vec![1], true));
    }

    #[test]
    fn round_trip() {
        let mut state = SharedState {
            desired: "{\"🚀\": {\"replicas\": 3}}".into(),
            pass: 4,
            selected: Some(2),
            level_edge: true,
            ..SharedState::default()
        };
        let mut config = state.sim.read().expect("settings");
        config.failure_rate = 0.3;
        config.naming = reconcile_sim::ObjectNaming::GenerateNameWithExpectations;
        config.status_writes = reconcile_sim::StatusWrites::WithTimestamp;
        config.generation_changed_predicate = true;
        state.sim = SimSettings::of(&config);
        let hash = encode(&state);
        assert!(hash.starts_with("#v2/"));
        assert!(
            !hash.contains('=') && !hash.contains('+') && !hash.contains('/')
                || hash.matches('/').count() == 1
        );
        assert_eq!(state_of(&hash), Ok(state.clone()));
        assert_eq!(from_autosave(&to_autosave(&state)), Some(state));
    }

    #[test]
    fn the_learners_code_travels_in_links_and_autosaves_and_is_left_out_when_absent() {
        use crate::exercise::LearnerCode;
        use reconcile_check::Language;

        let without = encode(&SharedState::default());
        let state = SharedState {
            code: Some(LearnerCode {
                language: Language::Python,
                source: "def reconcile(desired, observed, finalizers=None):\n    return []\n"
                    .into(),
                other: Some("export function reconcile() { return []; }\n".into()),
                ..LearnerCode::starter(Language::Python)
            }),
            exercise: true,
            ..SharedState::default()
        };
        let with = encode(&state);
        assert_eq!(state_of(&with), Ok(state.clone()));
        assert_eq!(from_autosave(&to_autosave(&state)), Some(state));
        // A link without code is what an earlier build made, and it opens without code.
        assert!(!String::from_utf8(
            miniz_oxide::inflate::decompress_to_vec(
                &URL_SAFE_NO_PAD.decode(&without[4..]).expect("base64")
            )
            .expect("inflates")
        )
        .expect("utf-8")
        .contains("code"));
        assert_eq!(state_of(&without).map(|s| s.code), Ok(None));
    }

    #[test]
    fn missing_fields_take_defaults() {
        let json = br#"{"desired":"{}"}"#;
        let hash = format!(
            "#v1/{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json, 6))
        );
        let state = state_of(&hash).expect("decodes");
        assert_eq!(state.desired, "{}");
        assert_eq!(state.observed, SharedState::default().observed);
        assert_eq!(state.sim, SharedState::default().sim);
    }

    #[test]
    fn bad_links_are_errors_not_panics() {
        assert!(matches!(state_of("#v0/abc"), Err(ShareError::UnknownVersion(v)) if v == "v0"));
        assert!(matches!(
            state_of("#hello"),
            Err(ShareError::UnknownVersion(_))
        ));
        assert_eq!(state_of("#v1/***"), Err(ShareError::NotBase64));
        assert_eq!(state_of("#v1/AAAA"), Err(ShareError::Corrupt));
        let json = serde_json::to_vec(&SharedState::default()).expect("serializes");
        let compressed = miniz_oxide::deflate::compress_to_vec(&json, 9);
        let cut = format!(
            "#v1/{}",
            URL_SAFE_NO_PAD.encode(&compressed[..compressed.len() / 2])
        );
        assert_eq!(state_of(&cut), Err(ShareError::Corrupt));
        let good = encode(&SharedState::default());
        assert!(state_of(&good[..good.len() - 8]).is_err());
        let not_state = format!(
            "#v1/{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"[1,2]", 6))
        );
        assert!(matches!(
            state_of(&not_state),
            Err(ShareError::BadContent(_))
        ));
    }

    #[test]
    fn a_link_with_a_misspelt_setting_is_refused_by_the_options_parser_where_it_runs() {
        let link = |state: &str| {
            format!(
                "#v1/{}",
                URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(state.as_bytes(), 6))
            )
        };
        // The settings travel as given; the run reads them, and refuses these.
        let misspelt = state_of(&link(r#"{"sim":{"failureRat":0.5}}"#)).expect("opens");
        let detail = misspelt
            .sim
            .read()
            .expect_err("not the default")
            .to_string();
        assert!(
            detail.starts_with(r#"Simulation options at $: unknown option "failureRat""#),
            "{detail}"
        );
        let opened = state_of(&link(r#"{"sim":{"failureRate":0.5}}"#)).expect("a good link opens");
        let config = opened.sim.read().expect("a good link's settings read");
        assert!((config.failure_rate - 0.5).abs() < f64::EPSILON);
        assert_eq!(
            config.max_passes,
            reconcile_sim::SimConfig::default().max_passes
        );
    }

    #[test]
    fn links_and_autosaves_of_earlier_builds_keep_their_snake_case_backoff() {
        let old = r#"{"desired":"{}","sim":{"seed":3,"backoff":{"policy":"client-go","base_ms":7,"max_ms":900,"qps":2.5,"burst":3}}}"#;
        let link = format!(
            "#v1/{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(old.as_bytes(), 6))
        );
        let opened = state_of(&link).expect("an old link opens");
        let expected = reconcile_sim::BackoffPolicy::ClientGo {
            base_ms: 7,
            max_ms: 900,
            qps: 2.5,
            burst: 3,
        };
        let config = opened.sim.read().expect("settings");
        assert_eq!(config.backoff, expected);
        assert_eq!(config.seed, 3);
        assert_eq!(from_autosave(old), Some(opened.clone()), "an old autosave");
        // Kept as given, and they read the same after the round trip.
        let autosave = to_autosave(&opened);
        assert_eq!(from_autosave(&autosave), Some(opened.clone()));
        assert_eq!(state_of(&encode(&opened)), Ok(opened.clone()));
        // Settings the simulation wrote back use the camelCase names only.
        let written = to_autosave(&SharedState {
            sim: SimSettings::of(&config),
            ..opened
        });
        assert!(written.contains(r#""baseMs":7,"maxMs":900"#), "{written}");
        assert!(!written.contains("_ms"), "{written}");
        let fixed = r#"{"sim":{"backoff":{"policy":"fixed-delay","delay_ms":250}}}"#;
        assert_eq!(
            from_autosave(fixed).map(|state| state.sim.read().map(|config| config.backoff)),
            Some(Ok(reconcile_sim::BackoffPolicy::FixedDelay {
                delay_ms: 250
            }))
        );
    }

    #[test]
    fn decompression_bombs_stop_at_the_limit() {
        let bomb = vec![b' '; MAX_DECODED_BYTES * 4];
        let hash = format!(
            "#v1/{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&bomb, 9))
        );
        assert!(hash.len() < 20_000, "compresses well: {}", hash.len());
        assert_eq!(state_of(&hash), Err(ShareError::TooLarge));
    }

    fn two_custom_resources() -> SharedState {
        let mut second = SharedCustomResource {
            name: "cache-b".into(),
            desired: "{\"cache-b-0\": {\"image\": \"redis:7\"}}".into(),
            observed: "{}".into(),
            finalizers: String::new(),
            ..SharedCustomResource::default()
        };
        second.formats.set(Document::Observed, Some(Format::Yaml));
        SharedState {
            custom_resource_name: Some("cache-a".into()),
            custom_resources: vec![second],
            ..SharedState::default()
        }
    }

    #[test]
    fn several_custom_resources_travel_in_a_v3_link_and_an_autosave() {
        let state = two_custom_resources();
        let hash = encode(&state);
        assert!(hash.starts_with("#v3/"), "{hash}");
        assert_eq!(
            decode(&hash),
            Ok(Opened {
                state: state.clone(),
                note: None,
                replay: None
            })
        );
        assert_eq!(from_autosave(&to_autosave(&state)), Some(state.clone()));
        let second = &state.custom_resources[0];
        let size = state.desired.len() + state.observed.len() + state.finalizers.len();
        assert_eq!(
            text_size(&state),
            size + second.desired.len() + second.observed.len()
        );
    }

    #[test]
    fn one_custom_resource_keeps_v2_links_and_older_links_mean_one() {
        let one = SharedState::default();
        assert!(!one.is_several());
        let hash = encode(&one);
        assert!(hash.starts_with("#v2/"), "{hash}");
        assert!(!to_autosave(&one).contains("\"customResources\""));
        assert!(!to_autosave(&one).contains("customResourceName"));
        // v1 and v2 links have no such fields: one custom resource, the default one.
        for version in [EARLIER_VERSION, VERSION] {
            let opened = state_of(&link(version, r#"{"desired":"{}"}"#)).expect("opens");
            assert_eq!(opened.custom_resource_name, None);
            assert!(opened.custom_resources.is_empty());
        }
    }

    #[test]
    fn custom_resources_read_through_the_content_reader() {
        let bad = [
            (
                r#"{"customResources": [{"name": "b", "desird": "{}"}]}"#,
                "desird",
            ),
            (
                r#"{"customResources": [{"formats": {"desired": "toml"}}]}"#,
                "toml",
            ),
            (r#"{"customResources": {"name": "b"}}"#, "expected an array"),
        ];
        for (text, said) in bad {
            match state_of(&link(SEVERAL_VERSION, text)) {
                Err(ShareError::BadContent(message)) => {
                    assert!(message.contains(said), "{message}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        let text = r#"{"customResources": [{"name": "b", "formats": {"observed": "yaml"}}]}"#;
        let opened = state_of(&link(SEVERAL_VERSION, text)).expect("opens");
        let second = &opened.custom_resources[0];
        assert_eq!((second.name.as_str(), second.desired.as_str()), ("b", ""));
        assert_eq!(second.formats.get(Document::Observed), Some(Format::Yaml));
    }

    #[test]
    fn a_build_that_knows_no_later_version_refuses_its_links() {
        // What a v2-only build does with this build's v3 link, here one step on.
        let later = link("v5", &to_autosave(&two_custom_resources()));
        assert_eq!(
            state_of(&later),
            Err(ShareError::UnknownVersion("v5".into()))
        );
        // A v3 link is known here; a build before it read only v1 and v2.
        let v3 = encode(&two_custom_resources());
        let (version, _) = v3[1..].split_once('/').expect("versioned");
        assert!(![EARLIER_VERSION, VERSION].contains(&version));
    }

    #[test]
    fn autosave_round_trip_and_corruption() {
        let state = SharedState::default();
        assert_eq!(from_autosave(&to_autosave(&state)), Some(state));
        assert_eq!(from_autosave("{not json"), None);
        assert_eq!(from_autosave("[]"), None);
    }

    #[test]
    fn a_replay_link_hands_its_replay_on_and_a_bad_one_says_why() {
        let inner = r#"{"exercise":"owned-configmap","script":{"schedule":[],"reconciles":[]}}"#;
        let opened = decode(&link(REPLAY_VERSION, &format!(r#"{{"replay":{inner}}}"#)));
        assert_eq!(
            opened,
            Ok(Opened {
                state: SharedState::default(),
                note: None,
                replay: Some(inner.to_owned())
            })
        );
        // A v2 state is no replay, nor is a replay that is not an object.
        let state = to_autosave(&SharedState::default());
        for bad in [state.as_str(), r#"{"replay": 3}"#, r#"{"replay": "#] {
            let error = state_of(&link(REPLAY_VERSION, bad)).expect_err("no replay");
            assert!(matches!(error, ShareError::BadContent(_)), "{error:?}");
        }
        assert_eq!(state_of("#v4/***"), Err(ShareError::NotBase64));
        assert_eq!(state_of("#v4/AAAA"), Err(ShareError::Corrupt));
    }
}
