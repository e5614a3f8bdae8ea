// The lesson page (/lesson): chapters on the left, the story and its controls, the demo
// (lanes/lane.js with its stack panel) and the code. Buttons, keys and the address all go
// through the controller's `goTo`; the place is kept in the address ("#dfs/2").

import { t } from "../core/i18n.js";
import { bindLanguageSwitch, startLanguage } from "../core/language.js";
import { bindProjector } from "../core/projector.js";
import { exposeForTests } from "../core/test-hook.js";
import { CodePanel } from "../lanes/code-panel.js";
import { wakeFrames } from "../lanes/frame-loop.js";
import { Lane } from "../lanes/lane.js";
import { startPractice } from "../practice/card.js";
import { WatchConnection } from "../stream/connection.js";
import { hashOf, labAddress, nextPlace, parseHash, prevPlace } from "./chapters.js";
import { LessonController } from "./controller.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#lesson");
const chapters = JSON.parse($("#lesson-chapters").textContent);
// the boards take squares: a practice question's answer (the page's own taps do nothing)
const lanes = [...document.querySelectorAll(".w-lane")].map((root) => new Lane(root));
const role = (name) => page.querySelector(`[data-role="${name}"]`);
const lesson = new LessonController({
  chapters,
  lanes,
  code: new CodePanel($(".w-code-panel")),
  connection: Object.assign(new WatchConnection(), { onMessage: wakeFrames }),
  view: {
    where: role("where"),
    title: role("title"),
    text: role("text"),
    error: role("error"),
    verdict: $("#w-race-result"),
  },
});

// The practice: the page asks itself questions while the demo plays (practice/).
const { practice, relabel: relabelPractice } = startPractice({
  card: $("#p-card"),
  toggle: $("#p-switch"),
  clock: lesson.clock,
  all: lanes,
  lanes: () => lesson.activeLanes().filter((lane) => lane.player),
});
lesson.practice = practice;

lesson.onPlaying = showPlaying;
lesson.onChange = (place) => {
  page.dataset.chapter = place.id;
  page.dataset.step = place.step + 1;
  for (const button of page.querySelectorAll(".l-chapter")) {
    const on = Number(button.dataset.chapter) === place.chapter;
    if (on) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  const lab = labAddress(chapters[place.chapter]); // write this search in the code lab
  role("lab").hidden = !lab;
  if (lab) role("lab").firstElementChild.href = lab;
  const hash = hashOf(chapters, place);
  if (location.hash !== hash) history.replaceState(null, "", hash);
  showButtons();
};

function go(place) {
  if (place) lesson.goTo(place.chapter, place.step);
}

const actions = {
  next: () => go(nextPlace(chapters, lesson.place)),
  prev: () => go(prevPlace(chapters, lesson.place)),
  play: () => lesson.togglePlay(),
  end: () => lesson.runToEnd(),
};

function showButtons() {
  page.querySelector('[data-lesson="prev"]').disabled = !prevPlace(chapters, lesson.place);
  page.querySelector('[data-lesson="next"]').disabled = !nextPlace(chapters, lesson.place);
}

function showPlaying() {
  const label = lesson.clock.playing ? "watch.ui.pause" : "watch.ui.play";
  const out = role("play-label");
  if (out.dataset.i18n !== label) {
    out.dataset.i18n = label;
    out.textContent = t(label);
  }
}

for (const button of page.querySelectorAll("[data-lesson]")) {
  button.addEventListener("click", () => {
    actions[button.dataset.lesson]();
    showPlaying();
  });
}
for (const button of page.querySelectorAll(".l-chapter")) {
  button.addEventListener("click", () => lesson.goTo(Number(button.dataset.chapter), 0));
}

// A presenter's clicker sends the arrows or Page Up/Down; Space plays, End runs to the end.
const KEYS = {
  ArrowRight: actions.next,
  PageDown: actions.next,
  ArrowLeft: actions.prev,
  PageUp: actions.prev,
  " ": actions.play,
  End: actions.end,
};
document.addEventListener("keydown", (event) => {
  const action = KEYS[event.key];
  if (!action || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest("input, select, textarea, button, [role=grid]") && event.key === " ") {
    return; // a focused button takes its own Space
  }
  event.preventDefault();
  action();
  showPlaying();
});

addEventListener("hashchange", () => {
  const place = parseHash(chapters, location.hash);
  if (place) lesson.goTo(place.chapter, place.step);
});

bindLanguageSwitch(() => {
  lesson.relabel();
  relabelPractice();
  showPlaying();
});

async function boot() {
  await startLanguage();
  bindProjector();
  exposeForTests({ lesson, practice });
  lesson.run();
  const place = parseHash(chapters, location.hash) ?? { chapter: 0, step: 0 };
  await lesson.goTo(place.chapter, place.step);
  page.dataset.ready = "true";
}

boot();
