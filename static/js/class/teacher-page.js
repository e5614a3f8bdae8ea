// The teacher's page of a class room, as a controller: pick a demo, drive it (the
// transport: play, pause, step, step back, seek, speed, run to the end) and every student's
// screen follows; or run the guided lesson (lesson.js); ask the quiz; hand out a puzzle.
//
// The server runs the room's one search and keeps the class's clock. This page draws the
// same stream as the students' pages (follow.js, stage.js) and sends numbered controls
// (controls.js) that show here at once, then as the server applied them. The controller
// is given its elements and parts (teacher.js wires them), so
// tests/js/teacher-page.test.js drives it without a DOM.

import { setData } from "../core/dom.js";
import { formatNumber, t } from "../core/i18n.js";
import { MAX_SHAPE_SIDE } from "../core/shape.js";
import { nameOf } from "../core/squares.js";
import { FrameLoop } from "../lanes/frame-loop.js";
import { laneSettings, runParams } from "../lanes/setup.js";

/**
 * The teacher's secret token: from the address's fragment (as /class/new sends it), kept
 * in `storage` for this room and dropped from the address bar; else the one kept.
 */
export function takeToken(code, { location, history, storage }) {
  const key = `class-token:${code}`;
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match) {
    storage.setItem(key, match[1]);
    history.replaceState(null, "", location.pathname + location.search);
    return match[1];
  }
  return storage.getItem(key);
}

export class TeacherPage {
  /**
   * code: the room's join code; view: {page, goButton, error, startName, connection,
   * students} elements; form: {read(previous), fill(demo)}: the demo's settings form;
   * parts: {lane, follower, controls, stage, transport, story, lessonDriver, quiz, handout,
   * lab?, tabs, setupFold} (lanes/lane.js, follow.js, controls.js, stage.js, drive.js,
   * lesson.js, quiz.js, handout.js, lab-teacher.js, presenter.js); openRoom({code, token, handlers}): a ClassRoom.
   */
  constructor({ code, view, form, parts, openRoom }) {
    Object.assign(this, { code, view, form, openRoom });
    const { lane, follower, controls, stage, transport } = parts;
    Object.assign(this, { lane, follower, controls, stage, transport });
    const { story, lessonDriver, quiz, handout, lab, tabs, setupFold } = parts;
    Object.assign(this, { story, lessonDriver, quiz, handout, lab, tabs, setupFold });
    this.page = view.page;
    this.room = null;
    this.settings = null; // the settings on the form (lane settings: start is a square)
    this.joinedOnce = false;
    this.starting = false;
    this.loop = new FrameLoop((now) => this.frame(now));
    quiz.playing = () => transport.playing && !follower.atEnd; // the ask plays on to it
  }

  /** A message to the room; resolves to its acknowledgement. */
  call(event, payload) {
    return this.room.call(event, payload);
  }

  // ---------------------------------------------------------------- settings form
  readForm() {
    return { ...this.form.read(this.settings), race: false };
  }

  /** Put the room's settings ({rows, cols, start: [r, c], ...}) on the form. */
  fillForm(demo) {
    this.form.fill(demo);
    this.settings = laneSettings(demo);
    this.showStart();
  }

  showStart() {
    const { start, rows, cols } = this.settings;
    this.view.startName.textContent = nameOf(start, rows, cols);
  }

  /** The lane shows the form's board to pick a start on; the class goes on meanwhile. */
  preview() {
    this.settings = this.readForm();
    this.stage.drawing = false;
    this.page.dataset.phase = "setup";
    this.lane.preview(this.settings);
    this.lane.say(t("class.ui.pick"));
    this.showStart();
  }

  /** The form changed: its board on the lane, and why its shape cannot be read (if so). */
  formChanged() {
    this.preview();
    this.showError(shapeProblem(this.settings.shapeError));
  }

  /** A square of the previewed board picked: the demo's start. */
  pickStart(sq) {
    if (this.page.dataset.phase !== "setup" || !this.settings) return;
    if (this.settings.holes?.includes(sq)) return; // a hole is no square to start from
    this.settings.start = sq;
    this.lane.setStart(sq);
    this.showStart();
  }

  showError(message) {
    this.view.error.textContent = message || "";
    this.view.error.hidden = !message;
  }

  /** Show the class the form's demo: new settings, then play it from its start. */
  async showDemo() {
    if (this.starting || !this.room?.joined) return;
    this.starting = true;
    this.showError("");
    try {
      const next = this.readForm();
      if (next.shapeError) {
        this.showError(shapeProblem(next.shapeError));
        return;
      }
      const ack = await this.controls.settings(runParams(next));
      if (!ack?.ok) {
        this.showError(ack?.error?.message);
        return;
      }
      this.settings = next;
      this.stage.resume();
      this.page.dataset.phase = "running";
      this.controls.control({ index: 0, playing: true, speed: this.transport.speed });
    } finally {
      this.starting = false;
    }
  }

  // ---------------------------------------------------------------- its parts' news
  /** A puzzle (or a lab exercise: `panel` "lab") was handed out: its panel shows, unless a
   * question is open. Before any demo the setup stays open: its demo form is still needed. */
  handed(panel = "board") {
    this.showError("");
    this.setupFold.done();
    const { question, reveal } = this.quiz.view;
    if (question && !reveal) return; // an open question keeps its panel
    this.tabs.select(panel);
  }

  /** The lesson moved to a step (or was refused): the chapter's demo runs. */
  lessonMoved(ack) {
    if (!ack?.ok) {
      this.showError(ack?.error?.message);
      return;
    }
    this.showError("");
    this.setupFold.done();
    this.fillForm(ack.state.settings); // the chapter's demo, on the form as if picked by hand
    if (!this.stage.drawing) this.stage.resume();
    this.page.dataset.phase = "running";
  }

  /** A state a quiz answer carried (the class stopped or played on to the question). */
  adoptState(state) {
    this.controls.resume(state);
    this.follower.adoptState(state);
  }

  // ---------------------------------------------------------------- the room
  /** Join the room with the teacher's `token`; without one, say so. Whether it joins. */
  open(token) {
    if (!token) {
      this.showError(t("class.ui.no-token"));
      this.page.dataset.connection = "failed";
      return false;
    }
    this.room = this.openRoom({ code: this.code, token, handlers: this._handlers() });
    this.quiz.attach(this.room.socket);
    this.lab?.attach(this.room.socket);
    return true;
  }

  _handlers() {
    const { follower } = this;
    return {
      joined: (ack) => this.joined(ack),
      joinFailed: (error) => this.joinFailed(error),
      state: (state) => follower.adoptState(state), // from another page of this teacher
      feed: (feed) => follower.addFeed(feed),
      snapshot: (snapshot) => follower.adoptSnapshot(snapshot),
      presence: (msg) => this.showStudents(msg.students),
      heartbeat: (ack) => this.showStudents(ack.students),
      leaderboard: (board) => this.handout.showLeaderboard(board),
      puzzle: (msg) => this.handout.showPuzzle(msg.puzzle),
      ended: () => this.joinFailed({ code: "expired", message: t("class.ui.ended") }),
      // Every action's refusal is said where it was made (its answer); only the room's end
      // comes here alone.
      error: (err) => {
        if (err.code === "expired" || err.code === "unknown-room") this.joinFailed(err);
      },
      status: (status) => {
        this.page.dataset.connection = status;
        if (status === "connected") return; // following again once joined
        follower.setConnected(false);
        this.view.connection.textContent = t("class.ui.reconnecting");
      },
    };
  }

  joined(ack) {
    const { follower, page } = this;
    this.quiz.restore();
    page.dataset.connection = "joined";
    this.view.connection.textContent = t("class.ui.connected");
    this.showStudents(ack.students);
    this.handout.showPuzzle(ack.puzzle);
    this.handout.showLeaderboard(ack.leaderboard);
    this.lab?.restore(ack.lab);
    this.view.goButton.disabled = false;
    const state = ack.state;
    this.controls.resume(state);
    follower.adoptState(state);
    follower.adoptSnapshot(ack.snapshot);
    follower.setConnected(true);
    if (this.joinedOnce) return; // a reconnect: the stream goes on
    this.joinedOnce = true;
    this.fillForm(state.settings);
    if (state.gen <= 1) {
      this.preview();
      return;
    }
    // A reload: pick the demo up where the class is.
    this.transport.speed = state.speed;
    this.stage.resume();
    page.dataset.phase = "running";
  }

  joinFailed(error) {
    this.page.dataset.connection = "failed";
    this.view.goButton.disabled = true;
    this.showError(error?.message || error?.code);
    if (error?.code === "expired" || error?.code === "unknown-room") {
      this.page.dataset.ended = "true";
    }
  }

  showStudents(n) {
    this.view.students.textContent = formatNumber(n ?? 0);
    this.page.dataset.students = String(n ?? 0);
  }

  /** End the class for everyone (the teacher has confirmed it). */
  async close() {
    const ack = await this.call("close");
    if (!ack.ok) return;
    this.stage.drawing = false;
    this.page.dataset.ended = "true";
    this.showError(t("class.ui.ended"));
    this.room.close();
  }

  // ---------------------------------------------------------------- every frame
  /** Draw every frame from now on. */
  run() {
    this.loop.start();
  }

  frame(now) {
    const { stage, story, follower, page } = this;
    const phase = stage.frame(now);
    if (story.show(follower.state?.lesson)) this.lessonDriver.update();
    if (stage.drawing) story.drawMoves(this.lane, follower.state?.gen);
    story.showVerdict(stage.drawing ? stage.verdict : null);
    if (page.dataset.phase !== "setup")
      setData(page, "phase", phase === "ended" ? "finished" : "running");
    this.setupFold.follow(page.dataset.phase);
    this.transport.update(phase);
    const state = follower.state;
    if (state) this.quiz.follow({ gen: state.gen, index: follower.target(now) });
    return stage.active; // false: the loop may sleep
  }
}

/** Why the demo's shape field cannot be read (the class puzzle's words: the same codes). */
function shapeProblem(code) {
  return code ? t(`class.error.bad-puzzle.${code}`, { max: MAX_SHAPE_SIDE, start: "" }) : "";
}
