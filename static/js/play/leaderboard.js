// The Play page's leaderboard of the current board and mode: runs without hints, and
// those with. Names are plain text, never markup.

import { api } from "../core/api.js";
import { t } from "../core/i18n.js";
import { fillRanking } from "../core/ranking.js";

export class Leaderboard {
  /** board: the heading's board line; unassisted, assisted: the two lists. */
  constructor({ board, unassisted, assisted, onError }) {
    Object.assign(this, { boardLine: board, unassisted, assisted, onError });
    this.key = "";
  }

  /** Show `game`'s board's leaderboard, or its puzzle's (fetched once unless `force`). */
  async show(game, { force = false } = {}) {
    const puzzle = isPuzzle(game);
    const key = puzzle ? `puzzle:${game.puzzle}` : `${game.rows}x${game.cols}:${game.closed}`;
    const mode = t(game.closed ? "ui.mode.closed" : "ui.mode.open");
    const line = `${game.rows}×${game.cols} · ${mode}`;
    this.boardLine.textContent = puzzle ? `${t("ui.puzzle")} ${line}` : line;
    if (key === this.key && !force) return;
    this.key = key;
    try {
      const board = puzzle
        ? await api.puzzleLeaderboard(game.puzzle)
        : await api.leaderboard(game.rows, game.cols, game.closed);
      if (this.key !== key) return;
      fillRanking(this.unassisted, board.unassisted ?? []);
      fillRanking(this.assisted, board.assisted ?? []);
    } catch (err) {
      this.key = "";
      this.onError(err);
    }
  }

  /** Fetch it again next time (a language switch, a new entry). */
  forget() {
    this.key = "";
  }
}

/** A game with holes or a fixed start: ranked under its puzzle code. */
export function isPuzzle(game) {
  return Boolean(game.holes?.length || game.fixed_start);
}
