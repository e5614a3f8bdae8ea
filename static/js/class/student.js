// The students' page of a class room (phone first): follow the teacher's demo, and try
// the class puzzle when the teacher hands one out.
//
// Following: this page runs the same deterministic search as the teacher (its own run of
// the room's settings, on the /class socket) and shows the event at the teacher's index.
// A late joiner, a seek or a reconnect jumps there at once: events are consumed without
// being drawn (credit flows in big windows), then the board is drawn once.

import { formatNumber, getLang, loadCatalogue, t } from "../i18n.js";
import { Lane } from "../watch/lane.js";
import { PuzzlePlay } from "./puzzle.js";
import { ClassRoom, MAX_WINDOW, laneSettings, seekPlayer, squareName, targetIndex } from "./room.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#class");
const code = page.dataset.code;
const followLine = $("#c-follow");
const errorBox = $("#c-error");
const catchup = $("#c-catchup");
const catchupBar = $("#c-catchup-bar");

const CATCH_UP_EVENTS = 2000; // further behind than this: say so and skip drawing
const STARVED_MS = 1500; // no events for this long while behind: ask for credit again
const RETRY_MS = 3000; // a run that could not start is tried again after this long

const lane = new Lane($(".c-lane"));
let room = null;
let state = null; // the teacher's last control state
let stateAt = 0; // performance.now() when it arrived
let gen = 0; // the generation of our run
let starting = null; // the pending lane.start promise
let lastBatchAt = 0;
let lastStart = -Infinity;
let lastFrame = 0;
let ended = false;
let puzzle = null;
const play = new PuzzlePlay($("#c-puzzle"), {
  call: (event, payload) => room.call(event, payload),
  code,
});

// ---------------------------------------------------------------- following
function applyState(next) {
  if (!next || (state && next.gen === state.gen && next.seq < state.seq)) return;
  state = next;
  stateAt = performance.now();
  page.dataset.gen = String(state.gen);
  page.dataset.teacherIndex = String(state.index);
  page.dataset.teacherPlaying = String(state.playing);
  ensureRun();
}

function needsRun() {
  if (!state || state.gen <= 1 || ended) return false;
  if (gen !== state.gen) return true;
  const p = lane.player;
  if (!p) return !starting;
  if (lane.error) return true;
  const target = targetIndex(state, stateAt, performance.now());
  if (target < p.historyStart) return true; // stepped back beyond what we keep
  return p.done?.status === "stopped" && target > p.received; // the server stopped our run
}

function ensureRun() {
  if (starting || !room?.joined || !needsRun()) return;
  if (gen === state.gen && performance.now() - lastStart < RETRY_MS) return;
  lastStart = performance.now();
  const settings = laneSettings(state.settings);
  gen = state.gen;
  starting = lane
    .start(room.connection, settings, MAX_WINDOW)
    .then((run) => {
      if (run?.ack && run.ack.gen !== gen) gen = run.ack.gen;
      if (run) {
        const batch = run.handlers.batch;
        run.handlers.batch = (msg) => {
          lastBatchAt = performance.now();
          batch(msg);
        };
      }
    })
    .catch((err) => showError(err?.message))
    .finally(() => {
      starting = null;
    });
}

function frame(now) {
  const dt = lastFrame ? Math.min(0.25, (now - lastFrame) / 1000) : 0;
  lastFrame = now;
  if (state && !ended) tick(now, dt);
  requestAnimationFrame(frame);
}

function tick(now, dt) {
  ensureRun();
  const p = lane.player;
  if (!p || gen !== state.gen) return;
  const target = targetIndex(state, stateAt, now);
  const behind = target - p.pos;
  const far = behind > CATCH_UP_EVENTS;
  if (lane.run) lane.run.setWindow(far ? MAX_WINDOW : windowFor(state.speed));
  let moved = false;
  if (behind > 0) {
    moved = seekPlayer(p, target, { allowBack: false });
    if (p.pos < target && p.buffered === 0 && !p.done && lane.run && now - lastBatchAt > STARVED_MS) {
      // Our credit was capped while the class was behind us: ask again.
      lastBatchAt = now;
      lane.run.granted = lane.run.drawn;
      lane.run.setWindow(lane.run.window);
    }
  } else if (behind < 0) {
    // Ahead of the teacher: paused or stepped back there, or a late position heartbeat.
    const slack = state.playing && state.speed ? Math.max(2, state.speed * 0.5) : 0;
    if (-behind > slack) moved = seekPlayer(p, target);
  }
  const playing = state.playing && !p.finished;
  if (playing && lane.active) lane.stats.tick(now, dt, p.frontier);
  catchup.hidden = !far;
  if (far) catchupBar.value = target > 0 ? p.pos / target : 0;
  if (moved || lane.changed || playing) {
    lane.updateStatus(playing);
    lane.draw(now, { fast: far || (playing && (state.speed === null || state.speed > 30)) });
  }
  page.dataset.pos = String(p.pos);
  page.dataset.target = String(target);
  page.dataset.follow = far ? "catching-up" : playing ? "playing" : "paused";
  showFollow(far, playing);
}

function windowFor(rate) {
  return rate ? Math.max(1000, Math.min(MAX_WINDOW, rate * 2)) : MAX_WINDOW;
}

let shownFollow = "";
function showFollow(far, playing) {
  let text;
  if (far) text = t("class.ui.follow.catching-up");
  else if (playing) {
    text = state.speed
      ? t("class.ui.follow.playing", { speed: formatNumber(state.speed) })
      : t("class.ui.follow.playing-max");
  } else text = t("class.ui.follow.paused");
  const algo = t(`watch.ui.algo.${state.settings.algorithm}`);
  const board = `${state.settings.rows}×${state.settings.cols}`;
  text = `${algo} · ${board} · ${text}`;
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
  if (lane.error) gen = 0; // the old run died with the connection
  applyState(ack.state);
  if (ack.state.gen <= 1) {
    followLine.textContent = t("class.ui.waiting");
    if (!lane.player) {
      lane.preview(laneSettings(ack.state.settings)); // an empty board until the demo starts
      lane._say(t("class.ui.waiting"));
    }
  }
  showPuzzle(ack.puzzle);
}

function endClass(error) {
  ended = true;
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
  const [row, col] = next.start;
  $("#c-puzzle-text").textContent = t(next.closed ? "class.ui.puzzle.closed" : "class.ui.puzzle.open", {
    rows: next.rows,
    cols: next.cols,
    square: squareName(row, col, next.rows),
  });
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
  await loadCatalogue(getLang());
  room = new ClassRoom({
    code,
    handlers: {
      joined: onJoined,
      joinFailed: (error) => {
        if (error.code === "expired" || error.code === "unknown-room") endClass(error);
        else showError(error.message);
      },
      state: applyState,
      puzzle: (msg) => showPuzzle(msg.puzzle),
      ended: () => endClass(null),
      error: (err) => {
        if (err.code === "expired" || err.code === "unknown-room") endClass(err);
      },
      status: (status) => {
        page.dataset.connection = status;
        if (status !== "connected") followLine.textContent = t("class.ui.reconnecting");
      },
    },
  });
  page.dataset.ready = "true";
  window.classPage = { lane, room, play, get state() { return state; } }; // for the console and tests
  requestAnimationFrame(frame);
}

boot();
