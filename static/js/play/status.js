// The Play page's words around the board: the counters and the status line, the early
// warning with its way out (undo to the last position a tour can still be completed from),
// the buttons' states, the hint's line and the ticking clock. All from the server's game.

import { formatTime, t } from "../core/i18n.js";
import { elapsedNow, store } from "./store.js";

const $ = (selector) => document.querySelector(selector);
const els = {
  status: $("#status"),
  statusText: $("#status-text"),
  moves: $("#stat-moves"),
  left: $("#stat-left"),
  time: $("#stat-time"),
  warning: $("#warning"),
  warningText: $("#warning-text"),
  warningUndo: $("#warning-undo"),
  hintText: $("#hint-text"),
};
let shownTime = "";

/** Every square visited in a closed tour: not over until the knight jumps back to the start. */
export function jumpBack(game) {
  return Boolean(game?.closed && game.status === "playing" && game.squares_left === 0);
}

export function showStatus(game) {
  els.moves.textContent = String(game.moves);
  els.left.textContent = String(game.squares_left);
  tick(true);
  const dead = game.status === "won" ? null : game.dead;
  let text =
    game.message ?? t(`status.${game.status}`, { moves: game.moves, left: game.squares_left });
  if (game.status === "new" && store.startWarning) text = store.startWarning;
  else if (dead && game.status !== "stuck") text = deadHeadline(dead);
  els.statusText.textContent = text;
  els.status.dataset.status = game.status;
  els.status.dataset.dead = dead ? "true" : "false";
  els.status.dataset.jumpBack = String(jumpBack(game));
  showWarning(game, dead);
}

/** The early warning's details and its way out: undo to the last good position. */
function showWarning(game, dead) {
  const infeasible = game.feasible?.possible === false && !["new", "won"].includes(game.status);
  if (dead) {
    const lines = [];
    if (game.status === "stuck") lines.push(deadHeadline(dead));
    if (dead.reason) lines.push(dead.reason);
    els.warningText.replaceChildren(
      ...lines.map((line) => Object.assign(document.createElement("span"), { textContent: line })),
    );
    const undo = dead.undo;
    els.warningUndo.hidden = !undo;
    if (undo) {
      els.warningUndo.dataset.count = undo;
      els.warningUndo.textContent = t(undo === 1 ? "ui.undo-one" : "ui.undo-n", { n: undo });
    }
    els.warning.hidden = false;
  } else if (infeasible) {
    els.warningText.textContent = game.feasible.reason ?? "";
    els.warningUndo.hidden = true;
    els.warning.hidden = false;
  } else {
    els.warning.hidden = true;
  }
}

function deadHeadline(dead) {
  if (dead.message) return dead.message;
  if (dead.undo == null) return t("status.dead.start");
  return t(dead.undo === 1 ? "status.dead.one" : "status.dead", { undo: dead.undo });
}

/** How many moves the warning's undo button takes back. */
export function warningUndoCount() {
  return Number(els.warningUndo.dataset.count) || 1;
}

export function showControls(game, showingSearch) {
  const button = (action) => document.querySelector(`.controls [data-action="${action}"]`);
  const finished = game.status === "won";
  button("undo").disabled = finished || game.moves === 0;
  button("hint").disabled = finished;
  button("restart").disabled = finished || game.path.length === 0;
  button("random").hidden = game.status !== "new" || Boolean(game.fixed_start); // a puzzle's start is set
  button("show-me").disabled = game.status !== "playing" || showingSearch;
  const hintLabel = button("hint").querySelector("[data-i18n]");
  hintLabel.textContent = game.hints ? `${t("ui.hint")} · ${game.hints}` : t("ui.hint");
}

/** The hint's line under the controls (hidden while "show me" narrates instead). */
export function showHint(showingSearch) {
  const message = store.hintMessage;
  els.hintText.hidden = !message || showingSearch;
  els.hintText.textContent = els.hintText.hidden
    ? ""
    : message.key
      ? t(message.key, message.params)
      : message.text;
}

/** The clock: the server's elapsed time plus the local time since that answer. */
export function tick(force = false) {
  const text = formatTime(elapsedNow());
  if (force || text !== shownTime) {
    shownTime = text;
    els.time.textContent = text;
  }
}
