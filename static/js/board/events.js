// Input on a board, chessground's `events`: a click or tap on a square, or Enter or Space on
// the focused one, is handed to the page (an intention: the server decides). The arrow keys,
// Home and End move the focus square: exactly one square is in the tab order (a roving
// tabindex), so a keyboard reaches the board with one Tab.

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The square the focus moves to from `sq` on `key` (null: not a moving key). No DOM. */
export function focusAfterKey(sq, key, { rows, cols }, ctrlKey = false) {
  let row = Math.floor(sq / cols);
  let col = sq % cols;
  if (key in STEPS) {
    row = Math.min(rows - 1, Math.max(0, row + STEPS[key][0]));
    col = Math.min(cols - 1, Math.max(0, col + STEPS[key][1]));
  } else if (key === "Home") {
    col = 0;
    if (ctrlKey) row = 0;
  } else if (key === "End") {
    col = cols - 1;
    if (ctrlKey) row = rows - 1;
  } else {
    return null;
  }
  return row * cols + col;
}

/** Wire `board` (board.js) to its element: squares picked go to `board.onSquare(sq)`. */
export function bindEvents(board) {
  const { root } = board;
  const squareOf = (event) => {
    const cell = event.target.closest?.(".sq");
    if (!cell || !root.contains(cell)) return -1;
    return Number(cell.dataset.row) * board.state.cols + Number(cell.dataset.col);
  };

  root.addEventListener("click", (event) => {
    const sq = squareOf(event);
    if (sq < 0) return;
    board.setFocus(sq);
    board.onSquare?.(sq);
  });

  root.addEventListener("keydown", (event) => {
    const sq = squareOf(event);
    if (sq < 0 || event.altKey || event.metaKey) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault(); // handled: no page shortcut on top
      board.onSquare?.(sq);
      return;
    }
    const next = focusAfterKey(sq, event.key, board.state, event.ctrlKey);
    if (next === null) return;
    event.preventDefault();
    board.setFocus(next, { move: true });
  });
}
