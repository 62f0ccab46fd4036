//! Start at `main`, which hands JSON to core and YAML to `reconcile-yaml`.
//!
//! `reconcile [--plan] [FILE|-]` or `reconcile [--plan] --desired FILE
//! --observed FILE [--finalizers FILE]`: reads a scenario, or its documents
//! one file each, in JSON or YAML, and prints what reconcile would do.
//!
//! Exit codes: 0 on success, 2 on bad input or bad usage (message on stderr).

use std::io::{self, Read, Write};
use std::process::ExitCode;

use reconcile_core::{parse_scenario_owned, plan, reconcile, Document, Scenario};
use reconcile_yaml::{
    detect_format, read_documents_in, read_scenario_in, text_from_bytes, Format, ManifestOptions,
};

const USAGE: &str = "\
usage: reconcile [--plan] [--format json|yaml] [FILE|-]
       reconcile [--plan] [--format json|yaml] [--cluster-scoped KIND]...
                 --desired FILE --observed FILE [--finalizers FILE]

Reads a scenario {\"desired\":{...},\"observed\":{...},\"finalizers\":{...}|null}
from FILE, or from standard input when FILE is - or absent; or the three
documents from their own files. Desired and observed files may hold
{\"name\": spec} or Kubernetes manifests (a YAML stream, or a kind: List):
each object is then a resource named Kind/namespace/name (Kind/name for a
cluster-scoped kind), and its metadata.finalizers fill the finalizers.

Each file is JSON or YAML by its extension (.json, .yaml, .yml), else by
--format, else by its text (JSON if it starts with { or [).

  (default)              print the action list as one JSON array
  --plan                 print one line per action (+ create, ~ update,
                         \u{2298} finalize, - delete) followed by the summary line
  --format json|yaml     the format of files without a .json/.yaml/.yml extension
  --cluster-scoped KIND  treat KIND (a custom resource) as cluster-scoped
  --help                 show this help

Exit status: 0 on success, 2 on bad input or usage.";

#[derive(Debug, PartialEq)]
enum Output {
    Json,
    Plan,
}

#[derive(Debug, PartialEq)]
enum Input {
    /// One scenario file (`None`: standard input).
    Scenario(Option<String>),
    /// One file per document.
    Documents {
        desired: String,
        observed: String,
        finalizers: Option<String>,
    },
}

#[derive(Debug, PartialEq)]
struct Options {
    output: Output,
    input: Input,
    format: Option<Format>,
    cluster_scoped: Vec<String>,
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut output = Output::Json;
    let mut format = None;
    let mut cluster_scoped = Vec::new();
    let [mut desired, mut observed, mut finalizers] = [None, None, None];
    // `-` means standard input; it counts as the one FILE argument, like a path.
    let mut scenario: Option<Option<String>> = None;
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| format!("{flag} needs a value"));
        match arg.as_str() {
            "--help" | "-h" => return Ok(None),
            "--plan" => output = Output::Plan,
            "--format" => {
                format = Some(match value("--format")?.as_str() {
                    "json" => Format::Json,
                    "yaml" => Format::Yaml,
                    other => return Err(format!("unknown format {other}; expected json or yaml")),
                })
            }
            "--cluster-scoped" => cluster_scoped.push(value("--cluster-scoped")?),
            "--desired" => desired = Some(value("--desired")?),
            "--observed" => observed = Some(value("--observed")?),
            "--finalizers" => finalizers = Some(value("--finalizers")?),
            flag if flag.starts_with('-') && flag != "-" => {
                return Err(format!("unknown option {flag}"))
            }
            extra if scenario.is_some() => {
                return Err(format!(
                    "unexpected argument {extra}; give at most one FILE"
                ))
            }
            path => scenario = Some((path != "-").then(|| path.to_owned())),
        }
    }
    let input = match (desired, observed, scenario) {
        (None, None, scenario) if finalizers.is_none() => Input::Scenario(scenario.flatten()),
        (Some(desired), Some(observed), None) => Input::Documents {
            desired,
            observed,
            finalizers,
        },
        (_, _, Some(_)) => {
            return Err(
                "give either a scenario FILE or --desired and --observed, not both".to_owned(),
            )
        }
        _ => {
            return Err(
                "--desired and --observed go together (--finalizers is optional)".to_owned(),
            )
        }
    };
    Ok(Some(Options {
        output,
        input,
        format,
        cluster_scoped,
    }))
}

/// The bytes of a file, or of standard input.
fn read_bytes(input: Option<&str>) -> Result<Vec<u8>, String> {
    match input {
        Some(path) => std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}")),
        None => {
            let mut buffer = Vec::new();
            io::stdin()
                .read_to_end(&mut buffer)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(buffer)
        }
    }
}

/// A file's text, checked to be UTF-8 (the message says where it is not).
fn read_text(document: Document, input: Option<&str>) -> Result<String, String> {
    let bytes = read_bytes(input)?;
    text_from_bytes(document, &bytes).map_err(|e| match input {
        Some(path) => format!("{path}: {e}"),
        None => format!("standard input: {e}"),
    })?;
    // Checked just above; no copy.
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// A file's format: its extension, else `--format`, else its text.
fn format_of(path: Option<&str>, given: Option<Format>, text: &str) -> Format {
    let extension = path
        .and_then(|p| std::path::Path::new(p).extension())
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("json") => Format::Json,
        Some("yaml" | "yml") => Format::Yaml,
        _ => given.unwrap_or_else(|| detect_format(text)),
    }
}

fn read_scenario(options: &Options) -> Result<Scenario, String> {
    match &options.input {
        Input::Scenario(path) => {
            let text = read_text(Document::Scenario, path.as_deref())?;
            match format_of(path.as_deref(), options.format, &text) {
                // The scenario keeps the text (for the specs it reads on first use) rather than a copy.
                Format::Json => parse_scenario_owned(text),
                Format::Yaml => read_scenario_in(Format::Yaml, &text),
            }
            .map_err(|e| e.to_string())
        }
        Input::Documents {
            desired,
            observed,
            finalizers,
        } => {
            let desired_text = read_text(Document::Desired, Some(desired))?;
            let observed_text = read_text(Document::Observed, Some(observed))?;
            let finalizers_text = match finalizers {
                Some(path) => read_text(Document::Finalizers, Some(path))?,
                None => String::new(),
            };
            let formats = [
                format_of(Some(desired), options.format, &desired_text),
                format_of(Some(observed), options.format, &observed_text),
                format_of(finalizers.as_deref(), options.format, &finalizers_text),
            ];
            let manifests = ManifestOptions {
                cluster_scoped: options.cluster_scoped.clone(),
            };
            read_documents_in(
                formats,
                &desired_text,
                &observed_text,
                &finalizers_text,
                &manifests,
            )
            .map(|read| read.scenario)
            .map_err(|errors| {
                let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
                lines.join("\nreconcile: ")
            })
        }
    }
}

fn run(options: &Options) -> Result<String, String> {
    let scenario = read_scenario(options)?;
    let finalizers = scenario.finalizers.as_ref();
    let output = match options.output {
        Output::Json => {
            let actions = reconcile(&scenario.desired, &scenario.observed, finalizers);
            let mut json = serde_json::to_string(&actions).map_err(|e| e.to_string())?;
            json.push('\n');
            json
        }
        Output::Plan => plan(&scenario.desired, &scenario.observed, finalizers).to_text(),
    };
    // The process ends next: freeing every name and spec one by one would only
    // delay the exit; the system takes the memory back at once.
    std::mem::forget(scenario);
    Ok(output)
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("reconcile: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(output) => {
            // A closed pipe (e.g. `| head`) is not an input error; ignore write failures.
            let _ = io::stdout().write_all(output.as_bytes());
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("reconcile: {message}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> impl Iterator<Item = String> {
        list.iter()
            .map(|s| (*s).to_owned())
            .collect::<Vec<_>>()
            .into_iter()
    }

    fn scenario(output: Output, path: Option<&str>) -> Options {
        Options {
            output,
            input: Input::Scenario(path.map(str::to_owned)),
            format: None,
            cluster_scoped: Vec::new(),
        }
    }

    #[test]
    fn parses_flags_and_file() {
        assert_eq!(
            parse_args(args(&["--plan", "x.json"])),
            Ok(Some(scenario(Output::Plan, Some("x.json"))))
        );
        assert_eq!(
            parse_args(args(&["-"])),
            Ok(Some(scenario(Output::Json, None)))
        );
        assert_eq!(parse_args(args(&["--help"])), Ok(None));
        assert!(parse_args(args(&["--nope"])).is_err());
        assert!(parse_args(args(&["-p"])).is_err());
        assert!(parse_args(args(&["a", "b"])).is_err());
        // `-` is the one FILE too: it cannot be combined with a path, in either order.
        assert!(parse_args(args(&["-", "a"])).is_err());
        assert!(parse_args(args(&["a", "-"])).is_err());
        assert_eq!(
            parse_args(args(&["-", "--plan"])),
            Ok(Some(scenario(Output::Plan, None)))
        );
    }

    #[test]
    fn parses_document_files_and_formats() {
        let options = parse_args(args(&[
            "--desired",
            "d.yaml",
            "--observed",
            "o",
            "--format",
            "yaml",
            "--cluster-scoped",
            "Widget",
        ]));
        assert_eq!(
            options,
            Ok(Some(Options {
                output: Output::Json,
                input: Input::Documents {
                    desired: "d.yaml".to_owned(),
                    observed: "o".to_owned(),
                    finalizers: None
                },
                format: Some(Format::Yaml),
                cluster_scoped: vec!["Widget".to_owned()],
            }))
        );
        assert!(parse_args(args(&["--desired", "d.yaml"])).is_err());
        assert!(parse_args(args(&["--finalizers", "f.yaml"])).is_err());
        assert!(parse_args(args(&["s.json", "--desired", "d", "--observed", "o"])).is_err());
        assert!(parse_args(args(&["--format", "toml"])).is_err());
        assert!(parse_args(args(&["--desired"])).is_err());
        assert_eq!(
            format_of(Some("a.YML"), Some(Format::Json), "{}"),
            Format::Yaml
        );
        assert_eq!(format_of(Some("a.json"), None, "a: 1"), Format::Json);
        assert_eq!(format_of(Some("a.txt"), None, "a: 1"), Format::Yaml);
        assert_eq!(format_of(None, Some(Format::Yaml), "{}"), Format::Yaml);
    }
}
