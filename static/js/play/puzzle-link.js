// A puzzle link: `/?puzzle=<code>` plays that puzzle on the Play page. A reload goes on
// with the game the link started (remembered per link, until it is won); a bad code is said
// above the board, in the page's language, and the page plays its usual board instead.

import { ApiError, api } from "../core/api.js";
import { t } from "../core/i18n.js";

const LINK_KEY = "knights-tour.puzzle-link";

export class PuzzleLink {
  /** errorBox: where a bad code's problem is said (#puzzle-error). */
  constructor(errorBox) {
    this.errorBox = errorBox;
  }

  /** The address's puzzle code, or null. */
  get code() {
    return new URLSearchParams(location.search).get("puzzle");
  }

  /** Another game started: the address no longer names the puzzle. */
  leave() {
    this.errorBox.hidden = true;
    if (this.code === null) return;
    const url = new URL(location.href);
    url.searchParams.delete("puzzle");
    history.replaceState(null, "", url);
  }

  /** The game of the link's puzzle: the one it started, or a new one; null if none. */
  async game() {
    const code = this.code;
    const known = linkedGameId(code);
    if (known) {
      try {
        const game = await api.get(known);
        if (game.status !== "won") return game;
      } catch {
        /* gone: start the puzzle again */
      }
    }
    try {
      const game = await api.createPuzzle(code);
      rememberLink(code, game.id);
      return game;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      this._say(err.message);
      return null;
    }
  }

  /** Say a bad code's problem again, in the page's language now. */
  async relabel() {
    if (!this.errorBox.hidden) this._say(await problem(this.code));
  }

  _say(message) {
    this.errorBox.hidden = !message;
    this.errorBox.textContent = message ? t("ui.puzzle.bad", { error: message }) : "";
  }
}

function linkedGameId(code) {
  try {
    const [link, id] = JSON.parse(sessionStorage.getItem(LINK_KEY) ?? "[]");
    return link === code ? id : null;
  } catch {
    return null;
  }
}

function rememberLink(code, id) {
  try {
    sessionStorage.setItem(LINK_KEY, JSON.stringify([code, id]));
  } catch {
    /* private mode: a reload starts the puzzle again */
  }
}

/** The server's words on why `code` cannot be played (null: it can); nothing is stored. */
async function problem(code) {
  try {
    await api.puzzleLeaderboard(code);
    return null;
  } catch (err) {
    return err instanceof ApiError ? err.message : t("ui.error.network");
  }
}
