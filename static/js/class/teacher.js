// The teacher's page of a class room: pick a demo, drive it (play, pause, step, step back,
// seek, speed, run to the end) and every student's screen follows; or run the guided lesson
// (lesson.js), chapter by chapter; ask the quiz; hand out a puzzle and watch the class
// leaderboard fill up.
//
// The page is a presenter view (class.css): once the demo runs, the board, the narration,
// the transport, the join code and one panel (presenter.js: quiz, leaderboard or call
// stack) share one screen, and the setup folds away.
//
// The server runs the room's one search and keeps the class's clock. This page draws the
// same stream as the students' pages (follow.js, stage.js) and sends numbered controls
// (controls.js) that show here at once, then as the server applied them. The secret token
// comes in the URL fragment from /class/new, is kept in localStorage for this room, and is
// dropped from the address bar.

import { formatNumber, t } from "../core/i18n.js";
import { startLanguage } from "../core/language.js";
import { bindProjector } from "../core/projector.js";
import { MAX_SHAPE_SIDE } from "../core/shape.js";
import { nameOf } from "../core/squares.js";
import { exposeForTests } from "../core/test-hook.js";
import { FrameLoop } from "../lanes/frame-loop.js";
import { Lane } from "../lanes/lane.js";
import {
  fillBoardForm,
  followShape,
  followSize,
  laneSettings,
  readBoardForm,
  runParams,
} from "../lanes/setup.js";
import { TeacherControls } from "./controls.js";
import { ClassTransport } from "./drive.js";
import { RoomFollower } from "./follow.js";
import { Handout } from "./handout.js";
import { LessonDriver, LessonStory } from "./lesson.js";
import { PanelTabs, SetupFold } from "./presenter.js";
import { QuizPanel } from "./quiz.js";
import { ClassRoom } from "./room.js";
import { Stage } from "./stage.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#class");
const code = page.dataset.code;
const form = $("#w-form");
const goButton = $("#c-go");
const errorBox = $("#c-error");

const lane = new Lane($(".c-lane"));
// the lane's call-stack panel is one of the presenter's panels (presenter.js)
const stackPanel = $(".c-lane [data-role=stack]");
stackPanel.id = "c-stack";
stackPanel.classList.add("c-tabpanel");
stackPanel.setAttribute("role", "tabpanel");
stackPanel.setAttribute("aria-labelledby", "c-tab-stack");
let room = null;
let settings = null; // the settings on the form (lane settings: start is a square)
let joinedOnce = false;
let starting = false;
const call = (event, payload) => room.call(event, payload);
const follower = new RoomFollower({ sync: (payload) => call("sync", payload) });
const controls = new TeacherControls({
  call,
  follower,
  onRefused: (error) => showError(error?.message),
  onAccepted: () => showError(""), // a refusal's words stay only until something works
});
const tabs = new PanelTabs(page, $(".c-panel-tabs"));
const setupFold = new SetupFold($("#c-setup"));
const stage = new Stage({
  page,
  lane,
  follower,
  progress: { root: $("#c-catchup"), text: $("#c-catchup-text"), bar: $("#c-catchup-bar") },
});
const handout = new Handout({
  page,
  call,
  onHanded: () => {
    showError("");
    setupFold.done();
    if (quiz.view.question && !quiz.view.reveal) return; // an open question keeps its panel
    tabs.select("board");
  },
});
const story = new LessonStory($("#c-lesson"), JSON.parse($("#lesson-chapters").textContent), {
  hideIdle: true,
});
const lessonDriver = new LessonDriver({
  story,
  controls,
  select: $("#c-lesson-select"),
  start: $("#c-lesson-start"),
  prev: $('#c-lesson [data-lesson="prev"]'),
  next: $('#c-lesson [data-lesson="next"]'),
  onMoved: (ack) => {
    if (!ack?.ok) {
      showError(ack?.error?.message);
      return;
    }
    showError("");
    setupFold.done();
    fillForm(ack.state.settings); // the chapter's demo, on the form as if picked by hand
    if (!stage.drawing) stage.resume();
    page.dataset.phase = "running";
  },
});
const transport = new ClassTransport({
  page,
  follower,
  controls,
  active: () => stage.drawing, // not while the teacher previews other settings
});

// ---------------------------------------------------------------- token
function takeToken() {
  const key = `class-token:${code}`;
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match) {
    localStorage.setItem(key, match[1]);
    history.replaceState(null, "", location.pathname + location.search);
    return match[1];
  }
  return localStorage.getItem(key);
}

// ---------------------------------------------------------------- settings form
function readForm() {
  return { ...readBoardForm(form, settings), race: false };
}

/** Put the room's settings ({rows, cols, start: [r, c], ...}) on the form. */
function fillForm(demo) {
  fillBoardForm(form, demo);
  settings = laneSettings(demo);
  showStart();
}

function showStart() {
  $("#w-start-name").textContent = nameOf(settings.start, settings.rows, settings.cols);
}

/** The lane shows the form's board to pick a start on; the class goes on meanwhile. */
function preview() {
  settings = readForm();
  stage.drawing = false;
  page.dataset.phase = "setup";
  lane.preview(settings);
  lane.say(t("class.ui.pick"));
  showStart();
}

/** Why the demo's shape field cannot be read (the class puzzle's words: the same codes). */
function shapeProblem(code) {
  return code ? t(`class.error.bad-puzzle.${code}`, { max: MAX_SHAPE_SIDE, start: "" }) : "";
}

// ---------------------------------------------------------------- the room
function showError(message) {
  errorBox.textContent = message || "";
  errorBox.hidden = !message;
}

async function showDemo() {
  if (starting || !room?.joined) return;
  starting = true;
  showError("");
  try {
    const next = readForm();
    if (next.shapeError) {
      showError(shapeProblem(next.shapeError));
      return;
    }
    const ack = await controls.settings(runParams(next));
    if (!ack?.ok) {
      showError(ack?.error?.message);
      return;
    }
    settings = next;
    stage.resume();
    page.dataset.phase = "running";
    controls.control({ index: 0, playing: true, speed: transport.speed });
  } finally {
    starting = false;
  }
}

const quiz = new QuizPanel($("#c-quiz"), {
  role: "teacher",
  call,
  settings: () => follower.state?.settings,
  onHeat: (heat) => lane.setOverlay(heat),
  onAnswer: (sq) => lane.setAnswer(sq),
  onState: (state) => {
    controls.resume(state);
    follower.adoptState(state);
  },
  onQuestion: () => tabs.select("quiz"),
  onOk: () => showError(""), // a refusal's words stay only until something works
});
quiz.playing = () => transport.playing && !follower.atEnd;

function onJoined(ack) {
  quiz.restore();
  page.dataset.connection = "joined";
  $("#c-conn").textContent = t("class.ui.connected");
  showStudents(ack.students);
  handout.showPuzzle(ack.puzzle);
  handout.showLeaderboard(ack.leaderboard);
  goButton.disabled = false;
  const state = ack.state;
  controls.resume(state);
  follower.adoptState(state);
  follower.adoptSnapshot(ack.snapshot);
  follower.setConnected(true);
  if (joinedOnce) return; // a reconnect: the stream goes on
  joinedOnce = true;
  fillForm(state.settings);
  if (state.gen <= 1) {
    preview();
    return;
  }
  // A reload: pick the demo up where the class is.
  transport.speed = state.speed;
  stage.resume();
  page.dataset.phase = "running";
}

function joinFailed(error) {
  page.dataset.connection = "failed";
  goButton.disabled = true;
  showError(error?.message || error?.code);
  if (error?.code === "expired" || error?.code === "unknown-room") page.dataset.ended = "true";
}

function showStudents(n) {
  $("#c-students").textContent = formatNumber(n ?? 0);
  page.dataset.students = String(n ?? 0);
}

// ---------------------------------------------------------------- every frame
function frame(now) {
  const phase = stage.frame(now);
  if (story.show(follower.state?.lesson)) lessonDriver.update();
  if (stage.drawing) story.drawMoves(lane, follower.state?.gen);
  if (page.dataset.phase !== "setup")
    page.dataset.phase = phase === "ended" ? "finished" : "running";
  setupFold.follow(page.dataset.phase);
  transport.update(phase);
  const state = follower.state;
  if (state) quiz.follow({ gen: state.gen, index: follower.target(now) });
}

// ---------------------------------------------------------------- the form
form.addEventListener("submit", (event) => {
  event.preventDefault();
  showDemo();
});

form.addEventListener("change", (event) => {
  if (event.target.name === "preset" && form.elements.shape.value) {
    form.elements.shape.value = ""; // a preset is a plain rectangle
    followShape(form);
  }
  if (event.target.name === "shape") followShape(form);
  followSize(form, event.target);
  preview();
  showError(shapeProblem(settings.shapeError));
});

lane.board.onSquare = (sq) => {
  if (page.dataset.phase !== "setup" || !settings) return;
  if (settings.holes?.includes(sq)) return; // a hole is no square to start from
  settings.start = sq;
  lane.setStart(sq);
  showStart();
};

// ---------------------------------------------------------------- room panel
$("#c-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("#c-join-url").href);
    $("#c-copy").textContent = t("class.ui.copied");
  } catch {
    getSelection()?.selectAllChildren($("#c-join-url"));
  }
});

$("#c-end").addEventListener("click", async () => {
  if (!confirm(t("class.ui.end.confirm"))) return;
  const ack = await call("close");
  if (ack.ok) {
    stage.drawing = false;
    page.dataset.ended = "true";
    showError(t("class.ui.ended"));
    room.close();
  }
});

// ---------------------------------------------------------------- start-up
async function boot() {
  await startLanguage();
  bindProjector();
  preview();
  transport.showSpeed();
  const token = takeToken();
  if (!token) {
    showError(t("class.ui.no-token"));
    page.dataset.connection = "failed";
    return;
  }
  room = new ClassRoom({
    code,
    token,
    handlers: {
      joined: onJoined,
      joinFailed,
      state: (state) => follower.adoptState(state), // from another page of this teacher
      feed: (feed) => follower.addFeed(feed),
      snapshot: (snapshot) => follower.adoptSnapshot(snapshot),
      presence: (msg) => showStudents(msg.students),
      heartbeat: (ack) => showStudents(ack.students),
      leaderboard: (board) => handout.showLeaderboard(board),
      puzzle: (msg) => handout.showPuzzle(msg.puzzle),
      ended: () => joinFailed({ code: "expired", message: t("class.ui.ended") }),
      error: (err) => {
        // Every action's refusal is said where it was made (its answer); only the room's
        // end comes here alone.
        if (err.code === "expired" || err.code === "unknown-room") joinFailed(err);
      },
      status: (status) => {
        page.dataset.connection = status;
        if (status === "connected") return; // following again once joined
        follower.setConnected(false);
        $("#c-conn").textContent = t("class.ui.reconnecting");
      },
    },
  });
  quiz.attach(room.socket);
  page.dataset.ready = "true";
  exposeForTests({ lane, room, follower, controls, quiz, story, lessonDriver, tabs });
  new FrameLoop(frame).start();
}

boot();
