import assert from "node:assert/strict";
import { test } from "node:test";
import {
  decodeBatch,
  dropEvents,
  eventCandidates,
  ProtocolError,
} from "../../static/js/stream/decode.js";

test("a batch decodes into events: moves with their candidates, backtracks", () => {
  const chunk = decodeBatch([0, 0, 7, 2, 7, 11, -8, 11, 2, 7, 11], { squares: 25 });
  assert.equal(chunk.count, 4);
  assert.equal(chunk.moves, 3);
  assert.deepEqual(Array.from(chunk.starts), [0, 2, 6, 7, 11]);
  assert.deepEqual(eventCandidates(chunk.data, chunk.starts[1], false), {
    squares: [7, 11],
    counts: null,
  });
  assert.deepEqual(eventCandidates(chunk.data, chunk.starts[2], false), {
    squares: [],
    counts: null,
  });
});

test("a run with counts carries each candidate's onward count after the candidates", () => {
  const chunk = decodeBatch([0, 0, 7, 2, 7, 11, 3, 4], { squares: 25, counts: true });
  assert.equal(chunk.count, 2);
  assert.deepEqual(eventCandidates(chunk.data, chunk.starts[1], true), {
    squares: [7, 11],
    counts: [3, 4],
  });
});

test("malformed batches are refused", () => {
  const refused = [
    [[25, 0], "move square 25 off the board"],
    [[-26], "backtrack square 25 off the board"],
    [[3, 9], "bad candidate count 9"],
    [[3, 2, 1], "truncated move event"],
  ];
  for (const [events, message] of refused) {
    assert.throws(
      () => decodeBatch(events, { squares: 25 }),
      (err) => {
        assert.ok(err instanceof ProtocolError);
        assert.equal(err.message, message);
        return true;
      },
    );
  }
});

test("dropEvents skips the events a page already holds", () => {
  const chunk = decodeBatch([0, 0, 7, 2, 7, 11, -8, 11, 2, 7, 11], { squares: 25 });
  const rest = dropEvents(chunk, 2);
  assert.equal(rest.count, 2);
  assert.equal(rest.moves, 1);
  assert.deepEqual(Array.from(rest.data), [-8, 11, 2, 7, 11]);
  assert.deepEqual(Array.from(rest.starts), [0, 1, 5]);
  assert.equal(dropEvents(chunk, 0), chunk);
});
