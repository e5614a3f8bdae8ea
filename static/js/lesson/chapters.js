// The lesson's chapters (server/lesson/chapters.json, inlined by the page) and places in
// them: {chapter, step}, addressed as "#<chapter id>/<step number>". No DOM.

import { nameOf } from "../core/squares.js";
import { laneSettings } from "../lanes/setup.js";

// The code lab's program (server/lab/programs/) a chapter's search is written as: the
// lesson's DFS, Warnsdorff's rule, and the Python article's program (its bug to fix).
export const LAB_EXAMPLES = {
  seed: "start",
  warnsdorff: "warnsdorff",
  "a001-python": "article-001",
  "a001-python-fixed": "article-001",
};

/** The place `{chapter, step}` clamped into `chapters`. */
export function clampPlace(chapters, { chapter, step }) {
  const c = Math.max(0, Math.min(chapters.length - 1, Math.trunc(chapter) || 0));
  const steps = chapters[c].steps.length;
  return { chapter: c, step: Math.max(0, Math.min(steps - 1, Math.trunc(step) || 0)) };
}

/** The next step, into the next chapter after a chapter's last; null after the last. */
export function nextPlace(chapters, { chapter, step }) {
  if (step + 1 < chapters[chapter].steps.length) return { chapter, step: step + 1 };
  if (chapter + 1 < chapters.length) return { chapter: chapter + 1, step: 0 };
  return null;
}

/** The step before, into the previous chapter's last; null before the first. */
export function prevPlace(chapters, { chapter, step }) {
  if (step > 0) return { chapter, step: step - 1 };
  if (chapter > 0) return { chapter: chapter - 1, step: chapters[chapter - 1].steps.length - 1 };
  return null;
}

/** "#dfs/2" -> {chapter, step} (step numbers count from 1); null when it names nothing. */
export function parseHash(chapters, hash) {
  const match = /^#?([\w-]+)(?:\/(\d+))?$/.exec(hash || "");
  if (!match) return null;
  const chapter = chapters.findIndex((c) => c.id === match[1]);
  if (chapter < 0) return null;
  return clampPlace(chapters, { chapter, step: Number(match[2] || 1) - 1 });
}

export function hashOf(chapters, { chapter, step }) {
  return `#${chapters[chapter].id}/${step + 1}`;
}

/** A chapter's settings as a lane takes them, race included (the JSON may leave flags out). */
export function demoSettings(chapter) {
  const s = chapter.settings;
  return {
    ...laneSettings(s),
    pruning: Boolean(s.pruning),
    race: Boolean(s.race),
    algorithmB: s.algorithm_b ?? null,
  };
}

/**
 * The code lab opened on `chapter`'s board and start with the program of its search
 * ("/lab?example=start&rows=5&cols=5&start=a5"), or null: a search the lab has no program
 * for, or a closed tour (a lab program looks for an open one).
 */
export function labAddress(chapter) {
  const { algorithm, rows, cols, start, closed } = chapter.settings;
  const example = LAB_EXAMPLES[algorithm];
  if (!example || closed) return null;
  const square = nameOf(start[0] * cols + start[1], rows, cols);
  const query = new URLSearchParams({ example, rows, cols, start: square });
  return `/lab?${query}`;
}
