import assert from "node:assert/strict";
import { test } from "node:test";
import { runReport } from "../../static/js/class/lab-check.js";
import { KNIGHT_JUMPS } from "../../static/js/core/squares.js";
import { BACK, LINE, Recording } from "../../static/js/lab/recording.js";
import { candidateRules, findRule, LabWalk } from "../../static/js/lab/translate.js";
import { finalPath } from "../../static/js/lab/verdict.js";
import { searchEvents } from "./support/search.js";

// The worker's chunks name an event's line by its index in the program's writing lines
// (static/py/lab_program.py): lines 7 and 9 are the program's first and second.
const LINES = [7, 9];

/** The reference search's events as the page's ints, and as the worker's compact ones. */
function bothWays(events, rows, cols, { wide = false } = {}) {
  const ints = events.map(([h]) => (h >= 0 ? 7 * LINE + h : 9 * LINE + BACK + (-1 - h)));
  const compact = events.map(([h]) => (h >= 0 ? h : LINE + BACK + (-1 - h)));
  const plain = new Recording({ rows, cols, start: events[0][0] });
  plain.push(ints);
  const packed = new Recording({ rows, cols, start: events[0][0] });
  const Kind = wide ? Int32Array : Uint16Array;
  for (let at = 0; at < compact.length; at += 1000) {
    packed.push(Kind.from(compact.slice(at, at + 1000)), LINES);
  }
  return { ints, plain, packed };
}

test("a compact recording keeps 16 bits an event and reads back the page's ints", () => {
  const events = searchEvents(6, 6, 0, 5_000, { jumps: KNIGHT_JUMPS });
  const { ints, packed } = bothWays(events, 6, 6);
  assert.ok(packed.chunks.every((chunk) => chunk instanceof Uint16Array));
  assert.equal(
    packed.chunks.reduce((n, chunk) => n + chunk.byteLength, 0),
    2 * ints.length,
  );
  assert.equal(packed.length, ints.length);
  assert.deepEqual([...packed.codes()], ints);
  assert.ok(ints.length > 2000);
  assert.deepEqual([...packed.codes(1234)], ints.slice(1234));
  for (const index of [0, 999, 1000, 1234, ints.length - 1]) {
    assert.equal(packed.code(index), ints[index]);
    assert.equal(packed.line(index), Math.floor(ints[index] / LINE));
  }
});

test("a wide recording (32 bits: more lines than 16 bits name) reads the same", () => {
  const events = searchEvents(5, 5, 0, 3_000, { jumps: KNIGHT_JUMPS });
  const { ints, packed } = bothWays(events, 5, 5, { wide: true });
  assert.ok(packed.chunks.every((chunk) => chunk instanceof Int32Array));
  assert.deepEqual([...packed.codes()], ints);
  assert.equal(packed.line(ints.length - 1), Math.floor(ints.at(-1) / LINE));
});

test("the lane, the class check and the verdict read a compact recording as its ints", async () => {
  const options = { jumps: KNIGHT_JUMPS, warnsdorff: true, counts: true };
  const events = searchEvents(6, 6, 14, 20_000, options);
  const { plain, packed } = bothWays(events, 6, 6);
  const rules = candidateRules(KNIGHT_JUMPS, {});
  const rule = await findRule(packed, rules);
  assert.deepEqual(rule, await findRule(plain, rules));
  const lanes = [plain, packed].map((recording) => {
    const walk = new LabWalk(recording, rule);
    const out = [];
    for (const code of recording.codes()) walk.step(code, out);
    return out;
  });
  assert.deepEqual(lanes[1], lanes[0]);
  assert.deepEqual(lanes[1], events.flat());
  for (const recording of [plain, packed]) recording.result = { status: "found" };
  assert.deepEqual(runReport(1, packed), runReport(1, plain));
  assert.deepEqual(finalPath(packed), finalPath(plain));
});
