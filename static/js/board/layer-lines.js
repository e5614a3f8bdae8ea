// The lines layer: one SVG over the squares in board units (a square is 1 x 1): the
// knight's path, the closed tour's jump back onto its start, and a search's trail beyond
// the player's path (Show me). Redrawn only when the path changed.

import { knightSquare } from "./state.js";

const SVG = "http://www.w3.org/2000/svg";

export class LinesLayer {
  constructor(root) {
    this.svg = document.createElementNS(SVG, "svg");
    this.svg.setAttribute("class", "board-lines");
    this.svg.setAttribute("aria-hidden", "true");
    this.svg.setAttribute("focusable", "false");
    const shape = (name, cls) => {
      const node = document.createElementNS(SVG, name);
      node.setAttribute("class", cls);
      this.svg.append(node);
      return node;
    };
    this.path = shape("polyline", "path-line");
    this.back = shape("line", "path-return");
    this.trail = shape("polyline", "trail-line");
    root.append(this.svg);
    this.shown = "";
  }

  build(state) {
    this.svg.setAttribute("viewBox", `0 0 ${state.cols} ${state.rows}`);
    this.shown = "";
  }

  draw(state) {
    const key = `${state.pathVersion}|${state.own}|${state.start}`;
    if (key === this.shown) return;
    this.shown = key;
    const { path, depth, cols } = state;
    const own = Math.min(depth, state.own);
    const point = (i) => `${(path[i] % cols) + 0.5},${Math.floor(path[i] / cols) + 0.5}`;
    const points = (from, to) => {
      const parts = [];
      for (let i = from; i < to; i++) parts.push(point(i));
      return parts.join(" ");
    };
    this.path.setAttribute("points", own > 1 ? points(0, own) : "");
    this.trail.setAttribute("points", depth > own ? points(own - 1, depth) : "");
    const knight = knightSquare(state);
    if (state.returned && own > 1) {
      const from = path[own - 1];
      this.back.setAttribute("x1", (from % cols) + 0.5);
      this.back.setAttribute("y1", Math.floor(from / cols) + 0.5);
      this.back.setAttribute("x2", (knight % cols) + 0.5);
      this.back.setAttribute("y2", Math.floor(knight / cols) + 0.5);
      this.back.removeAttribute("visibility");
    } else {
      this.back.setAttribute("visibility", "hidden");
    }
  }
}
