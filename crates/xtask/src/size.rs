//! Transfer size of the built page: each file raw and gzipped two ways, as a
//! static host sends it: at level 9 when it compresses on the fly, and the
//! build's precompressed copy (`FILE.gz`, zopfli) when it serves those.

use std::path::{Path, PathBuf};

/// Files a browser downloads for the playground page (and, on demand, for the sandbox:
/// its Python harness, and Pyodide's modules, standard library and lock file).
fn is_page_asset(name: &str) -> bool {
    [
        ".html", ".js", ".mjs", ".wasm", ".css", ".py", ".zip", ".json",
    ]
    .iter()
    .any(|ext| name.ends_with(ext))
}

/// What the report's columns are, said once above its tables.
const COLUMNS: &str = "Each file raw and gzipped two ways. *gzip -9*: as a host that compresses \
on the fly at its best level sends it (flate2 level 9; the budgets' earlier figures were measured so). \
*precompressed gzip*: the build's copy beside the file (`FILE.gz`, zopfli, `cargo xtask precompress`), \
as a host that serves precompressed files sends it (nginx `gzip_static`, Caddy `precompressed`, \
`web/e2e/serve.mjs`); — where the build writes no copy, and such a host compresses on the fly.\n\n";

/// The size of the build's precompressed gzip copy of `path`, if it wrote one.
fn precompressed_len(path: &Path) -> Option<usize> {
    let copy = PathBuf::from(format!("{}.gz", path.display()));
    std::fs::metadata(copy)
        .ok()
        .and_then(|meta| usize::try_from(meta.len()).ok())
}

/// What `files` weigh together as brotli (quality 11), the encoding hosts that
/// serve precompressed files send (`cargo xtask precompress`).
fn brotli_line(files: &[(String, PathBuf)]) -> Result<String, String> {
    let mut total = 0;
    for (_, path) in files {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        total += crate::precompress::brotli(&bytes)?.len();
    }
    Ok(format!(
        "\nThe same files as brotli (quality 11): {total} bytes ({}).\n",
        kilobytes(total)
    ))
}

/// Markdown tables of the page's files in `dist` and, when it was built, of
/// the JS API in `dist/pkg`, each with a total row against its budget.
pub fn report(dist: &Path) -> Result<String, String> {
    let page = first_view(dist)?;
    let mut report = String::from(COLUMNS);
    report.push_str(&table_of(page.clone(), "budget 150 KB")?);
    report.push_str(&brotli_line(&page)?);
    report.push_str("\nThe sandbox for a learner's code, loaded on its first run:\n\n");
    report.push_str(&table(dist, is_sandbox, "no budget of its own")?);
    report.push_str(
        "\nThe service worker and the module that registers it once the first view is on screen (`docs/offline.md`):\n\n",
    );
    report.push_str(&table(
        dist,
        crate::sw::is_worker_file,
        "no budget of its own",
    )?);
    let pyodide = dist.join(crate::pyodide::DIR);
    if pyodide.is_dir() {
        report.push_str(
            "\nPyodide (`pyodide/`), loaded on a learner's first Python run and handed to the sandbox:\n\n",
        );
        report.push_str(&table(&pyodide, |_| true, "budget: starts in 5 s")?);
    }
    let pkg = dist.join("pkg");
    if pkg.is_dir() {
        let simulation = |name: &str| is_module_file(name, "reconcile_sim");
        let checker = |name: &str| is_module_file(name, "reconcile_check");
        let looping = |name: &str| is_module_file(name, "reconcile_loop");
        let yaml = |name: &str| is_module_file(name, "reconcile_yaml");
        let on_demand = |name: &str| {
            crate::ui_modules::MODULES
                .iter()
                .any(|ui| name.starts_with(ui.module))
        };
        for ui in &crate::ui_modules::MODULES {
            if !pkg.join(format!("{}.js", ui.module)).is_file() {
                continue;
            }
            report.push_str(&format!("\n{} (`pkg/`):\n\n", ui.title));
            let mut files = files(&pkg, |name| name.starts_with(ui.module))?;
            files.extend(snippets(&pkg, ui.package)?);
            report.push_str(&table_of(files, "no budget of its own")?);
        }
        let component = |name: &str| name == COMPONENT;
        if pkg.join(COMPONENT).is_file() {
            report.push_str("\nThe `<reconcile-playground>` component for course pages:\n\n");
            report.push_str(&table(&pkg, component, "budget 5 KB gzip -9 (issue 33)")?);
            let bytes = std::fs::read(pkg.join(COMPONENT)).map_err(|e| e.to_string())?;
            let gzipped = crate::precompress::gzip_level_9(&bytes)?.len();
            if gzipped > COMPONENT_BUDGET {
                return Err(format!(
                    "pkg/{COMPONENT} is {gzipped} bytes gzipped, over its budget of {COMPONENT_BUDGET}"
                ));
            }
        }
        report.push_str("\nJS API for course pages, what `init()` loads (`pkg/`, js + wasm):\n\n");
        report.push_str(&table(
            &pkg,
            |name| {
                !simulation(name)
                    && !checker(name)
                    && !looping(name)
                    && !yaml(name)
                    && !on_demand(name)
                    && !component(name)
            },
            "budget 80 KB",
        )?);
        report.push_str("\nIts simulation module, fetched on the first `simulate` call:\n\n");
        report.push_str(&table(&pkg, simulation, "budget 180 KB (issue 29)")?);
        report.push_str(
            "\nIts checker of a learner's reconcile, fetched when one is first checked:\n\n",
        );
        report.push_str(&table(&pkg, checker, "no budget of its own")?);
        report.push_str(
            "\nIts module that runs a learner's reconcile in the loop, fetched on the first `checkLoop`:\n\n",
        );
        report.push_str(&table(&pkg, looping, "no budget of its own")?);
        report.push_str("\nIts YAML and manifests module, fetched on the first YAML call:\n\n");
        report.push_str(&table(&pkg, yaml, "no budget of its own")?);
    }
    Ok(report)
}

/// The course pages' component, `pkg/reconcile-playground.js`, and its budget
/// in bytes gzipped at level 9; `cargo xtask size` fails above it.
const COMPONENT: &str = "reconcile-playground.js";
const COMPONENT_BUDGET: usize = 5 * 1024;

/// The sandbox for a learner's code loads on its first run, never with the page.
fn is_sandbox(name: &str) -> bool {
    name.starts_with("sandbox")
}

/// What the page's first view downloads, by name relative to `dist`: the page,
/// its stylesheet, js and wasm, and the inline JavaScript (`snippets/`) its glue
/// imports at once. The service worker precaches these (and `sw-register.js` and
/// the lessons' files).
pub fn first_view(dist: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let mut page = files(dist, |name| {
        name != "example.html"
            && !crate::sw::is_worker_file(name)
            && !is_sandbox(name)
            && !crate::scorm::is_launch_file(name)
    })?;
    page.extend(snippets(dist, "reconcile-web")?);
    Ok(page)
}

/// The page assets in `dir` that `include` accepts, with a total row.
fn table(dir: &Path, include: impl Fn(&str) -> bool, budget: &str) -> Result<String, String> {
    table_of(files(dir, include)?, budget)
}

/// Whether `name` is a file of wasm-bindgen's `module` (`MODULE.js`,
/// `MODULE_bg.wasm`, ...): `reconcile_sim` is not `reconcile_simulation_ui`.
fn is_module_file(name: &str, module: &str) -> bool {
    name.strip_prefix(module)
        .is_some_and(|rest| rest.starts_with('.') || rest.starts_with("_bg."))
}

/// The page assets in `dir` that `include` accepts, by name.
fn files(dir: &Path, include: impl Fn(&str) -> bool) -> Result<Vec<(String, PathBuf)>, String> {
    files_in(dir, |name| is_page_asset(name) && include(name))
}

/// The inline JavaScript wasm-bindgen wrote for crate `name` beside its
/// module in `dir`: `snippets/NAME-HASH/*.js`.
fn snippets(dir: &Path, name: &str) -> Result<Vec<(String, PathBuf)>, String> {
    let folder = dir.join("snippets");
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for (crate_folder, path) in files_in(&folder, |folder| folder.starts_with(name))? {
        let named = |(file, path)| (format!("snippets/{crate_folder}/{file}"), path);
        found.extend(files(&path, |_| true)?.into_iter().map(named));
    }
    Ok(found)
}

/// What is in `dir` (files and folders) that `include` accepts, by name.
fn files_in(dir: &Path, include: impl Fn(&str) -> bool) -> Result<Vec<(String, PathBuf)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        format!(
            "cannot read {}: {e}; run `cargo xtask build` first",
            dir.display()
        )
    })?;
    Ok(entries
        .flatten()
        .map(|entry| {
            (
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
            )
        })
        .filter(|(name, _)| include(name))
        .collect())
}

/// Each of `files` raw, gzip -9 and as its precompressed copy, with a total row.
fn table_of(files: Vec<(String, PathBuf)>, budget: &str) -> Result<String, String> {
    let mut rows = Vec::new();
    for (name, path) in files {
        let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
        let level_9 = crate::precompress::gzip_level_9(&bytes)?.len();
        rows.push((name, bytes.len(), level_9, precompressed_len(&path)));
    }
    rows.sort();
    let mut table = String::from(
        "| file | raw bytes | gzip -9 bytes | precompressed gzip bytes |\n|---|---:|---:|---:|\n",
    );
    for (name, raw, level_9, copy) in &rows {
        let copy = copy.map_or_else(|| "—".to_owned(), |copy| copy.to_string());
        table.push_str(&format!("| {name} | {raw} | {level_9} | {copy} |\n"));
    }
    let raw: usize = rows.iter().map(|r| r.1).sum();
    let level_9: usize = rows.iter().map(|r| r.2).sum();
    let copies: Vec<usize> = rows.iter().filter_map(|r| r.3).collect();
    let precompressed = if copies.is_empty() {
        format!("— ({budget})")
    } else {
        // A file without a copy is sent as the host compresses it on the fly.
        let total: usize = rows.iter().map(|r| r.3.unwrap_or(r.2)).sum();
        let without = rows.len() - copies.len();
        let note = if without == 0 {
            String::new()
        } else {
            format!("; {without} without a copy counted at level 9")
        };
        format!("{total} ({}{note}; {budget})", kilobytes(total))
    };
    table.push_str(&format!(
        "| **total** | {raw} | {level_9} ({}) | {precompressed} |\n",
        kilobytes(level_9)
    ));
    Ok(table)
}

fn kilobytes(bytes: usize) -> String {
    format!("{:.1} KB", bytes as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::is_module_file;

    #[test]
    fn a_module_s_files_are_its_own_not_a_longer_name_s() {
        assert!(is_module_file("reconcile_sim.js", "reconcile_sim"));
        assert!(is_module_file("reconcile_sim_bg.wasm", "reconcile_sim"));
        assert!(!is_module_file(
            "reconcile_simulation_ui.js",
            "reconcile_sim"
        ));
        assert!(!is_module_file(
            "reconcile_simulation_ui_bg.wasm",
            "reconcile_sim"
        ));
    }
}
