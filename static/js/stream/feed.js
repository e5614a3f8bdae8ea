// One run of the watch protocol (docs/protocol.md) feeding one Player: start it, hold the
// batches that race its acknowledgement, decode every batch into the player, grant credit
// for the events the page consumed, and hand its end or its failure to the page. Watch's
// lanes and Play's "show me" each own one. No DOM here.

import { decodeBatch } from "./decode.js";
import { DEFAULT_HISTORY_INTS, Player } from "./player.js";

export class RunFeed {
  /** onDone(msg): the run's `done` (after every batch); onError(error): it failed. */
  constructor({ onDone = () => {}, onError = () => {}, historyInts = DEFAULT_HISTORY_INTS } = {}) {
    this.onDone = onDone;
    this.onError = onError;
    this.historyInts = historyInts;
    this.generation = 0; // a message of an older run is ignored
    this.run = null;
    this.player = null;
  }

  /** The server's acknowledgement of the run (its effective settings), once started. */
  get ack() {
    return this.run?.ack ?? null;
  }

  /**
   * Start a run on `connection` (a WatchConnection) with the `start` payload `params`.
   * Resolves to the run's Player once the server acknowledged it, or null when `stop` came
   * first; rejects when the server refused it.
   */
  async start(connection, params, { window }) {
    this.stop();
    const generation = this.generation;
    const early = []; // batches (and even the end) that arrived before the acknowledgement
    const take = (kind) => (msg) => {
      if (generation !== this.generation) return;
      if (this.player) this._take(kind, msg);
      else early.push([kind, msg]);
    };
    const handlers = {
      batch: take("batch"),
      done: take("done"),
      error: (error) => generation === this.generation && this._fail(error),
    };
    const run = await connection.start(params, handlers, { window });
    if (generation !== this.generation) {
      run.stop(); // stopped while the server was acknowledging
      return null;
    }
    this.run = run;
    const { ack } = run;
    this.player = new Player({
      rows: ack.rows,
      cols: ack.cols,
      path: ack.prefix || [],
      counts: Boolean(ack.counts),
      historyInts: this.historyInts,
    });
    this.player.onFrontier = (n) => this.run?.consumed(n);
    for (const [kind, msg] of early) this._take(kind, msg);
    return this.player;
  }

  /** Keep about `window` events in flight (a faster playback wants more). */
  setWindow(window) {
    this.run?.setWindow(window);
  }

  /** End the run (the server's task stops) and ignore whatever of it is still on the way. */
  stop() {
    this.generation++;
    this.run?.stop();
    this.run = null;
    this.player = null;
  }

  _take(kind, msg) {
    const player = this.player;
    if (kind === "done") {
      player.finish(msg);
      this.onDone(msg);
      return;
    }
    try {
      player.push(decodeBatch(msg.events, { counts: player.counts, squares: player.squares }));
    } catch (error) {
      this.run?.stop();
      this._fail(error);
    }
  }

  _fail(error) {
    this.run = null;
    this.onError(error);
  }
}
