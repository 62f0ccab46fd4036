//! `cargo xtask sw [DIR]`: writes `DIR/sw.js`, the service worker, from
//! `web/static/sw.js` with the list of the build's files filled in (docs/offline.md).
//!
//! Every file of the build is listed with its revision (the first 16 hex digits
//! of its SHA-256, which the worker checks on download): the first view's files
//! ([`crate::size::first_view`]), the lessons' files and the control-plane
//! view's module are precached at install, the others (the JS API's modules,
//! the "Your reconcile" pane, the YAML worker, the sandbox, Pyodide) are
//! cached on first use. The version, and so the cache's name, is a hash of the
//! list, so any change to any file makes a new worker that the browser installs
//! beside the old one. A debug build keeps the template's `null` list: that
//! worker retires (deletes its caches, unregisters).
//!
//! Trunk's hook runs this last (`cargo xtask post-build`, see Trunk.toml), once
//! the pages have their policy and the JS API, the on-demand apps and Pyodide are in
//! place, with `TRUNK_STAGING_DIR` (the default `DIR`) and `TRUNK_PROFILE`;
//! otherwise `DIR` is `dist`.

use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::tools::{self, Env};

/// The worker's file name, at the top of the site.
pub const FILE: &str = "sw.js";
/// The module that registers it, which the page adds once its first view is on
/// screen (web/static/sw-register.js): precached with the first view, though not part of it.
pub const REGISTER: &str = "sw-register.js";

/// The files of the service worker: none of the first view's downloads.
pub fn is_worker_file(name: &str) -> bool {
    name == FILE || name == REGISTER
}
/// The lessons' files (`index.html` copies `crates/reconcile-content/lessons`
/// there): the page fetches one when a lesson opens, so they are precached with
/// the first view, and an offline visit opens any lesson.
fn is_lesson_file(path: &str) -> bool {
    path.starts_with("lessons/")
}

/// The simulation section's module: every learner meets it, and it loads
/// once the first view has painted, so it is precached with the first view.
/// (The "Your reconcile" pane and the JS API's modules are cached on first
/// use.)
fn is_precached_module(path: &str) -> bool {
    let view = &crate::ui_modules::SIMULATION_UI;
    path.strip_prefix("pkg/").is_some_and(|file| {
        file.starts_with(view.module)
            || file
                .strip_prefix("snippets/")
                .is_some_and(|snippet| snippet.starts_with(&format!("{}-", view.package)))
    })
}

/// The template's placeholder for the list.
const PLACEHOLDER: &str = "/* BUILD */ null";

/// One file of the build, as the worker sees it.
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    /// Relative to the site's root, with `/`.
    path: String,
    revision: String,
    /// Downloaded at install (the first view), else on first use.
    precache: bool,
}

/// Parses `[DIR]` and writes the worker.
pub fn run(args: &[String]) -> Result<(), String> {
    let env = Env::new();
    let dir = match args {
        [] => tools::staging_dir(&env),
        [dir] => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask sw [DIR]".to_owned()),
    };
    let template_path = env.root.join("web/static").join(FILE);
    let template = std::fs::read_to_string(&template_path)
        .map_err(|e| format!("{}: {e}", template_path.display()))?;
    let debug = std::env::var("TRUNK_PROFILE").is_ok_and(|profile| profile == "debug");
    let worker = if debug {
        template
    } else {
        fill(&template, &build_json(&entries(&dir)?))?
    };
    let out = dir.join(FILE);
    std::fs::write(&out, worker).map_err(|e| format!("{}: {e}", out.display()))
}

/// Every file of the build in `dist`, sorted by path: what the worker may serve.
/// Left out: the worker itself, TypeScript declarations (for course authors'
/// editors, never fetched by a page), precompressed copies (a host sends them
/// in place of their file) and hidden entries.
fn entries(dist: &Path) -> Result<Vec<Entry>, String> {
    let first_view: Vec<String> = crate::size::first_view(dist)?
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let mut entries = Vec::new();
    for (path, file) in files_under(dist, "")? {
        if path == FILE || path.ends_with(".d.ts") || crate::precompress::is_copy(&path) {
            continue;
        }
        let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        entries.push(Entry {
            precache: first_view.contains(&path)
                || path == REGISTER
                || is_lesson_file(&path)
                || is_precached_module(&path),
            revision: revision(&bytes),
            path,
        });
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(entries)
}

/// The files under `dir`, recursively, by path relative to the root (`prefix` is `dir`'s).
pub fn files_under(dir: &Path, prefix: &str) -> Result<Vec<(String, PathBuf)>, String> {
    let error = |e: std::io::Error| format!("{}: {e}", dir.display());
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(error)? {
        let entry = entry.map_err(error)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = format!("{prefix}{name}");
        if entry.file_type().map_err(error)?.is_dir() {
            found.extend(files_under(&entry.path(), &format!("{path}/"))?);
        } else {
            found.push((path, entry.path()));
        }
    }
    Ok(found)
}

/// The first 16 hex digits of the SHA-256 of `bytes` (the worker's `revisionOf`).
fn revision(bytes: &[u8]) -> String {
    Sha256::digest(bytes)[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// `{"version": …, "files": [{"path", "revision", "precache"}, …]}`; the
/// version is the revision of the list itself.
fn build_json(entries: &[Entry]) -> String {
    let files: Vec<serde_json::Value> = entries
        .iter()
        .map(|entry| {
            serde_json::json!({
                "path": entry.path,
                "revision": entry.revision,
                "precache": entry.precache,
            })
        })
        .collect();
    let files = serde_json::Value::Array(files).to_string();
    let version = revision(files.as_bytes());
    format!("{{\"version\":\"{version}\",\"files\":{files}}}")
}

/// The template with the list in place of its placeholder.
fn fill(template: &str, build: &str) -> Result<String, String> {
    if template.matches(PLACEHOLDER).count() != 1 {
        return Err(format!(
            "web/static/{FILE} must hold `{PLACEHOLDER}` exactly once"
        ));
    }
    Ok(template.replace(PLACEHOLDER, build))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small build: the page, its hashed files and snippet, and on-demand parts.
    fn build(dir: &Path, wasm: &str) {
        for (path, text) in [
            ("index.html", "<html></html>"),
            ("main-0123456789abcdef.css", "body{}"),
            ("reconcile-web-0123456789abcdef.js", "export {}"),
            ("reconcile-web-0123456789abcdef_bg.wasm", wasm),
            ("snippets/reconcile-web-0123456789abcdef/inline0.js", "x"),
            ("sandbox.html", "<html></html>"),
            ("example.html", "<html></html>"),
            ("pkg/reconcile.js", "js"),
            ("lessons/01-four-actions.json", "{}"),
            ("pkg/reconcile.d.ts", "ts"),
            ("pkg/reconcile_simulation_ui_bg.wasm", "view"),
            ("pyodide/pyodide.asm.wasm", "python"),
            (".stage/index.html", "stale"),
            ("sw.js", "an older worker"),
            ("sw-register.js", "register"),
        ] {
            let file = dir.join(path);
            std::fs::create_dir_all(file.parent().expect("a folder")).expect("mkdir");
            std::fs::write(file, text).expect("write");
        }
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("xtask-sw-{name}-{}", std::process::id()))
    }

    #[test]
    fn the_first_view_is_precached_and_the_rest_listed_for_later() {
        let dir = temp("list");
        build(&dir, "wasm");
        let entries = entries(&dir).expect("entries");
        let listed = |precache: bool| -> Vec<&str> {
            entries
                .iter()
                .filter(|e| e.precache == precache)
                .map(|e| e.path.as_str())
                .collect()
        };
        assert_eq!(
            listed(true),
            [
                "index.html",
                "lessons/01-four-actions.json",
                "main-0123456789abcdef.css",
                "pkg/reconcile_simulation_ui_bg.wasm",
                "reconcile-web-0123456789abcdef.js",
                "reconcile-web-0123456789abcdef_bg.wasm",
                "snippets/reconcile-web-0123456789abcdef/inline0.js",
                "sw-register.js",
            ]
        );
        assert_eq!(
            listed(false),
            [
                "example.html",
                "pkg/reconcile.js",
                "pyodide/pyodide.asm.wasm",
                "sandbox.html"
            ]
        );
        // The revision the worker recomputes with crypto.subtle: SHA-256("x") starts 2d711642b726b044.
        let snippet = entries.iter().find(|e| e.path.starts_with("snippets/"));
        assert_eq!(snippet.expect("snippet").revision, "2d711642b726b044");
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn any_changed_file_makes_a_new_version() {
        let dir = temp("version");
        build(&dir, "wasm");
        let first = build_json(&entries(&dir).expect("entries"));
        assert_eq!(first, build_json(&entries(&dir).expect("entries")));
        build(&dir, "wasm, changed");
        let second = build_json(&entries(&dir).expect("entries"));
        let version = |json: &str| json[..json.find(",\"files\"").expect("files")].to_owned();
        assert_ne!(version(&first), version(&second));
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn the_list_goes_in_place_of_the_one_placeholder() {
        let template = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/static/sw.js"),
        )
        .expect("the template");
        let worker = fill(&template, "{\"version\":\"v\",\"files\":[]}").expect("filled");
        assert!(worker.contains("const BUILD = {\"version\":\"v\",\"files\":[]};"));
        assert!(fill("const BUILD = null;", "{}").is_err());
        // Relative to the scope: nothing in the worker names the site's root.
        assert!(!template.contains("\"/"), "an absolute path in sw.js");
    }
}
