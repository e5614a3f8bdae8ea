// The squares layer: one cell per square with its colour, coordinates, state, marks and
// number, and on a board that takes input its accessible name. Cells are built once per
// size; a draw touches only those whose look changed, so a search drawn at full speed
// costs a few cells a frame.

import { fileName } from "../core/squares.js";
import { squareLabel } from "./labels.js";
import { knightSquare, squareKind, squareNumber, trailHead } from "./state.js";

const KINDS = [
  "empty",
  "visited",
  "current",
  "legal",
  "trail",
  "candidate",
  "tried",
  "dead",
  "hole",
];
const CODE = Object.fromEntries(KINDS.map((kind, i) => [kind, i]));
const ON_PATH = new Set([CODE.visited, CODE.current, CODE.trail]);
const FLASH_MS = 450; // a square the search backs out of flashes this long
const reducedMotion = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");

export class SquaresLayer {
  /** labelled: cells are grid cells with names (a board that takes input). */
  constructor(root, { labelled }) {
    this.root = root;
    this.labelled = labelled;
    this.cells = [];
  }

  build(state) {
    const { rows, cols } = state;
    for (const row of this.root.querySelectorAll(":scope > .board-row")) row.remove();
    const fragment = document.createDocumentFragment();
    this.cells = [];
    for (let r = 0; r < rows; r++) {
      const row = document.createElement("div");
      row.className = "board-row";
      if (this.labelled) row.setAttribute("role", "row");
      for (let c = 0; c < cols; c++) row.append(this._cell(r, c, rows));
      fragment.append(row);
    }
    this.root.prepend(fragment);
    const n = rows * cols;
    this.kinds = new Int8Array(n).fill(-1); // what each cell shows now
    this.numbers = new Int32Array(n).fill(-1);
    this.flags = new Int8Array(n).fill(-1);
    this.labels = new Array(n).fill("");
    this._flashColour = null;
  }

  /** The board's flash colour, read when a square first flashes: reading a computed style
   * while the board is being built would lay the whole page out before its first frame. */
  get flashColour() {
    this._flashColour ??= getComputedStyle(this.root).getPropertyValue("--b-flash").trim() || "red";
    return this._flashColour;
  }

  _cell(r, c, rows) {
    const cell = document.createElement("div");
    cell.className = (r + c) % 2 ? "sq dark" : "sq light";
    cell.dataset.row = r;
    cell.dataset.col = c;
    if (r === rows - 1) cell.dataset.file = fileName(c);
    if (c === 0) cell.dataset.rank = rows - r;
    if (this.labelled) {
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = -1;
    }
    const num = document.createElement("span");
    num.className = "num";
    cell.append(num);
    this.cells.push(cell);
    return cell;
  }

  /**
   * Bring every cell in line with `state`; `relabel` renames them all (a language switch).
   * With `flash`, a square that leaves the path (a search backing out of it) flashes.
   */
  draw(state, { relabel = false, flash = false } = {}) {
    const knight = knightSquare(state);
    const ghost = trailHead(state);
    const { start, hint, warn, frame } = state;
    for (let sq = 0; sq < this.cells.length; sq++) {
      const kind = squareKind(state, sq, knight);
      const code = CODE[kind];
      const number = squareNumber(state, sq);
      const flags =
        (sq === start ? 1 : 0) |
        (sq === hint ? 2 : 0) |
        (sq === warn ? 4 : 0) |
        (sq === frame ? 8 : 0) |
        (sq === ghost ? 16 : 0); // the ghost knight stands on it: its number moves aside
      const changed =
        code !== this.kinds[sq] || number !== this.numbers[sq] || flags !== this.flags[sq];
      if (changed) this._show(sq, code, number, flags, flash);
      if (this.labelled && (changed || relabel)) {
        const label = squareLabel(state, sq, kind, number);
        if (label !== this.labels[sq]) {
          this.labels[sq] = label;
          this.cells[sq].setAttribute("aria-label", label);
        }
      }
    }
  }

  _show(sq, code, number, flags, flash) {
    const cell = this.cells[sq];
    if (flash && ON_PATH.has(this.kinds[sq]) && !ON_PATH.has(code)) {
      flashCell(cell, this.flashColour);
    }
    this.kinds[sq] = code;
    this.numbers[sq] = number;
    this.flags[sq] = flags;
    cell.dataset.state = KINDS[code];
    cell.firstChild.textContent = number ? String(number) : "";
    toggle(cell, "start", flags & 1);
    toggle(cell, "hint", flags & 2);
    toggle(cell, "warn", flags & 4);
    toggle(cell, "frame", flags & 8);
    toggle(cell, "ghost", flags & 16);
  }
}

function toggle(cell, name, on) {
  if (on) cell.dataset[name] = "true";
  else delete cell.dataset[name];
}

function flashCell(cell, colour) {
  if (reducedMotion?.matches || typeof cell.animate !== "function") return;
  const shadow = (c) => ({ boxShadow: `inset 0 0 0 100vmax ${c}` });
  cell.animate([shadow(colour), shadow("transparent")], { duration: FLASH_MS, easing: "ease-out" });
}
