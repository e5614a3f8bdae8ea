// Board rendering, chessground-style: the grid of squares is built once per board
// size, then every state only touches the attributes that changed.

import { squareName, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

export class BoardView {
  constructor(root) {
    this.root = root;
    this.svg = root.querySelector("#path");
    this.line = this.svg.querySelector(".path-line");
    this.returnLine = this.svg.querySelector(".path-return");
    this.knight = root.querySelector("#knight");
    this.rows = 0;
    this.cols = 0;
    this.cells = [];
    this.shown = []; // what each cell currently displays: "state|number|flags"
    this.labels = []; // the aria-label each cell currently carries
  }

  /** (Re)build the grid when the board size changes; a no-op otherwise. */
  build(rows, cols) {
    if (rows === this.rows && cols === this.cols) return false;
    this.rows = rows;
    this.cols = cols;
    for (const row of this.root.querySelectorAll(".row")) row.remove();
    for (const host of new Set([this.root, this.root.closest(".play") ?? this.root])) {
      host.style.setProperty("--rows", rows);
      host.style.setProperty("--cols", cols);
    }
    this.root.dataset.size = `${rows}x${cols}`;
    this.svg.setAttribute("viewBox", `0 0 ${cols} ${rows}`);
    const fragment = document.createDocumentFragment();
    this.cells = [];
    for (let r = 0; r < rows; r++) {
      const rowEl = document.createElement("div");
      rowEl.className = "row";
      rowEl.setAttribute("role", "row");
      for (let c = 0; c < cols; c++) {
        const cell = document.createElement("div");
        cell.className = (r + c) % 2 ? "sq dark" : "sq light";
        cell.setAttribute("role", "gridcell");
        cell.dataset.row = r;
        cell.dataset.col = c;
        cell.dataset.state = "empty";
        cell.tabIndex = -1;
        if (r === rows - 1) cell.dataset.file = String.fromCharCode(97 + c);
        if (c === 0) cell.dataset.rank = rows - r;
        const num = document.createElement("span");
        num.className = "num";
        cell.append(num);
        rowEl.append(cell);
        this.cells.push(cell);
      }
      fragment.append(rowEl);
    }
    this.root.insertBefore(fragment, this.svg);
    this.shown = new Array(rows * cols).fill("");
    this.labels = new Array(rows * cols).fill("");
    this.knight.style.setProperty("--kr", 0);
    this.knight.style.setProperty("--kc", 0);
    return true;
  }

  cell(row, col) {
    return this.cells[row * this.cols + col];
  }

  /** Bring the squares, the path line and the knight in line with `view`. */
  update(game, view, { relabel = false } = {}) {
    const { states, numbers, start, hint } = view;
    const rows = this.rows;
    this.root.dataset.status = game.status;
    for (let i = 0; i < this.cells.length; i++) {
      const state = states[i];
      const number = numbers[i];
      const isStart = i === start;
      const isHint = i === hint;
      const key = `${state}|${number}|${isStart ? "s" : ""}${isHint ? "h" : ""}`;
      const cell = this.cells[i];
      if (key !== this.shown[i]) {
        this.shown[i] = key;
        cell.dataset.state = state;
        cell.firstChild.textContent = number ? String(number) : "";
        if (isStart) cell.dataset.start = "true";
        else delete cell.dataset.start;
        if (isHint) cell.dataset.hint = "true";
        else delete cell.dataset.hint;
      }
      const label = this.label(i, state, number, isStart, isHint, game, rows);
      if (relabel || label !== this.labels[i]) {
        this.labels[i] = label;
        cell.setAttribute("aria-label", label);
      }
    }
    this.drawPath(game);
    this.placeKnight(view.current);
  }

  label(i, state, number, isStart, isHint, game, rows) {
    const row = Math.floor(i / this.cols);
    const col = i % this.cols;
    const square = squareName(row, col, rows);
    let text;
    if (state === "current") text = t("ui.sq.current", { square, n: number });
    else if (state === "legal" && number) text = t("ui.sq.return", { square });
    else if (state === "legal" && game.status !== "new") text = t("ui.sq.legal", { square });
    else if (number) text = t("ui.sq.visited", { square, n: number });
    else text = square;
    if (isStart && game.closed && state !== "legal" && number)
      text = `${text}${t("ui.sq.start-suffix")}`;
    if (isHint) text = `${text}${t("ui.sq.hint-suffix")}`;
    return text;
  }

  drawPath(game) {
    const points = game.path.map(([r, c]) => `${c + 0.5},${r + 0.5}`).join(" ");
    if (this.line.getAttribute("points") !== points) this.line.setAttribute("points", points);
    if (game.returned && game.path.length > 1) {
      const [r1, c1] = game.path.at(-1);
      const [r2, c2] = game.start;
      this.returnLine.setAttribute("x1", c1 + 0.5);
      this.returnLine.setAttribute("y1", r1 + 0.5);
      this.returnLine.setAttribute("x2", c2 + 0.5);
      this.returnLine.setAttribute("y2", r2 + 0.5);
      this.returnLine.removeAttribute("hidden");
    } else {
      this.returnLine.setAttribute("hidden", "");
    }
  }

  placeKnight(square) {
    const knight = this.knight;
    if (!square) {
      knight.hidden = true;
      return;
    }
    const wasHidden = knight.hidden;
    if (wasHidden) knight.classList.add("no-anim");
    knight.style.setProperty("--kr", square[0]);
    knight.style.setProperty("--kc", square[1]);
    knight.hidden = false;
    if (wasHidden) {
      void knight.offsetWidth; // commit the position before re-enabling the transition
      knight.classList.remove("no-anim");
    }
  }

  /** The roving tabindex: exactly one square is in the tab order. */
  setFocus([row, col], { move = false } = {}) {
    const target = this.cell(row, col);
    if (!target) return;
    for (const cell of this.root.querySelectorAll('.sq[tabindex="0"]')) {
      if (cell !== target) cell.tabIndex = -1;
    }
    target.tabIndex = 0;
    if (move) target.focus();
  }
}

/** A small static or animated drawing of a finished tour, for the win screen. */
export function drawReplayBoard(svg, rows, cols) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${cols} ${rows}`);
  const squares = document.createElementNS(SVG, "g");
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("x", c);
      rect.setAttribute("y", r);
      rect.setAttribute("width", 1);
      rect.setAttribute("height", 1);
      rect.setAttribute("class", (r + c) % 2 ? "rp-dark" : "rp-light");
      squares.append(rect);
    }
  }
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("class", "rp-line");
  const numbers = document.createElementNS(SVG, "g");
  numbers.setAttribute("class", "rp-numbers");
  const knight = document.createElementNS(SVG, "text");
  knight.setAttribute("class", "rp-knight");
  knight.textContent = "♞\uFE0E";
  svg.append(squares, line, numbers, knight);
  return { line, numbers, knight };
}

export function replayNumber(numbers, row, col, n) {
  const text = document.createElementNS(SVG, "text");
  text.setAttribute("x", col + 0.5);
  text.setAttribute("y", row + 0.5);
  text.textContent = String(n);
  numbers.append(text);
}
