// A finished lab run in words: its counters, and the server's verdict on its path
// (POST /api/tour: the path is data, checked by the server's own rules).

import { api } from "../core/api.js";
import { t } from "../core/i18n.js";
import { resultText, verdictText } from "./messages.js";
import { BACK, squareOf } from "./recording.js";

/** The run's moves, backtracks and time, in words. */
export function countsText(recorded) {
  let backtracks = 0;
  for (const code of recorded.codes()) if (code & BACK) backtracks++;
  const nodes = recorded.length - backtracks;
  return resultText({ nodes, backtracks, seconds: (recorded.result.ms ?? 0) / 1000 });
}

/** The path the run ends on, as [row, col] pairs. */
export function finalPath(recorded) {
  const path = [];
  for (const code of recorded.codes()) {
    if (code & BACK) path.pop();
    else path.push(squareOf(code));
  }
  return path.map((sq) => [Math.floor(sq / recorded.cols), sq % recorded.cols]);
}

/** {tour: "open" | "closed" | "none" | "unknown", text}: the server's word on the path. */
export async function tourVerdict(recorded, { check = api.checkTour } = {}) {
  const { rows, cols } = recorded;
  try {
    const answer = await check({ rows, cols, path: finalPath(recorded) });
    const tour = answer.tour ? (answer.closed ? "closed" : "open") : "none";
    return { tour, text: verdictText(answer, rows * cols) };
  } catch (err) {
    const text = t("lab.verdict.unchecked", { reason: err?.message || String(err) });
    return { tour: "unknown", text };
  }
}
