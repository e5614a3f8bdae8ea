// Pointer and keyboard input on the board. A click, tap or Enter on a square is
// an intention sent to the server; arrow keys move a focus square (roving tabindex).

const KEYS = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

export function bindBoardInput(view, store, onSquare) {
  const root = view.root;

  root.addEventListener("click", (event) => {
    const cell = event.target.closest(".sq");
    if (!cell || !root.contains(cell)) return;
    const square = [Number(cell.dataset.row), Number(cell.dataset.col)];
    store.focus = square;
    view.setFocus(square);
    onSquare(square);
  });

  root.addEventListener("keydown", (event) => {
    const cell = event.target.closest(".sq");
    if (!cell) return;
    let [row, col] = [Number(cell.dataset.row), Number(cell.dataset.col)];
    if (event.key in KEYS) {
      const [dr, dc] = KEYS[event.key];
      row = Math.min(view.rows - 1, Math.max(0, row + dr));
      col = Math.min(view.cols - 1, Math.max(0, col + dc));
    } else if (event.key === "Home") {
      col = 0;
      if (event.ctrlKey) row = 0;
    } else if (event.key === "End") {
      col = view.cols - 1;
      if (event.ctrlKey) row = view.rows - 1;
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onSquare([row, col]);
      return;
    } else {
      return;
    }
    event.preventDefault();
    store.focus = [row, col];
    view.setFocus([row, col], { move: true });
  });
}
