// The Play page's setup form: the board (presets or a custom size within the server's
// limits) and the mode. Each choice is checked against the theory (GET /api/theory) before
// play: the sizes where the chosen mode has no tour are marked, with the reason.

import { api } from "../core/api.js";
import { getLang, t } from "../core/i18n.js";
import { boardLimits, fits } from "../core/limits.js";
import { squareName } from "../core/squares.js";
import { isPuzzle } from "./leaderboard.js";

const PRESETS = { "5x5": [5, 5], "6x6": [6, 6], "8x8": [8, 8] };

export class Setup {
  /** form, panel, customSize, theory, startButton, puzzle: the panel's elements. */
  constructor({ form, panel, customSize, theory, startButton, puzzle }) {
    this.form = form;
    this.puzzleLine = puzzle;
    this.panel = panel;
    this.customSize = customSize;
    this.theoryLine = theory;
    this.startButton = startButton;
    this.limit = boardLimits().play;
    this.touched = false; // the player edited the form: it no longer follows the game
    this.cache = new Map();
    this.run = 0;
    form.addEventListener("input", () => {
      this.touched = true;
      this.refresh();
    });
  }

  /** {size, rows, cols, closed}: the board and mode chosen. */
  read() {
    const data = new FormData(this.form);
    const size = data.get("size");
    const [rows, cols] =
      size in PRESETS ? PRESETS[size] : [Number(data.get("rows")), Number(data.get("cols"))];
    return { size, rows, cols, closed: data.get("mode") === "closed" };
  }

  /** Show `game`'s board and mode in the form (unless the player is editing it). */
  follow(game, { force = false } = {}) {
    if (!game || (this.touched && !force)) return;
    const preset = `${game.rows}x${game.cols}`;
    const size = preset in PRESETS ? preset : "custom";
    this.form.querySelector(`input[name=size][value="${size}"]`).checked = true;
    if (size === "custom") {
      this.form.elements.rows.value = game.rows;
      this.form.elements.cols.value = game.cols;
    }
    const mode = game.closed ? "closed" : "open";
    this.form.querySelector(`input[name=mode][value="${mode}"]`).checked = true;
    this.touched = false;
    this.refresh();
  }

  /** Say which puzzle `game` is (its size, open squares, mode, fixed start, code), if any. */
  showPuzzle(game) {
    const line = this.puzzleLine;
    if (!line) return;
    line.hidden = !isPuzzle(game);
    if (line.hidden) return;
    const parts = [
      t("ui.puzzle.info", {
        board: `${game.rows}×${game.cols}`,
        squares: game.rows * game.cols - game.holes.length,
        mode: t(game.closed ? "ui.mode.closed" : "ui.mode.open"),
      }),
    ];
    if (game.fixed_start) {
      const [row, col] = game.fixed_start;
      parts.push(t("ui.puzzle.start", { start: squareName(row, col, game.rows) }));
    }
    line.querySelector(".puzzle-name").textContent = parts.join(" · ");
    line.querySelector(".puzzle-code").textContent = game.puzzle;
  }

  /** Forget the theory's answers (they are in the old language). */
  forget() {
    this.cache.clear();
  }

  _verdict(rows, cols, closed) {
    const key = `${rows}x${cols}:${closed}:${getLang()}`;
    if (!this.cache.has(key)) {
      const asked = api.theory(rows, cols, closed).catch((err) => {
        this.cache.delete(key);
        throw err;
      });
      this.cache.set(key, asked);
    }
    return this.cache.get(key);
  }

  /** Mark the sizes on which the chosen mode has no tour, and say so for the chosen one. */
  async refresh() {
    const run = ++this.run;
    const setup = this.read();
    this.customSize.hidden = setup.size !== "custom";
    const validCustom = fits(setup.rows, setup.cols, this.limit);
    await Promise.all(
      [...this.form.querySelectorAll(".chip")].map(async (chip) => {
        const preset = chip.dataset.preset;
        if (preset === "custom" && !validCustom) return;
        const [rows, cols] = preset in PRESETS ? PRESETS[preset] : [setup.rows, setup.cols];
        try {
          const verdict = await this._verdict(rows, cols, setup.closed);
          if (run !== this.run) return;
          chip.dataset.impossible = verdict.possible ? "false" : "true";
          chip.title = verdict.possible ? "" : (verdict.reason ?? "");
        } catch {
          /* said below for the chosen size */
        }
      }),
    );
    if (run !== this.run) return;
    if (setup.size === "custom" && !validCustom) {
      this._say(t("ui.custom.range", this.limit), "false", true);
      return;
    }
    try {
      const verdict = await this._verdict(setup.rows, setup.cols, setup.closed);
      if (run !== this.run) return;
      const board = `${setup.rows}×${setup.cols}`;
      const text = verdict.possible
        ? t(setup.closed ? "ui.theory.closed-ok" : "ui.theory.open-ok", { board })
        : t("ui.theory.impossible", { board, reason: verdict.reason ?? "" });
      this._say(text, String(verdict.possible), !verdict.possible);
    } catch (err) {
      this._say(err.message, "", false);
    }
  }

  _say(text, possible, blocked) {
    this.theoryLine.dataset.possible = possible;
    this.theoryLine.textContent = text;
    this.startButton.disabled = blocked;
  }

  /** Bring the form into view and its first choice into focus. */
  show(smooth) {
    this.panel.scrollIntoView({ behavior: smooth, block: "start" });
    this.form.querySelector("input[name=size]:checked")?.focus({ preventScroll: true });
    this.panel.classList.remove("flash");
    void this.panel.offsetWidth; // restart the highlight
    this.panel.classList.add("flash");
  }
}
