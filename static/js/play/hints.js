// The Play page's hints. "Hint" asks the server (POST /hint) for a move a tour goes through,
// or why none is left. "Show me" (showme.js) counts as a hint when it reveals something: a
// found move, or the proof that the position is dead; it is counted through POST /hint,
// which also brings the exact dead warning with its undo offer. A search that gave up or
// was cancelled is not counted. Both leave their words in the store (store.hintMessage).

import { api } from "../core/api.js";
import { t } from "../core/i18n.js";
import { squareName } from "../core/squares.js";
import { setGame, store } from "./store.js";

/** Ask for a hint; `render()` shows it, `showError(err)` a failure. */
export async function askHint({ render, showError }) {
  const game = store.game;
  try {
    const answer = await api.hint(game.id);
    setGame(answer.state);
    const { hint } = answer;
    store.hint = hint.verdict === "completable" && hint.next ? hint.next : null;
    if (store.hint) {
      const square = squareName(hint.next[0], hint.next[1], answer.state.rows);
      const key = answer.state.status === "new" ? "ui.hint.start" : "ui.hint.next";
      store.hintMessage = { key, params: { square } };
    } else if (hint.verdict === "dead") {
      store.hintMessage = { text: `${t("ui.hint.dead")} ${hint.reason ?? ""}`.trim() };
    } else {
      store.hintMessage = { text: hint.reason ?? t("hint.unknown") };
    }
    render();
  } catch (err) {
    showError(err);
  }
}

/** "Show me" ended with `result` ({status, text, next?}): say it, count it if it revealed. */
export async function showMeEnded(result, { render, showError }) {
  const game = store.game;
  if (!game) return;
  if (result.status === "stopped") store.hintMessage ??= { text: result.text };
  else store.hintMessage = { text: result.text };
  if (result.status === "found") store.hint = result.next;
  render();
  if (result.status !== "found" && result.status !== "exhausted") return;
  try {
    const answer = await api.hint(game.id);
    const now = store.game;
    if (now.id !== game.id || now.path.length !== game.path.length) return; // moved on
    setGame(answer.state);
    if (result.status === "found") {
      store.hint = result.next; // the search's move: a tour goes through it
    } else if (answer.hint.verdict === "dead" && answer.hint.reason) {
      store.hintMessage = { text: `${result.text} ${answer.hint.reason}` };
    }
    render();
  } catch (err) {
    showError(err);
  }
}
