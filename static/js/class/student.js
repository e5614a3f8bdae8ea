// The students' page of a class room (phone first): follow the teacher's demo (with the
// guided lesson's narration when the teacher runs it), answer the quiz in a sheet when the
// teacher asks, and try the class puzzle when the teacher hands one out: under one name,
// given once (identity.js).
//
// Following: the server runs the room's one search and streams it; this page shows the
// event the class is at (follow.js keeps up, stage.js draws). A late joiner, a seek or a
// reconnect lands there from a snapshot at once; while the server computes towards a far
// index, a line says how far it has got.

import { formatNumber, t } from "../core/i18n.js";
import { startLanguage } from "../core/language.js";
import { exposeForTests } from "../core/test-hook.js";
import { FrameLoop } from "../lanes/frame-loop.js";
import { Lane } from "../lanes/lane.js";
import { RoomFollower } from "./follow.js";
import { RoomIdentity } from "./identity.js";
import { LabInvite } from "./lab-invite.js";
import { LessonStory } from "./lesson.js";
import { PuzzlePlay, puzzleText } from "./puzzle.js";
import { QuizPanel } from "./quiz.js";
import { QuizSheet } from "./quiz-sheet.js";
import { ClassRoom } from "./room.js";
import { Stage } from "./stage.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#class");
const code = page.dataset.code;
const followLine = $("#c-follow");
const errorBox = $("#c-error");

const lane = new Lane($(".c-lane"), { input: false }); // students follow: no squares to pick
let room = null;
let ended = false;
let puzzle = null;
const call = (event, payload) => room.call(event, payload);
const follower = new RoomFollower({ sync: (payload) => call("sync", payload) });
const second = new Lane($(".c-lane-b"), { input: false }); // a lesson's race
const stage = new Stage({ page, lane, follower, second });
const story = LessonStory.onPage({ hideIdle: true });
const identity = new RoomIdentity({ code, call });
const play = new PuzzlePlay($("#c-puzzle"), { call, code, identity });
const labInvite = new LabInvite($("#c-lab-invite"), code); // the teacher's lab exercise
let sheet = null; // the quiz's sheet, once made (it reads the panel)
const quiz = new QuizPanel($("#c-quiz"), {
  role: "student",
  call,
  identity,
  settings: () => follower.state?.settings,
  onChange: () => sheet?.update(),
});
sheet = new QuizSheet({
  dialog: $("#q-sheet"),
  quiz,
  bar: { root: $("#q-bar"), text: $("#q-bar-text"), open: $("#q-open") },
});

identity.onChange((student) => {
  const me = $("#c-me");
  me.hidden = !student;
  me.textContent = student ? t("class.ui.me", { name: student.name }) : "";
});

// ---------------------------------------------------------------- following
function frame(now) {
  if (ended) return false;
  const phase = stage.frame(now);
  story.show(follower.state?.lesson); // the teacher's lesson step, in this page's language
  story.drawMoves(lane, follower.state?.gen);
  story.showVerdict(stage.verdict);
  if (room?.joined) showFollow(phase);
  followQuiz(now);
  return stage.active; // false: the loop may sleep
}
const loop = new FrameLoop(frame);

/** The quiz follows the class: its sheet opens when the question reaches this board. */
function followQuiz(now) {
  const state = follower.state;
  if (!state) return;
  const at = { gen: state.gen, index: follower.target(now) };
  const shown = lane.player && stage.drawing ? lane.player.pos : null;
  quiz.follow(at, shown);
}

const FOLLOW_WORDS = {
  waiting: "class.ui.waiting",
  "catching-up": "class.ui.follow.catching-up",
  paused: "class.ui.follow.paused",
  "to-the-end": "class.ui.follow.playing-max",
  ended: "class.ui.follow.ended",
};

let shownFollow = "";
function showFollow(phase) {
  const state = follower.state;
  if (!state) return;
  let text;
  if (phase === "waiting") text = t("class.ui.waiting");
  else {
    const speed = follower.clock.speed;
    const doing =
      phase === "playing"
        ? t("class.ui.follow.playing", { speed: formatNumber(speed) })
        : t(FOLLOW_WORDS[phase]);
    const algo = t(`watch.ui.algo.${state.settings.algorithm}`);
    text = `${algo} · ${state.settings.rows}×${state.settings.cols} · ${doing}`;
  }
  if (text !== shownFollow) {
    shownFollow = text;
    followLine.textContent = text;
  }
}

// ---------------------------------------------------------------- the room
function showError(message) {
  errorBox.textContent = message || "";
  errorBox.hidden = !message;
}

function onJoined(ack) {
  page.dataset.connection = "joined";
  showError("");
  follower.adoptState(ack.state);
  follower.adoptSnapshot(ack.snapshot);
  follower.setConnected(true);
  shownFollow = "";
  showPuzzle(ack.puzzle);
  labInvite.show(ack.lab);
  quiz.restore(); // enters again as this browser's student, if it was one
}

function endClass(error) {
  ended = true;
  stage.reveal();
  sheet.close();
  page.dataset.connection = "ended";
  lane.detach();
  showError(error?.message || t("class.ui.ended"));
  room?.close();
}

function showPuzzle(next) {
  const fresh = next && (!puzzle || puzzle.seq !== next.seq);
  puzzle = next;
  const tab = $("#c-tab-puzzle");
  tab.hidden = !next;
  $(".c-tabs").hidden = !next;
  page.dataset.puzzle = next ? String(next.seq) : "";
  if (!next) {
    setView("demo");
    play.clear();
    return;
  }
  $("#c-puzzle-text").textContent = puzzleText(next);
  if (fresh) {
    play.setPuzzle(next);
    $("#c-puzzle-dot").hidden = page.dataset.view === "puzzle";
  }
}

function setView(view) {
  page.dataset.view = view;
  for (const tab of document.querySelectorAll(".c-tabs [role=tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.view === view));
  }
  if (view === "puzzle") $("#c-puzzle-dot").hidden = true;
  if (view === "demo") lane.changed = true;
}

for (const tab of document.querySelectorAll(".c-tabs [role=tab]")) {
  tab.addEventListener("click", () => setView(tab.dataset.view));
}

// ---------------------------------------------------------------- start-up
async function boot() {
  // The socket connects and joins while the words load and the board is built: a late
  // joiner's first frame waits for all three, so none waits for another. The room's
  // messages, which draw words, are held in order until the words are in.
  const language = startLanguage();
  const pending = [];
  let speaking = false;
  const afterLanguage =
    (handle) =>
    (...args) =>
      speaking ? handle(...args) : pending.push(() => handle(...args));
  room = new ClassRoom({
    code,
    handlers: mapValues(afterLanguage, {
      joined: onJoined,
      joinFailed: (error) => {
        if (error.code === "expired" || error.code === "unknown-room") endClass(error);
        else showError(error.message);
      },
      state: (state) => follower.adoptState(state),
      feed: (feed) => follower.addFeed(feed),
      snapshot: (snapshot) => follower.adoptSnapshot(snapshot),
      puzzle: (msg) => showPuzzle(msg.puzzle),
      ended: () => endClass(null),
      error: (err) => {
        if (err.code === "expired" || err.code === "unknown-room") endClass(err);
      },
      status: (status) => {
        page.dataset.connection = status;
        if (status === "connected") return; // following again once joined
        follower.setConnected(false);
        shownFollow = t("class.ui.reconnecting");
        followLine.textContent = shownFollow;
      },
    }),
  });
  quiz.attach(room.socket, afterLanguage);
  room.socket.on(
    "lab_exercise",
    afterLanguage((msg) => labInvite.show(msg.exercise)),
  );
  room.socket.on(
    "attempts_cleared",
    afterLanguage(({ student }) => {
      if (student === null || student === identity.student?.id) play.attemptsBack();
    }),
  );
  await language;
  // The room as the server rendered it with the page: the class's position is drawn now,
  // and the join's answer (held in `pending`, or on its way) confirms or moves it.
  const opening = JSON.parse($("#class-demo").textContent);
  stage.prepare(opening);
  follower.adoptState(opening.state, renderedAt());
  follower.adoptSnapshot(opening.snapshot);
  speaking = true;
  for (const call of pending.splice(0)) call();
  page.dataset.ready = "true";
  exposeForTests({ lane, room, play, follower, quiz, sheet, identity, story });
  loop.frame(performance.now()); // the class's position, drawn now rather than a frame later
  loop.start();
}

/** When the server answered this page (performance clock): when its rendered state held. */
function renderedAt() {
  const navigation = performance.getEntriesByType("navigation")[0];
  return navigation ? navigation.responseStart : performance.now();
}

/** `object` with `wrap` applied to each of its values. */
function mapValues(wrap, object) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, wrap(value)]));
}

boot();
