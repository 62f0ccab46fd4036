// Inlined at the end of index.html's body by `cargo xtask prerender`, after a
// template per preset (its `data-view` the preset's id): shows the plan the address opens,
// computed at build time by the core, and marks it `first-action-list`. Mounting the
// page clears the body, and its first render, a microtask later, shows its own list
// (web/src/hooks/use_playground.rs, which leaves the mark alone). Only addresses whose first plan is known
// for sure: a preset (`?preset=`), or the default one when nothing is saved.
// Any other parameter (a lesson, an exercise, presenter mode), a `#` link or a saved
// session: the page's own render.
(() => {
  const query = new URLSearchParams(location.search);
  const known = ["embed", "preset", "panes", "readonly", "allow", "theme"];
  if (location.hash.length > 1 || [...query.keys()].some((name) => !known.includes(name))) return;
  const panes = query.get("panes");
  if (panes !== null && !panes.split(",").includes("plan")) return;
  const script = document.currentScript;
  let view = query.get("preset");
  if (view === null) {
    // The default view opens the autosave, if there is one.
    try {
      if (localStorage.length > 0) return;
    } catch {
      return;
    }
    view = script.dataset.default;
  }
  const template = [...document.querySelectorAll("template[data-view]")].find((t) => t.dataset.view === view);
  if (!template) return;
  // As the page sets it before its first paint (browser::set_theme), so no colour changes.
  const theme = query.get("theme");
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  const shown = document.createElement("div");
  shown.id = "prerendered-plan";
  shown.className = "prerendered-plan";
  shown.append(template.content.cloneNode(true));
  script.before(shown);
  performance.mark("first-action-list");
})();
