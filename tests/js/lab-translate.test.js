import assert from "node:assert/strict";
import { test } from "node:test";
import { KNIGHT_JUMPS } from "../../static/js/core/squares.js";
import { BACK, LINE, Recording } from "../../static/js/lab/recording.js";
import { candidateRules, findRule, LabWalk } from "../../static/js/lab/translate.js";
import { searchEvents } from "./support/search.js";

// The reference search's own move order (tests/js/support/search.js), which is no rule of
// the app's: a program with its own order.
// biome-ignore format: one line reads as a table
const OWN = [[-2, 1], [-1, 2], [1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1]];
// biome-ignore format: one line reads as a table
const C_ORDER = [[-1, 2], [1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1]];
const ORDERINGS = { "a003-c": { moves: C_ORDER, sort: null } };

/** What the recorder would have written for the reference search's events, line 7 / 9. */
function recordingOf(events, rows, cols) {
  const recording = new Recording({ rows, cols, start: events[0][0] });
  recording.push(
    events.map(([head]) => (head >= 0 ? 7 * LINE + head : 9 * LINE + BACK + (-1 - head))),
  );
  return recording;
}

function translate(recording, rule) {
  const walk = new LabWalk(recording, rule);
  const out = [];
  for (const code of recording.codes()) walk.step(code, out);
  return out;
}

test("a program in the lesson's order gets the engine's candidates", async () => {
  const events = searchEvents(5, 5, 0, 20_000, { jumps: KNIGHT_JUMPS });
  const recording = recordingOf(events, 5, 5);
  const rule = await findRule(recording, candidateRules(KNIGHT_JUMPS, ORDERINGS));
  assert.deepEqual(rule.moves, KNIGHT_JUMPS);
  assert.equal(rule.sort, null);
  assert.deepEqual(translate(recording, rule), events.flat());
});

test("a Warnsdorff program gets its candidates sorted and their onward counts", async () => {
  const options = { jumps: KNIGHT_JUMPS, warnsdorff: true, counts: true };
  const events = searchEvents(6, 6, 14, 20_000, options);
  const recording = recordingOf(events, 6, 6);
  const rule = await findRule(recording, candidateRules(KNIGHT_JUMPS, ORDERINGS));
  assert.equal(rule.sort, "onward");
  assert.deepEqual(translate(recording, rule), events.flat());
});

test("an article's move order is found among the page's orderings", async () => {
  const events = searchEvents(5, 5, 10, 50_000, { jumps: C_ORDER });
  const recording = recordingOf(events, 5, 5);
  const rule = await findRule(recording, candidateRules(KNIGHT_JUMPS, ORDERINGS));
  assert.deepEqual(rule.moves, C_ORDER);
  assert.deepEqual(translate(recording, rule), events.flat());
});

test("a program of its own order gets the candidates it tried so far", async () => {
  const events = searchEvents(5, 5, 0, 3_000, { jumps: OWN });
  const recording = recordingOf(events, 5, 5);
  assert.equal(await findRule(recording, candidateRules(KNIGHT_JUMPS, ORDERINGS)), null);
  const ints = translate(recording, null);
  // the same moves and backtracks, each move naming its parent's tries up to itself
  const tried = new Map();
  const path = [];
  let i = 0;
  for (const [head] of events) {
    assert.equal(ints[i], head);
    if (head < 0) {
      tried.delete(path.pop());
      i += 1;
      continue;
    }
    const parent = path.at(-1);
    const list = parent === undefined ? [] : [...(tried.get(parent) ?? []), head];
    if (parent !== undefined) tried.set(parent, list);
    assert.deepEqual(ints.slice(i + 1, i + 2 + list.length), [list.length, ...list]);
    i += 2 + list.length;
    path.push(head);
  }
  assert.equal(i, ints.length);
});

test("the walk keeps the counters a snapshot needs", () => {
  const events = searchEvents(5, 5, 0, 1_000, { jumps: KNIGHT_JUMPS });
  const walk = new LabWalk(recordingOf(events, 5, 5), null);
  for (const code of recordingOf(events, 5, 5).codes()) walk.step(code);
  const moves = events.filter(([head]) => head >= 0).length;
  assert.equal(walk.nodes, moves);
  assert.equal(walk.backtracks, events.length - moves);
  assert.equal(walk.index, events.length);
});

test("a recording finds each event's int and line across its chunks", () => {
  const recording = new Recording({ rows: 5, cols: 5, start: 0 });
  recording.push([1 * LINE + 0, 2 * LINE + 7]);
  recording.push([3 * LINE + BACK + 7]);
  assert.equal(recording.length, 3);
  assert.deepEqual(
    [0, 1, 2].map((i) => recording.line(i)),
    [1, 2, 3],
  );
  assert.deepEqual([...recording.codes(1)], [2 * LINE + 7, 3 * LINE + BACK + 7]);
});
