import assert from "node:assert/strict";
import { test } from "node:test";
import { CANDIDATE, createStack, followPlayer, frameView } from "../../static/js/stack/state.js";
import { decodeBatch } from "../../static/js/stream/decode.js";
import { Player } from "../../static/js/stream/player.js";
import { flat, searchEvents } from "./support/search.js";

// The seeds' findWay, in its own order: moves 5, 6, 7, 0, 1, 2, 3, 4 as (x = col, y = row)
// offsets, written here as [dRow, dCol] pairs.
// biome-ignore format: one line reads as a table
const FIND_WAY = [[-1, -2], [-2, -1], [-2, 1], [-1, 2], [1, 2], [2, 1], [2, -1], [1, -2]];

/**
 * The stack after the first `n` of `events`, rebuilt from what the events carry (each move
 * lists its parent's candidates in order, with counts): [{square, candidates: [[sq, state,
 * count]]}], innermost last. The innermost frame's candidates are those the next event
 * carries when it moves on from it; none when it backtracks at once.
 */
function rebuild(events, n, counts) {
  const frames = [];
  const carried = (event) => {
    const k = event[1];
    const squares = event.slice(2, 2 + k);
    const onward = counts ? event.slice(2 + k, 2 + 2 * k) : squares.map(() => null);
    return { squares, onward };
  };
  for (const event of events.slice(0, n)) {
    const top = frames.at(-1);
    if (event[0] >= 0) {
      if (top) {
        top.list = carried(event);
        top.trying = top.list.squares.indexOf(event[0]);
      }
      frames.push({ square: event[0], list: null, trying: -1, failed: -1 });
    } else {
      frames.pop();
      const parent = frames.at(-1);
      parent.failed = parent.list.squares.indexOf(-1 - event[0]);
      parent.trying = -1;
    }
  }
  const head = frames.at(-1);
  if (head && !head.list) {
    const next = events[n];
    head.list = next && next[0] >= 0 ? carried(next) : { squares: [], onward: [] };
  }
  return frames.map((frame) => ({
    square: frame.square,
    candidates: frame.list.squares.map((sq, i) => {
      let state = CANDIDATE.waiting;
      if (i === frame.trying) state = CANDIDATE.trying;
      else if (i < frame.trying || i <= frame.failed) state = CANDIDATE.failed;
      return [sq, state, frame.list.onward[i]];
    }),
  }));
}

function shown(stack) {
  const frames = [];
  for (let d = 0; d < stack.depth; d++) {
    const view = frameView(stack, d);
    frames.push({
      square: view.square,
      candidates: view.candidates.map((c) => [c.square, c.state, c.count]),
    });
  }
  return frames;
}

function playerOf(rows, cols, events, { size, counts }) {
  const player = new Player({ rows, cols, path: [], counts });
  for (let i = 0; i < events.length; i += size) {
    const batch = flat(events.slice(i, i + size));
    player.push(decodeBatch(batch, { counts, squares: rows * cols }));
  }
  return player;
}

for (const [algorithm, rows, cols, start] of [
  ["seed", 6, 6, 0],
  ["seed", 5, 5, 12],
  ["warnsdorff", 8, 8, 0],
  ["warnsdorff", 5, 5, 1], // no tour from b5 (a light square): it backtracks everywhere
]) {
  const warnsdorff = algorithm === "warnsdorff";
  const counts = warnsdorff;
  const events = searchEvents(rows, cols, start, 1500, { counts, jumps: FIND_WAY, warnsdorff });

  test(`${algorithm} ${rows}x${cols}: the stack follows every event, forwards and back across batches`, () => {
    const player = playerOf(rows, cols, events, { size: 53, counts });
    const stack = createStack({ rows, cols, algorithm });
    const expected = (n) => rebuild(events, n, counts);
    const far = Math.min(700, events.length);
    for (let n = 1; n <= far; n++) {
      player.advance(1);
      followPlayer(stack, player);
      if (n % 7 === 0 || n < 40 || n === far) {
        assert.deepEqual(shown(stack), expected(n), `after ${n}`);
      }
    }
    for (let n = far - 1; n >= far / 3; n--) {
      player.back(1);
      followPlayer(stack, player);
      if (n % 5 === 0) assert.deepEqual(shown(stack), expected(n), `back at ${n}`);
    }
    const end = events.length - 1; // the rebuild reads the innermost candidates from the next event
    player.seek(end); // a long jump, then back a little
    followPlayer(stack, player);
    assert.deepEqual(shown(stack), expected(end));
    player.back(3);
    followPlayer(stack, player);
    assert.deepEqual(shown(stack), expected(end - 3));
  });
}

test("both searches the tests above follow backtrack a lot", () => {
  const plain = searchEvents(6, 6, 0, 700, { jumps: FIND_WAY });
  assert.ok(plain.filter((event) => event[0] < 0).length > 100);
  const greedy = searchEvents(5, 5, 1, 700, { jumps: FIND_WAY, warnsdorff: true, counts: true });
  assert.ok(greedy.filter((event) => event[0] < 0).length > 100);
});

test("a pop shows the frame returned from; a move clears it", () => {
  const events = searchEvents(5, 5, 0, 400, { jumps: FIND_WAY });
  const at = events.findIndex((event) => event[0] < 0);
  const player = playerOf(5, 5, events, { size: 1000, counts: false });
  const stack = createStack({ rows: 5, cols: 5, algorithm: "seed" });
  player.advance(at + 1);
  followPlayer(stack, player);
  assert.equal(stack.after, -1 - events[at][0]);
  assert.equal(stack.depth, at - 1); // `at` moves, then the first backtrack
  const head = frameView(stack, stack.depth - 1);
  const back = head.candidates.find((c) => c.square === stack.after);
  assert.equal(back.state, CANDIDATE.failed);
  player.back(1);
  followPlayer(stack, player);
  assert.equal(stack.after, -1);
  assert.equal(frameView(stack, stack.depth - 1).square, events[at - 1][0]);
});

test("a game's squares are frames without candidates; the construction's frames are bare", () => {
  const stack = createStack({ rows: 5, cols: 5, algorithm: "seed", given: 2 });
  followPlayer(stack, { path: [0, 7, 14], depth: 3, lastEvent: () => null });
  assert.equal(frameView(stack, 0).given, true);
  assert.equal(frameView(stack, 1).given, true);
  assert.equal(frameView(stack, 2).given, false);
  assert.ok(frameView(stack, 2).candidates.length > 0);
  const built = createStack({ rows: 5, cols: 5, algorithm: "construct" });
  followPlayer(built, { path: [0, 7], depth: 2, lastEvent: () => null });
  assert.deepEqual(frameView(built, 1).candidates, []);
});

// The articles' programs (server/engine/article_orders.py), as <body data-limits> serves
// them: the Java articles' move order with their static-degree sort, the Python article's
// offsets with no working sort and its last move onto the start, the C article's switch.
// biome-ignore format: tables
const ARTICLES = {
  "a000-java": { moves: FIND_WAY, sort: "static", lands_on_start: false },
  "a001-python": {
    moves: [[-1, -2], [1, -2], [-1, 2], [1, 2], [-2, -1], [-2, 1], [2, -1], [2, 1]],
    sort: null,
    lands_on_start: true,
  },
  "a003-c": {
    moves: [[-1, 2], [1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1]],
    sort: null,
    lands_on_start: false,
  },
};

for (const [algorithm, rows, cols, start, limit] of [
  ["a000-java", 8, 8, 16, 800],
  ["a003-c", 5, 5, 10, 1500],
  ["a001-python", 5, 5, 5, 1474], // its last move lands on the start at event 1,474
]) {
  const rule = ARTICLES[algorithm];
  const counts = rule.sort !== null;
  const events = searchEvents(rows, cols, start, limit, {
    counts,
    jumps: rule.moves,
    staticDegree: rule.sort === "static",
    landsOnStart: rule.lands_on_start,
  });

  test(`${algorithm} ${rows}x${cols}: the stack orders candidates by the article's rule`, () => {
    const player = playerOf(rows, cols, events, { size: 97, counts });
    const stack = createStack({ rows, cols, algorithm, orderings: ARTICLES });
    for (let n = 1; n < events.length; n++) {
      player.advance(1);
      followPlayer(stack, player);
      if (n % 11 === 0 || n < 30 || n === events.length - 1) {
        assert.deepEqual(shown(stack), rebuild(events, n, counts), `after ${n}`);
      }
    }
  });
}

test("the Python article's last frame offers the start, where the search ends", () => {
  const rule = ARTICLES["a001-python"];
  const events = searchEvents(5, 5, 5, 10_000, { jumps: rule.moves, landsOnStart: true });
  const last = events.at(-1);
  assert.equal(last[0], 5); // it moved onto its own start ...
  assert.equal(events.filter((e) => e[0] >= 0).length, 749); // ... at the engine's node 749
  assert.ok(last.slice(2, 2 + last[1]).includes(5));
});

test("the panel names how the program keeps its path: calls, a stack array, tags", () => {
  const table = {
    "a003-c": { ...ARTICLES["a003-c"], path_kept: "calls" },
    "a003-c-stack": { ...ARTICLES["a003-c"], path_kept: "array" },
    "a003-c-loop": { ...ARTICLES["a003-c"], path_kept: "tags" },
  };
  const kept = (algorithm) => createStack({ rows: 5, cols: 5, algorithm, orderings: table }).kept;
  assert.deepEqual(["seed", "a003-c", "a003-c-stack", "a003-c-loop"].map(kept), [
    "calls",
    "calls",
    "array",
    "tags",
  ]);
});
