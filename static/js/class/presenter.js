// The teacher's presenter view (class.css lays it out): one panel at a time beside the
// board (the quiz, the puzzle's leaderboard or the call stack), picked by tabs, and the
// setup (demo, lesson, puzzle) folded away once the demo runs.

/** Tabs over the presenter's panels: the root's `data-panel` says which one shows. */
export class PanelTabs {
  /** root: the page (data-panel); list: the tablist, its tabs' data-panel naming their panel. */
  constructor(root, list) {
    this.root = root;
    this.tabs = [...list.querySelectorAll("[role=tab]")];
    for (const tab of this.tabs) {
      tab.addEventListener("click", () => this.select(tab.dataset.panel));
    }
    list.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity }[event.key];
      if (step === undefined) return;
      event.preventDefault();
      event.stopPropagation(); // the arrows are the transport's keys elsewhere
      const here = this.tabs.findIndex((tab) => tab.dataset.panel === this.panel);
      const next =
        Math.abs(step) === Infinity
          ? step < 0
            ? 0
            : this.tabs.length - 1
          : (here + step + this.tabs.length) % this.tabs.length;
      this.select(this.tabs[next].dataset.panel);
      this.tabs[next].focus();
    });
    this.select(root.dataset.panel || this.tabs[0].dataset.panel);
  }

  get panel() {
    return this.root.dataset.panel;
  }

  select(panel) {
    this.root.dataset.panel = panel;
    for (const tab of this.tabs) {
      const on = tab.dataset.panel === panel;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
    }
  }
}

/**
 * The setup's disclosure (a <details>): open while the teacher sets a demo up, folded once
 * it runs (once per start: the teacher may open it again).
 */
export class SetupFold {
  constructor(details) {
    this.details = details;
    this.phase = "setup";
  }

  /** Something picked in it took effect (a chapter, a puzzle): fold it, unless setting up. */
  done() {
    if (this.phase !== "setup") this._fold();
  }

  /** Every frame: the page's phase (setup | running | finished). */
  follow(phase) {
    if (phase === this.phase) return;
    const started = this.phase === "setup";
    this.phase = phase;
    if (phase === "setup") this.details.open = true;
    else if (started) this._fold();
  }

  /** Fold; the focus in it goes to its button (so the page's keys work again). */
  _fold() {
    const { details } = this;
    const focused = globalThis.document?.activeElement;
    if (details.open && focused && details.contains?.(focused)) {
      details.querySelector("summary").focus();
    }
    details.open = false;
  }
}
