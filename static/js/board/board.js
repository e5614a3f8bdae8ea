// One board on a page, wired as chessground's `chessground.ts` wires its parts: the state
// (plain data, board/state.js), its drawing (board/render.js) and its input
// (board/events.js). Every board of every page is one of these: Play's, the class puzzle's,
// the win screen's replay, and the lanes of Watch and of the class pages.

import { bindEvents } from "./events.js";
import { BoardRender } from "./render.js";
import { createState, knightSquare } from "./state.js";

export class Board {
  /**
   * root: the board's element; kind: play | puzzle | replay | watch (its styles); input:
   * the board takes squares (a named grid with a roving focus; `onSquare(sq)` gets them);
   * pieces, heat: see BoardRender.
   */
  constructor(root, { kind, input = false, pieces = false, heat = false }) {
    this.root = root;
    this.onSquare = null;
    root.setAttribute("role", input ? "grid" : "img");
    this.render = new BoardRender(root, { kind, labelled: input, pieces, heat });
    this.input = input;
    this.state = null;
    this.resize(
      root.style.getPropertyValue("--rows") || 8,
      root.style.getPropertyValue("--cols") || 8,
    );
    if (input) bindEvents(this);
  }

  get rows() {
    return this.state.rows;
  }

  get cols() {
    return this.state.cols;
  }

  /** A blank rows x cols board (a new state); false when it has that size already. */
  resize(rows, cols) {
    if (this.state && this.state.rows === Number(rows) && this.state.cols === Number(cols)) {
      return false;
    }
    this.clear(Number(rows), Number(cols));
    return true;
  }

  /** A blank board of the same (or the given) size: nothing on it. */
  clear(rows = this.state.rows, cols = this.state.cols) {
    this.state = createState(rows, cols);
    this.render.build(this.state);
    this.draw();
  }

  /**
   * Draw the state now; `relabel` names every square again (a language switch), `flash`
   * makes the squares a search backs out of flash.
   */
  draw({ relabel = false, flash = false } = {}) {
    this.render.draw(this.state, { relabel, flash });
    if (this.input && !this.render.cell(this.state.focus)) {
      const knight = knightSquare(this.state);
      this.setFocus(knight >= 0 ? knight : (this.state.rows - 1) * this.state.cols);
    }
  }

  cell(sq) {
    return this.render.cell(sq);
  }

  /** The roving tabindex: `sq` is the one square in the tab order; `move` focuses it. */
  setFocus(sq, { move = false } = {}) {
    const target = this.render.cell(sq);
    if (!target) return;
    const old = this.render.cell(this.state.focus);
    if (old && old !== target) old.tabIndex = -1;
    this.state.focus = sq;
    target.tabIndex = 0;
    if (move) target.focus();
  }
}
