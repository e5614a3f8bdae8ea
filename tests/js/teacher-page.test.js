// The class teacher's page controller without a DOM: plain objects for its elements and
// drawn parts, the real follower and controls (no DOM in them either), and a room whose
// messages wait for the test's answer.
import assert from "node:assert/strict";
import { test } from "node:test";
import { TeacherControls } from "../../static/js/class/controls.js";
import { RoomFollower } from "../../static/js/class/follow.js";
import { TeacherPage, takeToken } from "../../static/js/class/teacher-page.js";
import { nameOf } from "../../static/js/core/squares.js";
import { settle } from "./support/fake-socket.js";

const DEMO = { rows: 6, cols: 6, start: [0, 0], algorithm: "seed", closed: false, pruning: false };

function roomState(gen, { seq = 1, speed = 10, settings = DEMO } = {}) {
  const clock = { index: 0, playing: false, speed, frontier: 0, end: null, hold: null };
  return { gen, seq, control_seq: 0, settings, lesson: null, ...clock };
}

function teacherPage() {
  const element = () => ({ hidden: true, textContent: "", dataset: {}, disabled: true });
  const sent = []; // {event, payload, answer(ack)} the test has not answered yet
  const room = {
    joined: null,
    socket: {},
    closed: false,
    call: (event, payload) => new Promise((answer) => sent.push({ event, payload, answer })),
    close() {
      this.closed = true;
    },
  };
  const follower = new RoomFollower({ now: () => 0, sync: async () => ({ ok: false }) });
  const controls = new TeacherControls({
    follower,
    call: (event, payload) => teacher.call(event, payload),
    now: () => 0,
  });
  const lane = {
    previews: [],
    said: "",
    start: null,
    preview(settings) {
      this.previews.push(settings);
    },
    say(text) {
      this.said = text;
    },
    setStart(sq) {
      this.start = sq;
    },
  };
  const parts = {
    lane,
    follower,
    controls,
    stage: {
      drawing: true,
      resumed: 0,
      phase: "playing",
      verdict: { winner: 0, text: "A won" },
      resume() {
        this.drawing = true;
        this.resumed++;
      },
      frame() {
        return this.phase;
      },
    },
    transport: { speed: 25, playing: false, update() {} },
    story: {
      show: () => false,
      drawMoves() {},
      verdicts: [],
      showVerdict(verdict) {
        this.verdicts.push(verdict);
      },
    },
    lessonDriver: { update() {} },
    quiz: { view: {}, attach() {}, restore() {}, follow() {} },
    handout: { showPuzzle() {}, showLeaderboard() {} },
    tabs: {
      panel: "stack",
      select(panel) {
        this.panel = panel;
      },
    },
    setupFold: {
      folded: 0,
      done() {
        this.folded++;
      },
      follow() {},
    },
  };
  // the form as lanes/setup.js reads it: a lane's settings, the start kept on the same board
  const form = {
    settings: { rows: 5, cols: 5, holes: [], start: 20, algorithm: "seed", shapeError: null },
    filled: [],
    read(previous) {
      const same = previous?.rows === this.settings.rows && previous?.cols === this.settings.cols;
      return { ...this.settings, start: same ? previous.start : this.settings.start };
    },
    fill(demo) {
      this.filled.push(demo);
    },
  };
  const opened = [];
  const teacher = new TeacherPage({
    code: "ABC234",
    view: {
      page: { dataset: {} },
      goButton: element(),
      error: element(),
      startName: element(),
      connection: element(),
      students: element(),
    },
    form,
    parts,
    openRoom: (options) => {
      opened.push(options);
      return room;
    },
  });
  return { teacher, parts, form, room, sent, opened };
}

/** `teacher` opened and joined to a room whose demo is at generation `gen`. */
function joined(gen, options) {
  const page = teacherPage();
  page.teacher.open("secret");
  page.room.joined = {};
  page.teacher.joined({
    students: 3,
    puzzle: null,
    leaderboard: null,
    state: roomState(gen, options),
    snapshot: null,
  });
  return page;
}

test("the token comes from the address once, is kept for the room, and leaves the address", () => {
  const kept = new Map();
  const storage = { setItem: (k, v) => kept.set(k, v), getItem: (k) => kept.get(k) ?? null };
  const replaced = [];
  const history = { replaceState: (_state, _title, url) => replaced.push(url) };
  const location = { hash: "#token=abc_1-Z", pathname: "/class/ABC234/teach", search: "?lang=en" };
  assert.equal(takeToken("ABC234", { location, history, storage }), "abc_1-Z");
  assert.equal(kept.get("class-token:ABC234"), "abc_1-Z");
  assert.deepEqual(replaced, ["/class/ABC234/teach?lang=en"]);
  const reloaded = { ...location, hash: "" };
  assert.equal(takeToken("ABC234", { location: reloaded, history, storage }), "abc_1-Z");
  assert.equal(takeToken("OTHER2", { location: reloaded, history, storage }), null);
  assert.equal(replaced.length, 1, "nothing to drop from the address after a reload");
});

test("without a token the page says so and opens no room", () => {
  const { teacher, opened } = teacherPage();
  assert.equal(teacher.open(null), false);
  assert.deepEqual(opened, []);
  assert.equal(teacher.view.error.textContent, "class.ui.no-token");
  assert.equal(teacher.view.error.hidden, false);
  assert.equal(teacher.page.dataset.connection, "failed");
});

test("a first join previews the form; a reconnect leaves it; a reload picks the demo up", () => {
  const { teacher, parts, form, opened } = joined(1);
  assert.equal(opened[0].token, "secret");
  assert.equal(opened[0].code, "ABC234");
  assert.deepEqual(form.filled, [DEMO], "the room's settings on the form");
  assert.equal(teacher.page.dataset.phase, "setup");
  assert.equal(parts.stage.drawing, false, "the lane shows the form's board");
  assert.equal(parts.lane.said, "class.ui.pick");
  assert.equal(teacher.view.goButton.disabled, false);
  assert.equal(teacher.view.students.textContent, "3");
  assert.equal(teacher.page.dataset.connection, "joined");

  teacher.joined({ students: 4, state: roomState(2, { seq: 2 }), snapshot: null });
  assert.equal(form.filled.length, 1, "a reconnect: the stream goes on, the form stays");
  assert.equal(teacher.page.dataset.phase, "setup");
  assert.equal(teacher.view.students.textContent, "4");

  const reload = joined(3, { speed: 40 });
  assert.equal(reload.parts.transport.speed, 40);
  assert.equal(reload.parts.stage.resumed, 1);
  assert.equal(reload.teacher.page.dataset.phase, "running");
});

test("a demo is set up first, then played from its start; a refusal is said", async () => {
  const { teacher, parts, form, sent } = joined(1);
  form.settings = { ...form.settings, shapeError: "shape-malformed" };
  await teacher.showDemo();
  assert.deepEqual(sent, [], "a shape the form cannot read is sent nowhere");
  assert.equal(teacher.view.error.textContent, "class.error.bad-puzzle.shape-malformed");

  form.settings = { ...form.settings, shapeError: null };
  let shown = teacher.showDemo();
  await settle();
  assert.equal(sent[0].event, "settings");
  assert.deepEqual(
    [sent[0].payload.rows, sent[0].payload.cols, sent[0].payload.start],
    [5, 5, [4, 0]],
  );
  sent.shift().answer({ ok: false, error: { code: "busy", message: "the room is busy" } });
  await shown;
  assert.equal(teacher.view.error.textContent, "the room is busy");
  assert.equal(parts.stage.resumed, 0);

  shown = teacher.showDemo();
  await settle();
  const next = roomState(2, { seq: 3, settings: { ...DEMO, rows: 5, cols: 5 } });
  sent.shift().answer({ ok: true, state: { ...next, control_seq: 2 } }); // the second settings
  await shown;
  assert.equal(teacher.view.error.hidden, true, "the refusal's words went");
  assert.equal(parts.stage.resumed, 1);
  assert.equal(teacher.page.dataset.phase, "running");
  assert.equal(sent[0].event, "control");
  assert.deepEqual(
    { index: sent[0].payload.index, playing: sent[0].payload.playing },
    { index: 0, playing: true },
  );
  assert.equal(sent[0].payload.speed, 25, "at the transport's speed");
});

test("a square picked is the start only while setting up, and never a hole", () => {
  const { teacher, parts, form } = joined(1);
  form.settings = { ...form.settings, holes: [3] };
  teacher.preview();
  teacher.pickStart(3);
  assert.equal(parts.lane.start, null, "a hole is no square to start from");
  teacher.pickStart(7);
  assert.equal(parts.lane.start, 7);
  assert.equal(teacher.view.startName.textContent, nameOf(7, 5, 5));
  teacher.page.dataset.phase = "running";
  teacher.pickStart(8);
  assert.equal(parts.lane.start, 7, "the demo runs: its start is the room's");
});

test("a handed-out puzzle shows its leaderboard, unless a question is open", () => {
  const { teacher, parts } = joined(1);
  parts.quiz.view = { question: { question: 1 }, reveal: null };
  teacher.handed();
  assert.equal(parts.tabs.panel, "stack", "an open question keeps its panel");
  assert.equal(parts.setupFold.folded, 1);
  parts.quiz.view = { question: { question: 1 }, reveal: { answer: 4 } };
  teacher.handed();
  assert.equal(parts.tabs.panel, "board");
});

test("a lesson step puts its chapter's demo on the form and runs it; a refusal is said", () => {
  const { teacher, parts, form } = joined(1);
  teacher.lessonMoved({ ok: false, error: { message: "not now" } });
  assert.equal(teacher.view.error.textContent, "not now");
  assert.equal(teacher.page.dataset.phase, "setup");
  const chapter = { ...DEMO, rows: 8, cols: 8, algorithm: "warnsdorff" };
  teacher.lessonMoved({ ok: true, state: roomState(4, { settings: chapter }) });
  assert.deepEqual(form.filled.at(-1), chapter);
  assert.equal(teacher.settings.rows, 8);
  assert.equal(teacher.page.dataset.phase, "running");
  assert.equal(parts.stage.drawing, true);
  assert.equal(teacher.view.error.hidden, true);
});

test("the page's phase follows the class's demo, not while setting up", () => {
  const { teacher, parts } = joined(3);
  parts.stage.phase = "ended";
  teacher.frame(0);
  assert.equal(teacher.page.dataset.phase, "finished");
  parts.stage.phase = "paused";
  teacher.frame(16);
  assert.equal(teacher.page.dataset.phase, "running");
  teacher.preview();
  teacher.frame(32);
  assert.equal(teacher.page.dataset.phase, "setup");
  // a race's verdict stands under the lesson's words, not over a board the teacher previews
  assert.deepEqual(
    parts.story.verdicts.map((v) => v?.text ?? null),
    ["A won", "A won", null],
  );
});

test("the room's end is said, and nothing more can be shown", () => {
  const { teacher, opened } = joined(3);
  opened[0].handlers.ended();
  assert.equal(teacher.page.dataset.ended, "true");
  assert.equal(teacher.page.dataset.connection, "failed");
  assert.equal(teacher.view.goButton.disabled, true);
  assert.equal(teacher.view.error.textContent, "class.ui.ended");
});

test("the teacher ends the class: the room closes once the server agreed", async () => {
  const { teacher, room, sent, parts } = joined(3);
  let closing = teacher.close();
  sent.shift().answer({ ok: false, error: { code: "timeout" } });
  await closing;
  assert.equal(room.closed, false);
  assert.equal(teacher.page.dataset.ended, undefined);
  closing = teacher.close();
  sent.shift().answer({ ok: true });
  await closing;
  assert.equal(room.closed, true);
  assert.equal(parts.stage.drawing, false);
  assert.equal(teacher.page.dataset.ended, "true");
  assert.equal(teacher.view.error.textContent, "class.ui.ended");
});
