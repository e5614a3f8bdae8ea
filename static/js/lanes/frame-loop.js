// The one frame loop of every page that plays lanes (Watch, the lesson, both class pages):
// once per animation frame the lanes' players move to where the playback stands, the time
// played is counted, and the lanes that changed are redrawn. Where the playback stands is
// the page's to say: a clock the page runs itself (`followClock`: Watch, the lesson), or
// the class's, which the room's follower keeps (class/stage.js). No DOM here.

import { FRAME_BUDGET_MS, seekPlayers, shownIndex } from "../stream/clock.js";

export const MAX_FRAME_S = 0.25; // a frame counts this much playback at most (a hidden tab's gap)

export class FrameLoop {
  /**
   * onFrame(now, dt): the page's frame at `now` (ms, the performance clock), `dt` seconds
   * after the last one; schedule(callback): asks for the next animation frame.
   */
  constructor(onFrame, { schedule = (callback) => requestAnimationFrame(callback) } = {}) {
    this.onFrame = onFrame;
    this.schedule = schedule;
    this.lastFrame = 0; // when the last frame ran (ms): the playback time the next one adds
    this.running = false;
  }

  /** One frame at `now`, also between animation frames (a page that draws at once). */
  frame(now) {
    const last = this.lastFrame;
    const dt = last ? Math.min(MAX_FRAME_S, Math.max(0, now - last) / 1000) : 0;
    this.lastFrame = now;
    this.onFrame(now, dt);
  }

  /** A frame on every animation frame from now on, as long as the page lives. */
  start() {
    if (this.running) return;
    this.running = true;
    const next = (now) => {
      this.frame(now);
      this.schedule(next);
    };
    this.schedule(next);
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
