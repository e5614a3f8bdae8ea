// The teacher's code lab panel (docs/protocol.md, "The code lab in a class"): hand the class
// an exercise from the presets, list the submissions as they come with their status, and
// the leaderboard of the passed ones. Each new submission is run here, in this page's own
// lab worker (lab-check.js: one at a time, a budget and a time cap), and reported.

import { formatNumber, t } from "../core/i18n.js";
import { boardLimits, clampSide } from "../core/limits.js";
import { parseSquare } from "../core/squares.js";
import { LabRunner } from "../lab/runner.js";
import { handOver } from "../lab/shown.js";
import { CHECK_MS, checkBudget, LabChecks, runReport } from "./lab-check.js";
import { clockTime, exerciseWords, statusText } from "./lab-words.js";

const $ = (selector) => document.querySelector(selector);

export class TeacherLab {
  /**
   * page: the root element (data-lab: the exercise's number, data-lab-checked: how many
   * were checked); call(event, payload) => Promise of the ack; onHanded(): an exercise
   * was handed out (the page shows this panel).
   */
  constructor({ page, call, onHanded = () => {} }) {
    Object.assign(this, { page, call, onHanded });
    this.exercise = null;
    this.board = null; // the last leaderboard
    this.runner = null; // made at the first check: Python loads only when needed
    this.ready = null; // resolves once the runner's Python is in (false: it failed)
    this.checks = new LabChecks({
      check: (submission) => this.check(submission),
      send: (report) => this.call("lab_checked", report),
      onChange: () => this.drawList(),
    });
    $("#c-lab-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.handOut();
    });
    const preset = $("#c-lab-preset");
    const custom = () => {
      $("#c-lab-custom").hidden = preset.value !== "custom";
    };
    preset.addEventListener("change", custom);
    custom(); // a reload keeps the select's choice
    $("#c-lab-close").addEventListener("click", () => this.takeBack());
  }

  /** The room's lab broadcasts to the teacher's pages. */
  attach(socket) {
    socket.on("lab_exercise", (msg) => this.showExercise(msg.exercise));
    socket.on("lab_submission", (submission) => this.checks.add(submission));
    socket.on("lab_leaderboard", (board) => this.showBoard(board));
  }

  /** After a (re)join: the exercise, every submission (unchecked ones are run) and the board. */
  async restore(exercise) {
    this.showExercise(exercise);
    const ack = await this.call("lab_state", {});
    if (!ack?.ok) return;
    this.showExercise(ack.exercise);
    for (const submission of ack.submissions) this.checks.add(submission);
    this.showBoard(ack.leaderboard);
  }

  async handOut() {
    const preset = $("#c-lab-preset").value;
    const exercise = preset === "custom" ? customExercise($("#c-lab-form")) : { preset };
    if (exercise.problem) return this._problem(exercise.problem);
    this._problem("");
    this._answer(await this.call("lab_exercise", exercise));
  }

  async takeBack() {
    this._answer(await this.call("lab_exercise", null), { handed: false });
  }

  _answer(ack, { handed = true } = {}) {
    if (!ack?.ok) {
      this._problem(ack?.error?.message);
      return;
    }
    this.showExercise(ack.exercise);
    this.showBoard(ack.leaderboard);
    if (handed) this.onHanded();
  }

  // ---------------------------------------------------------------- checking
  /** Run `submission` on the exercise's board: its report, or null if it could not run. */
  async check(submission) {
    const exercise = this.exercise;
    if (!exercise) return null;
    let { source } = submission;
    if (!source) {
      const ack = await this.call("lab_source", { id: submission.id });
      if (!ack?.ok) return null;
      source = ack.submission.source;
    }
    if (!(await this._python())) return null;
    const timer = setTimeout(() => this.runner.stop(), CHECK_MS); // a `while True:` ends here
    try {
      const { rows, cols, start } = exercise;
      const budget = checkBudget(exercise);
      const recorded = await this.runner.run({ source, rows, cols, start, budget });
      return recorded ? runReport(submission.id, recorded) : null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The runner, its Python loaded (made at the first call): whether it is ready. */
  _python() {
    if (this.runner?.ready) return Promise.resolve(true);
    if (!this.runner) {
      let settle;
      this.ready = new Promise((resolve) => {
        settle = resolve;
      });
      this.runner = new LabRunner({
        url: new URL("../lab/worker.js", import.meta.url),
        onState: (state) => {
          if (state === "ready") settle(true);
          if (state === "failed") settle(false);
        },
      });
      this.runner.spawn();
    }
    return this.runner.worker ? this.ready : Promise.resolve(false);
  }

  // ---------------------------------------------------------------- drawing
  showExercise(exercise) {
    this.exercise = exercise;
    this.checks.setExercise(exercise);
    const now = $("#c-lab-now");
    now.hidden = !exercise;
    if (exercise) {
      const words = exerciseWords(exercise);
      const closed = exercise.open ? "" : ` ${t("class.ui.lab.closed")}`;
      now.textContent = `${t("class.ui.lab.now", words)}${closed}`;
    }
    $("#c-lab-none").hidden = Boolean(exercise);
    $("#c-lab-close").hidden = !exercise?.open;
    this.page.dataset.lab = exercise ? String(exercise.number) : "";
    this.drawList();
  }

  showBoard(board) {
    this.board = board;
    const rows = (board?.entries || []).map((entry) =>
      row([entry.rank, entry.name, formatNumber(entry.moves), formatNumber(entry.backtracks)]),
    );
    $("#c-lab-board tbody").replaceChildren(...rows);
    $("#c-lab-counts").textContent = board?.exercise
      ? t("class.ui.lab.counts", {
          submitted: formatNumber(board.submitted),
          students: formatNumber(board.students),
          passed: formatNumber(board.passed),
        })
      : "";
    this.page.dataset.labPassed = String(board?.passed ?? 0);
  }

  drawList() {
    const list = this.checks.list();
    const rows = list.map((submission) => {
      const { status, check } = submission;
      const tr = row([
        submission.name,
        clockTime(submission.at),
        statusText(status, check, this.exercise, submission.refused),
      ]);
      tr.dataset.submission = String(submission.id);
      tr.dataset.status = status;
      tr.append(this._showCell(submission));
      return tr;
    });
    $("#c-lab-list tbody").replaceChildren(...rows);
    const checked = list.filter((s) => s.status === "passed" || s.status === "failed");
    this.page.dataset.labChecked = String(checked.length);
  }

  /** A row's "Show" button: the submission on this screen, in the code lab's own tab. */
  _showCell(submission) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn c-small";
    button.textContent = t("class.ui.lab.show");
    button.setAttribute("aria-label", t("class.ui.lab.show-whose", { name: submission.name }));
    button.addEventListener("click", () => this.show(submission));
    const cell = document.createElement("td");
    cell.append(button);
    return cell;
  }

  /**
   * Put `submission` on the projector: the code lab opens in a tab of its own with the
   * program on the exercise's board and runs it (lab/shown.js); this tab stays as it is.
   */
  async show(submission) {
    let { source } = submission;
    if (!source) {
      const ack = await this.call("lab_source", { id: submission.id });
      if (!ack?.ok) return this._problem(ack?.error?.message);
      source = ack.submission.source;
    }
    const key = handOver({ name: submission.name, source, exercise: this.exercise });
    window.open(`/lab?show=${key}`, "_blank");
  }

  /** Every word again, in the page's language now. */
  relabel() {
    this.showExercise(this.exercise);
    this.showBoard(this.board);
  }

  _problem(message) {
    const problem = $("#c-lab-error");
    problem.textContent = message || "";
    problem.hidden = !message;
  }
}

/** A table row of `cells`, each as plain text (names are never HTML). */
function row(cells) {
  const tr = document.createElement("tr");
  for (const value of cells) {
    const td = document.createElement("td");
    td.textContent = String(value);
    tr.append(td);
  }
  return tr;
}

/**
 * The teacher's own exercise from the form: `{rows, cols, start, closed, limit}` (limit
 * null: any), or `{problem}` in words. The server checks it again (a board with a tour).
 */
export function customExercise(form) {
  const data = new FormData(form);
  const limits = boardLimits().search;
  const rows = clampSide(data.get("rows"), limits, 8);
  const cols = clampSide(data.get("cols"), limits, 8);
  const start = parseSquare(String(data.get("start")), rows, cols);
  if (!start) return { problem: t("class.ui.puzzle.bad-start") };
  const given = String(data.get("limit") ?? "").trim();
  const limit = given === "" ? null : Number(given);
  if (limit !== null && !(Number.isInteger(limit) && limit >= 1 && limit <= 1e9)) {
    return { problem: t("class.ui.lab.bad-limit") };
  }
  return { rows, cols, start, closed: data.get("tour") === "closed", limit };
}
