//! Golden timelines: the simulation of every preset and every lesson, and
//! `checkLoop`'s verdicts on every preset, as committed files.
//!
//! Issue 29 reworks the simulation into a control plane and controllers.
//! These files pin what it does today, so each step of that work shows what
//! it changed. Steps 1 and 2 keep them byte-identical. Later steps change
//! them only where a correction says so, listed in CHANGELOG.md.
//!
//! The files are in `tests/golden/`:
//! - `presets/<file>`: each preset's timeline under its settings;
//! - `lessons/<file>`: each lesson's starting scenario under its settings
//!   (lesson steps carry no scenario or settings of their own);
//! - `check-loop.json`: `checkLoop`'s outcome on each preset, with the
//!   contract's own `reconcile` as the learner's code.
//!
//! A timeline file is `{source, verdictText, timeline}`. `timeline` is
//! `reconcile_sim::Timeline` as the results download writes it
//! (`export_results`), and `verdictText` is the JS API's wording. The layout
//! puts one event, log entry or pass field per line, so diffs stay readable.
//!
//! The test recomputes every file and compares it byte for byte. To accept a
//! change on purpose, regenerate and read the diff:
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test -p reconcile-content --test golden
//! git diff crates/reconcile-content/tests/golden
//! ```

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use reconcile_content::lesson::{lesson_outcomes, lessons, LESSON_FILES};
use reconcile_content::presets::{presets, PRESET_FILES};
use reconcile_core::{check_scenario, parse_actions, reconcile, Scenario};
use reconcile_sim::own_reconcile::{LoopCheck, LoopVerdicts};
use reconcile_sim::{simulate, simulate_custom_resources, SimConfig, Timeline};
use serde::Serialize;
use serde_json::ser::Formatter;

/// How deep containers are spread over lines; deeper ones stay on one line.
/// Level 1 is the file's object: at 4, each event of `timeline.events.entries`
/// and each field of a pass sits on its own line.
const SPREAD_LEVELS: usize = 4;

/// One golden timeline file.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TimelineFile<'a> {
    /// The content file the scenario and settings come from.
    source: String,
    verdict_text: String,
    timeline: &'a Timeline,
}

/// `checkLoop`'s outcome on one preset: the JS API's `LoopOutcome` without
/// its `holds` flags, which the verdicts' kinds already say.
#[derive(Serialize)]
struct LoopEntry {
    source: String,
    verdicts: Option<LoopVerdicts>,
    texts: Option<LoopTexts>,
    error: Option<String>,
}

/// The verdicts in words, as `checkLoop` gives them.
#[derive(Serialize)]
struct LoopTexts {
    converges: String,
    idempotence: String,
    restart: String,
}

/// serde_json's pretty layout down to [`SPREAD_LEVELS`], compact below.
struct Layout {
    level: usize,
    has_value: bool,
}

impl Layout {
    fn spread(&self) -> bool {
        self.level <= SPREAD_LEVELS
    }

    fn indent<W: ?Sized + io::Write>(&self, writer: &mut W, level: usize) -> io::Result<()> {
        for _ in 0..level {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }

    fn begin<W: ?Sized + io::Write>(&mut self, writer: &mut W, open: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(open)
    }

    fn end<W: ?Sized + io::Write>(&mut self, writer: &mut W, close: &[u8]) -> io::Result<()> {
        if self.spread() && self.has_value {
            writer.write_all(b"\n")?;
            self.indent(writer, self.level - 1)?;
        }
        self.level -= 1;
        writer.write_all(close)
    }

    fn member<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        if self.spread() {
            writer.write_all(b"\n")?;
            self.indent(writer, self.level)?;
        }
        Ok(())
    }
}

impl Formatter for Layout {
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.begin(writer, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.end(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.member(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.begin(writer, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.end(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.member(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(if self.spread() { b": " } else { b":" })
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

fn layout(value: &impl Serialize) -> String {
    let mut bytes = Vec::new();
    let formatter = Layout {
        level: 0,
        has_value: false,
    };
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    value.serialize(&mut serializer).expect("serializable");
    let mut text = String::from_utf8(bytes).expect("serde_json writes UTF-8");
    text.push('\n');
    text
}

fn timeline_file(source: String, timeline: &Timeline) -> String {
    layout(&TimelineFile {
        source,
        verdict_text: timeline.verdict.to_string(),
        timeline,
    })
}

/// A preset's scenario, read from its editor texts as the page reads them.
fn preset_scenario(file: &str, desired: &str, observed: &str, finalizers: &str) -> Scenario {
    check_scenario(desired, observed, finalizers)
        .unwrap_or_else(|errors| panic!("{file}: {errors:?}"))
}

/// `checkLoop` with the contract's `reconcile` as the learner's code: each
/// call answered with its JSON text read back by core's `parse_actions`, as
/// the JS API's `LoopCheck.answer` reads what the sandbox returned.
fn check_loop(source: String, scenario: &Scenario, config: &SimConfig) -> LoopEntry {
    let mut check = LoopCheck::new(scenario, config.clone());
    while let Some(call) = check.call() {
        let actions = reconcile(call.desired, call.observed, call.finalizers);
        let text = serde_json::to_string(&actions).expect("actions serialize");
        check.answer(parse_actions(&text).map_err(|error| error.to_string()));
    }
    let (verdicts, error) = match check.outcome().expect("the check ended") {
        Ok(verdicts) => (Some(verdicts), None),
        Err(error) => (None, Some(error.to_owned())),
    };
    LoopEntry {
        source,
        texts: verdicts.as_ref().map(|verdicts| LoopTexts {
            converges: verdicts.converges.to_string(),
            idempotence: verdicts.idempotence.to_string(),
            restart: verdicts.restart.to_string(),
        }),
        verdicts,
        error,
    }
}

/// Every golden file, by its path under `tests/golden/`, computed now.
fn computed() -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    assert_eq!(presets().len(), PRESET_FILES.len(), "every preset parses");
    assert_eq!(lessons().len(), LESSON_FILES.len(), "every lesson parses");
    let mut loop_entries = Vec::new();
    for ((path, _), preset) in PRESET_FILES.iter().zip(presets()) {
        let name = file_name(path);
        let scenario = preset_scenario(path, &preset.desired, &preset.observed, &preset.finalizers);
        // Several custom resources run together; `checkLoop` takes one scenario.
        let several = preset.custom_resource_name.is_some();
        let config = preset.sim.read().unwrap_or_else(|e| panic!("{path}: {e}"));
        let timeline = if several {
            let all = preset.scenario().unwrap_or_else(|e| panic!("{path}: {e}"));
            simulate_custom_resources(&all, &config)
        } else {
            simulate(&scenario, &config)
        };
        files.insert(
            format!("presets/{name}"),
            timeline_file(format!("presets/{name}"), &timeline),
        );
        if !several {
            loop_entries.push(check_loop(format!("presets/{name}"), &scenario, &config));
        }
    }
    for ((path, _), lesson) in LESSON_FILES.iter().zip(lessons()) {
        let name = file_name(path);
        let (_, timeline) =
            lesson_outcomes(lesson).unwrap_or_else(|errors| panic!("{path}: {errors:?}"));
        files.insert(
            format!("lessons/{name}"),
            timeline_file(format!("lessons/{name}"), &timeline),
        );
    }
    files.insert("check-loop.json".to_owned(), layout(&loop_entries));
    files
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The golden files on disk, by their path under `tests/golden/`.
fn committed() -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for folder in ["", "presets", "lessons"] {
        let Ok(entries) = std::fs::read_dir(golden_dir().join(folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "json") {
                let name = entry.file_name().to_string_lossy().into_owned();
                let key = if folder.is_empty() {
                    name
                } else {
                    format!("{folder}/{name}")
                };
                let text = std::fs::read_to_string(&path).expect("readable golden file");
                files.insert(key, text);
            }
        }
    }
    files
}

/// Where two texts first differ: the line number and both lines.
fn first_difference(expected: &str, actual: &str) -> String {
    let mut expected_lines = expected.lines();
    let mut actual_lines = actual.lines();
    for number in 1.. {
        match (expected_lines.next(), actual_lines.next()) {
            (Some(e), Some(a)) if e == a => continue,
            (None, None) => break,
            (e, a) => {
                let clip = |line: Option<&str>| match line {
                    None => "(end of file)".to_owned(),
                    Some(line) if line.chars().count() > 200 => {
                        format!("{}…", line.chars().take(200).collect::<String>())
                    }
                    Some(line) => line.to_owned(),
                };
                return format!(
                    "line {number}:\n    committed: {}\n    now:       {}",
                    clip(e),
                    clip(a)
                );
            }
        }
    }
    "only in the final newline".to_owned()
}

#[test]
fn every_preset_and_lesson_timeline_and_loop_verdict_matches_its_golden_file() {
    let computed = computed();
    let committed = committed();
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        for stale in committed.keys().filter(|k| !computed.contains_key(*k)) {
            std::fs::remove_file(golden_dir().join(stale)).expect("remove a stale golden file");
        }
        for (key, text) in &computed {
            let path = golden_dir().join(key);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("golden folder");
            if committed.get(key) != Some(text) {
                std::fs::write(&path, text).expect("write a golden file");
            }
        }
        return;
    }
    let mut problems = Vec::new();
    for (key, text) in &computed {
        match committed.get(key) {
            None => problems.push(format!("{key}: no golden file")),
            Some(old) if old != text => {
                problems.push(format!("{key} differs at {}", first_difference(old, text)));
            }
            Some(_) => {}
        }
    }
    for stale in committed.keys().filter(|k| !computed.contains_key(*k)) {
        problems.push(format!("{stale}: a golden file with no preset or lesson"));
    }
    assert!(
        problems.is_empty(),
        "{} golden file(s) in crates/reconcile-content/tests/golden differ from the simulation:\n  {}\n\
         If the change is intended (a correction of issue 29's, listed in CHANGELOG.md), run\n  \
         UPDATE_GOLDEN=1 cargo test -p reconcile-content --test golden\n\
         and read `git diff crates/reconcile-content/tests/golden` before committing.",
        problems.len(),
        problems.join("\n  ")
    );
}

#[test]
fn the_layout_spreads_the_upper_levels_and_keeps_the_rest_on_one_line() {
    let value = serde_json::json!({"a": [{"b": {"c": {"d": [1, 2]}}}], "e": {}, "f": []});
    assert_eq!(
        layout(&value),
        "{\n  \"a\": [\n    {\n      \"b\": {\n        \"c\": {\"d\":[1,2]}\n      }\n    }\n  ],\n  \"e\": {},\n  \"f\": []\n}\n"
    );
}
