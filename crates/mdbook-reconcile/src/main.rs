//! `mdbook-reconcile`: mdBook runs it as `[preprocessor.reconcile]`.
//!
//! mdBook first asks `mdbook-reconcile supports RENDERER`, then pipes the
//! book through it as JSON. Only the HTML renderer can show a playground.
//! A bad fence prints its located error and fails the build (status 1).

use std::io;
use std::path::Path;
use std::process::ExitCode;

use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_reconcile::{playground_from, rewrite, Chapter, DEFAULT_PLAYGROUND};

const NAME: &str = "reconcile";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("supports") => match args.get(1).map(String::as_str) {
            Some("html") => ExitCode::SUCCESS,
            _ => ExitCode::FAILURE,
        },
        Some(other) => {
            eprintln!("mdbook-reconcile: unknown command `{other}`; mdBook runs it with no argument, or `supports RENDERER`");
            ExitCode::from(2)
        }
        None => match run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("mdbook-reconcile: {message}");
                ExitCode::FAILURE
            }
        },
    }
}

/// Reads the book from mdBook, rewrites every chapter, writes the book back.
fn run() -> Result<(), String> {
    let (context, mut book) = mdbook_preprocessor::parse_input(io::stdin())
        .map_err(|e| format!("cannot read the book from mdBook: {e:#}"))?;
    if context.mdbook_version != mdbook_preprocessor::MDBOOK_VERSION {
        eprintln!(
            "mdbook-reconcile: warning: built for mdBook {}, run by mdBook {}",
            mdbook_preprocessor::MDBOOK_VERSION,
            context.mdbook_version
        );
    }
    rewrite_book(&context, &mut book)?;
    serde_json::to_writer(io::stdout(), &book)
        .map_err(|e| format!("cannot write the book back to mdBook: {e}"))
}

/// The `playground` setting of `[preprocessor.reconcile]`, or the default.
fn configured_playground(context: &PreprocessorContext) -> Result<String, String> {
    let key = format!("preprocessor.{NAME}.playground");
    let value: Option<String> = context
        .config
        .get(&key)
        .map_err(|e| format!("book.toml's `{key}`: {e:#}; expected a URL or a path"))?;
    Ok(value.unwrap_or_else(|| DEFAULT_PLAYGROUND.to_owned()))
}

fn rewrite_book(context: &PreprocessorContext, book: &mut Book) -> Result<(), String> {
    let configured = configured_playground(context)?;
    let src = &context.config.book.src;
    let mut failure = None;
    book.for_each_mut(|item| {
        let BookItem::Chapter(chapter) = item else {
            return;
        };
        let Some(path) = chapter.source_path.clone() else {
            return;
        };
        if failure.is_some() {
            return;
        }
        let file = Path::new(src).join(&path).display().to_string();
        let where_ = Chapter {
            file: &file,
            depth: path.components().count().saturating_sub(1),
        };
        let playground = playground_from(&where_, &configured);
        match rewrite(&chapter.content, &where_, &playground) {
            Ok(content) => chapter.content = content,
            Err(error) => failure = Some(error.to_string()),
        }
    });
    failure.map_or(Ok(()), Err)
}
