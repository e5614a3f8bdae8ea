// What a lane shows of a player's position (lanes/position.js), without a browser: the
// board state's marks, the narration and the code panel's lines.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createState, MARK } from "../../static/js/board/state.js";
import { useCatalogue } from "../../static/js/core/i18n.js";
import { describePosition, markPosition } from "../../static/js/lanes/position.js";
import { decodeBatch } from "../../static/js/stream/decode.js";
import { Player } from "../../static/js/stream/player.js";

const SETTINGS = { rows: 5, cols: 5, start: 20, algorithm: "seed" };

/** A 5x5 player over: a1, then c2 of [c2, b3] with counts, then back to a1. */
function player() {
  const p = new Player({ rows: 5, cols: 5, path: [], counts: true });
  p.push(decodeBatch([20, 0, 17, 2, 17, 11, 1, 3, -18], { squares: 25, counts: true }));
  return p;
}

test("a move marks its candidates, counted; a step back marks the square backed out of", () => {
  useCatalogue("en", { "watch.ui.narr.back": "Dead end at {square}: back to {to}." });
  const p = player();
  const state = createState(5, 5);
  p.advance(2);
  const view = markPosition(state, p, { answer: 7 });
  assert.equal(view.move, 17);
  assert.deepEqual([...state.path.slice(0, state.depth)], [20, 17]);
  assert.equal(state.hint, 7);
  assert.equal(state.marks[11], MARK.candidate, "b3: the candidate not tried yet");
  assert.equal(state.notes[11], 3, "with its onward count from the run");
  assert.equal(describePosition(state, view, p, SETTINGS).tags, "mark recurse next sort");

  p.advance(1);
  const back = markPosition(state, p);
  assert.equal(back.back, 17);
  assert.equal(state.marks[17], MARK.dead);
  assert.deepEqual(describePosition(state, back, p, SETTINGS), {
    text: "Dead end at c2: back to a1.",
    tags: "reset check",
  });
});

test("a selected stack frame's candidates replace the last event's marks", () => {
  const p = player();
  const state = createState(5, 5);
  p.advance(3); // backed out of c2: the last event marks it dead
  const frame = {
    square: 20,
    candidates: [
      { square: 17, count: 1, state: "failed" },
      { square: 11, count: 3, state: "trying" },
    ],
  };
  markPosition(state, p, { frame });
  assert.equal(state.frame, 20);
  assert.equal(state.marks[17], MARK.tried, "the failed candidate, not a dead end");
  assert.equal(state.notes[17], 1);
  assert.equal(state.marks[11], MARK.candidate, "the one being tried");
  assert.equal(state.notes[11], 3);
});

test("at the end a found tour is told and lights the code's last line", () => {
  useCatalogue("en", { "watch.ui.narr.found": "Tour found after {nodes} nodes." });
  const p = player();
  p.advance(3);
  p.finish({ status: "found", nodes: 2, backtracks: 1, total: 3 });
  const state = createState(5, 5);
  const view = markPosition(state, p);
  assert.equal(state.status, "found");
  assert.equal(state.marked.length, 0, "no marks on a finished search");
  const { text, tags } = describePosition(state, view, p, SETTINGS);
  assert.equal(tags, "finish");
  assert.equal(text, "Tour found after 2 nodes.");
});
