import assert from "node:assert/strict";
import { test } from "node:test";
import { RoomFollower } from "../../static/js/class/follow.js";
import { DepthColumns } from "../../static/js/stream/columns.js";
import { settle } from "./support/fake-socket.js";
import { flat, replay, searchEvents } from "./support/search.js";

// A class room's demo played by the test: the room's states, snapshots and feed are made
// from the reference search, the clock is the test's, and what the follower shows is
// compared with a replay of the same events.
const SETTINGS = { rows: 6, cols: 6, start: [0, 1], algorithm: "seed", closed: false };
const GEN = 2;
const EVENTS = searchEvents(6, 6, 1, 25_000); // from b6: no tour for 62,048 events

function state(seq, index, { playing = false, speed = 10, gen = GEN, ...rest } = {}) {
  const end = rest.end ?? null;
  const controlSeq = rest.control_seq ?? seq;
  return {
    gen,
    settings: SETTINGS,
    index,
    playing,
    speed,
    frontier: 0,
    end,
    seq,
    ...rest,
    control_seq: controlSeq,
  };
}

function chartAfter(n) {
  const columns = new DepthColumns();
  columns.reset(36);
  let depth = 0;
  for (const event of EVENTS.slice(0, n)) {
    depth += event[0] >= 0 ? 1 : -1;
    columns.push(depth);
  }
  return columns;
}

/** The room's snapshot at `index`: 100 events to step back through, `ahead` after it. */
function snapshot(index, { ahead = 0, gen = GEN } = {}) {
  const at = Math.max(0, index - 100);
  const held = EVENTS.slice(at, index + ahead);
  const shown = replay(EVENTS, at, 36);
  const c = chartAfter(at);
  const chart = {
    span: c.span,
    length: c.length,
    fill: c.fill,
    events: c.events,
    min: Array.from(c.min.subarray(0, c.columns)),
    max: Array.from(c.max.subarray(0, c.columns)),
  };
  return {
    gen,
    settings: SETTINGS,
    keyframe: false,
    index,
    at,
    path: shown.path,
    nodes: shown.nodes,
    backtracks: shown.backtracks,
    max_depth: shown.maxDepth,
    heat: shown.heat,
    chart,
    events: flat(held),
    count: held.length,
  };
}

function feed(from, to, gen = GEN) {
  return { gen, at: from, events: flat(EVENTS.slice(from, to)) };
}

/** A follower on the test's clock whose syncs wait for the test to answer them. */
function follower() {
  const room = { clock: 0, syncs: [] };
  room.follower = new RoomFollower({
    now: () => room.clock,
    sync: (payload) => new Promise((resolve) => room.syncs.push({ payload, resolve })),
  });
  room.follower.setConnected(true);
  return room;
}

function assertShows(f, index) {
  const p = f.player;
  const expected = replay(EVENTS, index, 36);
  assert.equal(p.pos, index);
  assert.deepEqual(Array.from(p.path.subarray(0, p.depth)), expected.path);
  assert.deepEqual(Array.from(p.entered), expected.heat);
  assert.deepEqual(
    [p.moves, p.backtracks, p.maxDepth],
    [expected.nodes, expected.backtracks, expected.maxDepth],
  );
}

test("a snapshot and the feed after it show every event exactly", () => {
  const { follower: f } = follower();
  f.adoptState(state(5, 1000));
  f.adoptSnapshot(snapshot(1000, { ahead: 200 })); // 900..1200
  f.tick();
  assertShows(f, 1000);
  assert.deepEqual([f.player.historyStart, f.player.received], [900, 1200]);
  f.addFeed(feed(1100, 1400)); // the first 100 are held already
  f.adoptState(state(6, 1350));
  f.tick();
  assertShows(f, 1350);
  assert.equal(f.player.received, 1400);
  const chart = chartAfter(1350); // the chart goes on from the snapshot's
  assert.deepEqual([f.columns.span, f.columns.events], [chart.span, chart.events]);
  assert.deepEqual(f.columns.max.subarray(0, chart.columns), chart.max.subarray(0, chart.columns));
  for (let i = 0; i < 3; i++) f.adoptState(state(7, 905)); // stepping back
  f.tick();
  assertShows(f, 905);
  assert.equal(f.adoptState(state(6, 2000)), false); // an older state never replaces a newer one
  assert.deepEqual(f.tally, { snapshots: 1, syncs: 0, holes: 0 });
});

test("a hole in the feed asks one sync, and its snapshot fills it", async () => {
  const room = follower();
  const f = room.follower;
  f.adoptState(state(3, 2000));
  f.adoptSnapshot(snapshot(2000, { ahead: 200 })); // 1900..2200
  f.addFeed(feed(2500, 2600)); // 2200..2500 never came
  for (let i = 0; i < 5; i++) {
    room.clock += 400;
    f.tick();
  }
  assert.deepEqual(
    room.syncs.map((s) => s.payload),
    [{ gen: GEN, index: 2000 }],
  ); // never a second one while one is on its way
  room.syncs[0].resolve({
    ok: true,
    state: state(3, 2000),
    snapshot: snapshot(2000, { ahead: 400 }),
  });
  await settle();
  f.addFeed(feed(2400, 2700));
  f.adoptState(state(4, 2650));
  f.tick();
  assertShows(f, 2650);
  assert.equal(f.player.historyStart, 1900); // the answer overlapped what was held: history stays
  assert.deepEqual(f.tally, { snapshots: 1, syncs: 1, holes: 1 });
});

test("the class's index moves on while it plays, and stops at the end", () => {
  const room = follower();
  const f = room.follower;
  f.adoptState(state(2, 1000, { playing: true, speed: 100 }));
  f.adoptSnapshot(snapshot(1000, { ahead: 200 }));
  const targets = [];
  for (const ms of [0, 500, 1000]) {
    room.clock = ms;
    targets.push(f.target());
  }
  f.adoptState(state(3, 1000, { playing: true, speed: null, frontier: 1500 })); // as far as computed
  targets.push(f.target());
  f.adoptState(
    state(4, 1000, { playing: true, speed: 100, end: { status: "found", total: 1150 } }),
  );
  room.clock = 5000;
  targets.push(f.target());
  assert.deepEqual(targets, [1000, 1050, 1100, 1500, 1150]);
  assert.equal(f.clock.playing, true);
});

test("a class playing on to an open question stops at it", () => {
  const room = follower();
  const f = room.follower;
  f.adoptState(state(2, 1000, { playing: true, speed: 100, hold: 1080 }));
  f.adoptSnapshot(snapshot(1000, { ahead: 80 }));
  const targets = [];
  for (const ms of [0, 500, 1000, 5000]) {
    room.clock = ms;
    targets.push(f.target());
  }
  f.adoptState(state(3, 1080, { hold: null })); // revealed: paused at the question
  targets.push(f.target());
  assert.deepEqual(targets, [1000, 1050, 1080, 1080, 1080]);
});

test("out of reach with nothing coming it syncs, but not while keyframes come", () => {
  const room = follower();
  const f = room.follower;
  f.adoptState(state(2, 1000));
  f.adoptSnapshot(snapshot(1000));
  f.adoptState(state(3, 20_000)); // the class jumped
  const seen = [];
  for (const [ms, keyframe] of [
    [100, 0],
    [400, 1],
    [800, 0],
    [900, 1],
    [1400, 0],
    [1600, 0],
  ]) {
    room.clock = ms;
    if (keyframe) f.adoptSnapshot(snapshot(15_000)); // the server computing towards it
    f.tick();
    seen.push(room.syncs.length);
  }
  assert.deepEqual(seen, [0, 0, 0, 0, 0, 1]); // 600 ms after the last keyframe, not before
  assert.deepEqual(room.syncs[0].payload, { gen: GEN, index: 20_000 });
  assert.equal(f.player.pos, 15_000);
});

test("the teacher's controls show at once, until the server answers", () => {
  const { follower: f } = follower();
  f.adoptState(state(6, 1250));
  f.adoptSnapshot(snapshot(1250, { ahead: 200 }));
  const targets = [];
  f.intend({ seq: 7, gen: GEN, index: 1210, playing: false, speed: 10 });
  targets.push(f.target());
  f.adoptState(state(7, 1250, { control_seq: 6 })); // newer, but older than control 7
  targets.push(f.target());
  f.settle(7, { ok: true, state: state(8, 1210, { control_seq: 7 }) });
  targets.push(f.target(), f.intent);
  f.intend({ seq: 8, gen: GEN, index: 1300, playing: false, speed: 10 });
  f.settle(8, {
    ok: false,
    error: { code: "superseded", state: state(10, 500, { control_seq: 9 }) },
  });
  targets.push(f.target(), f.intent);
  assert.deepEqual(targets, [1210, 1210, 1210, null, 500, null]);
});

test("a new demo drops the old one and keeps a snapshot that came before its state", () => {
  const { follower: f } = follower();
  f.adoptState(state(2, 1000));
  f.adoptSnapshot(snapshot(1000));
  f.adoptSnapshot(snapshot(0, { ahead: 200, gen: GEN + 1 }));
  assert.equal(f.player.received, 1000); // still the old demo's
  f.adoptState(state(1, 0, { gen: GEN + 1 }));
  f.tick();
  assert.deepEqual([f.player.received, f.player.pos, f.state.gen], [200, 0, GEN + 1]);
});

test("a state rendered with the page plays from when the server stated it, not when read", () => {
  const room = follower();
  const f = room.follower;
  room.clock = 1_500; // the page read it 1.5 s after the server answered
  f.adoptState(state(5, 1000, { playing: true, speed: 100 }), 0);
  f.adoptSnapshot(snapshot(1000, { ahead: 400 }));
  f.tick();
  assertShows(f, 1150); // 100 events a second for 1.5 s
  // the join's answer carries the same state: it changes nothing
  assert.equal(f.adoptState(state(5, 1000, { playing: true, speed: 100 })), false);
  assert.equal(f.target(), 1150);
  f.adoptSnapshot(snapshot(1000, { ahead: 400 })); // the same snapshot again: no new player
  assert.equal(f.tally.snapshots, 1);
});

test("a page standing on a keyframe takes the snapshot of that index that has the events before it", () => {
  // The page stands at 5,000 from a keyframe (no events: the last move cannot be marked);
  // the paused class's snapshot of 5,000 comes while the page's target is elsewhere (the
  // teacher's control on its way). It is no nearer, but it shows more: it is taken.
  const { follower: f } = follower();
  const index = 5000;
  const shown = replay(EVENTS, index, 36);
  f.adoptState(state(5, index));
  f.adoptSnapshot({
    ...snapshot(index),
    keyframe: true,
    at: index,
    count: 0,
    events: [],
    path: shown.path,
    nodes: shown.nodes,
    backtracks: shown.backtracks,
    max_depth: shown.maxDepth,
    heat: shown.heat,
  });
  assert.equal(f.player.lastEvent(), null);
  f.intend({ seq: 6, gen: GEN, index: index + 300, playing: false, speed: 10 });
  assert.equal(f.adoptSnapshot(snapshot(index)), true);
  f.settle(6, { ok: true, state: state(7, index, { control_seq: 6 }) });
  f.tick(0);
  assertShows(f, index);
  assert.equal(f.player.lastEvent().index, index - 1);
  assert.equal(f.player.historyStart, index - 100);
  // a keyframe-free player farther from the target still turns such a snapshot down
  const { follower: g } = follower();
  g.adoptState(state(5, 3000));
  g.adoptSnapshot(snapshot(3000, { ahead: 50 }));
  g.intend({ seq: 6, gen: GEN, index: 3040, playing: false, speed: 10 });
  assert.equal(g.adoptSnapshot(snapshot(2900)), false);
});

// A lesson's race (server/stream/race.py): two lanes played by one index. Here the second
// lane is the same search stopped by its budget at 300 events, so each lane's position is
// a replay of the reference search, at the class's index or at the lane's own end.
const RACE = { ...SETTINGS, race: "seed" };
const SHORT_END = { status: "budget", total: 300, nodes: 0, backtracks: 0, limit: "nodes" };

function raceState(seq, index) {
  return { ...state(seq, index), settings: RACE };
}

function raceSnapshot(index, { ahead = 0 } = {}) {
  const first = snapshot(index, { ahead });
  const second = snapshot(Math.min(index, 300), {
    ahead: Math.min(ahead, Math.max(0, 300 - index)),
  });
  const reach = first.at + first.count;
  return {
    gen: GEN,
    settings: RACE,
    keyframe: false,
    index,
    at: first.at,
    count: first.count,
    lanes: [first, second],
    ends: [null, reach >= 300 ? SHORT_END : null],
  };
}

function raceFeed(from, to) {
  return {
    gen: GEN,
    at: from,
    lanes: [feed(from, to).events, flat(EVENTS.slice(from, Math.min(to, 300)))],
    ends: [null, to >= 300 ? SHORT_END : null],
  };
}

function assertLaneShows(lane, index) {
  const expected = replay(EVENTS, index, 36);
  assert.equal(lane.player.pos, index);
  assert.deepEqual(Array.from(lane.player.path.subarray(0, lane.player.depth)), expected.path);
}

test("a race's lanes follow one index; a lane that ended stands on its end, with its end", () => {
  const room = follower();
  const f = room.follower;
  f.adoptState(raceState(2, 250));
  f.adoptSnapshot(raceSnapshot(250));
  f.tick();
  assert.equal(f.held.length, 2);
  assertLaneShows(f.held[0], 250);
  assertLaneShows(f.held[1], 250);
  assert.equal(f.held[1].end, null); // not told before the event that ends it
  f.addFeed(raceFeed(250, 400));
  f.adoptState(raceState(3, 380));
  f.tick();
  assertLaneShows(f.held[0], 380);
  assertLaneShows(f.held[1], 300);
  assert.deepEqual(f.held[1].player.done, SHORT_END);
  assert.equal(f.held[0].player.done, null);
  f.addFeed(raceFeed(400, 700)); // nothing more for the lane that ended: no hole
  f.adoptState(raceState(4, 650));
  for (let i = 0; i < 5; i++) {
    room.clock += 400;
    f.tick();
  }
  assertLaneShows(f.held[0], 650);
  assert.equal(f.reaches, true);
  assert.deepEqual(f.tally, { snapshots: 1, syncs: 0, holes: 0 });
  assert.equal(room.syncs.length, 0);
  f.adoptState(raceState(5, 160)); // back before the end: the lane that ended steps back too
  f.tick();
  assertLaneShows(f.held[0], 160);
  assertLaneShows(f.held[1], 160);
  assert.equal(f.held[1].player.finished, false);
});

test("a race's snapshot past a lane's end stands that lane on its end; a hole asks a sync", () => {
  const room = follower();
  const f = room.follower;
  f.adoptState(raceState(2, 5000));
  f.adoptSnapshot(raceSnapshot(5000, { ahead: 100 }));
  f.tick();
  assertLaneShows(f.held[0], 5000);
  assertLaneShows(f.held[1], 300);
  assert.deepEqual(f.held[1].player.done, SHORT_END);
  f.addFeed(raceFeed(5300, 5400)); // 5100..5300 never came
  for (let i = 0; i < 3; i++) {
    room.clock += 400;
    f.tick();
  }
  assert.equal(f.tally.holes, 1);
  assert.deepEqual(
    room.syncs.map((s) => s.payload),
    [{ gen: GEN, index: 5000 }],
  );
});
