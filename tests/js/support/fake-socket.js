// A stand-in for socket.io-client's `io()`: records what the page emits and lets a test
// play the server (acknowledge, send events, disconnect). Enough of the API for
// stream/connection.js: on, onAny, once, emit, timeout().emitWithAck, connected, active, close.

export class FakeSocket {
  constructor() {
    this.connected = false;
    this.active = true;
    this.handlers = new Map();
    this.anyHandlers = []; // onAny: every event the server sends (not the reserved ones)
    this.emitted = []; // [event, payload] the page sent without an acknowledgement
    this.asked = []; // {event, payload, answer(ack), fail(err)} awaiting the test's answer
  }

  on(event, handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, []);
    this.handlers.get(event).push(handler);
  }

  onAny(handler) {
    this.anyHandlers.push(handler);
  }

  once(event, handler) {
    const wrapper = (...args) => {
      this.handlers.set(
        event,
        this.handlers.get(event).filter((h) => h !== wrapper),
      );
      handler(...args);
    };
    this.on(event, wrapper);
  }

  emit(event, payload) {
    this.emitted.push([event, payload]);
  }

  timeout() {
    return {
      emitWithAck: (event, payload) =>
        new Promise((answer, fail) => this.asked.push({ event, payload, answer, fail })),
    };
  }

  close() {
    this.connected = false;
    this.active = false;
  }

  // -- the test plays the server ------------------------------------------------------------
  /** The server sends `event` with `msg` to the page. */
  send(event, msg) {
    if (!["connect", "disconnect", "connect_error"].includes(event)) {
      for (const handler of this.anyHandlers) handler(event, msg);
    }
    for (const handler of [...(this.handlers.get(event) ?? [])]) handler(msg);
  }

  connect() {
    this.connected = true;
    this.send("connect");
  }

  /** The credit the page granted a run so far (the start's window included). */
  credit(run) {
    const start = this.asked.find((ask) => ask.event === "start" && ask.payload.run === run);
    const topUps = this.emitted.filter(([event, msg]) => event === "credit" && msg.run === run);
    return start.payload.window + topUps.reduce((sum, [, msg]) => sum + msg.events, 0);
  }
}

/** An `io` for WatchConnection that hands out `socket`. */
export function fakeIo(socket) {
  return () => socket;
}

/** Let pending promise callbacks run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
