// One run of the watch protocol (docs/protocol.md) feeding one Player: start it, hold the
// batches that race its acknowledgement, decode every batch into the player, grant credit
// for the events the page consumed, and hand its end or its failure to the page. Watch's
// lanes and Play's "show me" each own one. A fresh run can `seek` (the end, or an index
// behind what the player holds): the server's snapshot replaces the player. No DOM here.

import { decodeBatch } from "./decode.js";
import { DEFAULT_HISTORY_INTS, Player } from "./player.js";

export class RunFeed {
  /** onDone(msg): the run's `done` (after every batch); onError(error): it failed. */
  /** onProgress(msg): a seek's computing so far; onSnapshot(player, msg): a seek landed. */
  constructor({
    onDone = () => {},
    onError = () => {},
    onProgress = () => {},
    onSnapshot = () => {},
    historyInts = DEFAULT_HISTORY_INTS,
  } = {}) {
    this.onDone = onDone;
    this.onError = onError;
    this.onProgress = onProgress;
    this.onSnapshot = onSnapshot;
    this.seeking = null; // the index (null: the end) of a seek not answered by a snapshot yet
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
      progress: (msg) => generation === this.generation && this.onProgress(msg),
      snapshot: take("snapshot"),
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

  /** Whether the run can seek: a fresh run (not one that continues a game). */
  get seekable() {
    return Boolean(this.run && this.ack && this.ack.prefix.length === 0);
  }

  /**
   * Ask the server to stand at `index` (null: the search's end). The player is replaced
   * when the snapshot arrives (`onSnapshot`); resolves to the acknowledgement.
   */
  async seek(index) {
    const run = this.run;
    if (!run) return null;
    this.seeking = index;
    try {
      return await run.seek(index);
    } catch (error) {
      this.seeking = null;
      throw error;
    }
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
    if (kind === "snapshot") {
      this._land(msg);
      return;
    }
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

  /** A seek's snapshot: a new player standing after its events, at the wanted index. */
  _land(snapshot) {
    const old = this.player;
    let player;
    try {
      player = Player.fromSnapshot(snapshot, {
        rows: old.rows,
        cols: old.cols,
        counts: old.counts,
        historyInts: this.historyInts,
      });
    } catch (error) {
      this.run?.stop();
      this._fail(error);
      return;
    }
    player.onFrontier = (n) => this.run?.consumed(n);
    this.player = player;
    this.seeking = null;
    this.onSnapshot(player, snapshot);
  }

  _fail(error) {
    this.run = null;
    this.onError(error);
  }
}
