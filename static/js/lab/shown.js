// A class submission on the projector: the teacher's lab panel (class/lab-teacher.js, "Show")
// opens the code lab in a tab of its own with the student's program on the exercise's board,
// run at once, to step through with the lab's transport and its lit lines; the class page
// stays as it was in its own tab. The program is handed over through this browser's
// localStorage (same origin; nothing goes over the network), taken once.

import { exerciseWords } from "../class/lab-words.js";
import { has, t } from "../core/i18n.js";

const $ = (selector) => document.querySelector(selector);
const PREFIX = "kt-lab-show:";
const KEEP_MS = 10 * 60_000; // a handed-over program not opened by then is dropped

/** Hand `{name, source, exercise}` over to a lab tab: the key for its address. */
export function handOver(shown, now = Date.now(), storage = localStorage) {
  for (let i = storage.length - 1; i >= 0; i--) {
    const key = storage.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    const at = JSON.parse(storage.getItem(key) || "{}").at ?? 0;
    if (now - at > KEEP_MS) storage.removeItem(key);
  }
  const key = `${now.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  storage.setItem(PREFIX + key, JSON.stringify({ ...shown, at: now }));
  return key;
}

/** The program handed over as `key` (once: it is removed), or null. */
export function takeShown(key, storage = localStorage) {
  if (!key) return null;
  const raw = storage.getItem(PREFIX + key);
  storage.removeItem(PREFIX + key);
  try {
    const shown = raw && JSON.parse(raw);
    return typeof shown?.source === "string" && shown.exercise ? shown : null;
  } catch {
    return null;
  }
}

/**
 * Stand the lab on a shown submission: its words in the page's class banner, the exercise's
 * board fixed (`fix(exercise)`), the program in the editor, then `run()` once the page's
 * Python is ready (`page.dataset.python`, set by the page's runner).
 */
export async function showSubmission(shown, { page, editor, fix, run }) {
  page.dataset.shown = "true";
  $("#lab-class").hidden = false;
  $("#lab-class-form").hidden = true;
  const back = $("#lab-show-back");
  back.hidden = false;
  back.addEventListener("click", () => window.close()); // the class's tab is still open
  relabelShown(shown);
  fix(shown.exercise);
  editor.text = shown.source;
  const ready = await pythonReady(page);
  relabelShown(shown); // the page's words have come in meanwhile
  if (ready) run();
}

/** Resolves true once the page's Python is ready, false if it failed to load. */
function pythonReady(page) {
  return new Promise((resolve) => {
    const settled = () => {
      const state = page.dataset.python;
      if (state !== "ready" && state !== "failed") return false;
      resolve(state === "ready");
      return true;
    };
    if (settled()) return;
    const watch = new MutationObserver(() => settled() && watch.disconnect());
    watch.observe(page, { attributes: true, attributeFilter: ["data-python"] });
  });
}

/** The banner's words, in the page's language now. */
export function relabelShown({ name, exercise }) {
  if (!has("lab.show.title")) return; // the catalogue is on its way: said once it is in
  const words = exerciseWords(exercise);
  $("#lab-class-title").textContent = t("lab.show.title", { name });
  $("#lab-class-prompt").textContent = words.title;
  $("#lab-class-goal").textContent = words.goal;
}
