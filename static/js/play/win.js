// The win screen: the run's numbers, the tour replayed on a small board, and the form that
// puts the run on the leaderboard (the server checks the win and ranks it).

import { Replay } from "../board/replay.js";
import { api } from "../core/api.js";
import { formatTime, t } from "../core/i18n.js";
import { shareApi } from "../share/api.js";

const $ = (selector) => document.querySelector(selector);
const NAME_KEY = "knights-tour.name";

export class WinScreen {
  /** onScored(game): the run is on the leaderboard (`game` no longer can_submit). */
  constructor({ onScored }) {
    this.dialog = $("#win");
    this.form = $("#score-form");
    this.result = $("#score-result");
    this.replay = new Replay($("#replay"));
    this.game = null;
    $("#replay-again").addEventListener("click", () => this.game && this.replay.play(this.game));
    $("#share-replay").addEventListener("click", () => this.share());
    this.dialog.addEventListener("close", () => this.replay.stop());
    this.form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = this.form.elements.name.value;
      try {
        const entry = await api.score(this.game.id, name);
        remember(name.trim());
        this.form.hidden = true;
        this.result.textContent = t(entry.assisted ? "ui.score.saved-assisted" : "ui.score.saved", {
          rank: entry.rank,
        });
        onScored({ ...this.game, can_submit: false });
      } catch (err) {
        this.result.textContent = err.message;
      }
    });
  }

  get open() {
    return this.dialog.open;
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  /** Ask the server for the won game's public replay link and show it. */
  async share() {
    const link = $("#share-link");
    try {
      const { url } = await shareApi.replay(this.game.id);
      link.href = url;
      link.textContent = new URL(url, location.href).href;
      link.hidden = false;
    } catch (err) {
      this.result.textContent = err.message;
    }
  }

  show(game) {
    this.game = game;
    $("#share-link").hidden = true;
    const mode = t(game.closed ? "ui.mode.closed" : "ui.mode.open");
    $("#win-board").textContent = `${game.rows}×${game.cols} · ${mode}`;
    $("#win-time").textContent = formatTime(game.elapsed);
    $("#win-moves").textContent = String(game.moves);
    $("#win-hints").textContent = String(game.hints);
    $("#win-undos").textContent = String(game.undos);
    this.form.hidden = !game.can_submit;
    this.result.textContent = "";
    try {
      this.form.elements.name.value = localStorage.getItem(NAME_KEY) ?? "";
    } catch {
      /* private mode: no name to offer */
    }
    if (!this.dialog.open) this.dialog.showModal();
    this.replay.play(game);
  }
}

function remember(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* private mode */
  }
}
