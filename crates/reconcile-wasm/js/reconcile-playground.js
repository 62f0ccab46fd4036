// <reconcile-playground>: the playground in a course page, in a frame sized to its content.
// Its default export is an anywidget module (`render({ model, el })`) for MyST, Jupyter and marimo.
// Load it as a module from the playground's own site; it finds the playground beside pkg/:
//   <script type="module" src="https://YOUR-HOST/pkg/reconcile-playground.js"></script>
//   <reconcile-playground preset="stuck-namespace" panes="editors,plan"></reconcile-playground>
// The message names and version are web/src/embed.rs's; a test compares the two.

const PREFIX = "reconcile-playground:";
const VERSION = 1;
const HEIGHT = PREFIX + "height";
const KEY = PREFIX + "key";

/** Reveal.js's move for a key presenter mode sends on (as its own keyboard: revealjs.com/keyboard). */
const DECK = { ArrowRight: "right", ArrowLeft: "left", PageDown: "next", n: "next", N: "next", " ": "next", PageUp: "prev", p: "prev", P: "prev" };

/** The attributes passed on as the URL's parameters of the same names. */
const PARAMS = ["preset", "lesson", "step", "exercise", "lang", "panes", "readonly", "theme", "present"];
/** The attributes that are flags: present (or "") for on, absent or "false" for off. */
const FLAGS = ["readonly", "present"];
/** Every attribute the element reads: `state` is a `#v2/…` link, `src` the playground's address. */
const ATTRIBUTES = [...PARAMS, "state", "src", "label"];
/** The playground is the folder above pkg/, where this module is. */
const HOME = new URL("../", import.meta.url).href;

class ReconcilePlayground extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  #frame = null;
  #origin = "";
  #heard = (event) => this.#receive(event);

  connectedCallback() {
    if (!this.#frame) {
      this.#frame = document.createElement("iframe");
      // Until the playground reports its height.
      this.#frame.style.cssText = "display:block;width:100%;height:480px;border:0";
      this.append(this.#frame);
    }
    if (getComputedStyle(this).display === "inline") this.style.display = "block";
    addEventListener("message", this.#heard);
    this.#load();
  }

  disconnectedCallback() {
    removeEventListener("message", this.#heard);
  }

  attributeChangedCallback() {
    if (this.#frame) this.#load();
  }

  /** The frame's address: `?embed`, the attributes, this page's origin in `allow`, the state. */
  get url() {
    const url = new URL(this.getAttribute("src") || HOME, document.baseURI);
    const query = new URLSearchParams("embed");
    for (const name of PARAMS) {
      const value = this.getAttribute(name);
      const flag = FLAGS.includes(name);
      if (value === null || (flag && value === "false")) continue;
      query.set(name, flag ? "" : value);
    }
    // Commands and results pass between this page and the frame, and no other.
    if (location.origin !== "null") query.set("allow", location.origin);
    url.search = query.toString().replace(/=(&|$)/g, "$1");
    const state = this.getAttribute("state") ?? "";
    url.hash = state.includes("#") ? state.slice(state.indexOf("#")) : state;
    return url.href;
  }

  #load() {
    const url = this.url;
    this.#origin = new URL(url).origin;
    this.#frame.title = this.getAttribute("label") || "Reconcile Playground";
    if (this.#frame.src !== url) this.#frame.src = url;
  }

  /**
   * A message from this element's own frame, on the playground's origin, in a known envelope,
   * fired as the event its `type` names: `height`, `checked`, `controller-checked`, `step-reached`, `answered`, `lesson-completed`, `key`.
   * A `key` event not cancelled moves a reveal.js deck on this page.
   */
  #receive(event) {
    const data = event.data;
    if (event.source !== this.#frame?.contentWindow || event.origin !== this.#origin) return;
    if (typeof data?.type !== "string" || !data.type.startsWith(PREFIX) || data.version !== VERSION) return;
    if (data.type === HEIGHT && data.height > 0) this.#frame.style.height = data.height + "px";
    const heard = new CustomEvent(data.type, { detail: data, bubbles: true, composed: true, cancelable: true });
    if (this.dispatchEvent(heard) && data.type === KEY) this.#present(data);
  }

  /** Moves a reveal.js deck on this page for a key presenter mode sent on. */
  #present({ key, shiftKey }) {
    const deck = globalThis.Reveal;
    const move = key === " " && shiftKey ? "prev" : DECK[key];
    if (!move || typeof deck?.[move] !== "function" || !deck.isReady?.()) return;
    // The deck's own keys again: the focus would stay in a frame whose slide has gone
    // (WebKit keeps it there after blur() alone).
    this.#frame.blur();
    focus();
    deck[move]();
  }

  /** Sends a command (`load`, `step`, `run`) to the frame, in the envelope. */
  post(kind, fields = {}) {
    this.#frame?.contentWindow?.postMessage({ ...fields, type: PREFIX + kind, version: VERSION }, this.#origin);
  }

  step() {
    this.post("step");
  }

  run() {
    this.post("run");
  }

  /** Replaces the documents: `desired`, `observed` and, optionally, `finalizers`, as JSON text. */
  load(documents) {
    this.post("load", documents);
  }
}

if (!customElements.get("reconcile-playground")) customElements.define("reconcile-playground", ReconcilePlayground);

/** A model trait's value as the attribute's: absent for null, "" or false; "" for true; lists joined. */
function attributeValue(value) {
  if (value === undefined || value === null || value === false || value === "") return null;
  if (value === true) return "";
  return Array.isArray(value) ? value.join(",") : String(value);
}

/**
 * The anywidget contract (MyST's `{anywidget}`, Jupyter, marimo): each view is one element,
 * whose attributes follow the model's traits of the same names. It only reads the model.
 */
function render({ model, el }) {
  const element = document.createElement("reconcile-playground");
  const sync = () => {
    for (const name of ATTRIBUTES) {
      const value = attributeValue(model.get(name));
      // Only what changed: each attribute set reopens the frame.
      if (value === element.getAttribute(name)) continue;
      if (value === null) element.removeAttribute(name);
      else element.setAttribute(name, value);
    }
  };
  sync();
  el.append(element);
  const events = ATTRIBUTES.map((name) => "change:" + name);
  for (const event of events) model.on(event, sync);
  return () => {
    for (const event of events) model.off?.(event, sync);
    element.remove();
  };
}

export default { render };
export { ReconcilePlayground, PREFIX, VERSION, ATTRIBUTES };
