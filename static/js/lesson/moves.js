// The seeds' numbering of the knight's eight moves, drawn around a square of a board.
//
// The seeds' findWay (x = column, y = row, y downwards) lists them as 5, 6, 7, 0, 1, 2, 3, 4:
// move 5 is (x - 2, y - 1), and so on clockwise; core/squares.js KNIGHT_JUMPS keeps that
// order, so jump i is the seeds' move (i + 5) mod 8.

import { KNIGHT_JUMPS } from "../core/squares.js";

/** The seeds' number of KNIGHT_JUMPS[i]. */
export function seedMoveNumber(i) {
  return (i + 5) % 8;
}

/** Number the squares a knight on `sq` jumps to (`data-move` on their cells); -1 clears. */
export function showMoves(board, sq) {
  for (const cell of board.root.querySelectorAll(".sq[data-move]")) delete cell.dataset.move;
  if (sq < 0) return;
  const { rows, cols } = board.state;
  const r = Math.floor(sq / cols);
  const c = sq % cols;
  KNIGHT_JUMPS.forEach(([dr, dc], i) => {
    const rr = r + dr;
    const cc = c + dc;
    if (rr >= 0 && rr < rows && cc >= 0 && cc < cols) {
      board.cell(rr * cols + cc).dataset.move = seedMoveNumber(i);
    }
  });
}
