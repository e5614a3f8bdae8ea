// The one frame loop of every page that plays lanes (Watch, the lesson, both class pages):
// once per animation frame the lanes' players move to where the playback stands, the time
// played is counted, and the lanes that changed are redrawn. Where the playback stands is
// the page's to say: a clock the page runs itself (`followClock`: Watch, the lesson), or
// the class's, which the room's follower keeps (class/stage.js). While nothing plays and
// nothing moves, the loop sleeps to a few frames a second; the reader's input (listened
// for on the document) and the server's messages (`wakeFrames`) wake it.

import { FRAME_BUDGET_MS, seekPlayers, shownIndex } from "../stream/clock.js";

export const MAX_FRAME_S = 0.25; // a frame counts this much playback at most (a hidden tab's gap)
export const AWAKE_MS = 1000; // the loop stays awake this long after a frame that did something
export const HEARTBEAT_MS = 250; // asleep, it still runs a frame this often

const loops = new Set();
let listening = false;

/**
 * Wake every page's loop now: something happened that a frame may have to show (a message
 * from the server, the reader's input). A loop asleep misses nothing for long anyway.
 */
export function wakeFrames() {
  for (const loop of loops) loop.wake();
}

/** The reader's input wakes the loops (registered once, with the first loop). */
function listenForInput() {
  if (listening || typeof document === "undefined") return;
  listening = true;
  for (const type of ["pointerdown", "keydown", "input", "change", "wheel", "visibilitychange"]) {
    document.addEventListener(type, wakeFrames, { capture: true, passive: true });
  }
  globalThis.addEventListener?.("resize", wakeFrames, { passive: true });
}

export class FrameLoop {
  /**
   * onFrame(now, dt): the page's frame at `now` (ms, the performance clock), `dt` seconds
   * after the last one; it returns `false` when it did nothing and nothing plays, and the
   * loop may then sleep: after AWAKE_MS of such frames it runs one every HEARTBEAT_MS
   * instead of one per animation frame, until `wake()` (an idle page at 60 frames a second
   * kept a phone's CPU at a few per cent for nothing). schedule(callback): asks for the next
   * animation frame; later(callback, ms) / cancel(id) and clock() stand in for setTimeout,
   * clearTimeout and performance.now in tests.
   */
  constructor(
    onFrame,
    {
      schedule = (callback) => requestAnimationFrame(callback),
      later = (callback, ms) => setTimeout(callback, ms),
      cancel = (id) => clearTimeout(id),
      clock = () => performance.now(),
    } = {},
  ) {
    Object.assign(this, { onFrame, schedule, later, cancel, clock });
    this.lastFrame = 0; // when the last frame ran (ms): the playback time the next one adds
    this.running = false;
    this.awakeUntil = 0; // frames on every animation frame until then (the clock's ms)
    this.asked = false; // an animation frame is asked for
    this.timer = null; // asleep: the heartbeat's timer
  }

  /** One frame at `now`, also between animation frames (a page that draws at once). */
  frame(now) {
    const last = this.lastFrame;
    const dt = last ? Math.min(MAX_FRAME_S, Math.max(0, now - last) / 1000) : 0;
    this.lastFrame = now;
    return this.onFrame(now, dt);
  }

  /** A frame on every animation frame from now on while the page does something. */
  start() {
    if (this.running) return;
    this.running = true;
    loops.add(this);
    listenForInput();
    this.wake();
  }

  /** Frames on every animation frame again, from now on. */
  wake() {
    if (!this.running) return;
    this.awakeUntil = this.clock() + AWAKE_MS;
    if (this.timer !== null) {
      this.cancel(this.timer);
      this.timer = null;
    }
    this._ask();
  }

  _ask() {
    if (this.asked) return;
    this.asked = true;
    this.schedule((now) => this._tick(now));
  }

  _tick(now) {
    this.asked = false;
    if (this.frame(now) !== false) this.awakeUntil = this.clock() + AWAKE_MS;
    if (this.clock() < this.awakeUntil) this._ask();
    else if (this.timer === null) {
      this.timer = this.later(() => {
        this.timer = null;
        this._ask();
      }, HEARTBEAT_MS);
    }
  }
}

/**
 * Move the lanes' players to the index `clock` says at `now` (a long way in steps, within
 * the frame's budget); the clock then waits for a stream slower than it. Returns whether
 * any player moved.
 */
export function followClock(clock, lanes, now) {
  const players = lanes.map((lane) => lane.player);
  const moved = seekPlayers(players, clock.target(now), now + FRAME_BUDGET_MS);
  clock.tick(now, shownIndex(players));
  return moved;
}

/** Count `dt` seconds of playback on each lane: its events/s and elapsed time move. */
export function countPlayback(lanes, now, dt, playing) {
  for (const lane of lanes) lane.countPlayback(now, dt, playing);
}

/**
 * Redraw the lanes that changed, or every one (`all`: the players moved, or the clock plays
 * and the counters move). `fast` throttles the narration; `drawn(lane)` follows each draw.
 */
export function drawLanes(lanes, now, { playing, fast, all = false, drawn = () => {} }) {
  for (const lane of lanes) {
    if (!(all || lane.changed)) continue;
    lane.updateStatus(playing);
    lane.draw(now, { fast });
    drawn(lane);
  }
}
