// The teacher's page of a class room: pick a demo, drive it (play, pause, step, step back,
// seek, speed) and every student's screen follows; hand out a puzzle and watch the class
// leaderboard fill up.
//
// This page is the clock. Its own run of the demo is drawn like the Watch page's; every
// change (and, while playing, a heartbeat of the position) goes to the room as a control
// state {gen, index, playing, speed}. The secret token comes in the URL fragment from
// /class/new, is kept in localStorage for this room, and is dropped from the address bar.

import { formatNumber, formatTime, getLang, loadCatalogue, t } from "../i18n.js";
import { squareLabel } from "../watch/decode.js";
import { Lane } from "../watch/lane.js";
import { clampInt, followSize, readBoardForm, runParams, setRadio } from "../watch/setup.js";
import { consume, speedLabel, speedToStep, stepToSpeed, windowFor } from "../watch/speed.js";
import { bindActions, showPlaying, showSeek } from "../watch/transport.js";
import { ClassRoom, MAX_WINDOW, laneSettings, parseSquare, seekPlayer, squareName } from "./room.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#class");
const code = page.dataset.code;
const form = $("#w-form");
const speedInput = $("#w-speed");
const speedOut = $("#w-speed-out");
const seekInput = $("#w-seek");
const playButton = $('[data-action="play"]');
const goButton = $("#c-go");
const errorBox = $("#c-error");
const puzzleForm = $("#c-puzzle-form");

const SYNC_MS = 1000; // position heartbeat while playing at a finite speed
const SYNC_FAST_MS = 250; // ... and at full speed
const SEEK_SYNC_MS = 100; // while the seek slider is dragged

const lane = new Lane($(".c-lane"));
let room = null;
let settings = null; // the demo shown (lane settings: start is a square)
let gen = 0; // the room's demo generation our run belongs to
let playing = false;
let jumping = false;
let carry = 0;
let lastFrame = 0;
let pendingSteps = 0;
let resumeTo = null; // after a reload: fast-forward to this index first
let resumePlaying = false;
let lastSync = 0;
let syncTimer = 0;
let starting = false;

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

function fillForm(s) {
  form.elements.rows.value = s.rows;
  form.elements.cols.value = s.cols;
  setRadio(form, "preset", `${s.rows}x${s.cols}`);
  setRadio(form, "algorithm", s.algorithm);
  setRadio(form, "tour", s.closed ? "closed" : "open");
  form.elements.pruning.checked = s.pruning;
}

function preview() {
  if (lane.run) lane.detach();
  settings = readForm();
  gen = 0;
  playing = false;
  jumping = false;
  resumeTo = null;
  page.dataset.phase = "setup";
  lane.preview(settings);
  lane._say(t("class.ui.pick"));
  $("#w-start-name").textContent = squareLabel(settings.start, settings.rows, settings.cols);
  updateControls();
}

// ---------------------------------------------------------------- speed
function speed() {
  return jumping ? Infinity : stepToSpeed(Number(speedInput.value));
}

function showSpeed() {
  speedOut.textContent = speedLabel(stepToSpeed(Number(speedInput.value)));
  lane.run?.setWindow(windowFor(speed()));
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
    const ack = await room.call("settings", runParams(next));
    if (!ack.ok) {
      showError(ack.error?.message);
      return;
    }
    settings = next;
    await startRun(ack.state.gen);
    playing = true;
    carry = 0;
    sync(true);
  } finally {
    starting = false;
    updateControls();
  }
}

/** Start our run of the room's demo generation `g` (the server runs the room's settings). */
async function startRun(g) {
  gen = g;
  page.dataset.gen = String(g);
  page.dataset.phase = "running";
  const run = await lane.start(room.connection, settings, windowFor(speed()));
  if (run?.ack && run.ack.gen !== g) gen = run.ack.gen;
}

function controlState() {
  const p = lane.player;
  const rate = speed();
  return {
    gen,
    index: p ? p.pos : 0,
    frontier: p ? p.frontier : 0,
    playing: playing && !(p && p.finished),
    speed: Number.isFinite(rate) ? rate : null,
  };
}

/** Tell the room where we are; throttled unless `now` (every user action is sent at once). */
function sync(now = false, throttle = SEEK_SYNC_MS) {
  if (!room?.joined || !gen || resumeTo !== null) return;
  const wait = lastSync + throttle - performance.now();
  if (!now && wait > 0) {
    if (!syncTimer) syncTimer = setTimeout(() => {
      syncTimer = 0;
      sync(true);
    }, wait);
    return;
  }
  clearTimeout(syncTimer);
  syncTimer = 0;
  lastSync = performance.now();
  const state = controlState();
  page.dataset.sentIndex = String(state.index);
  page.dataset.sentPlaying = String(state.playing);
  room.call("control", state).then((ack) => {
    if (!ack.ok && ack.error?.code === "stale") showError(ack.error.message);
  });
}

async function onJoined(ack) {
  page.dataset.connection = "joined";
  $("#c-conn").textContent = t("class.ui.connected");
  showStudents(ack.students);
  showPuzzle(ack.puzzle);
  showLeaderboard(ack.leaderboard);
  goButton.disabled = false;
  const state = ack.state;
  if (state.gen > 1 && (gen !== state.gen || !lane.player || lane.error)) {
    // A reload (or a reconnect): pick the demo up where the class is.
    fillForm(state.settings);
    settings = laneSettings(state.settings);
    if (state.speed) speedInput.value = speedToStep(state.speed);
    showSpeed();
    resumeTo = state.index;
    resumePlaying = state.playing;
    playing = false;
    await startRun(state.gen);
    lane.run?.setWindow(MAX_WINDOW);
  } else if (gen === 0) {
    fillForm(state.settings);
    preview();
  }
  updateControls();
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

// ---------------------------------------------------------------- the clock
function frame(now) {
  const dt = lastFrame ? Math.min(0.25, (now - lastFrame) / 1000) : 0;
  lastFrame = now;
  if (lane.player) tick(now, dt);
  requestAnimationFrame(frame);
}

/** Our run was stopped by the server (paused over 10 minutes): a new one, back to here. */
function recover(p) {
  if (starting || resumeTo !== null || !gen || !room?.joined) return false;
  if (p.done?.status !== "stopped" || p.pos < p.received) return false;
  resumeTo = p.pos;
  resumePlaying = playing;
  playing = false;
  starting = true;
  startRun(gen)
    .catch((err) => showError(err?.message))
    .finally(() => {
      starting = false;
    });
  return true;
}

function tick(now, dt) {
  const p = lane.player;
  if (recover(p)) return;
  let moved = false;
  if (resumeTo !== null) {
    lane.run?.setWindow(MAX_WINDOW);
    moved = seekPlayer(p, resumeTo, { allowBack: false });
    if (p.pos >= resumeTo || p.finished) {
      resumeTo = null;
      playing = resumePlaying;
      showSpeed();
      sync(true);
    }
  } else {
    if (pendingSteps > 0 && (p.buffered > 0 || p.finished)) {
      p.advance(1);
      pendingSteps--;
      moved = true;
      sync(true);
    }
    if (playing) {
      const step = consume(speed(), now, dt, carry, (n) => p.advance(n));
      carry = step.carry;
      moved ||= step.moved;
      if (lane.active) lane.stats.tick(now, dt, p.frontier);
      if (p.finished) {
        playing = false;
        jumping = false;
        page.dataset.phase = "finished";
        sync(true);
      } else {
        sync(false, Number.isFinite(speed()) ? SYNC_MS : SYNC_FAST_MS);
      }
    }
  }
  if (moved || lane.changed || playing) {
    lane.updateStatus(playing);
    lane.draw(now, { fast: playing && speed() > 30 });
    updateControls();
  }
  page.dataset.pos = String(p.pos);
  page.dataset.playing = String(playing);
}

// ---------------------------------------------------------------- controls
function updateControls() {
  const p = lane.player;
  const any = Boolean(p) && resumeTo === null;
  const button = (action) => $(`[data-action="${action}"]`);
  button("back").disabled = !any || !p.canStepBack;
  button("step").disabled = !any || p.finished || Boolean(lane.error);
  button("end").disabled = !any || p.finished;
  playButton.disabled = !any || (p.finished && !playing);
  showPlaying(playButton, playing);
  showSeek(seekInput, any ? p : null);
}

function pause() {
  playing = false;
  jumping = false;
  lane.stats.idle();
}

function redraw() {
  lane.updateStatus(playing);
  lane.draw(performance.now());
  updateControls();
}

const actions = {
  play() {
    if (playing) pause();
    else if (lane.active) {
      playing = true;
      page.dataset.phase = "running";
    }
    redraw();
    sync(true);
  },
  step() {
    pause();
    if (lane.player.buffered > 0 || lane.finished) {
      lane.player.advance(1);
      sync(true);
    } else pendingSteps++;
    redraw();
  },
  back() {
    pause();
    pendingSteps = 0;
    lane.player?.back(1);
    if (page.dataset.phase === "finished") page.dataset.phase = "running";
    redraw();
    sync(true);
  },
  end() {
    playing = true;
    jumping = true;
    lane.run?.setWindow(MAX_WINDOW);
    redraw();
    sync(true);
  },
};

bindActions(actions);

speedInput.addEventListener("input", () => {
  showSpeed();
  sync(false);
});

seekInput.addEventListener("input", () => {
  pause();
  lane.player?.seek(Number(seekInput.value));
  redraw();
  sync(false);
});
seekInput.addEventListener("change", () => sync(true));

form.addEventListener("submit", (event) => {
  event.preventDefault();
  showDemo();
});

form.addEventListener("change", (event) => {
  followSize(form, event.target);
  preview();
});

lane.board.onSquare = (row, col) => {
  if (page.dataset.phase !== "setup" || !settings) return;
  settings.start = row * settings.cols + col;
  lane.board.setStart(settings.start);
  $("#w-start-name").textContent = squareLabel(settings.start, settings.rows, settings.cols);
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
  const ack = await room.call("close");
  if (ack.ok) {
    lane.detach();
    page.dataset.ended = "true";
    showError(t("class.ui.ended"));
    room.close();
  }
});

// ---------------------------------------------------------------- the puzzle
function puzzleText(puzzle) {
  const [row, col] = puzzle.start;
  return t(puzzle.closed ? "class.ui.puzzle.closed" : "class.ui.puzzle.open", {
    rows: puzzle.rows,
    cols: puzzle.cols,
    square: squareName(row, col, puzzle.rows),
  });
}

function showPuzzle(puzzle) {
  const now = $("#c-puzzle-now");
  now.hidden = !puzzle;
  now.textContent = puzzle ? t("class.ui.puzzle.now", { puzzle: puzzleText(puzzle) }) : "";
  $("#c-puzzle-clear").hidden = !puzzle;
  page.dataset.puzzle = puzzle ? String(puzzle.seq) : "";
}

function showLeaderboard(board) {
  const body = $("#c-leaderboard tbody");
  const rows = (board?.entries || []).map((entry) => {
    const tr = document.createElement("tr");
    const cells = [entry.rank, entry.name, formatTime(entry.seconds), entry.moves, entry.hints];
    for (const value of cells) {
      const td = document.createElement("td");
      td.textContent = String(value); // names are plain text, never HTML
      tr.append(td);
    }
    return tr;
  });
  body.replaceChildren(...rows);
  $("#c-board-empty").hidden = rows.length > 0;
  $("#c-board-counts").textContent = board?.puzzle
    ? t("class.ui.lb.counts", { solved: board.solved, trying: board.trying })
    : "";
  page.dataset.solved = String(board?.solved ?? 0);
}

puzzleForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(puzzleForm);
  const rows = clampInt(data.get("rows"), 3, 20, 6);
  const cols = clampInt(data.get("cols"), 3, 20, 6);
  const start = parseSquare(String(data.get("start")), rows, cols);
  const problem = $("#c-puzzle-error");
  if (!start) {
    problem.textContent = t("class.ui.puzzle.bad-start");
    problem.hidden = false;
    return;
  }
  problem.hidden = true;
  const ack = await room.call("puzzle", { rows, cols, closed: data.get("tour") === "closed", start });
  if (!ack.ok) {
    problem.textContent = ack.error?.message;
    problem.hidden = false;
    return;
  }
  showPuzzle(ack.puzzle);
  showLeaderboard(ack.leaderboard);
});

$("#c-puzzle-clear").addEventListener("click", async () => {
  const ack = await room.call("puzzle", null);
  if (ack.ok) {
    showPuzzle(null);
    showLeaderboard(ack.leaderboard);
  }
});

// ---------------------------------------------------------------- start-up
async function boot() {
  await loadCatalogue(getLang());
  preview();
  showSpeed();
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
      presence: (msg) => showStudents(msg.students),
      heartbeat: (ack) => showStudents(ack.students),
      leaderboard: showLeaderboard,
      puzzle: (msg) => showPuzzle(msg.puzzle),
      ended: () => joinFailed({ code: "expired", message: t("class.ui.ended") }),
      error: (err) => {
        if (err.code !== "timeout") showError(err.message);
      },
      status: (status) => {
        page.dataset.connection = status;
        if (status !== "connected") $("#c-conn").textContent = t("class.ui.reconnecting");
      },
    },
  });
  page.dataset.ready = "true";
  window.classPage = { lane, room, get gen() { return gen; } }; // for the console and tests
  requestAnimationFrame(frame);
}

boot();
