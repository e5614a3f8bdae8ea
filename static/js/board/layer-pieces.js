// The pieces layer: the knight on its square, and a search's ghost knight at the head of
// its trail (Show me). CSS slides a knight from square to square.

import { knightSquare, trailHead } from "./state.js";

export class PiecesLayer {
  constructor(root) {
    this.knight = piece(root, "knight");
    this.ghost = piece(root, "knight ghost");
  }

  build() {
    for (const el of [this.knight, this.ghost]) el.hidden = true;
  }

  draw(state) {
    place(this.knight, knightSquare(state), state.cols);
    place(this.ghost, trailHead(state), state.cols);
  }
}

function piece(root, className) {
  const el = document.createElement("div");
  el.className = className;
  el.setAttribute("aria-hidden", "true");
  el.hidden = true;
  const glyph = document.createElement("span");
  glyph.textContent = "♞\uFE0E";
  el.append(glyph);
  root.append(el);
  return el;
}

function place(el, sq, cols) {
  if (sq < 0) {
    el.hidden = true;
    return;
  }
  const row = String(Math.floor(sq / cols));
  const col = String(sq % cols);
  if (!el.hidden && el.style.getPropertyValue("--kr") === row) {
    if (el.style.getPropertyValue("--kc") === col) return;
  }
  const appearing = el.hidden;
  if (appearing) el.classList.add("no-anim"); // appear in place, then slide from there
  el.style.setProperty("--kr", row);
  el.style.setProperty("--kc", col);
  el.hidden = false;
  if (appearing) {
    void el.offsetWidth; // commit the position before the transition is back
    el.classList.remove("no-anim");
  }
}
