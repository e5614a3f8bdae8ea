// The Watch page: pick a board, a start square and an algorithm, then watch every move
// and every backtrack of the search, at any speed, forwards or backwards.
//
// One playback clock (stream/clock.js) drives every lane: each frame the lanes' players move
// to the event index it says, then what changed is redrawn. Credit flows back to the server
// only for consumed events, so pausing here pauses the search there.

import { t } from "../core/i18n.js";
import { bindLanguageSwitch, startLanguage } from "../core/language.js";
import { bindProjector } from "../core/projector.js";
import { MAX_SHAPE_SIDE } from "../core/shape.js";
import { nameOf } from "../core/squares.js";
import { exposeForTests } from "../core/test-hook.js";
import { CodePanel } from "../lanes/code-panel.js";
import { countPlayback, drawLanes, FrameLoop, followClock } from "../lanes/frame-loop.js";
import { Lane } from "../lanes/lane.js";
import { raceVerdict, startRace } from "../lanes/race.js";
import { fitSizeFields, followShape, followSize, readBoardForm } from "../lanes/setup.js";
import { windowFor } from "../lanes/speed.js";
import { Transport } from "../lanes/transport.js";
import { PlaybackClock, seekPlayers, shownIndex } from "../stream/clock.js";
import { WatchConnection } from "../stream/connection.js";
import { applyQuery } from "./query.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#watch");
const form = $("#w-form");
const formError = $("#w-form-error");
const raceResult = $("#w-race-result");

const lanes = [...document.querySelectorAll(".w-lane")].map((root) => new Lane(root));
const code = new CodePanel($(".w-code-panel"));
const clock = new PlaybackClock();
let connection = null;
let settings = null; // the running (or previewed) settings
let starting = false;

// ---------------------------------------------------------------- settings
function readForm() {
  const data = new FormData(form);
  const race = data.get("race") === "on";
  return { ...readBoardForm(form, settings), algorithmB: data.get("algorithm_b"), race };
}

function activeLanes() {
  return settings?.race ? lanes : lanes.slice(0, 1);
}

function players() {
  return activeLanes()
    .filter((lane) => lane.player)
    .map((lane) => lane.player);
}

function preview() {
  stopAll();
  settings = readForm();
  page.dataset.mode = settings.race ? "race" : "single";
  page.dataset.phase = "setup";
  lanes[1].root.hidden = !settings.race;
  lanes[0].preview(settings);
  if (settings.race) lanes[1].preview({ ...settings, algorithm: settings.algorithmB });
  showStart();
  code.configure({ algorithm: settings.algorithm });
  code.highlight("");
  raceResult.hidden = true;
  formError.hidden = true;
  if (settings.shapeError) showFormError(shapeErrorText(settings.shapeError));
  showControls();
}

/** Why the shape field cannot be read, in words (the class puzzle's words: the same codes). */
function shapeErrorText(code) {
  return t(`class.error.bad-puzzle.${code}`, { max: MAX_SHAPE_SIDE, start: "" });
}

function showStart() {
  $("#w-start-name").textContent = nameOf(settings.start, settings.rows, settings.cols);
}

function stopAll() {
  for (const lane of lanes) lane.detach();
  clock.pause(0);
}

async function startRuns() {
  if (starting) return;
  starting = true;
  preview();
  if (settings.shapeError) {
    starting = false;
    return;
  }
  page.dataset.phase = "running";
  connection ||= openConnection();
  const window = windowFor(clock.speed);
  try {
    if (settings.race) await startRace(connection, lanes, settings, window);
    else await lanes[0].start(connection, settings, window);
    clock.play(0, performance.now());
    const top = lanes[0].root.getBoundingClientRect().top;
    if (top < 0 || top > innerHeight * 0.6) {
      lanes[0].root.scrollIntoView({ block: "start", behavior: "smooth" });
    }
  } catch (err) {
    page.dataset.phase = "setup";
    showFormError(err?.message || String(err));
  } finally {
    starting = false;
    showControls();
  }
}

function openConnection() {
  const conn = new WatchConnection();
  conn.onError = (err) => showFormError(err.message);
  return conn;
}

function showFormError(message) {
  formError.textContent = message;
  formError.hidden = false;
}

// ---------------------------------------------------------------- every frame
function frame(now, dt) {
  const current = activeLanes().filter((lane) => lane.player);
  if (!current.length) return;
  const moved = followClock(clock, current, now);
  const { playing } = clock;
  countPlayback(current, now, dt, playing);
  if (page.dataset.phase === "running" && current.every((lane) => lane.finished)) finish(current);
  drawLanes(current, now, {
    playing: clock.playing,
    fast: clock.fast,
    all: moved || clock.playing,
  });
  code.highlight(current[0].tags);
  if (moved || playing) showControls();
}

/** Every lane is done: stand at the end, say who won a race. */
function finish(current) {
  clock.pause(shownIndex(players()));
  page.dataset.phase = "finished";
  for (const lane of current) lane.updateStatus(false);
  const verdict = settings.race && raceVerdict(current);
  if (verdict) {
    raceResult.textContent = verdict.text;
    raceResult.hidden = false;
    lanes.forEach((lane, i) => {
      lane.root.dataset.winner = String(verdict.winner === i);
    });
  }
  showControls();
}

function redraw() {
  const now = performance.now();
  seekPlayers(players(), clock.target(now));
  for (const lane of activeLanes()) {
    lane.updateStatus(clock.playing);
    lane.draw(now);
  }
  code.highlight(activeLanes()[0].tags);
  showControls();
}

// ---------------------------------------------------------------- the transport bar
function showControls() {
  const current = activeLanes().filter((lane) => lane.player);
  const any = current.length > 0;
  const done = any && current.every((lane) => lane.finished);
  const player = current[0]?.player;
  const seekable = seekableLanes().length > 0;
  const seeking = current.some((lane) => lane.seeking);
  page.dataset.seeking = String(seeking);
  transport.show({
    playing: clock.playing,
    enabled: {
      restart: Boolean(settings) && !starting,
      back: !seeking && current.some((l) => l.player.canStepBack || (seekable && l.player.pos > 0)),
      step: any && !seeking && !current.every((lane) => lane.player.finished || lane.error),
      end: any && !seeking && !done,
      play: any && (!done || clock.playing),
    },
    seek: player
      ? { min: seekable ? 0 : player.historyStart, max: player.received, value: player.pos }
      : null,
  });
}

/** Lanes whose runs can ask the server for any index (fresh runs, not seeking already). */
function seekableLanes() {
  const current = activeLanes().filter((lane) => lane.player);
  return current.length && current.every((lane) => lane.seekable && !lane.seeking) ? current : [];
}

/** Ask the server to stand at `index` (null: the end): it computes, then sends snapshots. */
function seekOnServer(lanes, index) {
  pause();
  for (const lane of lanes) lane.seek(index);
  showControls();
}

/** A lane's seek landed: stand where it asked (at the end: the furthest lane's end). */
function landed(snapshot) {
  const atEnd = snapshot.end !== null && snapshot.index === snapshot.end.total;
  clock.pause(atEnd ? Math.max(snapshot.index, shownIndex(players())) : snapshot.index);
  reopen();
  redraw();
}

for (const lane of lanes) lane.onLanded = landed;

function pause() {
  clock.pause(shownIndex(players()));
  for (const lane of activeLanes()) lane.stats.idle();
}

/** Stepping back from the end: the race is not over any more. */
function reopen() {
  if (page.dataset.phase === "finished") page.dataset.phase = "running";
  raceResult.hidden = true;
}

const transport = new Transport({
  play() {
    if (clock.playing) pause();
    else if (activeLanes().some((lane) => lane.active)) {
      clock.play(shownIndex(players()), performance.now());
      page.dataset.phase = "running";
    }
    redraw();
  },
  step() {
    clock.step(shownIndex(players()));
    redraw();
  },
  back() {
    const shown = shownIndex(players());
    const held = players().some((player) => player.canStepBack);
    const lanes = seekableLanes();
    if (!held && lanes.length && shown > 0) {
      seekOnServer(lanes, shown - 1); // before what the page holds: the server's checkpoints
      return;
    }
    clock.back(shown);
    reopen();
    redraw();
  },
  end() {
    const lanes = seekableLanes();
    if (lanes.length) {
      seekOnServer(lanes, null); // the server computes the end with its engine
      return;
    }
    clock.runToEnd(performance.now());
    redraw();
  },
  restart: startRuns,
  speed(speed) {
    clock.setSpeed(speed, performance.now());
    for (const lane of lanes) lane.setWindow(windowFor(speed));
  },
  seek(index, { done }) {
    const lanes = seekableLanes();
    const held = players().every((player) => player.holds(index));
    if (!held && lanes.length) {
      if (done) seekOnServer(lanes, index);
      return;
    }
    clock.pause(index);
    reopen();
    redraw();
  },
});

$("#w-heat").addEventListener("change", (event) => {
  for (const lane of lanes) lane.setHeat(event.target.checked);
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  startRuns();
});

form.addEventListener("change", (event) => {
  if (event.target.name === "preset" && form.elements.shape.value) {
    form.elements.shape.value = ""; // a preset is a plain rectangle
    followShape(form);
  }
  if (event.target.name === "shape") followShape(form);
  followSize(form, event.target);
  $("#w-race-with").hidden = !form.elements.race.checked;
  const race = form.elements.race.checked;
  fitSizeFields(form, [form.elements.algorithm.value, race ? form.elements.algorithm_b.value : ""]);
  preview();
});

for (const lane of lanes) {
  lane.board.onSquare = (sq) => {
    if (starting || activeLanes().some((l) => l.active)) return; // watching: read-only
    if (settings.holes?.includes(sq)) return; // a hole is no square to start from
    settings.start = sq;
    preview();
  };
}

// ---------------------------------------------------------------- language
bindLanguageSwitch(() => {
  for (const lane of lanes) lane.relabel();
  code.configure({});
  const verdict = !raceResult.hidden && settings?.race && raceVerdict(activeLanes());
  if (verdict) raceResult.textContent = verdict.text;
  transport.showSpeed();
  showControls();
  page.dataset.lang = document.body.dataset.lang;
});

// ---------------------------------------------------------------- start-up
async function boot() {
  const { go, start, speed } = applyQuery(form);
  if (speed !== undefined) transport.speed = speed;
  clock.speed = transport.speed;
  await startLanguage();
  transport.showSpeed();
  $("#w-race-with").hidden = !form.elements.race.checked;
  settings = readForm();
  if (start !== null && start[0] < settings.rows && start[1] < settings.cols) {
    settings.start = start[0] * settings.cols + start[1];
  }
  preview();
  connection = openConnection();
  bindProjector({ onChange: redraw });
  exposeForTests({ lanes, clock });
  page.dataset.ready = "true";
  new FrameLoop(frame).start();
  if (go) startRuns();
}

boot();
