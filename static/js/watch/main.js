// The Watch page: pick a board, a start square and an algorithm, then watch every move
// and every backtrack of the search, at any speed, forwards or backwards.
//
// One clock (requestAnimationFrame) drives every lane: each frame it lets each player
// consume the events the speed allows, then redraws what changed. Credit flows back to
// the server only for consumed events, so pausing here pauses the search there.

import { getLang, loadCatalogue, setLang, t, translateStatic } from "../i18n.js";
import { CodePanel } from "./code-panel.js";
import { WatchConnection } from "./connection.js";
import { squareLabel } from "./decode.js";
import { Lane } from "./lane.js";
import { raceVerdict, startRace } from "./race.js";
import { SIZE_LIMIT, followSize, readBoardForm, setRadio, syncPreset } from "./setup.js";
import {
  MAX_SPEED_STEP,
  consume,
  speedLabel,
  speedToStep,
  stepToSpeed,
  windowFor,
} from "./speed.js";
import { bindActions, showPlaying, showSeek } from "./transport.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#watch");
const form = $("#w-form");
const speedInput = $("#w-speed");
const speedOut = $("#w-speed-out");
const seekInput = $("#w-seek");
const heatInput = $("#w-heat");
const playButton = $('[data-action="play"]');
const formError = $("#w-form-error");
const raceResult = $("#w-race-result");

const lanes = [...document.querySelectorAll(".w-lane")].map((root) => new Lane(root));
const code = new CodePanel($(".w-code-panel"));
let connection = null;
let settings = null; // the running (or previewed) settings
let playing = false;
let jumping = false; // "jump to the result": max speed until the end, then pause
let carry = 0; // fractional events owed by the clock
let lastFrame = 0;
let pendingSteps = 0; // steps asked for before their events arrived
let starting = false;

// ---------------------------------------------------------------- settings
function readForm() {
  const data = new FormData(form);
  return {
    ...readBoardForm(form, settings),
    algorithmB: data.get("algorithm_b"),
    race: data.get("race") === "on",
  };
}

/** Apply ?rows=&cols=&start=r,c&algorithm=&b=&closed=1&pruning=1&speed=&go=1 to the form. */
function applyQuery() {
  const q = new URLSearchParams(location.search);
  const set = (name, value) => {
    const el = form.elements[name];
    if (el && value !== null) el.value = value;
  };
  set("rows", q.get("rows"));
  set("cols", q.get("cols"));
  if (q.get("algorithm")) setRadio(form, "algorithm", q.get("algorithm"));
  if (q.get("b")) {
    form.elements.race.checked = true;
    set("algorithm_b", q.get("b"));
  }
  if (q.get("closed") === "1") setRadio(form, "tour", "closed");
  if (q.get("pruning") === "1") form.elements.pruning.checked = true;
  const speed = q.get("speed");
  if (speed === "max") speedInput.value = MAX_SPEED_STEP;
  else if (speed && Number(speed) > 0) speedInput.value = speedToStep(Number(speed));
  syncPreset(form);
  settings = readForm();
  const start = (q.get("start") || "").split(",").map(Number);
  if (start.length === 2 && start.every(Number.isInteger)) {
    const [r, c] = start;
    if (r >= 0 && r < settings.rows && c >= 0 && c < settings.cols)
      settings.start = r * settings.cols + c;
  }
  return q.get("go") === "1";
}

// ---------------------------------------------------------------- speed
function speed() {
  return jumping ? Infinity : stepToSpeed(Number(speedInput.value));
}

function showSpeed() {
  speedOut.textContent = speedLabel(stepToSpeed(Number(speedInput.value)));
  for (const lane of lanes) lane.run?.setWindow(windowFor(speed()));
}

// ---------------------------------------------------------------- lanes and runs
function activeLanes() {
  return settings?.race ? lanes : lanes.slice(0, 1);
}

function preview() {
  stopAll();
  settings = readForm();
  page.dataset.mode = settings.race ? "race" : "single";
  page.dataset.phase = "setup";
  lanes[1].root.hidden = !settings.race;
  lanes[0].preview(settings);
  if (settings.race) lanes[1].preview({ ...settings, algorithm: settings.algorithmB });
  $("#w-start-name").textContent = squareLabel(settings.start, settings.rows, settings.cols);
  code.configure({ algorithm: settings.algorithm, lang: getLang() });
  code.highlight("");
  raceResult.hidden = true;
  formError.hidden = true;
  updateControls();
}

function stopAll() {
  for (const lane of lanes) lane.detach();
  playing = false;
  jumping = false;
  pendingSteps = 0;
}

async function startRuns() {
  if (starting) return;
  starting = true;
  preview();
  page.dataset.phase = "running";
  formError.hidden = true;
  connection ||= openConnection();
  const window = windowFor(speed());
  try {
    if (settings.race) await startRace(connection, lanes, settings, window);
    else await lanes[0].start(connection, settings, window);
    playing = true;
    carry = 0;
    const top = lanes[0].root.getBoundingClientRect().top;
    if (top < 0 || top > innerHeight * 0.6)
      lanes[0].root.scrollIntoView({ block: "start", behavior: "smooth" });
  } catch (err) {
    page.dataset.phase = "setup";
    formError.textContent = err?.message || String(err);
    formError.hidden = false;
  } finally {
    starting = false;
    updateControls();
  }
}

function openConnection() {
  const conn = new WatchConnection();
  conn.onError = (err) => {
    formError.textContent = err.message;
    formError.hidden = false;
  };
  return conn;
}

// ---------------------------------------------------------------- the clock
function frame(now) {
  const dt = lastFrame ? Math.min(0.25, (now - lastFrame) / 1000) : 0;
  lastFrame = now;
  const current = activeLanes().filter((lane) => lane.player);
  if (current.length) tick(current, now, dt);
  requestAnimationFrame(frame);
}

function tick(current, now, dt) {
  let moved = false;
  if (pendingSteps > 0) {
    // Steps asked for before their events arrived: take them as the events come in.
    const ready = current.every((lane) => lane.player.buffered > 0 || lane.finished);
    if (ready) {
      for (const lane of current) lane.player.advance(1);
      pendingSteps--;
      moved = true;
    }
  }
  if (playing) {
    const advance = (n) => {
      let used = 0;
      for (const lane of current) used = Math.max(used, lane.player.advance(n));
      return used;
    };
    const step = consume(speed(), now, dt, carry, advance);
    carry = step.carry;
    moved ||= step.moved;
    for (const lane of current) {
      if (lane.active) lane.stats.tick(now, dt, lane.player.frontier);
      else lane.stats.idle();
    }
  }
  if (page.dataset.phase === "running" && current.every((lane) => lane.finished)) {
    playing = false;
    jumping = false;
    finish(current);
  }
  const fast = playing && speed() > 30;
  for (const lane of current) {
    if (moved || lane.changed || playing) {
      lane.updateStatus(playing);
      lane.draw(now, { fast });
    }
  }
  code.highlight(current[0].tags || "");
  if (moved || playing) updateControls();
}

function finish(current) {
  page.dataset.phase = "finished";
  for (const lane of current) lane.updateStatus(false);
  if (settings.race) {
    const verdict = raceVerdict(current);
    if (verdict) {
      raceResult.textContent = verdict.text;
      raceResult.hidden = false;
      lanes.forEach((lane, i) => {
        lane.root.dataset.winner = String(verdict.winner === i);
      });
    }
  }
  updateControls();
}

// ---------------------------------------------------------------- controls
function updateControls() {
  const current = activeLanes().filter((lane) => lane.player);
  const any = current.length > 0;
  const done = any && current.every((lane) => lane.finished);
  const button = (action) => $(`[data-action="${action}"]`);
  button("restart").disabled = !settings || starting;
  button("back").disabled = !any || !current.some((lane) => lane.player.canStepBack);
  button("step").disabled = !any || current.every((lane) => lane.player.finished || lane.error);
  button("end").disabled = !any || done;
  playButton.disabled = !any || (done && !playing);
  showPlaying(playButton, playing);
  showSeek(seekInput, any ? current[0].player : null);
}

function pause() {
  playing = false;
  jumping = false;
  for (const lane of activeLanes()) lane.stats.idle();
}

function redraw() {
  const now = performance.now();
  for (const lane of activeLanes()) {
    lane.updateStatus(playing);
    lane.draw(now);
  }
  code.highlight(activeLanes()[0].tags || "");
  updateControls();
}

const actions = {
  play() {
    if (playing) pause();
    else if (activeLanes().some((lane) => lane.active)) {
      playing = true;
      page.dataset.phase = "running";
    }
    redraw();
  },
  step() {
    pause();
    const current = activeLanes().filter((lane) => lane.player);
    if (current.every((lane) => lane.player.buffered > 0 || lane.finished)) {
      for (const lane of current) lane.player.advance(1);
    } else {
      pendingSteps++;
    }
    redraw();
  },
  back() {
    pause();
    pendingSteps = 0;
    for (const lane of activeLanes()) lane.player?.back(1);
    if (page.dataset.phase === "finished") page.dataset.phase = "running";
    raceResult.hidden = true;
    redraw();
  },
  end() {
    playing = true;
    jumping = true;
    redraw();
  },
  restart() {
    startRuns();
  },
};

bindActions(actions);

speedInput.addEventListener("input", showSpeed);

seekInput.addEventListener("input", () => {
  pause();
  for (const lane of activeLanes()) lane.player?.seek(Number(seekInput.value));
  raceResult.hidden = true;
  redraw();
});

heatInput.addEventListener("change", () => {
  for (const lane of lanes) lane.board.setHeat(heatInput.checked, lane.player);
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  startRuns();
});

form.addEventListener("change", (event) => {
  followSize(form, event.target);
  $("#w-race-with").hidden = !form.elements.race.checked;
  const construct =
    form.elements.algorithm.value === "construct" ||
    (form.elements.race.checked && form.elements.algorithm_b.value === "construct");
  for (const input of [form.elements.rows, form.elements.cols])
    input.max = construct ? SIZE_LIMIT.construct : SIZE_LIMIT.search;
  preview();
});

for (const lane of lanes) {
  lane.board.onSquare = (row, col) => {
    if (starting || activeLanes().some((l) => l.active && l.run)) return; // watching: read-only
    settings.start = row * settings.cols + col;
    preview();
  };
}

// ---------------------------------------------------------------- language
async function switchLanguage(next) {
  if (next === getLang()) return;
  setLang(next);
  await loadCatalogue(next);
  translateStatic();
  document.title = `${t("watch.ui.title")} · Knight's Tour Studio`;
  for (const lane of lanes) lane.relabel();
  code.configure({ lang: next });
  if (!raceResult.hidden && settings?.race) {
    const verdict = raceVerdict(activeLanes());
    if (verdict) raceResult.textContent = verdict.text;
  }
  showSpeed();
  updateControls();
  page.dataset.lang = next;
}

for (const link of document.querySelectorAll("[data-lang-choice]")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    switchLanguage(link.dataset.langChoice).catch(() => {
      location.href = link.href;
    });
  });
}

// ---------------------------------------------------------------- start-up
async function boot() {
  const go = applyQuery();
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.delete("lang");
    history.replaceState(null, "", url);
  }
  await loadCatalogue(getLang());
  $("#w-race-with").hidden = !form.elements.race.checked;
  preview();
  showSpeed();
  connection = openConnection();
  page.dataset.ready = "true";
  window.watchPage = {
    lanes,
    get connection() {
      return connection;
    },
  }; // for the console and tests
  requestAnimationFrame(frame);
  if (go) startRuns();
}

boot();
