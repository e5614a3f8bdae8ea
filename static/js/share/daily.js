// The /daily page: today's puzzle on the shared board (holes and the fixed start, no
// solution), a button that starts today's daily game and opens it on the Play page, and
// today's leaderboard.

import { Board } from "../board/board.js";
import { setHoles } from "../board/state.js";
import { ApiError } from "../core/api.js";
import { t } from "../core/i18n.js";
import { bindLanguageSwitch, startLanguage } from "../core/language.js";
import { fillRanking } from "../core/ranking.js";
import { squareName } from "../core/squares.js";
import { saveGameId } from "../play/store.js";
import { shareApi } from "./api.js";

const $ = (selector) => document.querySelector(selector);
const daily = JSON.parse($("#daily-data").textContent);
const board = new Board($("#daily-board"), { kind: "puzzle" });

function showPuzzle() {
  const { rows, cols } = daily;
  board.resize(rows, cols);
  const state = board.state;
  setHoles(
    state,
    daily.holes.map(([r, c]) => r * cols + c),
  );
  state.start = daily.start ? daily.start[0] * cols + daily.start[1] : -1;
  state.closed = daily.closed;
  board.draw();
  $("#daily-start").textContent = daily.start
    ? t("ui.daily.start", { square: squareName(daily.start[0], daily.start[1], rows) })
    : t("ui.daily.free-start");
}

async function showLeaderboard() {
  try {
    const ranking = await shareApi.dailyLeaderboard(daily.date);
    fillRanking($("#daily-lb-unassisted"), ranking.unassisted ?? []);
    fillRanking($("#daily-lb-assisted"), ranking.assisted ?? []);
  } catch (err) {
    showError(err);
  }
}

function showError(err) {
  const box = $("#daily-error");
  box.textContent = err instanceof ApiError ? err.message : t("ui.error.network");
  box.hidden = false;
}

$("#daily-play").addEventListener("click", async (event) => {
  event.currentTarget.disabled = true;
  try {
    const game = await shareApi.daily();
    saveGameId(game.id);
    location.href = "/";
  } catch (err) {
    event.currentTarget.disabled = false;
    showError(err);
  }
});

await startLanguage();
bindLanguageSwitch(() => {
  showPuzzle();
  showLeaderboard();
});
showPuzzle();
showLeaderboard();
