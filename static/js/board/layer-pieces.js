// The pieces layer: the knight on its square, and a search's ghost knight at the head of
// its trail (Show me). CSS slides the knight over one move (the state's last move); any
// other change (a new game, undoing several moves) puts it on its square at once.

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
    const knight = knightSquare(state);
    place(this.knight, knight, state.cols, state.lastMove?.[1] === knight);
    place(this.ghost, trailHead(state), state.cols, false);
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

function place(el, sq, cols, slide) {
  if (sq < 0) {
    el.hidden = true;
    return;
  }
  const row = String(Math.floor(sq / cols));
  const col = String(sq % cols);
  if (!el.hidden && el.style.getPropertyValue("--kr") === row) {
    if (el.style.getPropertyValue("--kc") === col) return;
  }
  const still = el.hidden || !slide; // appear in place, or jump there at once
  if (still) el.classList.add("no-anim");
  el.style.setProperty("--kr", row);
  el.style.setProperty("--kc", col);
  el.hidden = false;
  if (still) {
    void el.offsetWidth; // commit the position before the transition is back
    el.classList.remove("no-anim");
  }
}
