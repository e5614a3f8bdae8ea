import assert from "node:assert/strict";
import { test } from "node:test";
import {
  CHECK_BUDGET,
  checkBudget,
  LabChecks,
  runReport,
  statusOf,
} from "../../static/js/class/lab-check.js";
import { BACK, Recording } from "../../static/js/lab/recording.js";

function recorded(events, status) {
  const recording = new Recording({ rows: 5, cols: 5, start: 0 });
  recording.push(events);
  recording.result = { status };
  return recording;
}

/** A check the test ends by hand: resolve(id, report). */
function manual() {
  const pending = new Map();
  const check = (submission) => new Promise((resolve) => pending.set(submission.id, resolve));
  return { check, pending };
}

const passed = (id) => ({ ok: true, submission: { id, exercise: 1, check: { passed: true } } });

test("a report counts the moves with the start and the backtracks, and ends on the board's path", () => {
  // 0, 7, 14 entered; 14 left; 11 entered: moves 4, backtracks 1, path 0 7 11
  const report = runReport(3, recorded([0, 7, 14, 14 | BACK, 11], "ended"));
  assert.deepEqual(report, {
    id: 3,
    found: false,
    closed: false,
    moves: 4,
    backtracks: 1,
    path: [0, 7, 11],
    stop: null,
  });
  assert.equal(runReport(3, recorded([0, 7], "found")).found, true);
  assert.equal(runReport(3, recorded([0, 7], "declared")).found, true); // the server says why not
  const budget = runReport(3, recorded([0, 7], "budget"));
  assert.deepEqual([budget.found, budget.stop], [false, "limit"]);
  assert.equal(runReport(3, recorded([0], "stopped")).stop, "time"); // the time cap
  assert.equal(runReport(3, recorded([], "error")).stop, "error");
  assert.equal(runReport(3, recorded([0, 7], "found")).stop, null);
});

test("a check's budget is one past the exercise's limit, else the cap", () => {
  assert.equal(checkBudget({ limit: 100 }), 101);
  assert.equal(checkBudget({ limit: null }), CHECK_BUDGET);
  assert.equal(checkBudget({ limit: 1e9 }), CHECK_BUDGET);
});

test("the list says waiting, checking, passed and failed", () => {
  assert.equal(statusOf({ check: null }), "waiting");
  assert.equal(statusOf({ check: null }, true), "checking");
  assert.equal(statusOf({ check: { passed: true } }), "passed");
  assert.equal(statusOf({ check: { passed: false } }, true), "failed");
});

test("submissions are checked one at a time, in the order they came", async () => {
  const { check, pending } = manual();
  const sent = [];
  const checks = new LabChecks({
    check,
    send: async (report) => {
      sent.push(report.id);
      return passed(report.id);
    },
  });
  checks.setExercise({ number: 1 });
  checks.add({ id: 2, exercise: 1, check: null });
  checks.add({ id: 5, exercise: 1, check: null });
  assert.deepEqual(
    checks.list().map((s) => s.status),
    ["checking", "waiting"],
  );
  assert.deepEqual([...pending.keys()], [2]); // the second waits for the first
  pending.get(2)({ id: 2 });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(sent, [2]);
  assert.deepEqual([...pending.keys()], [2, 5]);
  assert.deepEqual(
    checks.list().map((s) => s.status),
    ["passed", "checking"],
  );
  pending.get(5)(null); // it could not run: nothing is reported
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(sent, [2]);
  assert.equal(checks.idle, true);
});

test("a checked submission is not run again; another exercise forgets the list", () => {
  const { check, pending } = manual();
  const checks = new LabChecks({ check, send: async () => null });
  checks.setExercise({ number: 1 });
  checks.add({ id: 1, exercise: 1, check: { passed: false, reason: "not-found" } });
  checks.add({ id: 9, exercise: 7, check: null }); // of an older exercise
  assert.equal(pending.size, 0);
  assert.deepEqual(
    checks.list().map((s) => [s.id, s.status]),
    [[1, "failed"]],
  );
  checks.setExercise({ number: 2 });
  assert.deepEqual(checks.list(), []);
});

test("a report the server did not answer is sent again, not run again", async () => {
  const { check, pending } = manual();
  const answers = [{ ok: false, error: { code: "timeout" } }, passed(4)];
  const sent = [];
  const due = [];
  const checks = new LabChecks({
    check,
    send: async (report) => {
      sent.push(report);
      return answers.shift();
    },
    later: (fn) => due.push(fn),
  });
  checks.setExercise({ number: 1 });
  checks.add({ id: 4, exercise: 1, check: null });
  pending.get(4)({ id: 4, found: true });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(sent.length, 1);
  assert.equal(checks.list()[0].status, "waiting"); // not answered: it waits, kept
  assert.equal(due.length, 1);
  pending.clear();
  due.shift()();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(pending.size, 0); // the program did not run again
  assert.deepEqual(sent[1], sent[0]);
  assert.equal(checks.list()[0].status, "passed");
  assert.equal(checks.unsent.size, 0);
});

test("a report the server refused, or a program that could not run, says so until a rejoin", async () => {
  const { check, pending } = manual();
  const checks = new LabChecks({
    check,
    send: async () => ({ ok: false, error: { code: "unknown-submission", message: "gone" } }),
    later: () => assert.fail("a refusal is not sent again"),
  });
  checks.setExercise({ number: 1 });
  checks.add({ id: 1, exercise: 1, check: null });
  checks.add({ id: 2, exercise: 1, check: null });
  pending.get(1)({ id: 1 });
  await new Promise((resolve) => setImmediate(resolve));
  pending.get(2)(null);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    checks.list().map((s) => [s.status, s.refused]),
    [
      ["refused", "gone"],
      ["refused", ""],
    ],
  );
  pending.clear();
  checks.add({ id: 2, exercise: 1, check: null }); // the rejoin's list: run again
  assert.deepEqual([...pending.keys()], [2]);
  assert.equal(checks.list()[1].status, "checking");
});
