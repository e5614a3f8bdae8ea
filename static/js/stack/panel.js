// The call-stack panel: the frames of stack/state.js, innermost on top, one row each. Rows
// are virtualised: a fixed pool of row elements, as many as fit the scroll box, re-filled
// from the frames on screen, so a 400-frame stack costs what a 12-frame one does. A row only
// touches the DOM where its text or state changed. The frame the search just returned from
// is shown above the rows while playing slowly (a visible pop). Clicking a row selects its
// frame (`onSelect(d)`, null when unselected); the page highlights it on the board.

import { setProp } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { nameOf } from "../core/squares.js";
import { frameView } from "./state.js";

const MAX_CANDIDATES = 8;
const SPARE_ROWS = 2;

export class StackPanel {
  constructor(root, { onSelect = null } = {}) {
    this.root = root;
    this.onSelect = onSelect;
    this.scroller = root.querySelector('[data-role="stack-rows"]');
    this.spacer = document.createElement("div");
    this.spacer.className = "st-spacer";
    this.scroller.append(this.spacer);
    this.popped = root.querySelector('[data-role="stack-popped"]');
    this.depthOut = root.querySelector('[data-role="stack-depth"]');
    this.rows = [];
    this.rowHeight = 0;
    this.viewHeight = 0;
    this.stack = null;
    this.drawn = -1; // the stack version drawn
    this.selected = -1;
    this.popShown = -1;
    this.toTop = false; // scroll back to the top at the next draw (a new stack)
    this.scrolled = 0; // the scroller's scrollTop, kept from its scroll events: reading it
    // while drawing would lay the page out in the middle of a frame's writes
    this.scroller.addEventListener(
      "scroll",
      () => {
        this.scrolled = this.scroller.scrollTop;
        this.draw({ force: true });
      },
      { passive: true },
    );
    this.scroller.addEventListener("click", (event) => {
      const row = event.target.closest(".st-row");
      if (row && row.dataset.frame !== undefined) this.select(Number(row.dataset.frame));
    });
    if (globalThis.ResizeObserver) {
      new ResizeObserver(() => this.measure()).observe(this.scroller);
    }
  }

  /** Show `stack` (stack/state.js); a different stack object starts afresh. */
  use(stack) {
    if (stack === this.stack) return;
    this.stack = stack;
    this._name(stack.kept);
    this.selected = -1;
    this.drawn = -1;
    this.toTop = true; // scrolled back up when drawn: scrolling now would lay the page out
  }

  /** The frame `d` selected (clicking it again, or -1, unselects). */
  select(d) {
    this.selected = d === this.selected ? -1 : d;
    this.draw({ force: true });
    this.onSelect?.(this.selected >= 0 ? this.selected : null);
  }

  /** Row height and pool size from the CSS (a resize, the projector view). */
  measure() {
    const probe = this.rows[0] ?? this._row();
    if (!this.rows.length) this.rows.push(probe);
    const hidden = probe.hidden;
    probe.hidden = false;
    const height = probe.offsetHeight;
    probe.hidden = hidden;
    if (!height) return;
    this.rowHeight = height;
    this.viewHeight = this.scroller.clientHeight;
    const want = Math.ceil(this.viewHeight / height) + SPARE_ROWS;
    while (this.rows.length < want) this.rows.push(this._row());
    this.drawn = -1;
    this.draw();
  }

  /**
   * Bring the rows in line with the stack; `fast` (playing faster than one can read) hides
   * the pop row. `force` redraws even when the stack did not change.
   */
  draw({ fast = false, force = false } = {}) {
    const stack = this.stack;
    if (!stack) return;
    if (!this.rowHeight) this.measure();
    if (!this.rowHeight) return; // not laid out (hidden)
    if (!force && stack.version === this.drawn) return;
    this.drawn = stack.version;
    const depth = stack.depth;
    if (this.selected >= depth) {
      this.selected = -1;
      this.onSelect?.(null);
    }
    this.root.dataset.depth = depth;
    if (this.depthOut) this.depthOut.textContent = String(depth);
    this.spacer.style.height = `${depth * this.rowHeight}px`;
    if (this.toTop) {
      this.toTop = false;
      if (this.scrolled) this.scroller.scrollTop = this.scrolled = 0;
    }
    // A shallower stack: the browser clamps the scroll (its event follows); so does this.
    this.scrolled = Math.min(this.scrolled, Math.max(0, depth * this.rowHeight - this.viewHeight));
    const first = Math.floor(this.scrolled / this.rowHeight);
    this.rows.forEach((row, i) => {
      const slot = first + i;
      const d = depth - 1 - slot; // innermost on top
      if (d < 0) {
        row.hidden = true;
        row.fill = null; // shown again later, it is filled afresh (its frame was dropped)
        delete row.dataset.frame;
        return;
      }
      row.hidden = false;
      row.style.transform = `translateY(${slot * this.rowHeight}px)`;
      fillRow(row, frameView(stack, d), d === this.selected, d === depth - 1);
    });
    this._showPop(fast);
  }

  /** Re-render texts after a language switch. */
  relabel() {
    if (this.stack) this._name(this.stack.kept);
    for (const row of this.rows) row.fill = null;
    this.popShown = -1;
    this.draw({ force: true });
  }

  _showPop(fast) {
    const after = this.stack.after;
    const show = !fast && after >= 0;
    const wasShown = !this.popped.hidden;
    setProp(this.popped, "hidden", !show);
    if (!show || this.popShown === this.stack.version) return;
    this.popShown = this.stack.version;
    const d = this.stack.depth; // the returned frame stood just above the innermost one
    const { rows, cols } = this.stack;
    this.popped.dataset.square = after;
    this.popped.textContent = t("stack.returned", {
      step: d + 1,
      square: `${nameOf(after, rows, cols)} (${Math.floor(after / cols)}, ${after % cols})`,
    });
    // A row that appears starts its animation itself; one already shown restarts it,
    // without reading layout (a class toggled around offsetWidth would).
    this.popped.classList.add("st-pop-anim");
    if (wasShown) {
      for (const running of this.popped.getAnimations?.() ?? []) {
        running.cancel();
        running.play();
      }
    }
  }

  /**
   * Name the panel for how the program keeps its path (stack/state.js `kept`): the call
   * stack, the explicit stack array of the non-recursive program, or the squares' tags.
   */
  _name(kept) {
    this.root.dataset.kept = kept;
    for (const row of this.rows) row.fill = null; // their labels change with it
    const suffix = kept === "calls" ? "" : `.${kept}`;
    for (const [selector, key] of [
      [".st-title > span", "stack.title"],
      [".st-hint", "stack.hint"],
    ]) {
      const el = this.root.querySelector(selector);
      if (!el) continue;
      el.dataset.i18n = key + suffix;
      el.textContent = t(key + suffix);
    }
  }

  _row() {
    const row = document.createElement("button");
    row.type = "button";
    row.className = "st-row";
    row.hidden = true;
    row.innerHTML =
      '<span class="st-step"></span><span class="st-square"><span class="st-name"></span>' +
      '<span class="st-rc"></span></span><span class="st-cands"></span>';
    const cands = row.querySelector(".st-cands");
    for (let i = 0; i < MAX_CANDIDATES; i++) {
      const chip = document.createElement("span");
      chip.className = "st-cand";
      chip.hidden = true;
      cands.append(chip);
    }
    row.fill = null;
    this.scroller.append(row);
    return row;
  }
}

/** Write `view` into `row`, touching only what differs from what it shows. */
function fillRow(row, view, selected, innermost) {
  const key = rowKey(view, selected, innermost);
  if (row.fill === key) return;
  row.fill = key;
  row.dataset.frame = view.step - 1;
  row.dataset.square = view.square;
  row.dataset.innermost = String(innermost);
  row.setAttribute("aria-pressed", String(selected));
  // a stack array's row is its index, top the innermost; a call or a tag is a move number
  row.children[0].textContent = row.closest("[data-kept=array]") ? `[${view.step - 1}]` : view.step;
  row.children[1].children[0].textContent = view.name;
  row.children[1].children[1].textContent = `(${view.row}, ${view.col})`;
  const chips = row.children[2].children;
  for (let i = 0; i < MAX_CANDIDATES; i++) {
    const chip = chips[i];
    const cand = view.candidates[i];
    chip.hidden = !cand;
    if (!cand) continue;
    chip.dataset.square = cand.square;
    chip.dataset.state = cand.state;
    chip.textContent = cand.name;
    if (cand.count === null) delete chip.dataset.count;
    else {
      chip.dataset.count = cand.count;
      const count = document.createElement("sub");
      count.textContent = cand.count;
      chip.append(count);
    }
  }
  row.title = view.given
    ? t("stack.given")
    : view.candidates.length
      ? ""
      : innermost
        ? t("stack.no-way")
        : "";
  row.dataset.given = String(view.given);
}

function rowKey(view, selected, innermost) {
  let key = `${view.step}:${view.square}:${view.given ? 1 : 0}${selected ? 1 : 0}${innermost ? 1 : 0}`;
  for (const c of view.candidates) key += `|${c.square}${c.state[0]}${c.count ?? ""}`;
  return key;
}
