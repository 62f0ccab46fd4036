// The launch page of an LMS package (docs/lms.md): the playground at one lesson or exercise,
// in <reconcile-playground>, reporting to the LMS through the SCORM 1.2 run-time API.
// The package's imsmanifest.xml names this page with what it opens:
//   scorm.html?lesson=finalizers&predictions=3   or   scorm.html?exercise=reconcile&lang=python
// It stores the learner's place in cmi.suspend_data, so the next launch resumes there.
import "./pkg/reconcile-playground.js";

/** SCORM 1.2 caps cmi.suspend_data at this many characters (CMIString4096). */
const SUSPEND_LIMIT = 4096;
/** Writes wait for the learner to pause, as the playground's autosave does. */
const COMMIT_DELAY_MS = 2000;
const EVENT = "reconcile-playground:";

const params = new URLSearchParams(location.search);
const opens = params.has("lesson")
  ? { lesson: params.get("lesson") }
  : { exercise: params.get("exercise") ?? "reconcile", lang: params.get("lang") ?? "python" };
/** The score's maximum for a lesson: its predictions. */
const predictions = Number(params.get("predictions") ?? 0);

/** `window.API` in `win` or one of its parents, as the SCORM 1.2 run-time environment says to look. */
function searchParents(win) {
  for (let depth = 0; win && depth < 500; depth += 1) {
    try {
      if (win.API) return win.API;
    } catch {
      return null; // another origin's window: no LMS there
    }
    if (win.parent === win) return null;
    win = win.parent;
  }
  return null;
}

/** The LMS's SCORM 1.2 API: in this window's parents, else in its opener's. */
function findApi() {
  return searchParents(window.parent === window ? null : window.parent) ?? searchParents(window.opener);
}

/**
 * What the LMS keeps between launches, as cmi.suspend_data's JSON:
 * `step` (1-based), `first` (each answered step: whether its first answer was right),
 * `passed` (the exercise's check), and `link`, the playground's `#v2/…` state
 * (the step, the answers shown, the documents and the code), when it fits.
 */
class Progress {
  constructor(saved) {
    this.step = Number(saved.step) || 0;
    this.first = saved.first && typeof saved.first === "object" ? saved.first : {};
    this.passed = saved.passed === true;
    this.link = typeof saved.link === "string" ? saved.link : "";
  }

  static read(text) {
    try {
      return new Progress(JSON.parse(text || "{}") ?? {});
    } catch {
      return new Progress({});
    }
  }

  /** Right the first time, of the lesson's predictions. */
  get right() {
    return Object.values(this.first).filter((correct) => correct === true).length;
  }

  /** The suspend data, and whether the link had to be left out to fit SCORM 1.2's cap. */
  serialize() {
    const { step, first, passed, link } = this;
    const whole = JSON.stringify({ step, first, passed, link });
    if (whole.length <= SUSPEND_LIMIT) return { text: whole, cut: false };
    return { text: JSON.stringify({ step, first, passed }), cut: true };
  }
}

/** The run-time's calls, each a no-op without an LMS. */
class Lms {
  constructor(api) {
    this.api = api;
    this.open = api ? api.LMSInitialize("") === "true" : false;
  }

  get(element) {
    return this.open ? String(this.api.LMSGetValue(element) ?? "") : "";
  }

  set(element, value) {
    if (this.open) this.api.LMSSetValue(element, String(value));
  }

  commit() {
    if (this.open) this.api.LMSCommit("");
  }

  finish() {
    if (!this.open) return;
    this.open = false;
    this.api.LMSFinish("");
  }
}

const lms = new Lms(findApi());
const progress = Progress.read(lms.get("cmi.suspend_data"));
const status = document.getElementById("scorm-status");
let pending = null;

function say(text) {
  status.textContent = text;
}

/** Writes where the learner is and commits, now or once they pause. */
function save({ now = false } = {}) {
  const { text, cut } = progress.serialize();
  lms.set("cmi.suspend_data", text);
  if (progress.step) lms.set("cmi.core.lesson_location", progress.step);
  if (lms.open) {
    say(
      cut
        ? "Your work is too long to keep in the LMS (4,096 characters): it keeps your step and answers, not your documents or code."
        : "",
    );
  }
  clearTimeout(pending);
  if (now) lms.commit();
  else pending = setTimeout(() => lms.commit(), COMMIT_DELAY_MS);
}

function score(raw) {
  lms.set("cmi.core.score.min", 0);
  lms.set("cmi.core.score.max", 100);
  lms.set("cmi.core.score.raw", raw);
}

function complete(state) {
  const done = ["completed", "passed"];
  if (!done.includes(lms.get("cmi.core.lesson_status"))) lms.set("cmi.core.lesson_status", state);
}

const playground = document.createElement("reconcile-playground");
for (const [name, value] of Object.entries(opens)) playground.setAttribute(name, value);
// A saved link reopens the learner's whole state; without one, a lesson reopens at its step.
if (progress.link) playground.setAttribute("state", progress.link);
else if (opens.lesson && progress.step > 1) playground.setAttribute("step", progress.step);
playground.setAttribute("label", document.title);
// By its file: an LMS need not serve a folder's index.html.
playground.setAttribute("src", new URL("index.html", location.href).href);
document.getElementById("scorm-playground").append(playground);

playground.addEventListener(EVENT + "step-reached", ({ detail }) => {
  progress.step = detail.step;
  save();
});
playground.addEventListener(EVENT + "answered", ({ detail }) => {
  // The playground's firstTry counts from the step's reaching: the first answer ever recorded decides.
  if (!(detail.step in progress.first)) progress.first[detail.step] = detail.correct && detail.firstTry;
  if (predictions > 0) score(Math.round((100 * progress.right) / predictions));
  save({ now: true });
});
playground.addEventListener(EVENT + "lesson-completed", () => {
  complete("completed");
  save({ now: true });
});
playground.addEventListener(EVENT + "checked", ({ detail }) => {
  if (progress.passed) return;
  progress.passed = detail.passed === true;
  score(progress.passed ? 100 : 0);
  if (progress.passed) complete("passed");
  save({ now: true });
});
playground.addEventListener(EVENT + "state", ({ detail }) => {
  if (typeof detail.link !== "string" || detail.link === progress.link) return;
  progress.link = detail.link;
  save();
});

if (!lms.open) say("No LMS found: your progress here is not saved.");
else {
  const started = lms.get("cmi.core.lesson_status");
  if (started === "" || started === "not attempted") lms.set("cmi.core.lesson_status", "incomplete");
  if (opens.lesson && predictions > 0 && lms.get("cmi.core.score.raw") === "") score(0);
  lms.commit();
}

// Leaving keeps the place: `suspend` asks the LMS to resume this attempt on the next launch.
addEventListener("pagehide", () => {
  save({ now: true });
  lms.set("cmi.core.exit", "suspend");
  lms.finish();
});

export { Progress, SUSPEND_LIMIT };
