// The teacher's controls of a class room (docs/protocol.md, "Controls apply in order"):
// every `settings`, `control` and `lesson` message carries the page's next number (`seq`), counting
// on from the room's `control_seq` (so a reload goes on counting). A control shows on this
// page at once (the follower's intent); the server's answer then says where the class is.
// No DOM here.

export const DRAG_SEND_MS = 100; // a dragged slider sends at most this often
const QUIET_REFUSALS = new Set(["superseded", "stale", "timeout"]);

export class TeacherControls {
  /** call(event, payload) => Promise of the acknowledgement; follower: a RoomFollower. */
  constructor({
    call,
    follower,
    onRefused = () => {},
    onAccepted = () => {},
    now = () => performance.now(),
  }) {
    this.call = call;
    this.follower = follower;
    this.onRefused = onRefused; // (error) => ..., a refusal other than an older or stale control
    this.onAccepted = onAccepted; // () => ..., a control the server applied
    this.now = now;
    this.seq = 0;
    this.inFlight = 0;
    this.timer = 0;
    this.latest = null; // the last control, maybe not sent yet (a drag)
    this.sentAt = -Infinity;
  }

  /** Count on from the room's last applied number (the join's state). */
  resume(state) {
    this.seq = Math.max(this.seq, state.control_seq);
  }

  /** Controls sent and not answered yet, or waiting to be sent. */
  get pending() {
    return this.inFlight + (this.timer ? 1 : 0);
  }

  /** New demo settings ({rows, cols, start: [r, c], ...}): a new generation, paused at 0. */
  async settings(params) {
    this._cancel(); // a control of the old demo would only be refused
    let ack = await this._settings(params);
    if (ack?.error?.code === "superseded") ack = await this._settings(params); // another page of ours counted further
    return ack;
  }

  /** Take the class to a step of the guided lesson: the chapter's demo, where the step stands. */
  async lesson(chapter, step) {
    this._cancel(); // a control of the old place would only be refused
    let ack = await this._numbered("lesson", { chapter, step });
    if (ack?.error?.code === "superseded") ack = await this._numbered("lesson", { chapter, step });
    return ack;
  }

  _settings(params) {
    return this._numbered("settings", params);
  }

  async _numbered(event, params) {
    this.inFlight++;
    try {
      const ack = await this.call(event, { ...params, seq: ++this.seq });
      this._adopt(ack?.ok ? ack.state : ack?.error?.state);
      return ack;
    } finally {
      this.inFlight--;
    }
  }

  _adopt(state) {
    if (!state) return;
    this.resume(state);
    this.follower.adoptState(state);
  }

  /** Move the class: {index, playing, speed} (speed null: run to the end). `throttle` ms for drags. */
  control({ index, playing, speed }, { throttle = 0 } = {}) {
    const state = this.follower.state;
    if (!state || state.gen <= 1) return;
    const control = {
      seq: ++this.seq,
      gen: state.gen,
      index: Math.max(0, Math.round(index)),
      playing,
      speed,
    };
    this.follower.intend(control);
    this.latest = control;
    const wait = this.sentAt + throttle - this.now();
    if (throttle > 0 && wait > 0) {
      this.timer ||= setTimeout(() => {
        this.timer = 0;
        this._send(this.latest);
      }, wait);
      return;
    }
    this._cancel();
    this._send(control);
  }

  _cancel() {
    clearTimeout(this.timer);
    this.timer = 0;
  }

  _send(control) {
    this.sentAt = this.now();
    this.inFlight++;
    this.call("control", control)
      .then((ack) => {
        const state = ack?.ok ? ack.state : ack?.error?.state;
        if (state) this.resume(state); // another page of ours may have counted further
        this.follower.settle(control.seq, ack);
        if (ack?.ok) this.onAccepted();
        // Older or of a replaced demo: the answer's state stands. A timeout: the rejoin's does.
        if (!ack?.ok && !QUIET_REFUSALS.has(ack?.error?.code)) this.onRefused(ack?.error);
      })
      .finally(() => {
        this.inFlight--;
      });
  }
}
