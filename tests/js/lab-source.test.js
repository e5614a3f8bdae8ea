import assert from "node:assert/strict";
import { test } from "node:test";
import { KNIGHT_JUMPS } from "../../static/js/core/squares.js";
import { BACK, LINE, Recording } from "../../static/js/lab/recording.js";
import { LabConnection } from "../../static/js/lab/source.js";
import { candidateRules, findRule } from "../../static/js/lab/translate.js";
import { RunFeed } from "../../static/js/stream/feed.js";
import { replay, searchEvents } from "./support/search.js";

/** A finished 6x6 lab run of the lesson's search (its first `limit` events). */
async function labRun(limit, status = "budget") {
  const events = searchEvents(6, 6, 0, limit, { jumps: KNIGHT_JUMPS });
  const recording = new Recording({ rows: 6, cols: 6, start: 0 });
  recording.push(events.map(([h]) => (h >= 0 ? 7 * LINE + h : 9 * LINE + BACK + (-1 - h))));
  recording.result = { status, ms: 10 };
  const rule = await findRule(recording, candidateRules(KNIGHT_JUMPS));
  const queue = [];
  const connection = new LabConnection({ recording, rule, schedule: (fn) => queue.push(fn) });
  const drain = () => {
    while (queue.length) queue.shift()();
  };
  return { events, connection, drain };
}

async function startFeed(connection, outcome = {}) {
  const feed = new RunFeed({
    onDone: (msg) => {
      outcome.done = msg;
    },
    onSnapshot: (player) => {
      outcome.landed = player;
    },
  });
  const player = await feed.start(connection, {}, { window: 1000 });
  return { feed, player };
}

test("a lab run plays its events under the player's credit, then ends", async () => {
  const { events, connection, drain } = await labRun(6_000);
  const outcome = {};
  const { player } = await startFeed(connection, outcome);
  drain();
  assert.equal(player.received, 1000); // the window, no more until the player plays them
  while (!player.finished) {
    player.advance(700);
    drain();
  }
  assert.equal(player.pos, events.length);
  const after = replay(events, events.length, 36);
  assert.deepEqual(Array.from(player.path.subarray(0, player.depth)), after.path);
  assert.equal(outcome.done.status, "budget");
  assert.equal(outcome.done.nodes, after.nodes);
});

test("a seek to the end lands on a snapshot that holds the last events", async () => {
  const { events, connection, drain } = await labRun(5_000);
  const outcome = {};
  const { feed } = await startFeed(connection, outcome);
  drain();
  await feed.seek(null);
  drain();
  const player = outcome.landed;
  assert.equal(player.received, events.length);
  const before = replay(events, events.length - 100, 36);
  assert.equal(player.origin, events.length - 100);
  assert.deepEqual(Array.from(player.entered), before.heat);
  player.seek(events.length);
  const after = replay(events, events.length, 36);
  assert.deepEqual(Array.from(player.path.subarray(0, player.depth)), after.path);
  player.back(100); // back to the snapshot's start, from what it holds
  assert.equal(player.pos, events.length - 100);
});
