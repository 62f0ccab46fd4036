//! `reconcile [--plan] [FILE|-]`: reads a scenario and prints what reconcile would do.
//!
//! Exit codes: 0 on success, 2 on bad input or bad usage (message on stderr).

use std::io::{self, Read, Write};
use std::process::ExitCode;

use reconcile_core::{parse_scenario_owned, plan, reconcile};

const USAGE: &str = "\
usage: reconcile [--plan] [FILE|-]

Reads a scenario {\"desired\":{...},\"observed\":{...},\"finalizers\":{...}|null}
from FILE, or from standard input when FILE is - or absent.

  (default)  print the action list as one JSON array
  --plan     print one line per action (+ create, ~ update, \u{2298} finalize, - delete)
             followed by the summary line
  --help     show this help

Exit status: 0 on success, 2 on bad input or usage.";

#[derive(Debug, PartialEq)]
enum Output {
    Json,
    Plan,
}

#[derive(Debug, PartialEq)]
struct Options {
    output: Output,
    input: Option<String>,
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        output: Output::Json,
        input: None,
    };
    // `-` means standard input; it counts as the one FILE argument, like a path.
    let mut input_given = false;
    for arg in args {
        match arg.as_str() {
            "--help" | "-h" => return Ok(None),
            "--plan" => options.output = Output::Plan,
            flag if flag.starts_with('-') && flag != "-" => {
                return Err(format!("unknown option {flag}"))
            }
            extra if input_given => {
                return Err(format!(
                    "unexpected argument {extra}; give at most one FILE"
                ))
            }
            path => {
                input_given = true;
                options.input = (path != "-").then(|| path.to_owned());
            }
        }
    }
    Ok(Some(options))
}

fn read_input(input: Option<&str>) -> Result<String, String> {
    let bytes = match input {
        Some(path) => std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?,
        None => {
            let mut buffer = Vec::new();
            io::stdin()
                .read_to_end(&mut buffer)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            buffer
        }
    };
    let name = input.unwrap_or("standard input");
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name} is not UTF-8 text (invalid byte at offset {}); save it as UTF-8",
            e.utf8_error().valid_up_to()
        )
    })
}

fn run(options: &Options) -> Result<String, String> {
    let text = read_input(options.input.as_deref())?;
    // The scenario keeps the text (for the specs it reads on first use) rather than a copy.
    let scenario = parse_scenario_owned(text).map_err(|e| e.to_string())?;
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

    #[test]
    fn parses_flags_and_file() {
        assert_eq!(
            parse_args(args(&["--plan", "x.json"])),
            Ok(Some(Options {
                output: Output::Plan,
                input: Some("x.json".into())
            }))
        );
        assert_eq!(
            parse_args(args(&["-"])),
            Ok(Some(Options {
                output: Output::Json,
                input: None
            }))
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
            Ok(Some(Options {
                output: Output::Plan,
                input: None
            }))
        );
    }
}
