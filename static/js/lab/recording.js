// A lab run's recording, as the worker posts it (lab/worker.js): one int per board write of
// the student's program, `line * 2048 + 1024 * (it leaves the square) + square`
// (static/py/lab_recorder.py), in chunks. Plain data, no DOM.
//
// The worker's chunks are compact: an event names its line by its index in the program's
// writing lines (`lines`, the same for the whole run), 16 bits an event (a Uint16Array)
// unless the program writes grids from more lines than 5 bits count (an Int32Array). They
// are kept so, and read back as ints of lines by `code`, `codes` and `line`.

export const LINE = 2048;
export const BACK = 1024;
const SHIFT = 11; // 2 ** SHIFT === LINE: a compact event's line index

export class Recording {
  /** rows, cols: the board; start: the start square the page gave the program. */
  constructor({ rows, cols, start }) {
    Object.assign(this, { rows, cols, start, squares: rows * cols });
    this.chunks = []; // Uint16Arrays or Int32Arrays, in order
    this.offsets = []; // the index of each chunk's first event
    this.lines = null; // the program's writing lines, when the events name them by index
    this.length = 0;
    this.result = null; // how the run ended (the worker's `done`), once it did
  }

  /**
   * Add a chunk of events: a typed array of the worker's with its `lines` (the events name
   * their line by its index there), or without them ints of lines (an Int32Array, or
   * anything Int32Array.from takes).
   */
  push(events, lines = null) {
    const compact = lines !== null;
    const typed = events instanceof Int32Array || (compact && events instanceof Uint16Array);
    const chunk = typed ? events : Int32Array.from(events);
    if (chunk.length === 0) return;
    if (compact) this.lines = Int32Array.from(lines, (line) => line * LINE);
    this.offsets.push(this.length);
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The int of event `index` (0 <= index < length). */
  code(index) {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.read(this.chunks[lo][index - this.offsets[lo]]);
  }

  /** The int of every event from `from` on, in order. */
  *codes(from = 0) {
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c];
      const base = this.offsets[c];
      if (base + chunk.length <= from) continue;
      for (let i = Math.max(0, from - base); i < chunk.length; i++) yield this.read(chunk[i]);
    }
  }

  /** A kept event as its int of lines. */
  read(raw) {
    return this.lines ? this.lines[raw >> SHIFT] + (raw & (LINE - 1)) : raw;
  }

  /** The program's line (from 1) that wrote event `index`. */
  line(index) {
    return Math.floor(this.code(index) / LINE);
  }
}

/** The square an event's int names. */
export function squareOf(code) {
  return code % BACK;
}

/** Whether an event's int leaves its square (a backtrack). */
export function leaves(code) {
  return (code & BACK) !== 0;
}
