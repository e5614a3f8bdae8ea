// A class submission on the projector: the teacher's lab panel (class/lab-teacher.js, "Show")
// opens the code lab in a tab of its own with the student's program on the exercise's board,
// run at once, to step through with the lab's transport and its lit lines; the class page
// stays as it was in its own tab. The program is handed over through this browser's
// localStorage (same origin; nothing goes over the network), taken once.

import { exerciseWords } from "../class/lab-words.js";
import { t } from "../core/i18n.js";

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
 * Stand the lab on a shown submission: the exercise's board fixed (`fix(exercise)`), the
 * program in the editor, its words in the page's class banner once the page's catalogue is
 * in (`data-ready`), then `run()` once the page's Python is (`data-python`).
 */
export async function showSubmission(shown, { page, editor, fix, run }) {
  page.dataset.shown = "true";
  $("#lab-class").hidden = false;
  $("#lab-class-form").hidden = true;
  const back = $("#lab-show-back");
  back.hidden = false;
  back.addEventListener("click", () => window.close()); // the class's tab is still open
  fix(shown.exercise);
  editor.text = shown.source;
  await settled(page, "ready", ["true"]);
  relabelShown(shown);
  if ((await settled(page, "python", ["ready", "failed"])) === "ready") run();
}

/** Resolves with the page's `data-<key>` once it is one of `values`. */
function settled(page, key, values) {
  return new Promise((resolve) => {
    const done = () => {
      const value = page.dataset[key];
      if (!values.includes(value)) return false;
      resolve(value);
      return true;
    };
    if (done()) return;
    const watch = new MutationObserver(() => done() && watch.disconnect());
    watch.observe(page, { attributes: true, attributeFilter: [`data-${key}`] });
  });
}

/** The banner's words, in the page's language now. */
export function relabelShown({ name, exercise }) {
  const words = exerciseWords(exercise);
  $("#lab-class-title").textContent = t("lab.show.title", { name });
  $("#lab-class-prompt").textContent = words.title;
  $("#lab-class-goal").textContent = words.goal;
}
