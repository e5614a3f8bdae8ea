// The pages' one frame loop (lanes/frame-loop.js) without a browser: frames come from a
// fake scheduler, lanes are plain objects that record what they were asked to do.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  AWAKE_MS,
  countPlayback,
  drawLanes,
  FrameLoop,
  followClock,
  HEARTBEAT_MS,
  MAX_FRAME_S,
  wakeFrames,
} from "../../static/js/lanes/frame-loop.js";
import { PlaybackClock } from "../../static/js/stream/clock.js";
import { fakePlayer } from "./support/lanes.js";

/** A scheduler the test steps by hand: `run(now)` runs the frame asked for. */
function fakeFrames() {
  const asked = [];
  return {
    asked,
    schedule: (callback) => asked.push(callback),
    run(now) {
      asked.shift()(now);
    },
  };
}

/** A lane that records, in order, what the loop asked of it. */
function fakeLane(player = fakePlayer(100)) {
  return {
    player,
    changed: false,
    calls: [],
    countPlayback(now, dt, playing) {
      this.calls.push(["count", now, dt, playing]);
    },
    updateStatus(playing) {
      this.calls.push(["status", playing]);
    },
    draw(now, { fast }) {
      this.calls.push(["draw", now, fast]);
      this.changed = false;
    },
  };
}

test("the loop gives each frame the seconds since the last, a quarter second at most", () => {
  const frames = fakeFrames();
  const seen = [];
  const loop = new FrameLoop((now, dt) => seen.push([now, dt]), { schedule: frames.schedule });
  loop.start();
  loop.start(); // a second start is no second loop
  assert.equal(frames.asked.length, 1);
  frames.run(1000);
  frames.run(1100);
  frames.run(9000); // a hidden tab's gap
  loop.frame(8990); // a frame out of turn, a little before the last animation frame's time
  assert.deepEqual(seen, [
    [1000, 0],
    [1100, 0.1],
    [9000, MAX_FRAME_S],
    [8990, 0],
  ]);
  assert.equal(frames.asked.length, 1, "every frame asks for the next one, once");
});

test("lanes follow the page's clock, and the clock waits for a slow stream", () => {
  const clock = new PlaybackClock({ speed: 100 });
  const lanes = [fakeLane(fakePlayer(1000)), fakeLane(fakePlayer(20))];
  clock.play(0, 0);
  clock.tick(0, 0);
  assert.equal(followClock(clock, lanes, 100), true); // 10 events at 100 a second
  assert.deepEqual(
    lanes.map((lane) => lane.player.pos),
    [10, 10],
  );
  assert.equal(followClock(clock, lanes, 100), false, "where the clock stands: nothing moves");
  clock.pause(5);
  assert.equal(followClock(clock, lanes, 150), true, "back, too");
  assert.deepEqual(
    lanes.map((lane) => lane.player.pos),
    [5, 5],
  );

  const slow = [fakeLane(fakePlayer(20))];
  const waiting = new PlaybackClock({ speed: 100 });
  waiting.play(0, 0);
  waiting.tick(0, 0);
  for (let now = 100; now <= 1000; now += 100) followClock(waiting, slow, now);
  assert.equal(slow[0].player.pos, 20, "a second: 100 events due, 20 came");
  // The clock banks a quarter second's worth beyond what came, not the whole second.
  assert.equal(waiting.target(1000), 20 + 25);
});

test("only changed lanes are redrawn, unless all are; each draw is followed", () => {
  const [a, b] = [fakeLane(), fakeLane()];
  b.changed = true;
  const drawn = [];
  drawLanes([a, b], 50, { playing: false, fast: false, drawn: (lane) => drawn.push(lane) });
  assert.deepEqual(a.calls, []);
  assert.deepEqual(b.calls, [
    ["status", false],
    ["draw", 50, false],
  ]);
  assert.deepEqual(drawn, [b]);
  drawLanes([a, b], 60, { playing: true, fast: true, all: true });
  assert.deepEqual(a.calls, [
    ["status", true],
    ["draw", 60, true],
  ]);
  countPlayback([a, b], 70, 0.016, true);
  assert.deepEqual(a.calls.at(-1), ["count", 70, 0.016, true]);
  assert.deepEqual(b.calls.at(-1), ["count", 70, 0.016, true]);
});

test("a loop with nothing to do sleeps to a heartbeat, and wakes at once when told", () => {
  const frames = fakeFrames();
  const timers = [];
  let now = 0;
  let busy = true;
  const seen = [];
  const loop = new FrameLoop(
    (at) => {
      seen.push(at);
      return busy;
    },
    {
      schedule: frames.schedule,
      later: (callback, ms) => timers.push({ callback, ms }) - 1,
      cancel: (id) => {
        timers[id] = null;
      },
      clock: () => now,
    },
  );
  loop.start();
  now = 16;
  frames.run(now); // busy: the next animation frame is asked for
  assert.equal(frames.asked.length, 1);
  busy = false;
  now = 32;
  frames.run(now); // idle, but within AWAKE_MS of the busy frame: still every frame
  assert.equal(frames.asked.length, 1);
  now = 16 + AWAKE_MS;
  frames.run(now); // idle for AWAKE_MS: asleep, a heartbeat instead
  assert.equal(frames.asked.length, 0);
  assert.deepEqual(
    timers.map((timer) => timer.ms),
    [HEARTBEAT_MS],
  );
  timers[0].callback(); // the heartbeat: one frame
  now += HEARTBEAT_MS;
  frames.run(now);
  assert.equal(frames.asked.length, 0);
  assert.equal(timers.filter(Boolean).length, 2); // and the next heartbeat
  wakeFrames(); // a message from the server: a frame at once, the heartbeat dropped
  assert.equal(frames.asked.length, 1);
  assert.equal(timers[1], null);
  now += 16;
  frames.run(now);
  assert.equal(frames.asked.length, 1); // awake again for AWAKE_MS
  assert.equal(seen.length, 5);
});
