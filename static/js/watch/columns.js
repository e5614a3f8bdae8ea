// The depth chart's data: depth over the event index in a fixed number of columns.
//
// Each column holds the min and max depth of `span` consecutive events; when the columns
// fill up, pairs merge and `span` doubles, so the whole run always fits and memory stays
// fixed. The server keeps the very same columns for a class room's demo
// (server/engine/walker.py, DepthChart) and sends them in its snapshots (`load`).
// No DOM here: DepthChart (stats.js) draws them.

export class DepthColumns {
  constructor(capacity = 256) {
    this.capacity = capacity;
    this.min = new Uint16Array(capacity);
    this.max = new Uint16Array(capacity);
    this.reset(1);
  }

  reset(squares) {
    this.squares = Math.max(1, squares);
    this.span = 1;
    this.length = 0; // complete columns
    this.fill = 0; // events in the open column
    this.events = 0;
  }

  /** Columns computed elsewhere ({span, length, fill, events, min, max}, a snapshot's `chart`). */
  load({ span, length, fill, events, min, max }) {
    if (min.length > this.capacity || min.length !== max.length || length >= this.capacity) {
      throw new Error("the chart's columns do not fit");
    }
    this.span = span;
    this.length = length;
    this.fill = fill;
    this.events = events;
    this.min.set(min);
    this.max.set(max);
  }

  /** One event's resulting depth (called once per event, in order). */
  push(depth) {
    const i = this.length;
    if (this.fill === 0) {
      this.min[i] = depth;
      this.max[i] = depth;
    } else {
      if (depth < this.min[i]) this.min[i] = depth;
      if (depth > this.max[i]) this.max[i] = depth;
    }
    this.events++;
    if (++this.fill === this.span) {
      this.fill = 0;
      if (++this.length === this.capacity) this._halve();
    }
  }

  /** Columns in use: the complete ones and the open one. */
  get columns() {
    return this.length + (this.fill > 0 ? 1 : 0);
  }

  _halve() {
    const half = this.capacity >> 1;
    for (let j = 0; j < half; j++) {
      this.min[j] = Math.min(this.min[2 * j], this.min[2 * j + 1]);
      this.max[j] = Math.max(this.max[2 * j], this.max[2 * j + 1]);
    }
    this.length = half;
    this.span *= 2;
  }
}
