// Drawing one board of the watch page.
//
// Squares are DOM cells (data-row, data-col, data-state: empty | path | current |
// candidate | tried | dead) built once per size; each frame only touches the cells whose state
// changed. The path line and the heat map are drawn on a canvas over the grid.

import { fileName, rowCol } from "./decode.js";

const HEAT_LOW = [255, 240, 180]; // pale yellow
const HEAT_HIGH = [211, 47, 47]; // red

export class BoardView {
  constructor(root) {
    this.root = root;
    this.grid = root.querySelector(".w-grid");
    this.canvas = root.querySelector(".w-lines");
    this.ctx = this.canvas.getContext("2d");
    this.rows = 0;
    this.cols = 0;
    this.cells = [];
    this.shown = []; // per cell: the "state|text" it displays
    this.marked = []; // squares carrying a candidate or dead mark
    this.heat = false;
    this.onSquare = null; // (row, col) => ..., clicks while picking a start
    this.pixel = { w: 0, h: 0, ratio: 1 };
    this.grid.addEventListener("click", (event) => {
      const cell = event.target.closest(".w-sq");
      if (cell && this.onSquare) this.onSquare(Number(cell.dataset.row), Number(cell.dataset.col));
    });
    new ResizeObserver(() => this._resize()).observe(this.grid);
  }

  /** (Re)build the grid for a rows x cols board. */
  build(rows, cols) {
    this.rows = rows;
    this.cols = cols;
    this.root.style.setProperty("--rows", rows);
    this.root.style.setProperty("--cols", cols);
    this.root.dataset.size = `${rows}x${cols}`;
    this.root.classList.toggle("w-small", Math.max(rows, cols) > 12);
    this.root.classList.toggle("w-tiny", Math.max(rows, cols) > 30);
    const fragment = document.createDocumentFragment();
    this.cells = new Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const cell = document.createElement("div");
        cell.className = (r + c) % 2 ? "w-sq w-dark" : "w-sq w-light";
        cell.dataset.row = r;
        cell.dataset.col = c;
        cell.dataset.state = "empty";
        if (r === rows - 1) cell.dataset.file = fileName(c);
        if (c === 0) cell.dataset.rank = rows - r;
        fragment.append(cell);
        this.cells[r * cols + c] = cell;
      }
    }
    this.grid.replaceChildren(fragment);
    this.shown = new Array(rows * cols).fill("empty|");
    this.marked = [];
    this.start = -1;
    this._resize();
  }

  /** Mark the start square (before a run, while picking it). */
  setStart(sq) {
    if (this.start >= 0) this.cells[this.start]?.removeAttribute("data-start");
    this.start = sq;
    if (sq >= 0) this.cells[sq].dataset.start = "true";
  }

  /**
   * Show the state of `player` after its last consumed event. `view`: {cands, counts, tried,
   * dead}: the candidates the last move chose from (the first `tried` of them were tried
   * before it) with their onward counts, and the square just abandoned (or -1).
   */
  draw(player, view, { full = false } = {}) {
    const { order } = player;
    const head = player.head;
    const touched = full ? this.cells.map((_, i) => i) : player.takeDirty();
    if (full) player.takeDirty();
    for (const sq of this.marked) touched.push(sq);
    this.marked = [];
    if (head >= 0) touched.push(head);
    for (const sq of touched) {
      const n = order[sq];
      this._set(sq, n === 0 ? "empty" : sq === head ? "current" : "path", n === 0 ? "" : n);
    }
    if (view.dead >= 0 && order[view.dead] === 0) {
      this._set(view.dead, "dead", "");
      this.marked.push(view.dead);
    }
    const { cands, counts, tried = 0 } = view;
    for (let i = 0; i < cands.length; i++) {
      const sq = cands[i];
      if (order[sq] !== 0) continue;
      this._set(sq, i < tried ? "tried" : "candidate", counts ? counts[i] : "");
      this.marked.push(sq);
    }
    this.root.dataset.depth = player.depth;
    this._drawCanvas(player);
  }

  setHeat(on, player) {
    this.heat = on;
    this.root.classList.toggle("w-heat", on);
    if (player) this._drawCanvas(player);
  }

  // -- internals ----------------------------------------------------------------------------
  _set(sq, state, text) {
    const key = `${state}|${text}`;
    if (this.shown[sq] === key) return;
    this.shown[sq] = key;
    const cell = this.cells[sq];
    cell.dataset.state = state;
    cell.textContent = text;
    if (state === "dead") {
      // Restart the flash animation even when the same square flashes twice in a row.
      cell.classList.remove("w-flash");
      void cell.offsetWidth;
      cell.classList.add("w-flash");
    }
  }

  _resize() {
    const rect = this.grid.getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    this.pixel = { w: rect.width, h: rect.height, ratio };
    this.canvas.width = Math.max(1, Math.round(rect.width * ratio));
    this.canvas.height = Math.max(1, Math.round(rect.height * ratio));
    this.canvas.style.width = `${rect.width}px`;
    this.canvas.style.height = `${rect.height}px`;
    if (this.lastPlayer) this._drawCanvas(this.lastPlayer);
  }

  _drawCanvas(player) {
    this.lastPlayer = player;
    const { ctx } = this;
    const { w, h, ratio } = this.pixel;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    if (!this.cols || w === 0) return;
    const cw = w / this.cols;
    const ch = h / this.rows;
    if (this.heat) this._drawHeat(player, cw, ch);
    const { path, depth } = player;
    if (depth < 2) return;
    const style = getComputedStyle(this.root);
    ctx.lineJoin = "round";
    ctx.lineCap = "round";
    ctx.lineWidth = Math.max(1, Math.min(4, cw * 0.08));
    ctx.strokeStyle = style.getPropertyValue("--w-line").trim() || "#3b82f6";
    ctx.globalAlpha = this.heat ? 0.45 : 0.8;
    ctx.beginPath();
    for (let i = 0; i < depth; i++) {
      const [r, c] = rowCol(path[i], this.cols);
      const x = (c + 0.5) * cw;
      const y = (r + 0.5) * ch;
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  _drawHeat(player, cw, ch) {
    // Colour by log(entries) / log(max entries): once = pale yellow, the most = deep red.
    const { entered } = player;
    let max = 1;
    for (let i = 0; i < entered.length; i++) if (entered[i] > max) max = entered[i];
    const scale = Math.log(max);
    const { ctx } = this;
    for (let sq = 0; sq < entered.length; sq++) {
      const n = entered[sq];
      if (n === 0) continue;
      const f = scale > 0 ? Math.log(n) / scale : 0;
      const rgb = HEAT_LOW.map((lo, i) => Math.round(lo + (HEAT_HIGH[i] - lo) * f));
      ctx.fillStyle = `rgba(${rgb[0]},${rgb[1]},${rgb[2]},${0.6 + 0.3 * f})`;
      const [r, c] = rowCol(sq, this.cols);
      ctx.fillRect(c * cw, r * ch, cw, ch);
    }
  }
}
