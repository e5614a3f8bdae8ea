// The code lab (/lab): the student's Python in the editor, Run (lab/runner.js: a Web Worker
// under Pyodide records the program's board), then the recording on a Watch lane
// (lab/source.js serves it as the server serves a run; lanes/ and watch/playback.js play it
// with the page's one clock), the line that wrote each event lit in the editor, and the
// server's verdict on the path (POST /api/tour). A race puts a built-in search, streamed by
// the server, in the second lane.

import { formatNumber, t } from "../core/i18n.js";
import { bindLanguageSwitch, startLanguage } from "../core/language.js";
import { articleOrderings } from "../core/orderings.js";
import { KNIGHT_JUMPS, nameOf } from "../core/squares.js";
import { exposeForTests } from "../core/test-hook.js";
import { wakeFrames } from "../lanes/frame-loop.js";
import { Lane } from "../lanes/lane.js";
import { startRace } from "../lanes/race.js";
import { followSize } from "../lanes/setup.js";
import { windowFor } from "../lanes/speed.js";
import { Transport } from "../lanes/transport.js";
import { WatchConnection } from "../stream/connection.js";
import { WatchPlayback } from "../watch/playback.js";
import { linkedStart, openedFrom } from "./class-lab.js";
import { LabEditor } from "./editor.js";
import { runMessage } from "./messages.js";
import { LabRunner } from "./runner.js";
import { LAB_ALGORITHM, LabConnection } from "./source.js";
import { candidateRules, findRule } from "./translate.js";
import { countsText, tourVerdict } from "./verdict.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#lab");
const form = $("#lab-form");
const message = $("#lab-message");
const verdict = $("#lab-verdict");
const output = $("#lab-output");
const runButton = $("#lab-run");
const stopButton = $("#lab-stop");
const lanes = [...document.querySelectorAll(".w-lane")].map((root) => new Lane(root));

const editor = new LabEditor($("#lab-source"), {
  label: t("lab.ui.code"),
  nonce: $('script[type="importmap"]')?.nonce,
  onChange: () => editor.light("error", 0),
});
const programs = Object.fromEntries(
  [...document.querySelectorAll("template[data-program]")].map((el) => [
    el.dataset.program,
    el.content.textContent || el.innerHTML,
  ]),
);

let settings = readSettings(null);
settings.start = linkedStart(new URLSearchParams(location.search), settings) ?? settings.start;
let recording = null; // the last run's
let said = null; // the message shown: {key?, kind, text, line} re-worded on a language switch
let socket = null;

const playback = new WatchPlayback({
  page,
  raceResult: $("#w-race-result"),
  code: { highlight: () => lightRunningLine() },
  transport: (actions) => new Transport(actions),
  all: lanes,
  lanes: () => (settings.race ? lanes : lanes.slice(0, 1)),
  race: () => Boolean(settings.race),
  canRestart: () => recording !== null && !runner.running,
  restart: () => play(recording),
  now: () => performance.now(),
});

const runner = new LabRunner({
  url: new URL("./worker.js", import.meta.url),
  onState: (state, detail) => {
    page.dataset.python = state;
    if (state === "ready") {
      if (detail?.ms) page.dataset.loadMs = detail.ms.toFixed(0);
      if (!said) say({ kind: "ready", text: t("lab.ui.ready") });
    }
    if (state === "failed")
      say(runMessage({ status: "error", code: "crash", ...detail }, settings));
    showButtons();
  },
});

/** The form's board and start, the race's second algorithm. */
function readSettings(previous) {
  const limits = JSON.parse(document.body.dataset.limits).search;
  const side = (name) =>
    Math.max(limits.min, Math.min(limits.max, Number.parseInt(form.elements[name].value, 10) || 5));
  const rows = side("rows");
  const cols = side("cols");
  const same = previous && previous.rows === rows && previous.cols === cols;
  const race = form.elements.race.value;
  return {
    rows,
    cols,
    holes: [],
    start: same ? previous.start : (rows - 1) * cols,
    algorithm: LAB_ALGORITHM,
    closed: false,
    pruning: false,
    race: race !== "",
    algorithmB: race || "warnsdorff",
  };
}

/** Stop what plays and show the form's board, its start and the race's lanes, empty. */
function preview() {
  for (const lane of lanes) lane.detach();
  playback.clock.pause(0);
  settings = readSettings(settings);
  page.dataset.mode = settings.race ? "race" : "single";
  page.dataset.phase = "setup";
  lanes[1].root.hidden = !settings.race;
  lanes[0].preview(settings);
  lanes[0].say(t("lab.ui.narr.write"));
  if (settings.race) lanes[1].preview({ ...settings, algorithm: settings.algorithmB });
  $("#lab-start-name").textContent = nameOf(settings.start, settings.rows, settings.cols);
  $("#w-race-result").hidden = true;
  verdict.hidden = true;
  editor.light("running", 0);
  playback.showControls();
}

for (const lane of lanes) {
  lane.board.onSquare = (sq) => {
    if (runner.running || lanes.some((l) => l.active) || page.dataset.fixed) return;
    settings.start = sq;
    preview();
  };
}

/** The line that wrote the event the lab's lane shows last, lit in the editor. */
function lightRunningLine() {
  const player = lanes[0].player;
  const at = player && recording ? Math.min(player.pos, recording.length) : 0;
  editor.light("running", at > 0 ? recording.line(at - 1) : 0);
}

function say(next) {
  said = next;
  message.textContent = next.text;
  message.dataset.kind = next.kind;
  editor.light("error", next.kind === "error" ? next.line : 0);
}

runner.spawn();

function showButtons() {
  runButton.disabled = runner.running || page.dataset.python === "failed";
  stopButton.disabled = !runner.running;
  page.dataset.running = String(runner.running);
}

/** Run the editor's program, then play what it recorded. */
async function run() {
  if (runner.running) return;
  preview();
  verdict.hidden = true;
  output.textContent = "";
  $("#lab-output-box").hidden = true;
  say({ kind: "running", text: t("lab.ui.running", { steps: "0" }) });
  const ticking = setInterval(() => {
    const steps = formatNumber(runner.current?.recording.length ?? 0);
    if (runner.running) message.textContent = t("lab.ui.running", { steps });
  }, 250);
  const pending = runner.run({
    source: editor.text,
    rows: settings.rows,
    cols: settings.cols,
    start: [Math.floor(settings.start / settings.cols), settings.start % settings.cols],
  });
  showButtons();
  const recorded = await pending;
  clearInterval(ticking);
  showButtons();
  if (!recorded) return;
  recording = recorded;
  const { result } = recording;
  page.dataset.runStatus = result.status;
  page.dataset.events = String(recording.length);
  if (result.ms !== undefined) page.dataset.runMs = result.ms.toFixed(1);
  say(runMessage(result, settings));
  if (said.kind === "done") say({ kind: "done", text: countsText(recording), line: 0 });
  if (result.output) {
    output.textContent = result.output;
    $("#lab-output-box").hidden = false;
  }
  await play(recording);
}

/** Play `recorded` on the lab's lane (and the race's second lane), from its first event. */
async function play(recorded) {
  if (recorded.length === 0) return;
  const rule = await findRule(recorded, candidateRules(KNIGHT_JUMPS, articleOrderings()), {
    pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
  });
  page.dataset.rule = rule ? `${rule.sort ?? "plain"}` : "none";
  const lab = new LabConnection({ recording: recorded, rule });
  lab.onMessage = wakeFrames;
  const orderings = {
    [LAB_ALGORITHM]: {
      moves: rule?.moves ?? KNIGHT_JUMPS,
      sort: rule?.sort ?? null,
      lands_on_start: rule?.landsOnStart ?? false,
      searched: rule !== null,
    },
  };
  // the board the program ran on, whatever the form says now
  const { rows, cols, start } = recorded;
  const run = { ...settings, rows, cols, start, orderings };
  const window = windowFor(playback.clock.speed);
  page.dataset.phase = "running";
  try {
    if (settings.race) {
      const router = {
        start: (params, handlers, options) => {
          const connection = params.algorithm === LAB_ALGORITHM ? lab : watchSocket();
          return connection.start(params, handlers, options);
        },
      };
      await playback.whileStarting(startRace(router, lanes, run, window));
    } else {
      await playback.whileStarting(lanes[0].start(lab, run, window));
    }
    playback.clock.play(0, performance.now());
  } catch (err) {
    page.dataset.phase = "setup";
    say({ kind: "error", text: err?.message || String(err), line: 0 });
  }
  playback.showControls();
  lanes[0].player.onNewEvent = null;
  checkTour(recorded);
}

function watchSocket() {
  socket ||= Object.assign(new WatchConnection(), { onMessage: wakeFrames });
  return socket;
}

/** Ask the server whether the run's path is a tour, and say its answer. */
async function checkTour(recorded) {
  const { status } = recorded.result;
  if (status !== "found" && status !== "declared") return;
  verdict.hidden = false;
  verdict.textContent = t("lab.verdict.checking");
  const answer = await tourVerdict(recorded);
  verdict.textContent = answer.text;
  verdict.dataset.tour = answer.tour;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  run();
});
form.addEventListener("change", (event) => {
  followSize(form, event.target);
  // a field's change also comes when it loses the focus: the board stays as it is unless
  // the settings changed (a square being tapped would be redrawn under the finger)
  const next = readSettings(settings);
  const shown = ["rows", "cols", "race", "algorithmB"].every((key) => next[key] === settings[key]);
  if (!shown) preview();
});
stopButton.addEventListener("click", () => runner.stop());
$("#lab-example").addEventListener("change", (event) => {
  editor.text = programs[event.target.value] ?? editor.text;
});

// opened from a class (its exercise fixes the board), or a submission shown (lab/class-lab.js)
const opened = openedFrom(new URLSearchParams(location.search), {
  ...{ page, form, editor, programs, run },
  onStart: fixStart,
});

function fixStart(start) {
  settings = { ...readSettings(null), start };
  preview();
}

bindLanguageSwitch(() => {
  opened.relabel();
  for (const lane of lanes) lane.relabel();
  playback.relabel();
  if (said?.kind === "ready") say({ kind: "ready", text: t("lab.ui.ready") });
  else if (said?.kind === "done") say({ kind: "done", text: countsText(recording), line: 0 });
  else if (recording && said) say(runMessage(recording.result, settings));
});

async function boot() {
  await startLanguage();
  playback.transport.showSpeed();
  playback.clock.speed = playback.transport.speed;
  preview();
  if (!said && page.dataset.python !== "ready") say({ kind: "loading", text: t("lab.ui.loading") });
  showButtons();
  playback.loop.start();
  exposeForTests({ lanes, clock: playback.clock, editor, recording: () => recording, runner });
  page.dataset.ready = "true";
}

boot();
