// The board's drawing, chessground's `render`: state -> DOM, in layers stacked in one
// element: the squares (colours, coordinates, states, marks, numbers), the heat map, the
// path's lines and the pieces. Built once per size; each draw touches only what changed.

import { HeatLayer } from "./layer-heat.js";
import { LinesLayer } from "./layer-lines.js";
import { PiecesLayer } from "./layer-pieces.js";
import { SquaresLayer } from "./layer-squares.js";

export class BoardRender {
  /**
   * kind: the board's place (play, puzzle, replay, watch), for its styles; labelled: cells
   * are named grid cells; pieces: the knight is drawn; heat: the board can show a heat map.
   */
  constructor(root, { kind, labelled = false, pieces = false, heat = false }) {
    this.root = root;
    root.classList.add("board");
    root.dataset.board = kind;
    // the knight's square shows its number aside
    if (pieces) root.dataset.pieces = "true";
    else delete root.dataset.pieces;
    root.replaceChildren();
    this.layers = [
      new SquaresLayer(root, { labelled }),
      ...(heat ? [new HeatLayer(root)] : []),
      new LinesLayer(root),
      ...(pieces ? [new PiecesLayer(root)] : []),
    ];
    this.squares = this.layers[0];
  }

  build(state) {
    const { root } = this;
    const { rows, cols } = state;
    root.style.setProperty("--rows", rows);
    root.style.setProperty("--cols", cols);
    root.dataset.size = `${rows}x${cols}`;
    const side = Math.max(rows, cols);
    root.dataset.density = side > 30 ? "tiny" : side > 12 ? "small" : "normal";
    for (const layer of this.layers) layer.build(state);
  }

  /** options: {relabel} names every square again; {flash} squares leaving the path flash. */
  draw(state, options = {}) {
    const data = this.root.dataset;
    if (state.status) data.status = state.status;
    else delete data.status;
    if (state.heat) data.heat = "true";
    else delete data.heat;
    for (const layer of this.layers) layer.draw(state, options);
  }

  cell(sq) {
    return this.squares.cells[sq] ?? null;
  }
}
