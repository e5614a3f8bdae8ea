// A lab run's recording, as the worker posts it (lab/worker.js): one int per board write of
// the student's program, `line * 2048 + 1024 * (it leaves the square) + square`
// (static/py/lab_recorder.py), in chunks. Plain data, no DOM.

export const LINE = 2048;
export const BACK = 1024;

export class Recording {
  /** rows, cols: the board; start: the start square the page gave the program. */
  constructor({ rows, cols, start }) {
    Object.assign(this, { rows, cols, start, squares: rows * cols });
    this.chunks = []; // Int32Arrays, in order
    this.offsets = []; // the index of each chunk's first event
    this.length = 0;
    this.result = null; // how the run ended (the worker's `done`), once it did
  }

  /** Add a chunk of events (an Int32Array, or anything Int32Array.from takes). */
  push(events) {
    const chunk = events instanceof Int32Array ? events : Int32Array.from(events);
    if (chunk.length === 0) return;
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
    return this.chunks[lo][index - this.offsets[lo]];
  }

  /** Every event from `from` on, in order: (code, index) for each. */
  *codes(from = 0) {
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c];
      const base = this.offsets[c];
      if (base + chunk.length <= from) continue;
      for (let i = Math.max(0, from - base); i < chunk.length; i++) yield chunk[i];
    }
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
