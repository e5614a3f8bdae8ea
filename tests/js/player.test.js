import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeBatch } from "../../static/js/stream/decode.js";
import { Player } from "../../static/js/stream/player.js";
import { flat, replay, searchEvents } from "./support/search.js";

const ROWS = 6;
const COLS = 6;
const EVENTS = searchEvents(ROWS, COLS, 0, 3000);

/** A player fed `events` in batches of `size`. */
function feed(player, events, size) {
  for (let i = 0; i < events.length; i += size) {
    player.push(decodeBatch(flat(events.slice(i, i + size)), { squares: ROWS * COLS }));
  }
}

function shows(player) {
  return {
    path: Array.from(player.path.subarray(0, player.depth)),
    heat: Array.from(player.entered),
    nodes: player.moves,
    backtracks: player.backtracks,
    maxDepth: player.maxDepth,
  };
}

test("the reference search backtracks (the tests below cross backtracks)", () => {
  assert.ok(EVENTS.filter((event) => event[0] < 0).length > 500);
});

test("stepping forwards and back across batches shows every event exactly", () => {
  const player = new Player({ rows: ROWS, cols: COLS, path: [] });
  feed(player, EVENTS, 97); // batch edges fall anywhere
  assert.equal(player.received, EVENTS.length);
  for (let n = 1; n <= 400; n++) {
    assert.equal(player.advance(1), 1);
    if (n % 37 === 0) assert.deepEqual(shows(player), replay(EVENTS, n, 36), `after ${n}`);
  }
  for (let n = 399; n >= 0; n--) {
    assert.equal(player.back(1), 1);
    if (n % 41 === 0) assert.deepEqual(shows(player), replay(EVENTS, n, 36), `back to ${n}`);
  }
  assert.equal(player.back(1), 0); // nothing before the first event
  assert.equal(player.seek(2500), 2500);
  assert.deepEqual(shows(player), replay(EVENTS, 2500, 36));
  assert.equal(player.seek(1234), -1266);
  assert.deepEqual(shows(player), replay(EVENTS, 1234, 36));
});

test("consuming new events calls back once per event, and once per fresh batch of credit", () => {
  const player = new Player({ rows: ROWS, cols: COLS, path: [] });
  feed(player, EVENTS.slice(0, 100), 30);
  const depths = [];
  const fresh = [];
  player.onNewEvent = (depth) => depths.push(depth);
  player.onFrontier = (n) => fresh.push(n);
  player.advance(60);
  player.back(20);
  player.advance(50); // 40..59 seen before, 60..89 new
  assert.equal(depths.length, 90);
  assert.deepEqual(fresh, [60, 30]);
  assert.equal(depths[89], replay(EVENTS, 90, 36).path.length);
});

test("a player from a snapshot stands after `at` events, steps on and back no further than `at`", () => {
  const at = 1000;
  const state = replay(EVENTS, at, 36);
  const held = EVENTS.slice(at, at + 200);
  const snapshot = {
    at,
    path: state.path,
    heat: state.heat,
    nodes: state.nodes,
    backtracks: state.backtracks,
    max_depth: state.maxDepth,
    events: flat(held),
    count: held.length,
  };
  const player = Player.fromSnapshot(snapshot, { rows: ROWS, cols: COLS });
  assert.equal(player.pos, at);
  assert.equal(player.historyStart, at);
  assert.deepEqual(shows(player), state);
  player.seek(1150);
  assert.deepEqual(shows(player), replay(EVENTS, 1150, 36));
  player.seek(0);
  assert.equal(player.pos, at);
  assert.deepEqual(shows(player), state);
});

test("a snapshot whose parts do not match is refused", () => {
  const bad = { at: 0, path: [0], heat: [1], nodes: 1, backtracks: 0, max_depth: 1 };
  assert.throws(
    () => Player.fromSnapshot({ ...bad, events: [], count: 0 }, { rows: ROWS, cols: COLS }),
    /heat map has the wrong size/,
  );
  const heat = new Array(36).fill(0);
  assert.throws(
    () => Player.fromSnapshot({ ...bad, heat, events: [7, 0], count: 2 }, { rows: 6, cols: 6 }),
    /count does not match/,
  );
});

test("a feed by index skips what is held and leaves a hole alone", () => {
  const player = new Player({ rows: ROWS, cols: COLS, path: [] });
  const chunk = (from, to) => decodeBatch(flat(EVENTS.slice(from, to)), { squares: 36 });
  assert.equal(player.append(0, chunk(0, 100)), 100);
  assert.equal(player.append(50, chunk(50, 160)), 60); // overlaps: 50 already held
  assert.equal(player.append(100, chunk(100, 150)), 0);
  assert.equal(player.append(200, chunk(200, 250)), -1); // 160..200 never came
  assert.equal(player.received, 160);
  player.seek(160);
  assert.deepEqual(shows(player), replay(EVENTS, 160, 36));
});

test("history beyond its cap is dropped, oldest batches first", () => {
  const player = new Player({ rows: ROWS, cols: COLS, path: [], historyInts: 2000 });
  feed(player, EVENTS, 100);
  player.advance(EVENTS.length);
  assert.ok(player.historyStart > 0);
  assert.equal(player.canStepBack, true);
  player.seek(0);
  assert.equal(player.pos, player.historyStart);
  assert.deepEqual(shows(player), replay(EVENTS, player.historyStart, 36));
});

test("a move onto a square on the path, or a backtrack off another, is a protocol error", () => {
  const twice = new Player({ rows: ROWS, cols: COLS, path: [0] });
  twice.push(decodeBatch([0, 0], { squares: 36 }));
  assert.throws(() => twice.advance(1), /entered twice/);
  const wrong = new Player({ rows: ROWS, cols: COLS, path: [0] });
  wrong.push(decodeBatch([-2], { squares: 36 }));
  assert.throws(() => wrong.advance(1), /not the knight's square/);
});

test("only the Python article's last move may land on the start: it keeps its number 1", () => {
  // 5x5 from square 5: the article's search as written, to where its last move lands on the
  // start (the reference search with its offsets and isCorrect's N*N + 1)
  // biome-ignore format: a table
  const offsets = [[-1, -2], [1, -2], [-1, 2], [1, 2], [-2, -1], [-2, 1], [2, -1], [2, 1]];
  const events = searchEvents(5, 5, 5, 10_000, { jumps: offsets, landsOnStart: true });
  const player = new Player({ rows: 5, cols: 5, path: [] });
  player.push(decodeBatch(flat(events), { squares: 25 }));
  player.advance(events.length);
  assert.equal(player.depth, 25);
  assert.equal(player.path[24], 5);
  assert.equal(player.path[0], 5);
  assert.equal(player.order[5], 1);
  player.back(1);
  assert.equal(player.order[5], 1); // the start is still the path's first square
  assert.equal(player.depth, 24);
  player.advance(1);
  assert.equal(player.depth, 25);
  // earlier, the start is a square on the path like any other
  const early = new Player({ rows: 5, cols: 5, path: [5] });
  early.push(decodeBatch([16, 0, 5, 0], { squares: 25 }));
  assert.throws(() => early.advance(2), /entered twice/);
});

test("eventAt reads any held event, behind or ahead of the cursor, as the encoding says", () => {
  const events = searchEvents(ROWS, COLS, 0, 1500, { counts: true });
  const player = new Player({ rows: ROWS, cols: COLS, path: [], counts: true, historyInts: 900 });
  for (let i = 0; i < events.length; i += 64) {
    player.push(decodeBatch(flat(events.slice(i, i + 64)), { squares: 36, counts: true }));
  }
  const expected = (i) => {
    const [head, k, ...rest] = events[i];
    if (head < 0) return { square: -1 - head, back: true, candidates: [], onward: null };
    return { square: head, back: false, candidates: rest.slice(0, k), onward: rest.slice(k) };
  };
  for (let i = 0; i < events.length; i++) assert.deepEqual(player.eventAt(i), expected(i), `${i}`);
  assert.equal(player.eventAt(events.length), null); // not received yet
  assert.equal(player.eventAt(-1), null);
  assert.equal(player.pos, 0, "reading moves nothing");
  player.seek(1200); // the oldest batches go: their events are no longer held
  const first = player.historyStart;
  assert.ok(first > 0 && first < 1200);
  assert.equal(player.eventAt(first - 1), null);
  for (let i = first; i < events.length; i++) assert.deepEqual(player.eventAt(i), expected(i));
  // a run without counts: the candidates only
  const plain = new Player({ rows: ROWS, cols: COLS, path: [] });
  feed(plain, EVENTS.slice(0, 200), 50);
  const move = EVENTS.findIndex((event, i) => i > 0 && event[0] >= 0);
  assert.deepEqual(plain.eventAt(move), {
    square: EVENTS[move][0],
    back: false,
    candidates: EVENTS[move].slice(2),
    onward: null,
  });
});
