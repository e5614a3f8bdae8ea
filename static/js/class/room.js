// The /class namespace (docs/protocol.md, "Class rooms"): joining a room, heartbeats and
// the room's broadcasts. The server runs the room's one search and streams it (`state`,
// `feed`, `snapshot`); follow.js keeps up with it.

import { wakeFrames } from "../lanes/frame-loop.js";
import { WatchConnection } from "../stream/connection.js";

export class ClassRoom {
  /**
   * code: the room's join code; token: the teacher's secret (null for a student).
   * handlers: {joined(ack), joinFailed(err), state(s), feed(f), snapshot(s), presence(p),
   *            puzzle(p), leaderboard(b), ended(e), error(err), heartbeat(ack),
   *            status("connected" | "reconnecting" | "disconnected")}
   */
  constructor({ code, token = null, handlers = {} }) {
    this.code = code;
    this.token = token;
    this.handlers = handlers;
    this.joined = null; // the last join acknowledgement
    this.heartbeatTimer = 0;
    this.connection = new WatchConnection({ url: "/class" });
    this.connection.onMessage = wakeFrames; // a message may change what the page shows
    const socket = this.connection.socket;
    for (const name of [
      "state",
      "feed",
      "snapshot",
      "presence",
      "puzzle",
      "leaderboard",
      "ended",
    ]) {
      socket.on(name, (msg) => this.handlers[name]?.(msg));
    }
    this.connection.onError = (err) => this.handlers.error?.(err);
    this.connection.onStatus = (status) => {
      if (status === "connected") this._join();
      else this.joined = null;
      this.handlers.status?.(status);
    };
    if (socket.connected) this._join();
  }

  get socket() {
    return this.connection.socket;
  }

  /** Emit `event` and resolve with the server's acknowledgement ({ok: false, error} too). */
  async call(event, payload = {}) {
    await this.connection.ready();
    try {
      return await this.socket.timeout(10_000).emitWithAck(event, payload);
    } catch (err) {
      return { ok: false, error: { code: "timeout", message: String(err?.message || err) } };
    }
  }

  async _join() {
    const payload = { code: this.code };
    if (this.token) payload.token = this.token;
    const ack = await this.call("join", payload);
    if (!ack?.ok) {
      this.handlers.joinFailed?.(ack?.error || { code: "error" });
      return;
    }
    this.joined = ack;
    clearInterval(this.heartbeatTimer);
    const every = Math.max(2, Number(ack.heartbeat) || 20) * 1000;
    this.heartbeatTimer = setInterval(() => this.heartbeat(), every);
    this.handlers.joined?.(ack);
  }

  async heartbeat() {
    const ack = await this.call("heartbeat");
    if (ack?.ok) this.handlers.heartbeat?.(ack);
    else if (ack?.error && ack.error.code !== "timeout") this.handlers.joinFailed?.(ack.error);
  }

  close() {
    clearInterval(this.heartbeatTimer);
    this.connection.close();
  }
}
