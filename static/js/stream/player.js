// The event player: a buffer of decoded batches and a cursor over them.
//
// Events arrive ahead of the viewer (at most the granted credit) and are consumed one by
// one, forwards or backwards, so every counter is exact whatever the drawing speed.
// The state after `pos` events is kept in typed arrays (path stack, move number and
// entry count per square); history for step-back is the decoded batches themselves,
// capped at `historyInts` ints (older batches are dropped, see `historyStart`).
// A class room's player starts from a snapshot (the state after `at` events) instead of
// event 0, and takes the room's feed by global index (`append`).
// No DOM here: the Play page's "show me" can reuse it.

import { decodeBatch, dropEvents, eventCandidates, ProtocolError } from "./decode.js";

export const DEFAULT_HISTORY_INTS = 4_000_000; // ~16 MB of Int32: millions of events

export class Player {
  /**
   * rows, cols: the board; path: the squares already on the path before the first event
   * (the start square, or a game's prefix), counts: whether move events carry onward counts.
   */
  constructor({ rows, cols, path, counts = false, historyInts = DEFAULT_HISTORY_INTS }) {
    this.rows = rows;
    this.cols = cols;
    this.squares = rows * cols;
    this.counts = counts;
    this.historyInts = historyInts;
    this.path = new Int32Array(this.squares + 1);
    this.order = new Int32Array(this.squares); // move number on the current path, 0 = off it
    this.entered = new Uint32Array(this.squares); // how often each square was entered
    this.depth = 0;
    for (const sq of path) {
      this.path[this.depth++] = sq;
      this.order[sq] = this.depth;
      this.entered[sq]++;
    }
    this.maxDepth = this.depth;
    this.moves = 0; // move events consumed
    this.backtracks = 0; // backtrack events consumed
    this.pos = 0; // events consumed (global index of the next event)
    this.frontier = 0; // the furthest pos ever reached
    this.received = 0; // events received
    this.origin = 0; // global index the player started at (a snapshot's `at`)
    this.historyStart = 0; // global index of the oldest event still held
    this.chunks = [];
    this.heldInts = 0;
    this.ci = 0; // chunk holding event `pos` (== chunks.length when caught up)
    this.ei = 0; // its index inside that chunk
    this.done = null; // the run's `done` message once it arrived
    this.dirty = new Uint8Array(this.squares);
    this.dirtyList = [];
    this.onFrontier = null; // (n) => ..., called when n events are consumed for the first time
    this.onNewEvent = null; // (depth) => ..., once per event, in order, the first time
  }

  /**
   * A player standing after `snapshot.at` events of a run (docs/protocol.md, class rooms'
   * `snapshot`: path, counters, heat = entries per square), holding the snapshot's events.
   * It steps back no further than `at`.
   */
  static fromSnapshot(
    snapshot,
    { rows, cols, counts = false, historyInts = DEFAULT_HISTORY_INTS },
  ) {
    const player = new Player({ rows, cols, path: snapshot.path, counts, historyInts });
    if (snapshot.heat.length !== player.squares)
      throw new ProtocolError("the snapshot's heat map has the wrong size");
    player.entered.set(snapshot.heat);
    player.moves = snapshot.nodes;
    player.backtracks = snapshot.backtracks;
    player.maxDepth = snapshot.max_depth;
    const at = snapshot.at;
    player.pos = player.frontier = player.received = player.origin = player.historyStart = at;
    const chunk = decodeBatch(snapshot.events, { counts, squares: player.squares });
    if (chunk.count !== snapshot.count)
      throw new ProtocolError("the snapshot's count does not match its events");
    if (chunk.count > 0) player.push(chunk);
    return player;
  }

  // -- input -----------------------------------------------------------------------------
  push(chunk) {
    chunk.base = this.received;
    chunk.raised = new Uint8Array(chunk.count); // did this move raise maxDepth?
    this.chunks.push(chunk);
    this.received += chunk.count;
    this.heldInts += chunk.data.length;
  }

  /**
   * Add a chunk whose first event has global index `at` (a class room's `feed`). Events
   * already held are skipped. Returns how many events were new, or -1 when `at` is past
   * the last event held: a hole, nothing is added (the page asks for a snapshot).
   */
  append(at, chunk) {
    if (at > this.received) return -1;
    const skip = this.received - at;
    if (skip >= chunk.count) return 0;
    this.push(dropEvents(chunk, skip));
    return chunk.count - skip;
  }

  finish(done) {
    this.done = done;
  }

  get buffered() {
    return this.received - this.pos;
  }

  get finished() {
    return this.done !== null && this.pos === this.received;
  }

  get canStepBack() {
    return this.pos > this.historyStart;
  }

  /** Whether the player can stand at global event index `index` with what it holds. */
  holds(index) {
    return index >= this.historyStart && index <= this.received;
  }

  // -- moving the cursor --------------------------------------------------------------------
  /**
   * Whether a move onto `v` that made the path `depth` long is an article's program landing
   * on its own start (server/engine/search.py's Declared): the one square a path holds twice.
   */
  landsOnStart(v) {
    return this.depth === this.squares && v === this.path[0] && this.depth > 1;
  }

  /** Consume up to `n` events; returns how many were consumed. */
  advance(n = 1) {
    let done = 0;
    const start = this.pos;
    while (done < n && this.ci < this.chunks.length) {
      const chunk = this.chunks[this.ci];
      const { data, starts, raised } = chunk;
      const end = Math.min(chunk.count, this.ei + (n - done));
      for (let ei = this.ei; ei < end; ei++) {
        const off = starts[ei];
        const v = data[off];
        if (v >= 0) {
          this._markHead();
          this.path[this.depth++] = v;
          if (this.landsOnStart(v)) {
            // the Python article's last move lands on its start, which keeps its number 1
          } else if (this.order[v] !== 0) {
            throw new ProtocolError(`square ${v} entered twice`);
          } else {
            this.order[v] = this.depth;
          }
          this.entered[v]++;
          this.moves++;
          if (this.depth > this.maxDepth) {
            this.maxDepth = this.depth;
            raised[ei] = 1;
          }
          this._mark(v);
        } else {
          const sq = -1 - v;
          if (this.depth === 0 || this.path[this.depth - 1] !== sq) {
            throw new ProtocolError(`backtrack from ${sq}, which is not the knight's square`);
          }
          this.order[sq] = 0;
          this.depth--;
          this.backtracks++;
          this._mark(sq);
          this._markHead();
        }
        if (this.onNewEvent !== null && this.pos + (ei - this.ei) >= this.frontier) {
          this.onNewEvent(this.depth);
        }
      }
      done += end - this.ei;
      this.pos += end - this.ei;
      if (end === chunk.count) {
        this.ci++;
        this.ei = 0;
      } else {
        this.ei = end;
      }
    }
    if (this.pos > this.frontier) {
      const fresh = this.pos - Math.max(this.frontier, start);
      this.frontier = this.pos;
      this._trimHistory();
      if (this.onFrontier !== null) this.onFrontier(fresh);
    }
    return done;
  }

  /** Undo up to `n` events; returns how many were undone. */
  back(n = 1) {
    let done = 0;
    while (done < n && this.pos > this.historyStart) {
      if (this.ei === 0) {
        this.ci--;
        this.ei = this.chunks[this.ci].count;
      }
      this.ei--;
      this.pos--;
      done++;
      const chunk = this.chunks[this.ci];
      const v = chunk.data[chunk.starts[this.ei]];
      if (v >= 0) {
        if (!this.landsOnStart(v)) this.order[v] = 0;
        this.depth--;
        this.entered[v]--;
        this.moves--;
        if (chunk.raised[this.ei]) this.maxDepth--;
        this._mark(v);
        this._markHead();
      } else {
        const sq = -1 - v;
        this._markHead();
        this.path[this.depth++] = sq;
        this.order[sq] = this.depth;
        this.backtracks--;
        this._mark(sq);
      }
    }
    return done;
  }

  /** Move the cursor to global event index `target` (clamped to what is held). */
  seek(target) {
    const to = Math.max(this.historyStart, Math.min(this.received, Math.round(target)));
    if (to > this.pos) return this.advance(to - this.pos);
    return -this.back(this.pos - to);
  }

  // -- reading the state --------------------------------------------------------------------
  get head() {
    return this.depth > 0 ? this.path[this.depth - 1] : -1;
  }

  /** The last consumed event as {index, chunk, off}, or null (none, or dropped). */
  lastEvent() {
    if (this.pos === 0 || this.pos - 1 < this.historyStart) return null;
    let ci = this.ci;
    let ei = this.ei - 1;
    if (ei < 0) {
      ci--;
      ei = this.chunks[ci].count - 1;
    }
    const chunk = this.chunks[ci];
    return { index: this.pos - 1, data: chunk.data, off: chunk.starts[ei] };
  }

  /**
   * The held event at global index `index` (consumed or ahead of `pos`) as {square, back,
   * candidates, onward: counts or null}, or null when not held (practice/questions.js).
   */
  eventAt(index) {
    if (index < this.historyStart || index >= this.received) return null;
    let [lo, hi] = [0, this.chunks.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.chunks[mid].base <= index) lo = mid;
      else hi = mid - 1;
    }
    const { data, starts, base } = this.chunks[lo];
    const off = starts[index - base];
    if (data[off] < 0) return { square: -1 - data[off], back: true, candidates: [], onward: null };
    const { squares, counts } = eventCandidates(data, off, this.counts);
    return { square: data[off], back: false, candidates: squares, onward: counts };
  }

  /** The squares whose path state changed since the last call; clears the list. */
  takeDirty() {
    const list = this.dirtyList;
    for (const sq of list) this.dirty[sq] = 0;
    this.dirtyList = [];
    return list;
  }

  // -- internals ----------------------------------------------------------------------------
  _mark(sq) {
    if (this.dirty[sq] === 0) {
      this.dirty[sq] = 1;
      this.dirtyList.push(sq);
    }
  }

  _markHead() {
    if (this.depth > 0) this._mark(this.path[this.depth - 1]);
  }

  /** Drop the oldest batches once more than `historyInts` ints are held behind the cursor. */
  _trimHistory() {
    while (this.heldInts > this.historyInts && this.ci > 1) {
      const old = this.chunks.shift();
      this.ci--;
      this.heldInts -= old.data.length;
      this.historyStart = this.chunks[0].base;
    }
  }
}
