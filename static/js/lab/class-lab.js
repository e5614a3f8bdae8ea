// The code lab opened from a class room (/lab?class=CODE): the page joins the room as a
// student (docs/protocol.md, "The code lab in a class"), shows the teacher's exercise (its
// words, its board fixed), starts from the exercise's example program, and submits the
// editor's program under the student's one name in the room (class/identity.js). The
// teacher's page checks it; the student's own result comes back as `lab_result`. A
// lesson's chapter opens the lab on its board from its start (`linkedStart`).

import { RoomIdentity } from "../class/identity.js";
import { exerciseWords, failureText } from "../class/lab-words.js";
import { ClassRoom } from "../class/room.js";
import { formatNumber, t } from "../core/i18n.js";
import { parseSquare } from "../core/squares.js";
import { relabelShown, showSubmission, takeShown } from "./shown.js";

const $ = (selector) => document.querySelector(selector);

export const SOCKET_BYTES = 16 * 1024; // the socket closes on a bigger message
export const SOURCE_MAX = 8_000; // characters the server keeps of a program

/** Why `source` cannot be sent (words), or "" when it can. */
export function sourceProblem(source) {
  if (!source.trim()) return t("class.error.bad-source.blank");
  if (source.length > SOURCE_MAX) return t("lab.class.too-long", { max: SOURCE_MAX });
  // the message wraps the text in JSON: leave room for its escapes and the other fields
  const bytes = new TextEncoder().encode(JSON.stringify(source)).length;
  if (bytes > SOCKET_BYTES - 256) return t("lab.class.too-big", { kb: SOCKET_BYTES / 1024 });
  return "";
}

/**
 * The lab as its address opens it: from a class (`?class=CODE`: a ClassLab), or showing a
 * class's submission (`?show=KEY`, lab/shown.js), or neither. `run()` runs the editor's
 * program; the others are ClassLab's.
 */
/**
 * The start square a lesson's chapter links here with (`?start=a5`, on the board its
 * `rows` and `cols` gave the page's fields), or null.
 */
export function linkedStart(address, { rows, cols }) {
  const square = parseSquare(address.get("start") ?? "", rows, cols);
  return square ? square[0] * cols + square[1] : null;
}

export function openedFrom(address, { page, form, editor, programs, onStart, run }) {
  const code = address.get("class");
  const classLab = code && new ClassLab({ code, page, form, editor, programs, onStart });
  const shown = takeShown(address.get("show"));
  const fix = (exercise) => fixBoard({ form, page, onStart }, exercise);
  if (shown) showSubmission(shown, { page, editor, fix, run });
  return {
    relabel() {
      classLab?.relabel();
      if (shown) relabelShown(shown);
    },
  };
}

/**
 * The exercise's board and start on the lab's `form`, fixed: its board fields no longer
 * change it; `onStart(square)` moves the page's board there.
 */
export function fixBoard({ form, page, onStart }, { rows, cols, start }) {
  form.elements.rows.value = rows;
  form.elements.cols.value = cols;
  form.querySelector("fieldset").disabled = true;
  page.dataset.fixed = "true";
  onStart(start[0] * cols + start[1]);
}

export class ClassLab {
  /**
   * code: the room's join code; page: the lab's root (data-class-*, data-fixed); form:
   * the lab's settings form (its board's fields); editor: the lab's editor (its `text`);
   * programs: {name: source}; onStart(square): the page's board, now the form's, from
   * the exercise's start.
   */
  constructor({ code, page, form, editor, programs, onStart }) {
    Object.assign(this, { code, page, form, editor, programs, onStart });
    this.exercise = null;
    this.loaded = null; // the exercise number whose example is in the editor
    this.result = null; // the last {submission, rank} of this student
    const call = (event, payload) => this.room.call(event, payload);
    this.identity = new RoomIdentity({ code, call });
    this.room = new ClassRoom({
      code,
      handlers: {
        joined: (ack) => this.joined(ack),
        joinFailed: (error) => this.say(error?.message || error?.code, "error"),
      },
    });
    this.room.socket.on("lab_exercise", (msg) => this.show(msg.exercise));
    this.room.socket.on("lab_result", (result) => this.showResult(result));
    $("#lab-class-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    $("#lab-class").hidden = false;
    const name = $("#lab-class-name");
    name.value = this.identity.savedName;
    this.identity.onChange((student) => {
      name.disabled = Boolean(student); // one name in the room
      if (student) name.value = student.name;
    });
  }

  async joined(ack) {
    this.page.dataset.classJoined = "true";
    this.show(ack.lab);
    await this.identity.restore();
    const state = await this.room.call("lab_state", {});
    if (!state?.ok) return;
    this.show(state.exercise);
    const last = state.submissions.at(-1);
    if (last) this.showResult({ submission: last, rank: state.rank });
  }

  /** The room's exercise (null: none yet): its words, its board and its example. */
  show(exercise) {
    this.exercise = exercise;
    this.page.dataset.classExercise = exercise ? String(exercise.number) : "";
    $("#lab-class-form").hidden = !exercise?.open;
    if (!exercise) {
      $("#lab-class-title").textContent = t("lab.class.none");
      $("#lab-class-prompt").textContent = "";
      $("#lab-class-goal").textContent = "";
      return;
    }
    const words = exerciseWords(exercise);
    $("#lab-class-title").textContent = words.title;
    $("#lab-class-prompt").textContent = words.prompt;
    $("#lab-class-goal").textContent = words.goal;
    if (this.loaded === exercise.number) return;
    this.loaded = exercise.number;
    this.fixBoard(exercise);
    const example = this.programs[exercise.example];
    if (example) this.editor.text = example;
  }

  fixBoard(exercise) {
    fixBoard(this, exercise);
  }

  async submit() {
    const source = this.editor.text;
    const problem = sourceProblem(source);
    if (problem) {
      this.say(problem, "error");
      return;
    }
    if (!this.identity.entered) {
      const name = $("#lab-class-name").value.trim();
      const entered = name ? await this.identity.enter(name) : null;
      if (!entered?.ok) {
        this.say(entered?.error?.message || t("lab.class.name-needed"), "error");
        return;
      }
    }
    const number = this.exercise?.number;
    const ack = await this.room.call("lab_submit", { exercise: number, source });
    if (!ack?.ok) {
      this.say(ack?.error?.message, "error");
      return;
    }
    this.showResult({ submission: ack.submission, rank: null });
  }

  /** This student's last submission: waiting for its check, passed (and the rank), or why not. */
  showResult({ submission, rank }) {
    this.result = { submission, rank };
    const { check } = submission;
    this.page.dataset.classResult = check ? (check.passed ? "passed" : "failed") : "waiting";
    if (!check) {
      this.say(t("lab.class.sent"), "waiting");
    } else if (check.passed) {
      const moves = formatNumber(check.moves);
      const status = t("class.lab.status.passed", {
        moves,
        backtracks: formatNumber(check.backtracks),
      });
      this.say(rank ? t("lab.class.rank", { status, rank }) : status, "passed");
    } else {
      const reason = failureText(check.reason, this.exercise);
      this.say(t("class.lab.status.failed", { reason }), "failed");
    }
  }

  /** Every word again, in the page's language now. */
  relabel() {
    this.show(this.exercise);
    if (this.result) this.showResult(this.result);
  }

  say(text, kind) {
    const line = $("#lab-class-status");
    line.textContent = text || "";
    line.dataset.kind = kind;
  }
}
