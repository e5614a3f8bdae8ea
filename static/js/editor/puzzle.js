// The puzzle being drawn, as plain data (no DOM): a rows x cols shape with holes, open or
// closed, a fixed start or a free one. Its code is written exactly as server/engine/shape.py
// writes it (docs/api.md: the editor's verdict), so the address, the share link and the
// Play and class links hold the text the server reads. Squares are row * cols + col.

import { puzzleCode as writePuzzleCode, shapeCode as writeShapeCode } from "../core/shape.js";

/** A puzzle; `holes` any iterable of squares, `start` a square or -1 (free). */
export function createPuzzle(rows, cols, { holes = [], closed = false, start = -1 } = {}) {
  return { rows, cols, holes: new Set(holes), closed, start };
}

/** The puzzle as the server read it (POST /api/verdict's answer: [row, col] pairs). */
export function puzzleFromAnswer(answer) {
  const { rows, cols } = answer;
  const sq = ([row, col]) => row * cols + col;
  return createPuzzle(rows, cols, {
    holes: answer.holes.map(sq),
    closed: Boolean(answer.closed),
    start: answer.start ? sq(answer.start) : -1,
  });
}

export function openSquares(puzzle) {
  return puzzle.rows * puzzle.cols - puzzle.holes.size;
}

/** Cut a hole at `sq` or fill it; a hole on the start frees the start. The last open
 * square stays (a shape needs one): false then, true when the puzzle changed. */
export function toggleHole(puzzle, sq) {
  if (puzzle.holes.has(sq)) {
    puzzle.holes.delete(sq);
    return true;
  }
  if (openSquares(puzzle) <= 1) return false;
  puzzle.holes.add(sq);
  if (puzzle.start === sq) puzzle.start = -1;
  return true;
}

/** Fix the start on `sq` (a hole there is filled); on the start already, free it. */
export function setStart(puzzle, sq) {
  if (puzzle.start === sq) {
    puzzle.start = -1;
    return true;
  }
  puzzle.holes.delete(sq);
  puzzle.start = sq;
  return true;
}

/** The same drawing on a rows x cols board: holes and start kept where they still fit. */
export function resizePuzzle(puzzle, rows, cols) {
  const moved = (sq) => {
    const row = Math.floor(sq / puzzle.cols);
    const col = sq % puzzle.cols;
    return row < rows && col < cols ? row * cols + col : -1;
  };
  const holes = [...puzzle.holes].map(moved).filter((sq) => sq >= 0);
  const next = createPuzzle(rows, cols, { holes, closed: puzzle.closed, start: -1 });
  if (openSquares(next) < 1) next.holes.clear();
  const start = puzzle.start >= 0 ? moved(puzzle.start) : -1;
  if (start >= 0 && !next.holes.has(start)) next.start = start;
  return next;
}

/** The puzzle's shape code (core/shape.js writes it). */
export function shapeCode(puzzle) {
  return writeShapeCode(puzzle.rows, puzzle.cols, puzzle.holes);
}

/** The puzzle's code: `<shape>.o` or `<shape>.c`, then `.<start>` when the start is fixed. */
export function puzzleCode(puzzle) {
  return writePuzzleCode(puzzle.rows, puzzle.cols, puzzle.holes, puzzle.closed, puzzle.start);
}
