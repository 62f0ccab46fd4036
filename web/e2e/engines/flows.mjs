// The main flows, one spec for Firefox and WebKit (run.mjs drives it through driver.mjs):
// edit and plan, an error with its location, a preset, Step/Run, a share link round
// trip, an embed, autosave and restore, presenter mode in a reveal.js deck, and the features of later issues (level vs
// edge lanes, the control-plane view, YAML, a lesson fetched as it opens). Chromium runs the same flows, and more, in the Playwright specs.
import assert from "node:assert/strict";

const SEED_SUMMARY = "1 to create, 1 to update, 0 to finalize, 1 to delete";

/** Opens the playground afresh (a reset of the tab's session), on the seed example. */
async function openSeed(d) {
  await d.goto("/?preset=basics");
  await d.waitForText("#plan-summary", SEED_SUMMARY);
}

export const flows = {
  async editAndPlan(d) {
    await openSeed(d);
    await d.typeInto("Desired state", '{"a": {"replicas": 2}}');
    await d.waitForText("#plan-summary", "1 to create, 0 to update, 0 to finalize, 2 to delete");
    assert.equal(await d.editorValue("Desired state"), '{"a": {"replicas": 2}}');
  },

  async errorIsLocatedAndTheTextStays(d) {
    await openSeed(d);
    const typed = '{"b": {"replicas": 1},}';
    await d.typeInto("Observed state", typed);
    await d.waitForText("#observed-error", /^Line 1, column 23 at \$: trailing comma/);
    assert.equal(await d.editorValue("Observed state"), typed);
    assert.equal(await d.evaluate(() => document.querySelector('[aria-label="Actions"]').dataset.stale), "true");
  },

  async preset(d) {
    await openSeed(d);
    await d.selectOption("Preset", "LoadBalancer finalizer");
    await d.waitForText("#plan-summary", "0 to create, 0 to update, 1 to finalize, 0 to delete");
  },

  async stepAndRun(d) {
    await openSeed(d);
    await d.clickButton("Step");
    await d.waitFor(() => document.querySelectorAll('[aria-label="Passes"] > li').length === 1, [], { what: "one pass" });
    await d.clickButton("Run to convergence");
    await d.waitForText(".verdict", /Converged after 3 passes/);
  },

  async shareLinkRoundTrip(d) {
    await openSeed(d);
    const typed = '{"a": {"replicas": 2}, "z": {}}';
    await d.typeInto("Desired state", typed);
    await d.waitForText("#plan-summary", "2 to create, 0 to update, 0 to finalize, 2 to delete");
    // The simulation follows the edit once typing pauses; until then the page below the plan still moves.
    await d.waitForText(".moment-status", "At the start: 4 out of sync.");
    await d.clickButton("Step");
    await d.waitFor(() => document.querySelectorAll('[aria-label="Passes"] > li').length === 1, [], { what: "one pass" });
    await d.clickButton("Share");
    const link = await d.waitFor(() => document.querySelector('input[aria-label="Share link"]')?.value, [], { what: "the share link" });
    assert.match(link, /\/#v2\/[A-Za-z0-9_-]+$/);
    await d.goto("/?preset=basics");
    await d.waitForText("#plan-summary", SEED_SUMMARY);
    await d.goto(link);
    await d.waitFor((t) => document.querySelector('textarea[aria-label="Desired state"]')?.value === t, [typed], { what: "the link's document" });
    await d.waitFor(() => document.querySelectorAll('[aria-label="Passes"] > li').length === 1, [], { what: "the link's pass" });
  },

  async autosaveAndRestore(d) {
    await openSeed(d);
    const typed = '{"kept": {"replicas": 7}}';
    await d.typeInto("Desired state", typed);
    await d.waitForText("#plan-summary", "1 to create, 0 to update, 0 to finalize, 2 to delete");
    // Saved once typing pauses; a reload of the address without its state restores it.
    await new Promise((resolve) => setTimeout(resolve, 800));
    await d.goto("/");
    await d.waitFor((t) => document.querySelector('textarea[aria-label="Desired state"]')?.value === t, [typed], { what: "the autosaved document" });
  },

  async lessonFromItsFile(d) {
    // The page carries the lessons' index; the lesson's text is its file, fetched as it opens.
    await d.goto("/?lesson=finalizers&step=2");
    await d.waitForText(".lesson-panel .exercise-prompt", /Who removes cloud\/lb-cleanup from the list\?/);
    await d.waitFor(
      () => document.querySelector('textarea[aria-label="Finalizers"]')?.value.includes("cloud/lb-cleanup"),
      [],
      { what: "the lesson's documents" },
    );
  },

  async embed(d) {
    await d.goto("/?embed&preset=load-balancer-finalizer&panes=editors,plan");
    await d.waitForText("#plan-summary", "0 to create, 0 to update, 1 to finalize, 0 to delete");
    assert.equal(await d.evaluate(() => document.querySelector(".app")?.classList.contains("embed")), true);
    assert.equal(await d.evaluate(() => document.querySelector(".sim-pane")), null, "panes=editors,plan shows no simulation");
  },

  async component(d) {
    // A course page on 127.0.0.1 with the component from localhost: another origin.
    await d.goto("/__e2e/paste.html");
    const port = await d.evaluate(() => location.port);
    const html = `<script>window.heights = []; document.addEventListener("reconcile-playground:height", (e) => heights.push(e.detail.height));</script>
<script type="module" src="http://localhost:${port}/pkg/reconcile-playground.js"></script>
<reconcile-playground preset="load-balancer-finalizer" panes="editors,plan"></reconcile-playground>`;
    await d.goto(`/__e2e/paste.html?component#${encodeURIComponent(html)}`);
    // The frame is sized to the height its playground reported, heard as DOM events.
    const fitted = await d.waitFor(() => {
      const frame = document.querySelector("reconcile-playground iframe");
      const height = frame?.getBoundingClientRect().height;
      return window.heights?.length > 0 && height === window.heights.at(-1) && height !== 480 && height;
    }, [], { what: "the frame sized to its content" });
    assert.ok(fitted > 200, `height ${fitted}`);
  },

  async presenterInADeck(d) {
    // A reveal.js deck on localhost (e2e/pages/deck.html) with the component from 127.0.0.1, in presenter mode.
    await d.goto(`http://localhost:${new URL(d.base).port}/__e2e/deck.html?playground=${encodeURIComponent(d.base.replace(/\/$/, ""))}`);
    await d.waitFor(() => window.Reveal?.isReady(), [], { what: "the deck" });
    await d.evaluate(() => Reveal.slide(1));
    const FRAME = "reconcile-playground iframe";
    /** Waits until the frame's presenter bar reads `text`. */
    const place = async (text) => {
      const deadline = Date.now() + 15000;
      for (;;) {
        const now = await d.evaluateInFrame(FRAME, () => document.querySelector(".present-place")?.textContent ?? null).catch(() => null);
        if (now === text) return;
        if (Date.now() > deadline) throw new Error(`the frame shows "${now}", not "${text}"`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const deckAt = (h) => d.waitFor((want) => Reveal.getIndices().h === want, [h], { what: `the deck at slide ${h}` });
    await place("1 / 3 Editors");
    await d.clickInFrame(FRAME, ".present-place");
    await d.pressKey("ArrowRight");
    await place("2 / 3 Plan");
    await d.pressKey("ArrowRight");
    await place("3 / 3 Simulation");
    await d.pressKey("ArrowRight");
    await deckAt(2);
    assert.deepEqual(await d.evaluate(() => keys), ["ArrowRight"]);
    // The focus is the deck's again.
    await d.pressKey("ArrowLeft");
    await deckAt(1);
    // An editor keeps its arrows.
    await d.clickInFrame(FRAME, ".present-place");
    await d.pressKey("ArrowLeft");
    await d.pressKey("ArrowLeft");
    await place("1 / 3 Editors");
    await d.clickInFrame(FRAME, 'textarea[aria-label="Desired state"]');
    await d.pressKey("ArrowLeft");
    await d.pressKey("ArrowRight");
    await place("1 / 3 Editors");
    await deckAt(1);
    assert.deepEqual(await d.evaluate(() => keys), ["ArrowRight"]);
  },

  async levelVersusEdgeLanes(d) {
    await d.goto("/?preset=missed-events");
    await d.waitFor(() => !!document.querySelector("details.level-edge > summary"), [], { what: "level vs edge" });
    await d.evaluate(() => document.querySelector("details.level-edge > summary").setAttribute("data-e2e-target", ""));
    await d.clickSelector("[data-e2e-target]");
    await d.clickButton("Run to convergence");
    const missed = await d.waitFor(() => document.querySelector(".lanes thead .hearing.missed")?.textContent, [], { what: "a broken arrow" });
    assert.match(missed, /missed: the custom resource's spec changes/);
    const lastEdge = await d.evaluate(() => {
      const row = [...document.querySelectorAll(".lanes tr.edge-lane")].find((r) => r.querySelector("th code")?.textContent === "web-1");
      return [...row.querySelectorAll("td.lane-cell")].pop()?.textContent;
    });
    assert.equal(lastEdge, "+ extra");
  },

  async controlPlaneView(d) {
    // A module of its own (its yew app beside the page's), imported when the view first opens.
    await openSeed(d);
    await d.waitFor(() => !!document.querySelector("details.control-plane > summary"), [], { what: "the control-plane view" });
    await d.evaluate(() => document.querySelector("details.control-plane > summary").setAttribute("data-e2e-target", ""));
    await d.clickSelector("[data-e2e-target]");
    // The first line waits for two modules loaded on demand (the view's and the simulation's):
    // WebKit under a loaded machine took over 15 s to fetch and compile them.
    await d.waitForText(".cp-text li[data-part=now]", /the start: the informer has listed the store into its cache/, { timeout: 60000 });
    await d.clickButton("Step");
    await d.waitForText(".cp-text li[data-part=now]", /pass 1 returns/);
    const [body, host] = await d.evaluate(() => [document.body.__yew_subtree_id, document.querySelector(".sim-host").__yew_subtree_id]);
    assert.ok(host > body, `the view's tree number ${host} is above the page's ${body}`);
    // A swimlane column moves the page's cursor, the one cursor.
    await d.evaluate(() => document.querySelector('.sl-wide .sl-col[data-position="0"]').dispatchEvent(new MouseEvent("click", { bubbles: true })));
    await d.waitForText(".cp-text li[data-part=now]", /the start/);
    await d.waitFor(() => document.querySelector(".snapshot-banner") !== null, [], { what: "the page's cursor behind the revealed run" });
  },

  async yamlInAnEditor(d) {
    await openSeed(d);
    await d.typeInto("Desired state", "web: {replicas: 2}");
    await d.waitForText("#desired-format", "YAML");
    await d.waitForText("#plan-summary", "1 to create, 0 to update, 0 to finalize, 2 to delete");
    assert.equal(await d.evaluate(() => document.querySelector('[aria-label="Actions"]').dataset.stale), "false");
  },
};
