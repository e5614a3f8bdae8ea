import assert from "node:assert/strict";
import { test } from "node:test";
import { useCatalogue } from "../../static/js/core/i18n.js";
import { runMessage } from "../../static/js/lab/messages.js";
import { BACK, LINE, Recording } from "../../static/js/lab/recording.js";
import { countsText, finalPath, tourVerdict } from "../../static/js/lab/verdict.js";

useCatalogue("en", {
  "lab.error.range":
    "Line {line}: board[{row}][{col}] is off (rows 0–{maxRow}, columns 0–{maxCol}).",
  "lab.error.stopped": "Stopped.",
  "lab.error.budget": "Stopped after {steps} steps.",
  "lab.error.exception": "Error on line {line}: {message}",
  "lab.result": "{moves} moves, {backtracks} backtracks, {seconds} s.",
  "lab.verdict.open": "open tour of {squares}",
  "lab.verdict.closed": "closed tour of {squares}",
  "lab.verdict.none": "not a tour. {reason}",
  "lab.verdict.unchecked": "unchecked: {reason}",
});

const BOARD = { rows: 5, cols: 6 };

test("an error is worded with its line and the board's bounds", () => {
  const result = { status: "error", code: "range", line: 9, params: { row: -1, col: 2 } };
  assert.deepEqual(runMessage(result, BOARD), {
    kind: "error",
    text: "Line 9: board[-1][2] is off (rows 0–4, columns 0–5).",
    line: 9,
  });
  const python = { status: "error", code: "exception", line: 3, message: "NameError: x" };
  assert.equal(runMessage(python, BOARD).text, "Error on line 3: NameError: x");
});

test("a stop and the budget are no errors; a tour needs no words here", () => {
  assert.equal(runMessage({ status: "stopped" }, BOARD).kind, "stopped");
  const budget = runMessage({ status: "budget", total: 50_000_000 }, BOARD);
  assert.deepEqual([budget.kind, budget.text], ["stopped", "Stopped after 50,000,000 steps."]);
  assert.deepEqual(runMessage({ status: "found" }, BOARD), { kind: "done", text: "", line: 0 });
});

/** A recording of moves 0 -> 8 -> 4, a backtrack from 4, then 4 -> 15 instead. */
function recorded() {
  const recording = new Recording({ rows: 3, cols: 4, start: 0 });
  recording.push([LINE + 0, LINE + 6, LINE + 8, 2 * LINE + BACK + 8, LINE + 3]);
  recording.result = { status: "found", ms: 1500 };
  return recording;
}

test("the counters and the final path come from the recording", () => {
  assert.equal(countsText(recorded()), "4 moves, 1 backtracks, 1.50 s.");
  assert.deepEqual(finalPath(recorded()), [
    [0, 0],
    [1, 2],
    [0, 3],
  ]);
});

test("the server's verdict is said, and a failed request too", async () => {
  const open = await tourVerdict(recorded(), {
    check: async (body) => {
      assert.deepEqual(body.path, finalPath(recorded()));
      return { tour: true, closed: false };
    },
  });
  assert.deepEqual(open, { tour: "open", text: "open tour of 12" });
  const none = await tourVerdict(recorded(), {
    check: async () => ({ tour: false, closed: false, reason: "b2 is never visited." }),
  });
  assert.deepEqual(none, { tour: "none", text: "not a tour. b2 is never visited." });
  const down = await tourVerdict(recorded(), {
    check: async () => {
      throw new Error("offline");
    },
  });
  assert.deepEqual(down, { tour: "unknown", text: "unchecked: offline" });
});
