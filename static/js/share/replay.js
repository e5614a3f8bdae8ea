// The /replay page: a shared tour played back move by move on the shared board
// (board/replay.js), driven by the playback clock /watch uses (stream/clock.js): play,
// pause, a step either way, the ends, a speed. The page says where it stands in
// data-shown / data-steps / data-state (playing | paused | ended).

import { Replay } from "../board/replay.js";
import { formatTime, t } from "../core/i18n.js";
import { bindLanguageSwitch, startLanguage } from "../core/language.js";
import { PlaybackClock } from "../stream/clock.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#replay-page");
const tour = JSON.parse($("#replay-data").textContent);
const replay = new Replay($("#replay-board-view"));
const speedChoice = () => Number(page.querySelector('[name="replay-speed"]:checked').value);
const clock = new PlaybackClock({ speed: speedChoice() });
const reducedMotion = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");
let shown = -1;
let frame = 0;

function showFacts() {
  $("#replay-facts").textContent = t("ui.replay.facts", {
    moves: tour.moves,
    time: formatTime(tour.seconds),
    hints: tour.hints,
  });
  const mode = t(tour.closed ? "ui.mode.closed" : "ui.mode.open");
  $("#replay-board").textContent = `${tour.rows}×${tour.cols} · ${mode}`;
}

function showPosition() {
  const ended = shown >= replay.steps;
  page.dataset.shown = String(shown);
  page.dataset.state = clock.playing ? "playing" : ended ? "ended" : "paused";
  $("#replay-position").textContent = t("ui.replay.position", { n: shown, total: replay.steps });
  const toggle = $("#replay-toggle");
  const label = clock.playing ? t("ui.replay.pause") : t("ui.replay.play");
  toggle.dataset.playing = String(clock.playing);
  toggle.setAttribute("aria-label", label);
  toggle.title = label;
}

function showAt(index) {
  const next = Math.max(0, Math.min(replay.steps, Math.floor(index)));
  if (next !== shown) {
    shown = next;
    replay.show(shown);
  }
  showPosition();
}

function tick(now) {
  frame = 0;
  clock.tick(now, shown);
  showAt(clock.target(now));
  if (clock.playing && shown >= replay.steps) {
    clock.pause(replay.steps);
    showPosition();
  }
  if (clock.playing) frame = requestAnimationFrame(tick);
}

function play() {
  const from = shown >= replay.steps ? 0 : shown;
  showAt(from);
  clock.play(from, performance.now());
  if (!frame) frame = requestAnimationFrame(tick);
  showPosition();
}

function pauseAt(index) {
  clock.pause(Math.max(0, Math.min(replay.steps, index)));
  showAt(clock.index);
}

const actions = {
  toggle: () => (clock.playing ? pauseAt(shown) : play()),
  first: () => pauseAt(0),
  last: () => pauseAt(replay.steps),
  step: () => pauseAt(shown + 1),
  back: () => pauseAt(shown - 1),
};

for (const button of page.querySelectorAll("[data-action]")) {
  button.addEventListener("click", () => actions[button.dataset.action]());
}
for (const input of page.querySelectorAll('[name="replay-speed"]')) {
  input.addEventListener("change", () => clock.setSpeed(speedChoice(), performance.now()));
}

await startLanguage();
bindLanguageSwitch(() => {
  showFacts();
  showPosition();
});
replay.load(tour);
page.dataset.steps = String(replay.steps);
showFacts();
showAt(0);
if (reducedMotion?.matches) pauseAt(replay.steps);
else play();
