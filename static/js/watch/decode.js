// Decoding of the watch protocol's `batch` events (docs/protocol.md).
//
// A batch's `events` is a flat list of ints, read left to right:
//   sq, k, c1..ck            move to sq, having considered the candidates c1..ck
//   sq, k, c1..ck, n1..nk    the same with each candidate's onward-move count (`counts` runs)
//   -1 - sq                  backtrack from sq
// A decoded batch is a Chunk: the ints as an Int32Array plus the offset where each event
// starts, so a player can walk it forwards and backwards without parsing twice.
// No DOM here: the Play page can reuse this module as is.

export const MAX_CANDIDATES = 8; // a knight has at most 8 moves

export class ProtocolError extends Error {}

export class Chunk {
  constructor(data, starts, count, moves) {
    this.data = data; // Int32Array of the batch's ints
    this.starts = starts; // Uint32Array: starts[i] = offset of event i; starts[count] = data.length
    this.count = count; // number of events
    this.moves = moves; // how many of them are moves (the rest are backtracks)
    this.base = 0; // global index of the first event, set by the player
  }
}

/**
 * Decode one batch's `events` into a Chunk.
 * `squares` is rows * cols: every square must be in 0..squares-1.
 */
export function decodeBatch(events, { counts = false, squares = Infinity } = {}) {
  const data = Int32Array.from(events);
  const n = data.length;
  const starts = new Uint32Array(n + 1); // an upper bound; trimmed below
  const per = counts ? 2 : 1;
  let count = 0;
  let moves = 0;
  let i = 0;
  while (i < n) {
    starts[count++] = i;
    const v = data[i];
    if (v < 0) {
      if (-1 - v >= squares) throw new ProtocolError(`backtrack square ${-1 - v} off the board`);
      i += 1;
      continue;
    }
    if (v >= squares) throw new ProtocolError(`move square ${v} off the board`);
    const k = data[i + 1];
    if (!(k >= 0 && k <= MAX_CANDIDATES)) throw new ProtocolError(`bad candidate count ${k}`);
    i += 2 + per * k;
    if (i > n) throw new ProtocolError("truncated move event");
    moves++;
  }
  starts[count] = n;
  return new Chunk(data, starts.slice(0, count + 1), count, moves);
}

/** `chunk` without its first `n` events (a class room's feed that overlaps what is held). */
export function dropEvents(chunk, n) {
  if (n <= 0) return chunk;
  const off = chunk.starts[n];
  const starts = chunk.starts.subarray(n).map((start) => start - off);
  let moves = 0;
  for (let i = n; i < chunk.count; i++) if (chunk.data[chunk.starts[i]] >= 0) moves++;
  return new Chunk(chunk.data.subarray(off), starts, chunk.count - n, moves);
}

/**
 * The candidates of the move event at `off`: {squares: [...], counts: [...] | null}.
 * Allocates; meant for display (once per drawn frame), not for the hot loop.
 */
export function eventCandidates(data, off, counts) {
  if (data[off] < 0) return { squares: [], counts: null };
  const k = data[off + 1];
  const squares = Array.from(data.subarray(off + 2, off + 2 + k));
  const onward = counts ? Array.from(data.subarray(off + 2 + k, off + 2 + 2 * k)) : null;
  return { squares, counts: onward };
}

/** `row * cols + col` <-> [row, col] (row 0 at the top, as in the engine). */
export function rowCol(sq, cols) {
  return [Math.floor(sq / cols), sq % cols];
}

/**
 * Chess name of a square, a1 bottom-left. Files run a..z, then aa, ab, ... so boards up to
 * 100 columns (the construction's limit) still get unique names.
 */
export function squareLabel(sq, rows, cols) {
  const row = Math.floor(sq / cols);
  const col = sq % cols;
  return `${fileName(col)}${rows - row}`;
}

export function fileName(col) {
  let name = "";
  let c = col;
  do {
    name = String.fromCharCode(97 + (c % 26)) + name;
    c = Math.floor(c / 26) - 1;
  } while (c >= 0);
  return name;
}
