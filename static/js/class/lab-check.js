// The teacher's page checks the class's lab submissions (docs/protocol.md, "The code lab in
// a class"): the server stores a student's program but never runs it, so this page runs
// each one in its own lab worker (lab/runner.js), one at a time in the order they came,
// and reports the run (`lab_checked`); the server checks the report against the exercise.
// Plain data, no DOM: the run and the messages are given.

import { BACK, squareOf } from "../lab/recording.js";

export const CHECK_MS = 20_000; // a program running longer is stopped (a `while True:`)
export const CHECK_BUDGET = 5_000_000; // board writes a check records at most

/** The board writes a check of `exercise` may record: one past its limit says enough. */
export function checkBudget(exercise) {
  return exercise?.limit ? Math.min(exercise.limit + 1, CHECK_BUDGET) : CHECK_BUDGET;
}

/**
 * A finished run as `lab_checked` reports it: `{id, found, closed, moves, backtracks,
 * path}`. Every write that is not a backtrack is a move (the start's placement included),
 * and the path is what the board holds at the end. A run that declared a tour (its last
 * move landed on its start) reports it found: the server then says why it is none.
 */
export function runReport(id, recorded) {
  let backtracks = 0;
  const path = [];
  for (const code of recorded.codes()) {
    if (code & BACK) {
      backtracks++;
      path.pop();
    } else path.push(squareOf(code));
  }
  const status = recorded.result?.status;
  const found = status === "found" || status === "declared";
  return { id, found, closed: false, moves: recorded.length - backtracks, backtracks, path };
}

/** What the list says of a submission: waiting | checking | passed | failed. */
export function statusOf(submission, checking = false) {
  if (submission.check) return submission.check.passed ? "passed" : "failed";
  return checking ? "checking" : "waiting";
}

export class LabChecks {
  /**
   * check(submission) => Promise of a report (runReport) or null (it could not run);
   * send(report) => Promise of `lab_checked`'s acknowledgement; onChange(): the list
   * changed (draw it again).
   */
  constructor({ check, send, onChange = () => {} }) {
    Object.assign(this, { check, send, onChange });
    this.submissions = new Map(); // id -> the submission as the server sent it
    this.queue = []; // ids waiting for their check, oldest first
    this.checking = null; // the id being checked
    this.exercise = null; // its number: submissions of another are dropped
  }

  /** The room's exercise (null: none): another number forgets every submission. */
  setExercise(exercise) {
    const number = exercise?.number ?? null;
    if (number === this.exercise) return;
    this.exercise = number;
    this.submissions.clear();
    this.queue = [];
    this.onChange();
  }

  /** A submission (`lab_submission`, `lab_state`, an answer): kept, queued when unchecked. */
  add(submission) {
    if (this.exercise !== null && submission.exercise !== this.exercise) return;
    const known = this.submissions.get(submission.id);
    this.submissions.set(submission.id, { ...known, ...submission });
    const waiting = !submission.check && submission.id !== this.checking;
    if (waiting && !this.queue.includes(submission.id)) this.queue.push(submission.id);
    this.onChange();
    this._next();
  }

  /** The submissions, oldest first, each with its `status`. */
  list() {
    return [...this.submissions.values()]
      .sort((a, b) => a.id - b.id)
      .map((s) => ({ ...s, status: statusOf(s, s.id === this.checking) }));
  }

  get idle() {
    return this.checking === null && this.queue.length === 0;
  }

  async _next() {
    if (this.checking !== null) return;
    const id = this.queue.shift();
    if (id === undefined) return;
    this.checking = id;
    this.onChange();
    try {
      const report = await this.check(this.submissions.get(id));
      const ack = report ? await this.send(report) : null;
      if (ack?.ok && this.submissions.has(id)) this.submissions.set(id, ack.submission);
    } finally {
      this.checking = null;
      this.onChange();
      this._next();
    }
  }
}
