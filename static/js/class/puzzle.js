// The class puzzle on a student's phone: a Play-page game (the ordinary JSON API, so the
// server checks every move) whose board, mode and start square the teacher fixed. The
// server opens the game with the knight already on the start square (`solve`, under the
// student's one name in the room: identity.js, asked here only if not given yet); a win
// is reported with `solved`, and the server checks the stored game before ranking it.
//
// Its board is the Play page's (board/, kind "puzzle"): tap or click a legal square, or walk
// the focus with the arrow keys and press Enter.

import { Board } from "../board/board.js";
import { showGame } from "../board/state.js";
import { api } from "../core/api.js";
import { formatTime, t } from "../core/i18n.js";
import { rowCol, squareName } from "../core/squares.js";

/** The puzzle in words: "5×5 open tour from a1", "… any start", "…, 2 holes". */
export function puzzleText(puzzle) {
  const mode = puzzle.closed ? "class.ui.puzzle.closed" : "class.ui.puzzle.open";
  const params = { rows: puzzle.rows, cols: puzzle.cols };
  const text = puzzle.start
    ? t(mode, { ...params, square: squareName(puzzle.start[0], puzzle.start[1], puzzle.rows) })
    : t(`${mode}.free`, params);
  const holes = puzzle.holes?.length ?? 0;
  return holes ? `${text}${t("class.ui.puzzle.holes", { count: holes })}` : text;
}

export class PuzzlePlay {
  /** call(event, payload) => Promise of the ack; identity: the student's RoomIdentity. */
  constructor(root, { call, code, identity }) {
    Object.assign(this, { root, call, code, identity });
    this.form = root.querySelector("#c-name-form");
    this.nameField = root.querySelector("#c-name-field");
    this.nameInput = root.querySelector("#c-name");
    this.problem = root.querySelector("#c-try-error");
    this.playBox = root.querySelector("#c-play");
    this.status = root.querySelector("#c-play-status");
    this.solvedBox = root.querySelector("#c-solved");
    this.board = new Board(root.querySelector("#c-puzzle-board"), {
      kind: "puzzle",
      input: true,
      pieces: true,
    });
    this.board.onSquare = (sq) => this.move(...rowCol(sq, this.board.cols));
    this.puzzle = null;
    this.game = null; // the game's id
    this.state = null; // the API's game state
    this.busy = false;
    identity.onChange(() => this._showName());
    this._showName();
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.begin();
    });
    const undo = () => api.undo(this.game, 1);
    root.querySelector("#c-undo").addEventListener("click", () => this.act(undo));
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
    this._showForm(true);
    this._problem("");
    this.solvedBox.hidden = true;
    this.root.dataset.phase = "name";
    const saved = localStorage.getItem(this._key());
    if (!saved) return;
    try {
      this.game = saved;
      this.show(await api.get(saved));
      if (this.state.status === "won") this.report();
    } catch {
      localStorage.removeItem(this._key());
      this.game = null;
      this._showForm(true);
    }
  }

  clear() {
    this.puzzle = null;
    this.game = null;
    this.root.dataset.phase = "none";
  }

  /** The try button: enter under the name typed (once per room), then open the game. */
  async begin() {
    if (this.busy || !this.puzzle) return;
    const name = this.nameInput.value.trim();
    if (!this.identity.entered && !name) {
      this.nameInput.focus();
      return;
    }
    this.busy = true;
    try {
      if (!this.identity.entered) {
        const entered = await this.identity.enter(name);
        if (!entered?.ok) {
          this._problem(entered?.error?.message);
          return;
        }
      }
      const ack = await this.call("solve", {}); // under the name entered

      if (!ack.ok) {
        this._problem(ack.error?.message);
        return;
      }
      this._problem("");
      localStorage.setItem(this._key(ack.puzzle), ack.game);
      this.game = ack.game;
      this.show(await api.get(ack.game));
    } catch (err) {
      this._problem(err?.message);
    } finally {
      this.busy = false;
    }
  }

  /** The name field only until the student has a name in this room. */
  _showName() {
    const entered = this.identity.entered;
    this.nameField.hidden = entered;
    this.nameInput.required = !entered;
    if (!entered && !this.nameInput.value) this.nameInput.value = this.identity.savedName;
  }

  _problem(message) {
    this.problem.textContent = message || "";
    this.problem.hidden = !message;
  }

  /** The teacher gave attempts back (`attempts_cleared`): a refusal shown is over. */
  attemptsBack() {
    this._problem("");
  }

  /** A square picked: a move to send when it is legal (the server checks it again). */
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
    this._showForm(false);
    this.root.dataset.phase = state.status === "won" ? "won" : "playing";
    const resized = this.board.resize(state.rows, state.cols);
    showGame(this.board.state, state);
    this.board.draw({ relabel: resized });
    this.say(state.dead ? state.dead.message : state.message, false);
  }

  _showForm(on) {
    this.form.hidden = !on;
    this.playBox.hidden = on;
  }

  say(text, isError) {
    this.status.textContent = text || "";
    this.status.dataset.error = String(Boolean(isError));
  }
}
