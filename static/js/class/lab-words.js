// The code lab in a class, in words (the page's language): an exercise's title, prompt and
// goal, and a submission's status. Used by the teacher's page, the student's page and the
// lab page opened from the class. No DOM.

import { formatNumber, getLang, t } from "../core/i18n.js";
import { nameOf } from "../core/squares.js";

/** {title, prompt, goal} of an exercise as the room keeps it (server/classroom/lab.py). */
export function exerciseWords(exercise) {
  const { rows, cols, closed, limit } = exercise;
  const start = nameOf(exercise.start[0] * cols + exercise.start[1], rows, cols);
  const board = { rows, cols, start };
  const goal = [t(closed ? "class.lab.goal.closed" : "class.lab.goal.open", board)];
  if (limit) goal.push(t("class.lab.goal.limit", { limit: formatNumber(limit) }));
  return {
    title: t(exercise.title, board),
    prompt: exercise.prompt ? t(exercise.prompt) : "",
    goal: goal.join(" "),
  };
}

/** Why a run failed (`class.lab.fail.<reason>`), with the exercise's limit. */
export function failureText(reason, exercise) {
  return t(`class.lab.fail.${reason}`, { limit: formatNumber(exercise?.limit ?? 0) });
}

/**
 * A submission's status in words: waiting | checking | passed (moves and backtracks) |
 * failed (why) | refused (why it was not checked: `refused`, the server's words or "").
 */
export function statusText(status, check, exercise, refused = "") {
  if (status === "refused") {
    return t("class.lab.status.refused", { reason: refused || t("class.lab.status.no-run") });
  }
  if (status === "passed") {
    const counts = { moves: formatNumber(check.moves), backtracks: formatNumber(check.backtracks) };
    return t("class.lab.status.passed", counts);
  }
  if (status === "failed") {
    return t("class.lab.status.failed", { reason: failureText(check.reason, exercise) });
  }
  return t(`class.lab.status.${status}`);
}

/** When a submission came (`at`: seconds since the epoch), as a clock time. */
export function clockTime(at) {
  const lang = getLang() === "zh" ? "zh-CN" : "en-GB";
  const options = { hour: "2-digit", minute: "2-digit", second: "2-digit" };
  return new Date(at * 1000).toLocaleTimeString(lang, options);
}
