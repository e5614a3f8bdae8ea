// The lesson's chapters (server/lesson/chapters.json, inlined by the page) and places in
// them: {chapter, step}, addressed as "#<chapter id>/<step number>". No DOM.

import { laneSettings } from "../lanes/setup.js";

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
