import assert from "node:assert/strict";
import { test } from "node:test";
import { WatchConnection } from "../../static/js/stream/connection.js";
import { RunFeed } from "../../static/js/stream/feed.js";
import { FakeSocket, fakeIo, settle } from "./support/fake-socket.js";
import { flat, replay, searchEvents } from "./support/search.js";

const EVENTS = searchEvents(6, 6, 0, 5000);
const PARAMS = {
  rows: 6,
  cols: 6,
  start: [0, 0],
  algorithm: "seed",
  closed: false,
  pruning: false,
};
const ACK = { ok: true, rows: 6, cols: 6, start: 0, prefix: [], counts: false };

function batch(run, seq, from, to) {
  return { run, seq, events: flat(EVENTS.slice(from, to)), nodes: 0, backtracks: 0 };
}

/**
 * A connected fake socket, a connection on it, and a feed whose outcome is recorded
 * (`handlers`: the feed's other callbacks).
 */
function setUp(handlers = {}) {
  const socket = new FakeSocket();
  socket.connect();
  const connection = new WatchConnection({ io: fakeIo(socket) });
  const outcome = { done: null, error: null };
  const feed = new RunFeed({
    onDone: (msg) => {
      outcome.done = msg;
    },
    onError: (err) => {
      outcome.error = err;
    },
    ...handlers,
  });
  return { socket, connection, feed, outcome };
}

/** Start a run with a window of 1000 and acknowledge it (`ack`: the answer's changes). */
async function startRun({ socket, connection, feed }, ack = {}) {
  const starting = feed.start(connection, PARAMS, { window: 1000 });
  await settle();
  const ask = socket.asked.at(-1);
  const run = ask.payload.run;
  ask.answer({ ...ACK, run, ...ack });
  return { run, player: await starting };
}

test("a run starts with its window; batches before the acknowledgement are kept", async () => {
  const { socket, connection, feed } = setUp();
  const starting = feed.start(connection, PARAMS, { window: 4000 });
  await settle();
  const [ask] = socket.asked;
  assert.equal(ask.event, "start");
  assert.deepEqual({ ...ask.payload, run: undefined }, { ...PARAMS, run: undefined, window: 4000 });
  const run = ask.payload.run;
  socket.send("batch", batch(run, 0, 0, 1000)); // racing the acknowledgement
  ask.answer({ ...ACK, run });
  const player = await starting;
  assert.equal(player.received, 1000);
  socket.send("batch", batch(run, 1, 1000, 2000));
  assert.equal(player.received, 2000);
  player.advance(1500);
  const shown = replay(EVENTS, 1500, 36);
  assert.deepEqual(Array.from(player.path.subarray(0, player.depth)), shown.path);
});

test("credit is granted for the events consumed, never more than the window ahead", async () => {
  const page = setUp();
  const { socket, feed } = page;
  const { run, player } = await startRun(page);
  socket.send("batch", batch(run, 0, 0, 1000));
  assert.equal(socket.credit(run), 1000);
  player.advance(100); // less than a quarter of the window: no message yet
  assert.equal(socket.credit(run), 1000);
  player.advance(200);
  assert.equal(socket.credit(run), 1300);
  player.back(300);
  player.advance(300); // the same events again: no new credit
  assert.equal(socket.credit(run), 1300);
  feed.setWindow(4000);
  assert.equal(socket.credit(run) - player.frontier, 4000);
});

test("the run's end reaches the page after its last batch; later messages are ignored", async () => {
  const { socket, connection, feed, outcome } = setUp();
  const starting = feed.start(connection, PARAMS, { window: 1000 });
  await settle();
  const run = socket.asked[0].payload.run;
  socket.send("batch", batch(run, 0, 0, 50));
  socket.send("done", { run, status: "found", tour: null, nodes: 30, backtracks: 20 });
  socket.asked[0].answer({ ...ACK, run });
  const player = await starting;
  assert.equal(outcome.done.status, "found");
  assert.equal(player.done.status, "found");
  assert.equal(player.finished, false); // 50 events still to show
  player.advance(50);
  assert.equal(player.finished, true);
  socket.send("batch", batch(run, 1, 50, 60));
  assert.equal(player.received, 50);
});

test("a refused start rejects; a broken batch ends the run with an error", async () => {
  const { socket, connection, feed, outcome } = setUp();
  const refused = feed.start(connection, PARAMS, { window: 1000 });
  await settle();
  const code = "bad-board";
  socket.asked[0].answer({ ok: false, error: { code, message: "No tour on 3×3." } });
  await assert.rejects(refused, (err) => err.code === code && err.message === "No tour on 3×3.");

  const { run } = await startRun({ socket, connection, feed });
  socket.send("batch", { run, seq: 0, events: [99, 0] }); // off the 6x6 board
  assert.match(outcome.error.message, /off the board/);
  assert.ok(socket.emitted.some(([event, msg]) => event === "stop" && msg.run === run));
});

test("stopped while the server acknowledges: the run is stopped and nothing is shown", async () => {
  const { socket, connection, feed } = setUp();
  const starting = feed.start(connection, PARAMS, { window: 1000 });
  await settle();
  const run = socket.asked[0].payload.run;
  feed.stop();
  socket.asked[0].answer({ ...ACK, run });
  assert.equal(await starting, null);
  assert.ok(socket.emitted.some(([event, msg]) => event === "stop" && msg.run === run));
});

test("a disconnect ends every run with an error", async () => {
  const page = setUp();
  const { socket, outcome } = page;
  await startRun(page);
  socket.send("disconnect", "transport close");
  assert.equal(outcome.error.code, "disconnected");
});

/** A snapshot at `index` as the server sends it: the state after `at`, then the events on. */
function snapshotAt(run, index, tail = 100) {
  const at = Math.max(0, index - tail);
  const state = replay(EVENTS, at, 36);
  return {
    run,
    index,
    at,
    path: state.path,
    nodes: state.nodes,
    backtracks: state.backtracks,
    max_depth: state.maxDepth,
    heat: state.heat,
    chart: { span: 1, length: 0, fill: 0, events: 0, min: [], max: [] },
    events: flat(EVENTS.slice(at, index)),
    count: index - at,
    end: null,
  };
}

test("a seek: progress, then the snapshot's player stands at the index; credit starts again", async () => {
  const seen = { progress: [], landed: [] };
  const page = setUp({
    onProgress: (msg) => seen.progress.push(msg),
    onSnapshot: (player, snapshot) => seen.landed.push([player, snapshot]),
  });
  const { socket, feed } = page;
  const { run, player: first } = await startRun(page);
  socket.send("batch", batch(run, 0, 0, 1000));
  assert.equal(feed.seekable, true);

  const seeking = feed.seek(4000);
  await settle();
  const ask = socket.asked[1];
  assert.equal(ask.event, "seek");
  assert.deepEqual(ask.payload, { run, index: 4000, window: 1000 });
  ask.answer({ ok: true, run });
  await seeking;
  assert.equal(feed.seeking, 4000);
  socket.send("progress", { run, target: 4000, index: 2500, nodes: 1300, backtracks: 1200 });
  socket.send("batch", batch(run, 1, 1000, 1500)); // sent before the seek was taken
  assert.deepEqual(
    seen.progress.map((msg) => msg.index),
    [2500],
  );

  socket.send("snapshot", snapshotAt(run, 4000));
  const [[player, snapshot]] = seen.landed;
  assert.equal(feed.player, player);
  assert.notEqual(player, first);
  assert.equal(feed.seeking, null);
  assert.equal(player.pos, snapshot.at);
  assert.equal(player.received, 4000);
  player.seek(4000);
  const truth = replay(EVENTS, 4000, 36);
  assert.deepEqual(Array.from(player.path.subarray(0, player.depth)), truth.path);
  assert.deepEqual(Array.from(player.entered), truth.heat);
  assert.equal(player.moves, truth.nodes);
  assert.equal(player.backtracks, truth.backtracks);
  assert.equal(player.canStepBack, true);
  // the stream goes on after the index, into the new player, under a fresh window
  socket.send("batch", batch(run, 2, 4000, 4600));
  assert.equal(player.received, 4600);
  const before = socket.emitted.filter(([event]) => event === "credit").length;
  player.advance(600);
  const topUps = socket.emitted.filter(([event]) => event === "credit").slice(before);
  assert.deepEqual(
    topUps.map(([, msg]) => msg.events),
    [600],
  );
});

test("a refused seek rejects and leaves the player as it was", async () => {
  const page = setUp();
  const { socket, feed } = page;
  const { player } = await startRun(page);
  const seeking = feed.seek(-1);
  await settle();
  socket.asked[1].answer({ ok: false, error: { code: "bad-request", message: "No." } });
  await assert.rejects(seeking, (err) => err.code === "bad-request");
  assert.equal(feed.player, player);
  assert.equal(feed.seeking, null);
});

test("a run that continues a game cannot seek", async () => {
  const page = setUp();
  await startRun(page, { prefix: [0, 13] });
  assert.equal(page.feed.seekable, false);
});
