import assert from "node:assert/strict";
import { test } from "node:test";
import { PlaybackClock, seekPlayers, shownIndex } from "../../static/js/stream/clock.js";
import { decodeBatch } from "../../static/js/stream/decode.js";
import { Player } from "../../static/js/stream/player.js";
import { flat, searchEvents } from "./support/search.js";

function playerWith(events, rows = 6, cols = 6) {
  const player = new Player({ rows, cols, path: [] });
  player.push(decodeBatch(flat(events), { squares: rows * cols }));
  return player;
}

test("paused, the clock stands; playing, it moves on at its speed", () => {
  const clock = new PlaybackClock({ speed: 10 });
  assert.equal(clock.target(5000), 0);
  clock.play(100, 1000);
  assert.equal(clock.target(1000), 100);
  assert.equal(clock.target(1500), 105);
  assert.equal(clock.target(900), 100); // never before it started
  clock.pause(103);
  assert.equal(clock.target(9000), 103);
});

test("a new speed counts from now on; no speed runs to the end", () => {
  const clock = new PlaybackClock({ speed: 10 });
  clock.play(0, 0);
  clock.setSpeed(1000, 2000); // 20 events shown at 10/s
  assert.equal(clock.target(2000), 20);
  assert.equal(clock.target(2500), 520);
  clock.setSpeed(null, 3000);
  assert.equal(clock.unbounded, true);
  assert.equal(clock.target(3000), Number.POSITIVE_INFINITY);
  clock.setSpeed(10, 4000); // from "as fast as it comes" back to a speed: from where it stood
  clock.play(700, 4000);
  assert.equal(clock.target(5000), 710);
});

test("run to the end whatever the speed, then stand there", () => {
  const clock = new PlaybackClock({ speed: 10 });
  clock.runToEnd(0);
  assert.equal(clock.target(1), Number.POSITIVE_INFINITY);
  assert.equal(clock.speed, 10); // the slider's speed is kept for later
  clock.pause(5000);
  assert.equal(clock.unbounded, false);
  assert.equal(clock.target(99), 5000);
});

test("step and step back: one event from what is shown, paused", () => {
  const clock = new PlaybackClock({ speed: 10 });
  clock.play(0, 0);
  clock.step(42); // playing: from what the players show
  assert.deepEqual([clock.playing, clock.target(1e6)], [false, 43]);
  clock.step(42); // steps asked for before their events came add up
  assert.equal(clock.target(0), 44);
  clock.back(44);
  assert.equal(clock.target(0), 43);
  clock.back(0);
  assert.equal(clock.target(0), 0);
});

test("a page's own clock does not bank events a slow stream did not deliver", () => {
  const clock = new PlaybackClock({ speed: 100 });
  clock.play(0, 0);
  for (let now = 0; now <= 1000; now += 16) clock.tick(now, Math.min(10, now)); // 10 came
  assert.equal(Math.round(clock.target(992)), 35); // a quarter second's worth ahead at most
  clock.tick(1008, 35); // they came: on at the speed from there
  assert.equal(Math.round(clock.target(1092)), 45);
});

test("a page's own clock does not jump after a frame gap (a hidden tab)", () => {
  const clock = new PlaybackClock({ speed: 100 });
  clock.play(0, 0);
  clock.tick(0, 0);
  clock.tick(100, 10);
  clock.tick(10_100, 10_000); // 10 s without a frame
  assert.equal(Math.round(clock.target(10_100)), 35);
});

test("players seek the clock's index, as far as what they hold", () => {
  const events = searchEvents(6, 6, 0, 600);
  const a = playerWith(events.slice(0, 500));
  const b = playerWith(events.slice(0, 200));
  assert.equal(seekPlayers([a, b], 300.7), true);
  assert.deepEqual([a.pos, b.pos], [300, 200]);
  assert.equal(shownIndex([a, b]), 300);
  assert.equal(seekPlayers([a, b], 300), false);
  seekPlayers([a, b], 150);
  assert.deepEqual([a.pos, b.pos], [150, 150]);
  seekPlayers([a, b], Number.POSITIVE_INFINITY);
  assert.deepEqual([a.pos, b.pos], [500, 200]);
  assert.equal(shownIndex([]), 0);
});

test("a long way forward stops at the frame's deadline", () => {
  const events = searchEvents(6, 6, 0, 20_000);
  const player = playerWith(events);
  seekPlayers([player], Number.POSITIVE_INFINITY, 0); // the deadline has passed already
  assert.equal(player.pos, 4096); // one step, then it looks at the time
  seekPlayers([player], Number.POSITIVE_INFINITY);
  assert.equal(player.pos, events.length);
});

test("playing faster than one can read is fast: the narration is throttled", () => {
  const clock = new PlaybackClock({ speed: 30 });
  assert.equal(clock.fast, false); // paused
  clock.play(0, 0);
  assert.equal(clock.fast, false);
  clock.setSpeed(31, 0);
  assert.equal(clock.fast, true);
  clock.setSpeed(10, 0);
  clock.runToEnd(0);
  assert.equal(clock.fast, true);
});
