// The win screen's replay: the finished tour drawn again, one jump at a time.

import { drawReplayBoard, replayNumber } from "./render.js";

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export class Replay {
  constructor(svg) {
    this.svg = svg;
    this.timer = 0;
  }

  stop() {
    if (this.timer) cancelAnimationFrame(this.timer);
    this.timer = 0;
  }

  /** Play `game`'s tour; with reduced motion, show it whole at once. */
  play(game) {
    this.stop();
    const { rows, cols } = game;
    const squares = [...game.path];
    if (game.returned && game.start) squares.push(game.start);
    const parts = drawReplayBoard(this.svg, rows, cols);
    const steps = squares.length;
    const placeKnight = ([r, c]) => {
      parts.knight.setAttribute("x", c + 0.5);
      parts.knight.setAttribute("y", r + 0.5);
    };
    const show = (count) => {
      const shown = squares.slice(0, count);
      parts.line.setAttribute("points", shown.map(([r, c]) => `${c + 0.5},${r + 0.5}`).join(" "));
      for (let i = parts.numbers.childElementCount; i < Math.min(count, game.path.length); i++) {
        replayNumber(parts.numbers, squares[i][0], squares[i][1], i + 1);
      }
      if (count) placeKnight(squares[count - 1]);
    };
    if (reducedMotion.matches || steps === 0) {
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
