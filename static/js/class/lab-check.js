// The teacher's page checks the class's lab submissions (docs/protocol.md, "The code lab in
// a class"): the server stores a student's program but never runs it, so this page runs
// each one in its own lab worker (lab/runner.js), one at a time in the order they came,
// and reports the run (`lab_checked`); the server checks the report against the exercise.
// Plain data, no DOM: the run and the messages are given.

import { BACK, squareOf } from "../lab/recording.js";

export const CHECK_MS = 20_000; // a program running longer is stopped (a `while True:`)
export const CHECK_BUDGET = 5_000_000; // board writes a check records at most
export const RESEND_MS = 5_000; // a report the server did not answer is sent again this late

/** The board writes a check of `exercise` may record: one past its limit says enough. */
export function checkBudget(exercise) {
  return exercise?.limit ? Math.min(exercise.limit + 1, CHECK_BUDGET) : CHECK_BUDGET;
}

// What ended a run without a tour, as `lab_checked` says it (`stop`); a program that
// returned says nothing.
const STOPS = { budget: "limit", stopped: "time", error: "error" };

/**
 * A finished run as `lab_checked` reports it: `{id, found, closed, moves, backtracks,
 * path, stop}`. Every write that is not a backtrack is a move (the start's placement
 * included), and the path is what the board holds at the end. A run that declared a tour
 * (its last move landed on its start) reports it found: the server then says why it is
 * none. `stop`: the check's budget (`limit`), its time cap (`time`) or an `error`.
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
  const moves = recorded.length - backtracks;
  return { id, found, closed: false, moves, backtracks, path, stop: STOPS[status] ?? null };
}

/**
 * What the list says of a submission: waiting | checking | passed | failed | refused (it
 * could not run here, or the server refused its report: `submission.refused` says why).
 */
export function statusOf(submission, checking = false) {
  if (submission.check) return submission.check.passed ? "passed" : "failed";
  if (checking) return "checking";
  return submission.refused !== undefined ? "refused" : "waiting";
}

export class LabChecks {
  /**
   * check(submission) => Promise of a report (runReport) or null (it could not run);
   * send(report) => Promise of `lab_checked`'s acknowledgement; onChange(): the list
   * changed (draw it again). A report the server did not answer (a timeout) is kept and
   * sent again, after `RESEND_MS` or at the next (re)join's `add`, not run again.
   */
  constructor({ check, send, onChange = () => {}, later = (fn) => setTimeout(fn, RESEND_MS) }) {
    Object.assign(this, { check, send, onChange, later });
    this.submissions = new Map(); // id -> the submission as the server sent it
    this.queue = []; // ids waiting for their check, oldest first
    this.checking = null; // the id being checked
    this.exercise = null; // its number: submissions of another are dropped
    this.unsent = new Map(); // id -> its report, the server's answer not had
    this.resending = false; // a resend is due
  }

  /** The room's exercise (null: none): another number forgets every submission. */
  setExercise(exercise) {
    const number = exercise?.number ?? null;
    if (number === this.exercise) return;
    this.exercise = number;
    this.submissions.clear();
    this.unsent.clear();
    this.queue = [];
    this.onChange();
  }

  /** A submission (`lab_submission`, `lab_state`, an answer): kept, queued when unchecked. */
  add(submission) {
    if (this.exercise !== null && submission.exercise !== this.exercise) return;
    const known = this.submissions.get(submission.id);
    const { refused: _dropped, ...before } = known ?? {}; // a (re)join tries again
    this.submissions.set(submission.id, { ...before, ...submission });
    if (submission.check) this.unsent.delete(submission.id);
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

  /** Store the server's answer; a report it did not answer waits to be sent again. */
  _answered(id, report, ack) {
    const submission = this.submissions.get(id);
    if (!submission) return; // another exercise meanwhile
    if (ack?.ok) {
      this.unsent.delete(id);
      this.submissions.set(id, ack.submission);
    } else if (report && (!ack || ack.error?.code === "timeout")) {
      this.unsent.set(id, report);
      this._resendLater();
    } else {
      this.unsent.delete(id);
      this.submissions.set(id, { ...submission, refused: ack?.error?.message ?? "" });
    }
  }

  _resendLater() {
    if (this.resending) return;
    this.resending = true;
    this.later(() => {
      this.resending = false;
      for (const id of this.unsent.keys()) {
        if (!this.queue.includes(id) && id !== this.checking) this.queue.push(id);
      }
      this._next();
    });
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
      const report = this.unsent.get(id) ?? (await this.check(this.submissions.get(id)));
      const ack = report ? await this.send(report) : null;
      this._answered(id, report, ack);
    } finally {
      this.checking = null;
      this.onChange();
      this._next();
    }
  }
}
