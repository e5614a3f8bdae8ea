// The practice's question writer (practice/questions.js) on positions derived here by hand:
// the seeds' search on a 3x3 board from its corner, whose eight outer squares are one cycle
// (the centre has no knight move), so the search runs round it one way, backs out, runs
// round it the other way and gives up. tests/engine/test_practice_questions.py compares
// the writer with the engine's own on hundreds of positions of real searches.
import assert from "node:assert/strict";
import { test } from "node:test";
import { askAt, SearchPosition, writeQuestion } from "../../static/js/practice/questions.js";
import { decodeBatch } from "../../static/js/stream/decode.js";
import { Player } from "../../static/js/stream/player.js";

// Squares row * 3 + col, a3 = 0 top left. From 0 the board's move order reaches 5 (c2)
// before 7 (b1); round the cycle 0 5 6 1 8 3 2 7 each square has one way on.
const move = (sq, ...candidates) => [sq, candidates.length, ...candidates];
const back = (sq) => [-1 - sq];
// biome-ignore format: the search's events, one a line
const EVENTS = [
  move(0), move(5, 5, 7), move(6, 6), move(1, 1), move(8, 8), move(3, 3), move(2, 2), move(7, 7),
  back(7), back(2), back(3), back(8), back(1), back(6), back(5), // 8..14: out to the start
  move(7, 5, 7), move(2, 2), move(3, 3), move(8, 8), move(1, 1), move(6, 6), move(5, 5), // 15..21
  back(5), back(6), back(1), back(8), back(3), back(2), back(7), back(0), // 22..29: the end
];

/** A player holding the first `held` events (all: the run's end came too), standing at `at`. */
function standing(at, { held = EVENTS.length, holes = [] } = {}) {
  const player = new Player({ rows: 3, cols: 3, path: [] });
  player.push(decodeBatch(EVENTS.slice(0, held).flat(), { squares: 9 }));
  if (held === EVENTS.length) player.finish({ status: "exhausted" });
  player.seek(at);
  return SearchPosition.of(player, holes);
}

const ask = (kind, at, options = {}) => writeQuestion(kind, standing(at, options), options);

test("before the first move nothing is asked: the knight stands nowhere yet", () => {
  for (const kind of ["next", "onward", "pick", "backtrack", "frame"]) {
    assert.equal(ask(kind, 0), null, kind);
  }
});

test("at the start: where next, Warnsdorff's tie, the onward count, no step back", () => {
  assert.deepEqual(ask("next", 1), {
    kind: "next",
    answer: 5,
    values: 9,
    subject: {},
    why: { from: 0, candidates: [5, 7], onward: null, tried: 0 },
    path: [0],
    index: 1,
  });
  // c2 (5) and b1 (7) have one way on each: the tie goes to the first in the move order
  const pick = ask("pick", 1);
  assert.equal(pick.answer, 5);
  assert.deepEqual(pick.why, {
    from: 0,
    candidates: [5, 7],
    onward: [1, 1],
    fewest: 1,
    tied: [5, 7],
    pick: 5,
  });
  const onward = ask("onward", 1, { choose: (squares) => squares[1] });
  assert.deepEqual([onward.answer, onward.values, onward.subject], [1, 9, { square: 7 }]);
  assert.deepEqual(onward.why, { square: 7, onward: [2] });
  const backtrack = ask("backtrack", 1);
  assert.deepEqual([backtrack.answer, backtrack.values, backtrack.subject], [0, 2, { max: 1 }]);
  assert.deepEqual(backtrack.why, { steps: 0, left: [], to: 0, next: 5 });
  assert.equal(ask("frame", 1), null, "the knight is not stuck");
});

test("stuck on b1 after seven moves: seven steps back to the start, whose frame goes on", () => {
  assert.equal(ask("next", 8), null, "a backtrack is no where");
  assert.equal(ask("onward", 8), null, "b1 has no unvisited neighbour");
  assert.equal(ask("pick", 8), null);
  const backtrack = ask("backtrack", 8);
  assert.deepEqual([backtrack.answer, backtrack.values, backtrack.subject], [7, 9, { max: 8 }]);
  assert.deepEqual(backtrack.why, { steps: 7, left: [7, 2, 3, 8, 1, 6, 5], to: 0, next: 7 });
  const frame = ask("frame", 8);
  assert.deepEqual([frame.answer, frame.values, frame.path], [0, 9, [0, 5, 6, 1, 8, 3, 2, 7]]);
  assert.deepEqual(frame.why, { returned: [7, 2, 3, 8, 1, 6, 5], frame: 0, depth: 1, next: 7 });
  // two steps back already: five more
  const later = ask("backtrack", 10);
  assert.deepEqual(
    [later.answer, later.why.left, later.path],
    [5, [3, 8, 1, 6, 5], [0, 5, 6, 1, 8, 3]],
  );
  assert.equal(ask("onward", 10, { choose: (squares) => squares[0] }).answer, 1); // a3 → b1
});

test("an answer past the events held does not fit; the next move does", () => {
  assert.equal(ask("backtrack", 8, { held: 15 }), null, "the move after the steps back is not in");
  assert.equal(ask("frame", 8, { held: 15 }), null);
  assert.equal(ask("backtrack", 8, { held: 16 }).answer, 7);
  assert.equal(ask("next", 1, { held: 1 }), null);
  assert.equal(ask("next", 1, { held: 2 }).answer, 5);
  assert.equal(ask("pick", 1, { held: 1 }).answer, 5, "Warnsdorff's rule needs no event");
});

test("at the search's end: one step back and out, and no frame carries on", () => {
  const last = ask("backtrack", 29);
  assert.deepEqual([last.answer, last.values], [1, 2]);
  assert.deepEqual(last.why, { steps: 1, left: [0], to: null, next: null });
  assert.equal(ask("frame", 29), null);
  // the same events without the run's end: the search may go on, so it does not fit
  const open = new Player({ rows: 3, cols: 3, path: [] });
  open.push(decodeBatch(EVENTS.flat(), { squares: 9 }));
  open.seek(29);
  assert.equal(writeQuestion("backtrack", SearchPosition.of(open)), null);
  assert.equal(ask("backtrack", 30), null, "nothing stands on the board");
});

test("holes are no squares: onward and pick count without them", () => {
  const pos = standing(1, { holes: [7] });
  assert.equal(writeQuestion("pick", pos), null, "one way on from the corner");
  assert.deepEqual(writeQuestion("onward", pos, { random: () => 0.99 }).why, {
    square: 5,
    onward: [6],
  });
});

test("a position walks on event by event, as the player would", () => {
  const pos = standing(1);
  for (let i = 1; i < 10; i++) assert.ok(pos.advance());
  assert.deepEqual([pos.index, pos.path], [10, standing(10).path]);
  assert.equal(writeQuestion("backtrack", pos).answer, 5);
  const held = standing(14, { held: 15 });
  assert.ok(held.advance());
  assert.equal(held.advance(), false, "no event past the held ones");
  assert.equal(held.index, 15);
});

test("a question of a random kind that fits", () => {
  const kinds = (at, random) => askAt(standing(at), { random })?.kind;
  assert.equal(kinds(0, Math.random), undefined);
  // stuck: only the steps back and the frame fit, whatever the draw
  const seen = new Set();
  for (let i = 0; i < 20; i++) seen.add(kinds(8, () => (i % 5) / 5));
  assert.deepEqual([...seen].sort(), ["backtrack", "frame"]);
  assert.equal(askAt(standing(1), { kinds: ["frame", "pick"] }).kind, "pick");
});
