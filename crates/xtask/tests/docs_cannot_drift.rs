//! Docs that cannot drift: start at `paths_in_backticks_exist`.
//!
//! In the README, ARCHITECTURE.md, CHANGELOG.md and `docs/*.md`:
//! - every path in backticks that starts with one of the repository's
//!   top-level files or folders exists (`{a,b}` alternatives and `*` too);
//! - every Rust item in backticks written `crate_name::path` resolves, read
//!   from the crate's source with `syn`.
//!
//! Exempt: code blocks; `docs/lessons.md`, whose paths cite upstream
//! Kubernetes sources; `docs/SIZE.md` and `docs/design/`, records of their
//! day that name files since moved; and paths git ignores (`dist/`,
//! `web/node_modules`), which a build makes.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/xtask is two levels down")
        .to_path_buf()
}

/// The documents checked.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md"]
        .iter()
        .map(|name| root.join(name))
        .collect();
    for entry in fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("an entry of docs/").path();
        let exempt = path
            .file_name()
            .is_some_and(|name| name == "lessons.md" || name == "SIZE.md");
        if path.extension().is_some_and(|ext| ext == "md") && !exempt {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The text of each inline code span outside code blocks, with its line.
fn code_spans(text: &str) -> Vec<(usize, String)> {
    let mut spans = Vec::new();
    let mut in_block = false;
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find('`') {
            let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
            let after = &rest[start + ticks..];
            let fence = "`".repeat(ticks);
            let Some(end) = after.find(&fence) else {
                break;
            };
            spans.push((number + 1, after[..end].trim().to_owned()));
            rest = &after[end + ticks..];
        }
    }
    spans
}

/// Every code span of the documents checked, with where it is (`FILE:LINE`).
fn spans_of_documents(root: &Path) -> Vec<(String, String)> {
    let mut spans = Vec::new();
    for document in documents(root) {
        let text = fs::read_to_string(&document).expect("a document");
        let name = document
            .strip_prefix(root)
            .unwrap_or(&document)
            .display()
            .to_string();
        for (line, span) in code_spans(&text) {
            spans.push((format!("{name}:{line}"), span));
        }
    }
    spans
}

/// `a/{b,c}/d` as `a/b/d` and `a/c/d`.
fn expand(path: &str) -> Vec<String> {
    let (Some(open), Some(close)) = (path.find('{'), path.find('}')) else {
        return vec![path.to_owned()];
    };
    if close < open {
        return vec![path.to_owned()];
    }
    path[open + 1..close]
        .split(',')
        .flat_map(|choice| expand(&format!("{}{choice}{}", &path[..open], &path[close + 1..])))
        .collect()
}

/// Whether a path exists, or is one git ignores (a build makes it); a `*`
/// file name stands for any file in its folder.
fn exists(root: &Path, path: &str) -> bool {
    let there = match path.rsplit_once('/') {
        Some((folder, name)) if name.contains('*') => root.join(folder).is_dir(),
        _ => root.join(path).exists(),
    };
    // A folder's pattern (`node_modules/`) matches only a path written as a folder.
    let folder = format!("{}/", path.trim_end_matches('/'));
    there
        || [path, &folder].iter().any(|path| {
            std::process::Command::new("git")
                .args(["check-ignore", "-q", "--no-index", path])
                .current_dir(root)
                .status()
                .is_ok_and(|status| status.success())
        })
}

/// The repository's top-level names that git tracks (so not `dist/` or `target/`).
fn top_level(root: &Path) -> BTreeSet<String> {
    let output = std::process::Command::new("git")
        .args(["ls-files"])
        .current_dir(root)
        .output()
        .expect("git ls-files");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split('/').next())
        .map(str::to_owned)
        .collect()
}

/// The path a span names, if it starts with a top-level name: up to the
/// first character that no path here has, with a trailing `'s` dropped.
fn path_in(span: &str, top: &BTreeSet<String>) -> Option<String> {
    let path: String = span
        .chars()
        .take_while(|c| c.is_alphanumeric() || "/._-{},*".contains(*c))
        .collect();
    let first = path.split('/').next()?;
    let named = top.contains(first) && (path.contains('/') || path == first);
    named.then(|| path.trim_end_matches(['.', ',']).to_owned())
}

#[test]
fn paths_in_backticks_exist() {
    let root = root();
    let top = top_level(&root);
    let mut missing = Vec::new();
    for (place, span) in spans_of_documents(&root) {
        let Some(path) = path_in(&span, &top) else {
            continue;
        };
        for one in expand(&path) {
            if !exists(&root, &one) {
                missing.push(format!("{place}: `{one}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

/// What a crate declares: for each module path, its names; for each type,
/// the names of its fields, variants and associated items.
#[derive(Default)]
struct Declared {
    modules: BTreeMap<String, BTreeSet<String>>,
    /// Modules with a `pub use …::*`: any name may come through them.
    globs: BTreeSet<String>,
    members: BTreeMap<String, BTreeSet<String>>,
    /// `module::alias` → the path a `use` names (`pub use parts::{world}` in the root
    /// makes `world` → `parts::world`), so a re-exported module resolves too.
    aliases: BTreeMap<String, String>,
}

/// Each name a `use` brings in, with the path it names (`crate::` and `self::` dropped).
fn use_paths(tree: &syn::UseTree, prefix: &str, out: &mut Vec<(String, String)>) {
    let join = |name: &str| {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}::{name}")
        }
    };
    match tree {
        syn::UseTree::Path(path) => {
            let segment = path.ident.to_string();
            let next = if segment == "crate" || segment == "self" {
                prefix.to_owned()
            } else {
                join(&segment)
            };
            use_paths(&path.tree, &next, out);
        }
        syn::UseTree::Name(name) => {
            out.push((name.ident.to_string(), join(&name.ident.to_string())))
        }
        syn::UseTree::Rename(rename) => {
            out.push((rename.rename.to_string(), join(&rename.ident.to_string())));
        }
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_paths(tree, prefix, out);
            }
        }
    }
}

fn use_names(tree: &syn::UseTree, names: &mut BTreeSet<String>, glob: &mut bool) {
    match tree {
        syn::UseTree::Path(path) => use_names(&path.tree, names, glob),
        syn::UseTree::Name(name) => {
            names.insert(name.ident.to_string());
        }
        syn::UseTree::Rename(rename) => {
            names.insert(rename.rename.to_string());
        }
        syn::UseTree::Glob(_) => *glob = true,
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_names(tree, names, glob);
            }
        }
    }
}

fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

impl Declared {
    fn read_module(&mut self, module: &str, file: &Path, items: &[syn::Item]) {
        let mut names = BTreeSet::new();
        let folder =
            if file.ends_with("mod.rs") || file.ends_with("lib.rs") || file.ends_with("main.rs") {
                file.parent().map(Path::to_path_buf)
            } else {
                file.parent()
                    .map(|parent| parent.join(file.file_stem().unwrap_or_default()))
            }
            .unwrap_or_default();
        for item in items {
            match item {
                syn::Item::Mod(inner) => {
                    let name = inner.ident.to_string();
                    names.insert(name.clone());
                    let path = if module.is_empty() {
                        name.clone()
                    } else {
                        format!("{module}::{name}")
                    };
                    if let Some((_, content)) = &inner.content {
                        self.read_module(&path, &folder.join(format!("{name}.rs")), content);
                    } else {
                        let one = folder.join(format!("{name}.rs"));
                        let other = folder.join(&name).join("mod.rs");
                        let source = if one.exists() { one } else { other };
                        self.read_file(&path, &source);
                    }
                }
                syn::Item::Fn(f) => {
                    names.insert(f.sig.ident.to_string());
                }
                syn::Item::Struct(s) => {
                    let fields = s
                        .fields
                        .iter()
                        .filter_map(|f| f.ident.as_ref().map(ToString::to_string));
                    self.members
                        .entry(s.ident.to_string())
                        .or_default()
                        .extend(fields);
                    names.insert(s.ident.to_string());
                }
                syn::Item::Enum(e) => {
                    let variants = e.variants.iter().map(|v| v.ident.to_string());
                    self.members
                        .entry(e.ident.to_string())
                        .or_default()
                        .extend(variants);
                    names.insert(e.ident.to_string());
                }
                syn::Item::Trait(t) => {
                    names.insert(t.ident.to_string());
                }
                syn::Item::Type(t) => {
                    names.insert(t.ident.to_string());
                }
                syn::Item::Const(c) => {
                    names.insert(c.ident.to_string());
                }
                syn::Item::Static(s) => {
                    names.insert(s.ident.to_string());
                }
                syn::Item::Macro(m) => {
                    if let Some(ident) = &m.ident {
                        names.insert(ident.to_string());
                    }
                }
                syn::Item::Use(u) => {
                    let mut glob = false;
                    use_names(&u.tree, &mut names, &mut glob);
                    let mut paths = Vec::new();
                    use_paths(&u.tree, "", &mut paths);
                    for (alias, target) in paths {
                        let key = if module.is_empty() {
                            alias
                        } else {
                            format!("{module}::{alias}")
                        };
                        self.aliases.insert(key, target);
                    }
                    if glob {
                        self.globs.insert(module.to_owned());
                    }
                }
                syn::Item::Impl(i) => {
                    if let Some(ty) = type_name(&i.self_ty) {
                        let members = self.members.entry(ty).or_default();
                        for item in &i.items {
                            match item {
                                syn::ImplItem::Fn(f) => members.insert(f.sig.ident.to_string()),
                                syn::ImplItem::Const(c) => members.insert(c.ident.to_string()),
                                syn::ImplItem::Type(t) => members.insert(t.ident.to_string()),
                                _ => false,
                            };
                        }
                    }
                }
                _ => {}
            }
        }
        self.modules
            .entry(module.to_owned())
            .or_default()
            .extend(names);
    }

    fn read_file(&mut self, module: &str, file: &Path) {
        let Ok(text) = fs::read_to_string(file) else {
            return;
        };
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        self.read_module(module, file, &parsed.items);
    }

    /// Whether `a::b::C::method` names something declared.
    fn resolves(&self, segments: &[&str]) -> bool {
        let mut module = String::new();
        for (index, segment) in segments.iter().enumerate() {
            let inner = if module.is_empty() {
                (*segment).to_owned()
            } else {
                format!("{module}::{segment}")
            };
            if self.modules.contains_key(&inner) {
                module = inner;
                continue;
            }
            if let Some(target) = self
                .aliases
                .get(&inner)
                .filter(|t| self.modules.contains_key(*t))
            {
                module = target.clone();
                continue;
            }
            let here = self.modules.get(&module);
            if !here.is_some_and(|names| names.contains(*segment)) {
                return self.globs.contains(&module);
            }
            // An item: what follows is a field, variant or associated item of it.
            return match segments.get(index + 1) {
                None => true,
                Some(member) => self
                    .members
                    .get(*segment)
                    .is_some_and(|m| m.contains(*member)),
            };
        }
        true
    }
}

/// The workspace's crates: their names with `_`, and their root files.
fn crates(root: &Path) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    let mut folders: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .expect("crates/")
        .map(|entry| entry.expect("an entry of crates/").path())
        .collect();
    folders.push(root.join("web"));
    for folder in folders {
        let Ok(manifest) = fs::read_to_string(folder.join("Cargo.toml")) else {
            continue;
        };
        let Some(name) = manifest
            .lines()
            .find_map(|line| line.strip_prefix("name = "))
            .map(|name| name.trim_matches('"').replace('-', "_"))
        else {
            continue;
        };
        let lib = folder.join("src/lib.rs");
        let main = folder.join("src/main.rs");
        found.insert(name, if lib.exists() { lib } else { main });
    }
    found
}

#[test]
fn rust_items_in_backticks_resolve() {
    let root = root();
    let crates = crates(&root);
    let mut declared: BTreeMap<String, Declared> = BTreeMap::new();
    let mut unresolved = Vec::new();
    let mut checked = 0;
    for (place, span) in spans_of_documents(&root) {
        let item: String = span
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let mut segments: Vec<&str> = item.split("::").collect();
        let Some(source) = crates.get(segments[0]) else {
            continue;
        };
        if segments.len() < 2 || segments.iter().any(|s| s.is_empty()) {
            continue;
        }
        let name = segments.remove(0);
        let crate_items = declared.entry(name.to_owned()).or_insert_with(|| {
            let mut crate_items = Declared::default();
            crate_items.read_file("", source);
            crate_items
        });
        checked += 1;
        if !crate_items.resolves(&segments) {
            unresolved.push(format!("{place}: `{item}`"));
        }
    }
    assert!(
        unresolved.is_empty(),
        "Rust items that do not resolve:\n{}",
        unresolved.join("\n")
    );
    assert!(checked > 20, "only {checked} Rust items found in backticks");
}

#[test]
fn a_module_resolves_through_a_re_export() {
    let source = "pub mod parts { pub mod world { pub struct Meta; } }\npub use parts::{world};";
    let mut declared = Declared::default();
    let parsed = syn::parse_file(source).expect("parses");
    declared.read_module("", Path::new("lib.rs"), &parsed.items);
    assert!(declared.resolves(&["world", "Meta"]));
    assert!(!declared.resolves(&["world", "Other"]));
}

#[test]
fn an_item_resolves_through_modules_uses_and_impls() {
    let source =
        "pub mod a { pub struct S { pub f: u8 } impl S { pub fn m() {} } pub enum E { V } }\n\
                  pub use a::S as T;\npub fn g() {}";
    let mut declared = Declared::default();
    let file = syn::parse_file(source).expect("parses");
    declared.read_module("", Path::new("lib.rs"), &file.items);
    for good in [
        &["a", "S"][..],
        &["a", "S", "m"],
        &["a", "S", "f"],
        &["a", "E", "V"],
        &["T"],
        &["g"],
        &["a"],
    ] {
        assert!(declared.resolves(good), "{good:?}");
    }
    for bad in [&["b"][..], &["a", "X"], &["a", "S", "n"], &["h"]] {
        assert!(!declared.resolves(bad), "{bad:?}");
    }
}

#[test]
fn a_span_is_a_path_only_when_it_starts_at_the_top_level() {
    let top: BTreeSet<String> = ["crates", "docs", "Cargo.toml"].map(str::to_owned).into();
    assert_eq!(
        path_in("crates/a/src/lib.rs", &top).as_deref(),
        Some("crates/a/src/lib.rs")
    );
    assert_eq!(path_in("Cargo.toml", &top).as_deref(), Some("Cargo.toml"));
    assert_eq!(path_in("docs/a.md's", &top).as_deref(), Some("docs/a.md"));
    assert_eq!(path_in("cargo xtask test", &top), None);
    assert_eq!(path_in("crates", &top).as_deref(), Some("crates"));
    assert_eq!(path_in("src/lib.rs", &top), None);
    assert_eq!(
        expand("crates/{a,b}/x.rs"),
        ["crates/a/x.rs", "crates/b/x.rs"].map(str::to_owned)
    );
}

#[test]
fn code_blocks_are_not_read() {
    let text = "`docs/a.md`\n```\n`docs/b.md`\n```\n``x `y` z``";
    let spans: Vec<String> = code_spans(text).into_iter().map(|(_, span)| span).collect();
    assert_eq!(spans, ["docs/a.md", "x `y` z"]);
}
