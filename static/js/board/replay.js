// The win screen's replay: the finished tour drawn again one jump at a time, on a board of
// its own (the same modules as every board). With reduced motion it shows the tour whole.

import { toSquare } from "../core/squares.js";
import { Board } from "./board.js";
import { setHoles, setPath } from "./state.js";

const reducedMotion = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");

export class Replay {
  constructor(root) {
    this.board = new Board(root, { kind: "replay", pieces: true });
    this.timer = 0;
  }

  stop() {
    cancelAnimationFrame(this.timer);
    this.timer = 0;
  }

  /** Play `game`'s tour (a game of the JSON API); a closed tour ends back on its start. */
  play(game) {
    this.stop();
    const { rows, cols } = game;
    const board = this.board;
    board.resize(rows, cols);
    const squares = game.path.map(([r, c]) => toSquare(r, c, cols));
    const state = board.state;
    setHoles(
      state,
      (game.holes ?? []).map(([r, c]) => toSquare(r, c, cols)),
    );
    state.start = squares[0] ?? -1;
    state.closed = Boolean(game.closed);
    state.status = "won"; // the finished tour's colours, as on the Play board
    const steps = squares.length + (game.returned ? 1 : 0);
    const show = (count) => {
      const shown = Math.min(count, squares.length);
      setPath(state, squares, shown, { returned: count > squares.length });
      board.draw();
    };
    if (reducedMotion?.matches || steps === 0) {
      show(steps);
      return;
    }
    const duration = Math.min(9000, Math.max(2500, steps * 90));
    const began = performance.now();
    const frame = (now) => {
      const count = Math.min(steps, 1 + Math.floor(((now - began) / duration) * steps));
      show(count);
      this.timer = count < steps ? requestAnimationFrame(frame) : 0;
    };
    this.timer = requestAnimationFrame(frame);
  }
}
