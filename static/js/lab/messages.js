// What the lab says about a run (lab_recorder.run's result, lab/runner.js's for a Stop or a
// crash): the words, in the page's language, and the program's line they are about. No DOM.

import { formatNumber, t } from "../core/i18n.js";

/**
 * {kind: "error" | "stopped" | "done", text, line} for `result` ({status, code, line,
 * params, message, total, ms}) of a run on a rows x cols board; `line` 0 when none.
 */
export function runMessage(result, { rows, cols }) {
  const line = result.line ?? 0;
  if (result.status === "stopped") return { kind: "stopped", text: t("lab.error.stopped"), line };
  if (result.status === "budget") {
    const text = t("lab.error.budget", { steps: formatNumber(result.total ?? 0) });
    return { kind: "stopped", text, line };
  }
  if (result.status !== "error") return { kind: "done", text: "", line: 0 };
  const params = {
    ...(result.params ?? {}),
    line: line || "?",
    message: result.message ?? "",
    maxRow: rows - 1,
    maxCol: cols - 1,
    rows,
    cols,
  };
  return { kind: "error", text: t(`lab.error.${result.code}`, params), line };
}

/** The counters of a finished run, in words. */
export function resultText({ nodes, backtracks, seconds }) {
  return t("lab.result", {
    moves: formatNumber(nodes),
    backtracks: formatNumber(backtracks),
    seconds: seconds.toFixed(2),
  });
}

/** The server's verdict on the run's path (POST /api/tour's answer) in words. */
export function verdictText(answer, squares) {
  if (answer.tour) {
    const key = answer.closed ? "lab.verdict.closed" : "lab.verdict.open";
    return t(key, { squares: formatNumber(squares) });
  }
  return t("lab.verdict.none", { reason: answer.reason ?? "" });
}
