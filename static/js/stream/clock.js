// The playback clock: which event index a page shows at a given moment. Watch, Play's
// "show me" and the class pages all play a stream through it; only who sets it differs:
// the page's own buttons (Watch, show me) or the class room's state on the server
// (class/follow.js). Players then move to the index the clock says (`seekPlayers`).
//
// The clock stands at `index` (paused), or moves on from it at `speed` events per second
// since `at` (ms, the performance clock), or runs to the end (speed null, or `toEnd`): as
// fast as events come. No DOM here.

export const FRAME_BUDGET_MS = 10; // time one frame may spend moving a player a long way
export const READABLE_SPEED = 30; // events per second a person can follow one by one
export const MAX_GAP_MS = 250; // a page that drew nothing for longer (a hidden tab) does not jump
const CHUNK = 4096; // events per step of a long move, between two looks at the time

export class PlaybackClock {
  constructor({ speed = 10 } = {}) {
    this.index = 0;
    this.at = 0;
    this.playing = false;
    this.speed = speed; // events per second; null: as fast as they come
    this.toEnd = false; // running to the end whatever the speed (Watch's "jump to the result")
    this.lastTick = null;
  }

  /** Adopt a clock kept elsewhere, {index, playing, speed, at} (a class room's state). */
  set({ index, playing, speed, at }) {
    this.index = index;
    this.playing = playing;
    this.speed = speed;
    this.at = at;
    this.toEnd = false;
  }

  /** Playing faster than one can read: narration throttled, no flashes. */
  get fast() {
    return this.playing && (this.unbounded || this.speed > READABLE_SPEED);
  }

  /** Whether it runs to the end: no index to stop at but the stream's end. */
  get unbounded() {
    return this.playing && (this.toEnd || this.speed === null);
  }

  /** The event index to show at `now`: fractional while playing, Infinity when unbounded. */
  target(now) {
    if (!this.playing) return this.index;
    if (this.unbounded) return Number.POSITIVE_INFINITY;
    return this.index + (this.speed * Math.max(0, now - this.at)) / 1000;
  }

  play(from, now) {
    this.index = from;
    this.at = now;
    this.playing = true;
  }

  pause(index) {
    this.index = Math.max(0, index);
    this.playing = false;
    this.toEnd = false;
  }

  /** Change the speed from now on (the index shown so far stays). */
  setSpeed(speed, now) {
    if (this.playing && !this.unbounded) this.index = this.target(now);
    this.at = now;
    this.speed = speed;
  }

  /** Run to the end as fast as events come, then stand there (`pause`). */
  runToEnd(now) {
    this.playing = true;
    this.toEnd = true;
    this.at = now;
  }

  /** One event on from `shown` (the index the players stand at), paused there. */
  step(shown) {
    this.pause((this.playing ? shown : Math.max(Math.floor(this.index), shown)) + 1);
  }

  /** One event back from `shown`, paused there. */
  back(shown) {
    this.pause(shown - 1);
  }

  /**
   * Once a frame, for a clock the page runs itself: `shown` is the furthest index a player
   * reached. It neither jumps after a frame gap (a hidden tab) nor banks the events a slow
   * stream did not deliver: it waits for them, a quarter of a second's worth at most.
   */
  tick(now, shown) {
    const gap = this.lastTick === null ? 0 : now - this.lastTick;
    this.lastTick = now;
    if (!this.playing || this.unbounded) return;
    if (gap > MAX_GAP_MS) this.at += gap - MAX_GAP_MS;
    const slack = Math.max(1, this.speed * 0.25);
    if (this.target(now) - shown > slack) {
      this.index = shown + slack;
      this.at = now;
    }
  }
}

/**
 * Move each player towards `target` (as far as what it holds allows); a long way forward in
 * steps until `deadline` (performance clock). Returns whether any moved.
 */
export function seekPlayers(players, target, deadline = Number.POSITIVE_INFINITY) {
  let moved = false;
  for (const player of players) {
    const want = Math.max(player.historyStart, Math.min(player.received, Math.floor(target)));
    if (want < player.pos) moved = player.back(player.pos - want) > 0 || moved;
  }
  let going = true;
  while (going) {
    going = false;
    for (const player of players) {
      const want = Math.min(player.received, Math.floor(target));
      if (want > player.pos && player.advance(Math.min(CHUNK, want - player.pos)) > 0) {
        moved = true;
        going = true;
      }
    }
    if (performance.now() >= deadline) break;
  }
  return moved;
}

/** The furthest index any of `players` stands at (0 for none). */
export function shownIndex(players) {
  let shown = 0;
  for (const player of players) shown = Math.max(shown, player.pos);
  return shown;
}
