// The class puzzle on a student's phone: a Play-page game (the ordinary JSON API, so the
// server checks every move) whose board, mode and start square the teacher fixed. The
// server opens the game with the knight already on the start square (`solve`); a win is
// reported with `solved`, and the server checks the stored game before ranking it.
//
// The board is the Watch page's BoardView: the path as numbered squares with its line,
// the legal moves as candidate squares to tap.

import { api } from "../api.js";
import { formatTime, t } from "../i18n.js";
import { BoardView } from "../watch/board.js";

const NAME_KEY = "class-name";

export class PuzzlePlay {
  constructor(root, { call, code }) {
    this.root = root;
    this.call = call;
    this.code = code;
    this.form = root.querySelector("#c-name-form");
    this.nameInput = root.querySelector("#c-name");
    this.playBox = root.querySelector("#c-play");
    this.status = root.querySelector("#c-play-status");
    this.solvedBox = root.querySelector("#c-solved");
    this.board = new BoardView(root.querySelector("#c-puzzle-board"));
    this.puzzle = null;
    this.game = null; // the game's id
    this.state = null; // the API's game state
    this.busy = false;
    this.nameInput.value = localStorage.getItem(NAME_KEY) || "";
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.begin();
    });
    this.board.onSquare = (row, col) => this.move(row, col);
    root
      .querySelector("#c-undo")
      .addEventListener("click", () => this.act(() => api.undo(this.game, 1)));
    root
      .querySelector("#c-restart")
      .addEventListener("click", () => this.act(() => api.restart(this.game)));
  }

  _key(puzzle = this.puzzle) {
    return `class-game:${this.code}:${puzzle.seq}`;
  }

  /** A new puzzle from the teacher: resume our game of it, if this browser has one. */
  async setPuzzle(puzzle) {
    this.puzzle = puzzle;
    this.game = null;
    this.state = null;
    this.solvedBox.hidden = true;
    this.playBox.hidden = true;
    this.form.hidden = false;
    this.root.dataset.phase = "name";
    const saved = localStorage.getItem(this._key());
    if (saved) {
      try {
        this.game = saved;
        this.show(await api.get(saved));
        if (this.state.status === "won") this.report();
      } catch {
        localStorage.removeItem(this._key());
        this.game = null;
        this.form.hidden = false;
        this.playBox.hidden = true;
      }
    }
  }

  clear() {
    this.puzzle = null;
    this.game = null;
    this.root.dataset.phase = "none";
  }

  async begin() {
    if (this.busy || !this.puzzle) return;
    const name = this.nameInput.value.trim();
    if (!name) {
      this.nameInput.focus();
      return;
    }
    this.busy = true;
    try {
      const ack = await this.call("solve", { name });
      if (!ack.ok) {
        this.say(ack.error?.message, true);
        return;
      }
      localStorage.setItem(NAME_KEY, name);
      localStorage.setItem(this._key(ack.puzzle), ack.game);
      this.game = ack.game;
      this.show(await api.get(ack.game));
    } catch (err) {
      this.say(err?.message, true);
    } finally {
      this.busy = false;
    }
  }

  move(row, col) {
    if (!this.state || this.state.status === "won") return;
    if (!this.state.legal.some(([r, c]) => r === row && c === col)) return;
    this.act(() => api.move(this.game, row, col));
  }

  async act(request) {
    if (this.busy || !this.game) return;
    this.busy = true;
    try {
      this.show(await request());
      if (this.state.status === "won") await this.report();
    } catch (err) {
      this.say(err?.message, true);
    } finally {
      this.busy = false;
    }
  }

  /** The server saw the win: put it on the class leaderboard. */
  async report() {
    const ack = await this.call("solved", { game: this.game });
    if (!ack.ok) {
      this.say(ack.error?.message, true);
      return;
    }
    const { entry } = ack;
    this.solvedBox.textContent = t("class.ui.solved", {
      time: formatTime(entry.seconds),
      rank: entry.rank ?? "–",
    });
    this.solvedBox.hidden = false;
    this.root.dataset.phase = "solved";
  }

  show(state) {
    this.state = state;
    this.form.hidden = true;
    this.playBox.hidden = false;
    this.root.dataset.phase = state.status === "won" ? "won" : "playing";
    const { rows, cols } = state;
    if (this.board.rows !== rows || this.board.cols !== cols) this.board.build(rows, cols);
    const squares = rows * cols;
    const path = state.path.map(([r, c]) => r * cols + c);
    const player = {
      order: new Int32Array(squares),
      path: Int32Array.from(path),
      depth: path.length,
      head: path.length ? path[path.length - 1] : -1,
      takeDirty: () => Array.from({ length: squares }, (_, i) => i),
    };
    path.forEach((sq, i) => {
      player.order[sq] = i + 1;
    });
    const legal = state.status === "won" ? [] : state.legal.map(([r, c]) => r * cols + c);
    this.board.setStart(path.length ? path[0] : -1);
    this.board.draw(player, { cands: legal, counts: null, tried: 0, dead: -1 });
    this.board.root.dataset.status = state.status;
    this.say(state.dead ? state.dead.message : state.message, false);
  }

  say(text, isError) {
    this.status.textContent = text || "";
    this.status.dataset.error = String(Boolean(isError));
  }
}
