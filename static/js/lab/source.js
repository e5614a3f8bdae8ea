// A finished lab run served the way the server serves a /watch run (docs/protocol.md), so a
// Lane plays it through its own LaneRun and RunFeed, with the page's one playback clock:
// `start` is acknowledged at once, batches follow under the credit the player grants, `done`
// ends them, and `seek` answers with a snapshot (⏭, and stepping back past what the player
// holds). `LabConnection.start` takes the same arguments as WatchConnection's. Plain data,
// no DOM: the clock of its messages is `schedule`.

import { DepthColumns } from "../stream/columns.js";
import { LabWalk } from "./translate.js";

export const LAB_ALGORITHM = "lab";
const BATCH = 2_000; // events per batch, as the server's
const BEHIND = 100; // events a snapshot holds before its index (the page steps back so far)

/** How a lab run's end is said in the protocol's `done` statuses. */
const STATUS = { found: "found", declared: "declared", ended: "ended", budget: "budget" };

export class LabConnection {
  /**
   * recording: a finished Recording (its `result` set); rule: its rule (translate.js
   * findRule) or null; schedule(fn): runs fn soon (the page: a macrotask).
   */
  constructor({ recording, rule, schedule = (fn) => setTimeout(fn, 0) }) {
    Object.assign(this, { recording, rule, schedule });
    this.onMessage = null; // () => ..., every message (the page's frames wake)
    this.nextId = 1;
  }

  /** The run's ending as `done` says it. */
  doneMessage(walk) {
    const { recording } = this;
    const status = STATUS[recording.result?.status] ?? recording.result?.status ?? "stopped";
    const found = status === "found" || status === "declared";
    return {
      status,
      tour: found ? Array.from(walk.path.subarray(0, walk.depth)) : null,
      limit: status === "budget" ? "nodes" : null,
      nodes: walk.nodes,
      backtracks: walk.backtracks,
      seconds: (recording.result?.ms ?? 0) / 1000,
    };
  }

  /** As WatchConnection.start: `_params` are the recording's own (its board and start). */
  async start(_params, handlers, { window = 4000 } = {}) {
    const { recording } = this;
    const run = new LabRun(this, `lab${this.nextId++}`, handlers, window);
    run.ack = {
      ok: true,
      run: run.id,
      rows: recording.rows,
      cols: recording.cols,
      start: recording.start,
      holes: [],
      prefix: [],
      algorithm: LAB_ALGORITHM,
      closed: false,
      pruning: false,
      counts: Boolean(this.rule?.sort),
    };
    run.send();
    return run;
  }
}

class LabRun {
  constructor(source, id, handlers, window) {
    Object.assign(this, { source, id, handlers, window });
    this.walk = new LabWalk(source.recording, source.rule); // stands where the batches reached
    this.codes = source.recording.codes();
    this.drawn = 0; // events the player consumed for the first time (its credit back)
    this.sent = 0; // events sent (a snapshot's included) since the start or the snapshot
    this.ended = false;
    this.stopped = false;
    this.pending = false;
    this.generation = 0; // a seek starts the stream again: what was scheduled before is dropped
  }

  consumed(n) {
    this.drawn += n;
    this.send();
  }

  setWindow(window) {
    this.window = window;
    this.send();
  }

  stop() {
    this.stopped = this.ended = true;
  }

  /** Stand at `index` (null: the end): a snapshot there, then the events after it. */
  async seek(index) {
    const { recording } = this.source;
    const total = recording.length;
    const to = index === null ? total : Math.max(0, Math.min(total, index));
    const at = Math.max(0, to - BEHIND);
    const walk = new LabWalk(recording, this.source.rule);
    const chart = new DepthColumns();
    chart.reset(recording.squares);
    const codes = recording.codes();
    for (let i = 0; i < at; i++) {
      walk.step(codes.next().value);
      chart.push(walk.depth);
    }
    const snapshot = {
      run: this.id,
      index: to,
      at,
      path: Array.from(walk.path.subarray(0, walk.depth)),
      nodes: walk.nodes,
      backtracks: walk.backtracks,
      max_depth: walk.maxDepth,
      heat: Array.from(walk.entered),
      chart: {
        span: chart.span,
        length: chart.length,
        fill: chart.fill,
        events: chart.events,
        min: Array.from(chart.min),
        max: Array.from(chart.max),
      },
      events: [],
      count: to - at,
      end: null,
    };
    for (let i = at; i < to; i++) walk.step(codes.next().value, snapshot.events);
    const end = this.source.doneMessage(this._walkToEnd());
    snapshot.end = { status: end.status, total, nodes: end.nodes, backtracks: end.backtracks };
    snapshot.end.limit = end.limit;
    this.generation++;
    this.walk = walk;
    this.codes = codes;
    this.sent = snapshot.count; // held by the new player, consumed as it plays them
    this.drawn = 0;
    this.ended = false;
    const generation = this.generation;
    this.source.schedule(() => {
      if (this.stopped || generation !== this.generation) return;
      this.handlers.snapshot?.(snapshot);
      this.source.onMessage?.();
      this.send();
    });
    return { ok: true, run: this.id };
  }

  /** The counters at the run's end (a seek's `end`), walked from scratch: exact, not fast. */
  _walkToEnd() {
    if (this.endWalk) return this.endWalk;
    const walk = new LabWalk(this.source.recording, this.source.rule);
    for (const code of this.source.recording.codes()) walk.step(code);
    this.endWalk = walk;
    return walk;
  }

  /** Send what the credit allows, a batch per task, then `done` once all is sent. */
  send() {
    if (this.pending || this.ended) return;
    this.pending = true;
    const generation = this.generation;
    this.source.schedule(() => {
      this.pending = false;
      if (this.stopped || generation !== this.generation) return;
      const { recording } = this.source;
      const room = Math.min(BATCH, this.window - (this.sent - this.drawn));
      const events = [];
      let count = 0;
      while (count < room && this.walk.index < recording.length) {
        this.walk.step(this.codes.next().value, events);
        count++;
      }
      if (count > 0) {
        this.sent += count;
        this.handlers.batch?.({ run: this.id, events, nodes: this.walk.nodes });
        this.source.onMessage?.();
      }
      if (this.walk.index === recording.length) {
        this.ended = true;
        this.handlers.done?.({ run: this.id, ...this.source.doneMessage(this.walk) });
        this.source.onMessage?.();
        return;
      }
      if (this.sent - this.drawn < this.window) this.send();
    });
  }
}
