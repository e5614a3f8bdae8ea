// Squares and their names. A square is an int, row * cols + col, row 0 at the top, as in the
// engine and the protocols; the API's [row, col] pairs convert with `toSquare` / `rowCol`.
// Names are chess's: a1 bottom-left, files from the left, ranks from the bottom. No DOM.

/** The knight's eight jumps as [dRow, dCol]. */
export const KNIGHT_JUMPS = [
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
];

export function toSquare(row, col, cols) {
  return row * cols + col;
}

export function rowCol(sq, cols) {
  return [Math.floor(sq / cols), sq % cols];
}

/** Column -> file letters: a..z, then aa, ab, ... (the construction's boards have 100 columns). */
export function fileName(col) {
  let name = "";
  let c = col;
  do {
    name = String.fromCharCode(97 + (c % 26)) + name;
    c = Math.floor(c / 26) - 1;
  } while (c >= 0);
  return name;
}

/** The chess name of [row, col] on a board of `rows` rows: (0, 0) on 8 rows is "a8". */
export function squareName(row, col, rows) {
  return `${fileName(col)}${rows - row}`;
}

/** The chess name of square `sq` on a rows x cols board. */
export function nameOf(sq, rows, cols) {
  return squareName(Math.floor(sq / cols), sq % cols, rows);
}

/** "b1" -> [row, col] on a rows x cols board; null when malformed or off the board. */
export function parseSquare(name, rows, cols) {
  const match = /^\s*([a-z]+)\s*(\d{1,3})\s*$/i.exec(name || "");
  if (!match) return null;
  let col = -1;
  for (const letter of match[1].toLowerCase()) col = (col + 1) * 26 + letter.charCodeAt(0) - 97;
  const row = rows - Number(match[2]);
  if (col < 0 || col >= cols || row < 0 || row >= rows) return null;
  return [row, col];
}

/** How many knight moves from `sq` land on a square `free(target)` accepts. */
export function countJumps(sq, rows, cols, free) {
  const r = Math.floor(sq / cols);
  const c = sq % cols;
  let n = 0;
  for (const [dr, dc] of KNIGHT_JUMPS) {
    const rr = r + dr;
    const cc = c + dc;
    if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && free(rr * cols + cc)) n++;
  }
  return n;
}
