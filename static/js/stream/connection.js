// The Socket.IO side of the watch protocol (docs/protocol.md): one socket on the `/watch`
// namespace, any number of runs on it (race mode uses two), credit-based flow control.
//
// Credit is granted only for events the viewer has consumed (`run.consumed(n)`, called by
// stream/feed.js as its player moves on), so a paused viewer pauses the search on the
// server, and the events held in the browser never exceed the window. No DOM here.
//
// socket.io-client is the vendored UMD build (static/vendor/socket.io/), loaded by a
// classic <script> before the modules; pass `io` explicitly to use another copy.

export const MAX_WINDOW = 20_000; // the server's cap on outstanding credit
export const MIN_WINDOW = 1_000;

let nextRunId = 1;

export class WatchError extends Error {
  constructor(body) {
    super(body?.message || body?.code || "error");
    this.code = body?.code || "error";
    this.run = body?.run ?? null;
  }
}

export class WatchConnection {
  constructor({ url = "/watch", io = globalThis.io, ackTimeout = 10_000 } = {}) {
    if (typeof io !== "function") throw new Error("socket.io-client is not loaded");
    this.ackTimeout = ackTimeout;
    this.runs = new Map();
    this.onError = null; // (WatchError) => ..., errors that belong to no run
    this.onStatus = null; // ("connected" | "disconnected" | "reconnecting") => ...
    this.socket = io(url, {
      transports: ["websocket", "polling"], // websocket preferred, long-polling as fallback
      tryAllTransports: true,
      reconnectionDelayMax: 4000,
    });
    this.onMessage = null; // () => ..., on every message from the server (a page's frames wake)
    this.socket.onAny(() => this.onMessage?.());
    this.socket.on("batch", (msg) => this.runs.get(msg?.run)?._batch(msg));
    // A run ended (done) stays known: a seek may start its stream again (a snapshot).
    this.socket.on("done", (msg) => this.runs.get(msg?.run)?._done(msg));
    // A seek's answers: how far the server has computed, then where the run stands.
    this.socket.on("progress", (msg) => this.runs.get(msg?.run)?.handlers.progress?.(msg));
    this.socket.on("snapshot", (msg) => this.runs.get(msg?.run)?._snapshot(msg));
    this.socket.on("error", (body) => {
      const error = new WatchError(body);
      const run = this.runs.get(error.run);
      if (run) {
        this.runs.delete(run.id);
        run._error(error);
      } else {
        this.onError?.(error);
      }
    });
    this.socket.on("connect", () => this.onStatus?.("connected"));
    this.socket.on("disconnect", (reason) => {
      // The server stops every run of a connection that goes away.
      for (const run of this.runs.values()) {
        run.stopped = true;
        run._error(new WatchError({ code: "disconnected", message: reason }));
      }
      this.runs.clear();
      this.onStatus?.(this.socket.active ? "reconnecting" : "disconnected");
    });
  }

  get connected() {
    return this.socket.connected;
  }

  /** Resolves once the socket is connected (at once if it already is). */
  ready() {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve) => this.socket.once("connect", resolve));
  }

  /**
   * Start a run. `params` is the `start` payload without `run` and `window`;
   * `handlers` = {batch(msg), done(msg), error(WatchError)}. Resolves to the Run once the
   * server acknowledged it; rejects with a WatchError when it refused.
   */
  async start(params, handlers = {}, { window = 4000 } = {}) {
    await this.ready();
    const id = `r${nextRunId++}`;
    const run = new Run(this, id, handlers, clampWindow(window));
    this.runs.set(id, run); // before the emit: the first batch may follow the ack at once
    let ack;
    try {
      ack = await this.socket
        .timeout(this.ackTimeout)
        .emitWithAck("start", { ...params, run: id, window: run.window });
    } catch (err) {
      this.runs.delete(id);
      throw new WatchError({ code: "timeout", message: String(err?.message || err) });
    }
    if (!ack?.ok) {
      this.runs.delete(id);
      throw new WatchError({ ...(ack?.error || ack), run: id });
    }
    run.ack = ack;
    return run;
  }

  close() {
    this.socket.close();
  }
}

export class Run {
  constructor(connection, id, handlers, window) {
    this.connection = connection;
    this.id = id;
    this.handlers = handlers;
    this.window = window; // credit the viewer wants outstanding
    this.granted = window; // credit granted so far (the start's window included)
    this.drawn = 0; // events drawn so far
    this.ack = null;
    this.ended = false; // its stream ended (done) or failed
    this.stopped = false;
  }

  /** The viewer drew `n` more events: top the credit back up to the window. */
  consumed(n) {
    this.drawn += n;
    this._topUp();
  }

  /** Change the window (faster playback wants more events in flight). */
  setWindow(window) {
    this.window = clampWindow(window);
    this._topUp();
  }

  /**
   * Stop the run, or let the server drop it once it ended (a fresh run's ended stream is
   * kept there for a seek back).
   */
  stop() {
    if (this.stopped) return;
    this.stopped = this.ended = true;
    this.connection.runs.delete(this.id);
    if (this.connection.connected) this.connection.socket.emit("stop", { run: this.id });
  }

  /**
   * Stand at event `index` (null: the search's end): the server computes there, sends
   * `progress` meanwhile, then a `snapshot` and the events after it. Resolves to the
   * acknowledgement; rejects with a WatchError when refused.
   */
  async seek(index) {
    const socket = this.connection.socket;
    const ack = await socket
      .timeout(this.connection.ackTimeout)
      .emitWithAck("seek", { run: this.id, index, window: this.window });
    if (!ack?.ok) throw new WatchError({ ...(ack?.error || ack), run: this.id });
    this.ended = false;
    return ack;
  }

  _topUp() {
    if (this.ended) return;
    const outstanding = this.granted - this.drawn;
    // Grant in quarter-window steps: few messages, and never more than the window ahead.
    if (this.window - outstanding >= Math.max(1, this.window >> 2)) {
      const events = this.window - outstanding;
      this.granted += events;
      this.connection.socket.emit("credit", { run: this.id, events });
    }
  }

  _batch(msg) {
    if (!this.ended) this.handlers.batch?.(msg);
  }

  _done(msg) {
    this.ended = true;
    this.handlers.done?.(msg);
  }

  /** A seek's snapshot: the credit starts again from the window, after its `count` events. */
  _snapshot(msg) {
    this.ended = false;
    this.granted = this.window + msg.count;
    this.drawn = 0;
    this.handlers.snapshot?.(msg);
  }

  _error(error) {
    this.ended = true;
    this.handlers.error?.(error);
  }
}

function clampWindow(window) {
  return Math.max(MIN_WINDOW, Math.min(MAX_WINDOW, Math.round(window)));
}
