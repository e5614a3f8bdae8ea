// A finished tour drawn again one jump at a time, on a board of its own (the same modules
// as every board): the win screen's replay and the /replay page. `play` runs it once by
// itself; a page with its own playback clock loads the tour and shows step by step. With
// reduced motion `play` shows the tour whole.

import { toSquare } from "../core/squares.js";
import { Board } from "./board.js";
import { setHoles, setPath } from "./state.js";

const reducedMotion = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");

export class Replay {
  constructor(root) {
    this.board = new Board(root, { kind: "replay", pieces: true });
    this.timer = 0;
    this.squares = [];
    this.steps = 0;
  }

  stop() {
    cancelAnimationFrame(this.timer);
    this.timer = 0;
  }

  /**
   * Put `game`'s tour (a game of the JSON API, or a shared replay: rows, cols, holes, path,
   * closed, returned) on the board, nothing shown yet. `steps`: squares placed, plus the
   * closing jump of a closed tour.
   */
  load(game) {
    const { rows, cols } = game;
    const board = this.board;
    board.resize(rows, cols);
    const state = board.state;
    setHoles(
      state,
      (game.holes ?? []).map(([r, c]) => toSquare(r, c, cols)),
    );
    this.squares = game.path.map(([r, c]) => toSquare(r, c, cols));
    state.start = this.squares[0] ?? -1;
    state.closed = Boolean(game.closed);
    state.status = "won"; // the finished tour's colours, as on the Play board
    this.steps = this.squares.length + (game.returned ? 1 : 0);
  }

  /** Show the first `count` steps (0..steps). */
  show(count) {
    const shown = Math.min(count, this.squares.length);
    setPath(this.board.state, this.squares, shown, { returned: count > this.squares.length });
    this.board.draw();
  }

  /** Play `game`'s tour by itself; a closed tour ends back on its start. */
  play(game) {
    this.stop();
    this.load(game);
    const steps = this.steps;
    if (reducedMotion?.matches || steps === 0) {
      this.show(steps);
      return;
    }
    const duration = Math.min(9000, Math.max(2500, steps * 90));
    const began = performance.now();
    const frame = (now) => {
      const count = Math.min(steps, 1 + Math.floor(((now - began) / duration) * steps));
      this.show(count);
      this.timer = count < steps ? requestAnimationFrame(frame) : 0;
    };
    this.timer = requestAnimationFrame(frame);
  }
}
