//! The layering of `reconcile-sim`'s modules, checked on their source, as
//! `reconcile-core`'s `layering` test checks its own.
//!
//! Allowed direction, bottom up: `control_plane` → `controllers` → `run` →
//! `engine` → `views` and `drivers` (those two share the top). A module may
//! use its own part and the parts before it, never one after it: no
//! control-plane or controller module imports a view, and the engine
//! imports none. No two modules import each other, even through others.
//!
//! How: each file's `use` trees and inline `crate::`/`super::` paths are
//! resolved to a module, through the root's re-exports (`lib.rs` holds
//! nothing else). A module is a file, or a folder of one actor's files
//! (`workqueue/`); the engine's files are one module, as they share
//! `Engine`. Tests (`*_tests.rs`, a trailing `#[cfg(test)] mod`) and
//! comments may name anything.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The parts, bottom up, with their rank: a part may use parts of its rank or lower.
const PARTS: [(&str, u8); 6] = [
    ("control_plane", 0),
    ("controllers", 1),
    ("run", 2),
    ("engine", 3),
    ("views", 4),
    ("drivers", 4),
];

/// Parts whose files form one module (they share one type's state).
const WHOLE: [&str; 1] = ["engine"];

type ModPath = Vec<String>;

struct Source {
    module: ModPath,
    code: String,
}

#[test]
fn no_module_cycles() {
    let graph = graph();
    let mut done = BTreeSet::new();
    for start in graph.keys() {
        let mut stack = Vec::new();
        if let Some(cycle) = find_cycle(&graph, start, &mut stack, &mut done) {
            panic!("module cycle: {}", cycle.join(" → "));
        }
    }
}

#[test]
fn no_module_uses_a_higher_part() {
    let mut wrong = Vec::new();
    for (from, uses) in graph() {
        for to in uses.into_iter().filter(|to| rank(&from) < rank(to)) {
            wrong.push(format!("{from} uses {to}, which is in a higher part"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// No facade: a controller reaches the control plane only through the
/// client, as a real one only has its `client.Client`. The client is the
/// one controllers module that imports the control plane.
#[test]
fn controllers_reach_the_control_plane_only_through_the_client() {
    let graph = graph();
    let mut wrong = Vec::new();
    for (from, uses) in &graph {
        if !from.starts_with("controllers::") || from == CLIENT {
            continue;
        }
        for to in uses.iter().filter(|to| rank(to) == 0) {
            wrong.push(format!("{from} uses {to}: go through {CLIENT}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The check sees the edges it is about.
    let uses = |from: &str, to: &str| graph.get(from).is_some_and(|u| u.contains(to));
    assert!(uses("controllers::contract", CLIENT));
    assert!(graph[CLIENT].iter().any(|to| rank(to) == 0));
}

/// The module every controller reaches the control plane through.
const CLIENT: &str = "controllers::client";

#[test]
fn the_root_only_declares_and_re_exports() {
    let root = sources().into_iter().find(|s| s.module.is_empty());
    let code = root.expect("lib.rs").code;
    for item in [
        "fn ", "struct ", "enum ", "const ", "impl ", "trait ", "static ",
    ] {
        assert!(
            !code.lines().any(|l| l.trim_start().starts_with(item)
                || l.trim_start().starts_with(&format!("pub {item}"))),
            "lib.rs defines a `{item}`: put it in a part, so the layering sees it"
        );
    }
}

/// Which part a module unit is in, and that part's rank.
fn rank(unit: &str) -> u8 {
    let part = unit.split("::").next().unwrap_or_default();
    PARTS
        .iter()
        .find(|(name, _)| *name == part)
        .map(|(_, rank)| *rank)
        .unwrap_or_else(|| panic!("{unit} is in no part: add its folder to PARTS"))
}

fn find_cycle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    at: &str,
    stack: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(i) = stack.iter().position(|s| s == at) {
        let mut cycle = stack[i..].to_vec();
        cycle.push(at.to_owned());
        return Some(cycle);
    }
    if done.contains(at) {
        return None;
    }
    stack.push(at.to_owned());
    for next in graph.get(at).into_iter().flatten() {
        if let Some(cycle) = find_cycle(graph, next, stack, done) {
            return Some(cycle);
        }
    }
    stack.pop();
    done.insert(at.to_owned());
    None
}

/// Unit → the units it uses (other than itself and the root).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let sources = sources();
    let modules: BTreeSet<ModPath> = sources.iter().map(|s| s.module.clone()).collect();
    let root = sources
        .iter()
        .find(|s| s.module.is_empty())
        .expect("lib.rs");
    let mut aliases = BTreeMap::new();
    for (path, alias) in use_paths(&root.code) {
        aliases.insert(alias, path);
    }
    let resolver = Resolver { modules, aliases };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in sources.iter().filter(|s| !s.module.is_empty()) {
        let from = unit(&source.module);
        let entry = graph.entry(from.clone()).or_default();
        for path in paths(&source.code) {
            let Some(target) = resolver.resolve(&source.module, &path, 0) else {
                continue;
            };
            let to = unit(&target);
            if !target.is_empty() && to != from {
                entry.insert(to);
            }
        }
    }
    graph
}

/// The module a path names belongs to: `part::module`, or the whole part for [`WHOLE`] ones.
fn unit(module: &[String]) -> String {
    match module {
        [part, ..] if WHOLE.contains(&part.as_str()) => part.clone(),
        [part, name, ..] => format!("{part}::{name}"),
        _ => module.join("::"),
    }
}

struct Resolver {
    modules: BTreeSet<ModPath>,
    /// The root's re-exports: name → path from the root.
    aliases: BTreeMap<String, ModPath>,
}

impl Resolver {
    /// The module `path`, written in module `at`, leads to; `None` outside the crate.
    fn resolve(&self, at: &[String], path: &[String], depth: u8) -> Option<ModPath> {
        let mut current: ModPath = match path.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("super") | Some("self") => at.to_vec(),
            // A path from the root (in lib.rs) or a name the root re-exports.
            _ if at.is_empty() => Vec::new(),
            _ => return None,
        };
        let mut rest = path;
        if matches!(path.first().map(String::as_str), Some("crate" | "self")) {
            rest = &path[1..];
        }
        while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
            current.pop();
            rest = tail;
        }
        for (i, segment) in rest.iter().enumerate() {
            let mut deeper = current.clone();
            deeper.push(segment.clone());
            if self.modules.contains(&deeper) {
                current = deeper;
            } else if current.is_empty() && depth < 8 {
                let target = self.aliases.get(segment)?;
                let mut full = vec!["crate".to_owned()];
                full.extend(target.iter().cloned());
                full.extend(rest[i + 1..].iter().cloned());
                return self.resolve(&[], &full, depth + 1);
            } else {
                break;
            }
        }
        Some(current)
    }
}

/// Every `.rs` file under `src/`, with its module path and its code:
/// comments and trailing test modules cut.
fn sources() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    walk(&src, &src, &mut out);
    out
}

fn walk(src: &Path, dir: &Path, out: &mut Vec<Source>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("readable src")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(src, &path, out);
            continue;
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if !name.ends_with(".rs") || name.ends_with("_tests.rs") {
            continue;
        }
        let relative = path.strip_prefix(src).expect("under src");
        let mut module: ModPath = relative
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
            module.pop();
        }
        let text = fs::read_to_string(&path).expect("readable file");
        out.push(Source {
            module,
            code: code_of(&text),
        });
    }
}

/// The text without comments, and without the test module that ends a file.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            let next = lines.peek().map(|l| l.trim_start()).unwrap_or_default();
            if next.starts_with("mod ") || next.starts_with("#[path") {
                break;
            }
        }
        let without = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        code.push_str(without);
        code.push('\n');
    }
    code
}

/// Every crate path in `code`: its `use` trees expanded, and inline
/// `crate::…` and `super::…` paths.
fn paths(code: &str) -> Vec<ModPath> {
    let mut out: Vec<ModPath> = use_paths(code).into_iter().map(|(p, _)| p).collect();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start).map(|i| i + from) {
            from = i + start.len();
            let before = i.checked_sub(1).map(|j| bytes[j]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            let end = code[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| i + e);
            out.push(segments(&code[i..end]));
        }
    }
    out
}

/// The `use` declarations of `code`, each path with the name it binds.
fn use_paths(code: &str) -> Vec<(ModPath, String)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = find_use(rest) {
        let tail = &rest[i + 4..];
        let end = tail.find(';').unwrap_or(tail.len());
        expand(
            "",
            &tail[..end].split_whitespace().collect::<Vec<_>>().join(" "),
            &mut out,
        );
        rest = &tail[end..];
    }
    out
}

/// The next `use ` that starts a declaration.
fn find_use(code: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = code[from..].find("use ").map(|i| i + from) {
        let before = code[..i].trim_end();
        let declares = before.is_empty()
            || before.ends_with([';', '{', '}', ']', ')'])
            || before.ends_with("pub");
        if declares {
            return Some(i);
        }
        from = i + 4;
    }
    None
}

/// Expands one use tree (`a::{b, c::{d as e}}`) into its paths.
fn expand(prefix: &str, tree: &str, out: &mut Vec<(ModPath, String)>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let close = tree.rfind('}').unwrap_or(tree.len());
        let base = format!("{prefix}{}", &tree[..open]);
        let mut depth = 0;
        let mut item = String::new();
        for c in tree[open + 1..close].chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&base, &std::mem::take(&mut item), out);
                    continue;
                }
                _ => {}
            }
            item.push(c);
        }
        if !item.trim().is_empty() {
            expand(&base, &item, out);
        }
        return;
    }
    if tree.is_empty() {
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((path, alias)) => (path.trim(), Some(alias.trim())),
        None => (tree, None),
    };
    let mut full = segments(&format!("{prefix}{path}"));
    if matches!(full.last().map(String::as_str), Some("self" | "*")) {
        full.pop();
    }
    let bound = alias.map(str::to_owned).or_else(|| full.last().cloned());
    out.push((full, bound.unwrap_or_default()));
}

fn segments(path: &str) -> ModPath {
    path.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}
