// The Watch page (/watch): its elements, the settings form and the address's settings,
// wired to its controller (controller.js), which does the watching.

import { bindLanguageSwitch, startLanguage } from "../core/language.js";
import { bindProjector } from "../core/projector.js";
import { exposeForTests } from "../core/test-hook.js";
import { CodePanel } from "../lanes/code-panel.js";
import { wakeFrames } from "../lanes/frame-loop.js";
import { Lane } from "../lanes/lane.js";
import { fitSizeFields, followArticle, followFormChange, readBoardForm } from "../lanes/setup.js";
import { Transport } from "../lanes/transport.js";
import { startPractice } from "../practice/card.js";
import { WatchConnection } from "../stream/connection.js";
import { WatchController } from "./controller.js";
import { applyQuery } from "./query.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#watch");
const form = $("#w-form");

// The code panel's "as written / corrected" switch runs the other version of the program.
const code = new CodePanel($(".w-code-panel"));
code.onVariant = (ordering) => {
  form.elements.article.value = ordering;
  followArticle(form);
  watch.preview();
};
const watch = new WatchController({
  view: {
    page,
    formError: $("#w-form-error"),
    raceResult: $("#w-race-result"),
    startName: $("#w-start-name"),
  },
  readForm,
  lanes: [...document.querySelectorAll(".w-lane")].map((root) => new Lane(root)),
  code,
  transport: (actions) => new Transport(actions),
  connect: () => Object.assign(new WatchConnection(), { onMessage: wakeFrames }),
});

/** The form's settings: one lane's, and the race's second algorithm. */
function readForm(previous) {
  const data = new FormData(form);
  const race = data.get("race") === "on";
  return { ...readBoardForm(form, previous), algorithmB: data.get("algorithm_b"), race };
}

/** The race's second algorithm shows only in race mode. */
function showRaceWith() {
  $("#w-race-with").hidden = !form.elements.race.checked;
}

$("#w-heat").addEventListener("change", (event) => watch.setHeat(event.target.checked));

// The practice: the page asks itself questions while the search plays (practice/).
const { practice, relabel: relabelPractice } = startPractice({
  card: $("#p-card"),
  toggle: $("#p-switch"),
  clock: watch.clock,
  all: watch.lanes,
  lanes: () => watch.playback.playingLanes(),
});
watch.playback.practice = practice;

form.addEventListener("submit", (event) => {
  event.preventDefault();
  watch.start();
});

form.addEventListener("change", (event) => {
  followFormChange(form, event.target);
  showRaceWith();
  const race = form.elements.race.checked;
  fitSizeFields(form, [form.elements.algorithm.value, race ? form.elements.algorithm_b.value : ""]);
  watch.preview();
});

bindLanguageSwitch(() => {
  watch.relabel();
  relabelPractice();
  page.dataset.lang = document.body.dataset.lang;
});

async function boot() {
  const { go, start, speed } = applyQuery(form);
  const { transport } = watch;
  if (speed !== undefined) transport.speed = speed;
  watch.clock.speed = transport.speed;
  await startLanguage();
  transport.showSpeed();
  showRaceWith();
  watch.open(start);
  bindProjector({ onChange: () => watch.redraw() });
  exposeForTests({ lanes: watch.lanes, clock: watch.clock, practice });
  page.dataset.ready = "true";
  watch.run();
  if (go) watch.start();
}

boot();
