// The teacher's puzzle panel: hand the class a puzzle (or take it back) and show the class
// leaderboard as students solve it.

import { formatTime, t } from "../core/i18n.js";
import { boardLimits, clampSide } from "../core/limits.js";
import { parseSquare } from "../core/squares.js";
import { puzzleText } from "./puzzle.js";

const $ = (selector) => document.querySelector(selector);

export class Handout {
  /**
   * page: the root element (data-puzzle, data-solved); call(event, payload) => Promise of
   * the ack; onHanded(): a puzzle was handed out (the page shows its leaderboard).
   */
  constructor({ page, call, onHanded = () => {} }) {
    this.page = page;
    this.call = call;
    this.onHanded = onHanded;
    this.form = $("#c-puzzle-form");
    this.problem = $("#c-puzzle-error");
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.handOut();
    });
    $("#c-puzzle-clear").addEventListener("click", () => this.takeBack());
    $("#c-attempts-clear").addEventListener("click", () => this.attemptsBack());
    // the editor's "hand to the class" link: /class/<code>/teach?puzzle=<puzzle code>
    const given = new URLSearchParams(location.search).get("puzzle");
    if (given) this.form.elements.code.value = given;
  }

  async handOut() {
    const data = new FormData(this.form);
    const code = String(data.get("code") || "").trim();
    if (code) {
      this._problem("");
      this._answer(await this.call("puzzle", { puzzle: code }));
      return;
    }
    const limit = boardLimits().play;
    const rows = clampSide(data.get("rows"), limit, 6);
    const cols = clampSide(data.get("cols"), limit, 6);
    const start = parseSquare(String(data.get("start")), rows, cols);
    if (!start) {
      this._problem(t("class.ui.puzzle.bad-start"));
      return;
    }
    this._problem("");
    const ack = await this.call("puzzle", {
      rows,
      cols,
      closed: data.get("tour") === "closed",
      start,
    });
    this._answer(ack);
  }

  _answer(ack) {
    if (!ack.ok) {
      this._problem(ack.error?.message);
      return;
    }
    this._problem("");
    this.showPuzzle(ack.puzzle);
    this.showLeaderboard(ack.leaderboard);
    this.onHanded();
  }

  async takeBack() {
    const ack = await this.call("puzzle", null);
    if (ack.ok) {
      this.showPuzzle(null);
      this.showLeaderboard(ack.leaderboard);
    }
  }

  /** Every student gets their attempts at the puzzle back (`clear_attempts`). */
  async attemptsBack() {
    const ack = await this.call("clear_attempts", {});
    $("#c-attempts-given").textContent = ack.ok
      ? t("class.ui.puzzle.attempts.given")
      : ack.error?.message || "";
  }

  showPuzzle(puzzle) {
    const now = $("#c-puzzle-now");
    now.hidden = !puzzle;
    now.textContent = puzzle ? t("class.ui.puzzle.now", { puzzle: puzzleText(puzzle) }) : "";
    $("#c-puzzle-none").hidden = Boolean(puzzle);
    $("#c-puzzle-clear").hidden = !puzzle;
    $("#c-attempts-clear").hidden = !puzzle;
    $("#c-attempts-given").textContent = "";
    this.page.dataset.puzzle = puzzle ? String(puzzle.seq) : "";
  }

  showLeaderboard(board) {
    const rows = (board?.entries || []).map((entry) => {
      const tr = document.createElement("tr");
      const cells = [entry.rank, entry.name, formatTime(entry.seconds), entry.moves, entry.hints];
      for (const value of cells) {
        const td = document.createElement("td");
        td.textContent = String(value); // names are plain text, never HTML
        tr.append(td);
      }
      return tr;
    });
    $("#c-leaderboard tbody").replaceChildren(...rows);
    $("#c-board-empty").hidden = rows.length > 0 || !board?.puzzle;
    $("#c-board-counts").textContent = board?.puzzle
      ? t("class.ui.lb.counts", { solved: board.solved, trying: board.trying })
      : "";
    this.page.dataset.solved = String(board?.solved ?? 0);
  }

  _problem(message) {
    this.problem.textContent = message || "";
    this.problem.hidden = !message;
  }
}
