// "Show me": the hint's big sibling. The solver's search (Warnsdorff ordering, the game's
// mode, pruning on, a modest budget) is streamed from the player's position over the watch
// protocol (docs/protocol.md) and drawn on the Play board as a trail beyond the player's
// path: the squares it tries, numbered, the candidates it weighs, the squares it backs out
// of flashing, a ghost knight at its head. The game never changes: when the run ends the
// page draws its game again, and the move found is only highlighted, for the player's own
// click. The stream is Watch's (stream/feed.js), paced by the same clock (stream/clock.js),
// ever faster: every step readable at first, a long search still over in seconds.

import { markSearch, onward, setPath } from "../board/state.js";
import { formatNumber, t } from "../core/i18n.js";
import { nameOf, squareName, toSquare } from "../core/squares.js";
import { StackPanel } from "../stack/panel.js";
import { createStack, followPlayer } from "../stack/state.js";
import { FRAME_BUDGET_MS, PlaybackClock, seekPlayers } from "../stream/clock.js";
import { MAX_WINDOW, WatchConnection } from "../stream/connection.js";
import { RunFeed } from "../stream/feed.js";
import { lastEventView } from "../stream/last-event.js";
import { loadSocketIo } from "../stream/load-socketio.js";
import { narrateEvent } from "../stream/narrate.js";

export const NODE_BUDGET = 200_000; // a few seconds of search at most: a hint, not a study
export const TIME_LIMIT = 15; // seconds of search (paused time excluded by the server)
const BASE_RATE = 30; // events drawn per second at first: every step readable
const DOUBLING_MS = 1000; // the drawing rate doubles this often, so long searches still end soon
const MAX_RATE = 120_000;
const HOLD_MS = 900; // how long the found tour stays on the board before the hint shows
const NARRATE_MS = 300; // the narration changes at most this often
const CONNECT_MS = 10_000;

/**
 * One "show me" at a time on `board` (the Play page's Board). `onEnd(result)` gets
 * {status: "found", next: [r, c], nodes} | {status: "exhausted" | "budget", limit, nodes}
 * | {status: "stopped"} | {status: "error", message}, each with its `text`.
 */
export class ShowMe {
  constructor({ board, panel, button, onEnd, onChange = () => {} }) {
    Object.assign(this, { board, panel, button, onEnd, onChange });
    this.text = panel.querySelector("#showme-text");
    this.nodes = panel.querySelector("#showme-nodes");
    this.skipButton = panel.querySelector("#showme-skip");
    this.stackPanel = new StackPanel(panel.querySelector('[data-role="stack"]'));
    this.connection = null;
    this.feed = new RunFeed({ onError: (err) => this._fail(err) });
    this.clock = new PlaybackClock();
    this.generation = 0;
    this.state = "idle"; // idle | connecting | running | holding
    this.skipButton.addEventListener("click", () => this.skip());
    panel.querySelector("#showme-cancel").addEventListener("click", () => this.cancel());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.active) {
        event.preventDefault();
        this.cancel();
      }
    });
  }

  get active() {
    return this.state !== "idle";
  }

  /** Stream the search from `game`'s position (status "playing" only). */
  async start(game) {
    if (this.active) return;
    const generation = ++this.generation;
    this.game = game;
    this.own = game.path.map(([r, c]) => toSquare(r, c, game.cols)); // the player's path
    this.skipping = false;
    this.player = null;
    this.narratedAt = 0;
    this.shownPos = -1;
    this.board.state.own = this.own.length;
    this._setState("connecting");
    this.skipButton.disabled = false;
    this.panel.hidden = false;
    const square = nameOf(this.own.at(-1), game.rows, game.cols);
    this._say(t("ui.showme.connecting", { square }));
    this.nodes.textContent = "";
    if (this.button.contains(document.activeElement) || document.activeElement === document.body) {
      this.skipButton.focus({ preventScroll: true });
    }
    try {
      await loadSocketIo(this.button.dataset.socketio);
      this.connection ??= new WatchConnection();
      const starting = this.feed.start(this.connection, this._params(game), { window: 2000 });
      this.player = await withTimeout(starting, CONNECT_MS, t("ui.showme.offline"), () =>
        this.feed.stop(),
      );
    } catch (err) {
      if (generation === this.generation) this._fail(err);
      return;
    }
    if (generation !== this.generation || !this.player) return; // cancelled meanwhile
    if (this.skipping) this.feed.setWindow(MAX_WINDOW); // skip was pressed while connecting
    const { rows, cols } = game;
    const given = this.feed.ack.prefix.length; // the player's squares are no search frames
    this.stack = createStack({ rows, cols, algorithm: "warnsdorff", given });
    this.stackPanel.use(this.stack);
    this._setState("running");
    this.startedAt = performance.now();
    this.clock.play(0, this.startedAt);
    this.frame = requestAnimationFrame((now) => this._frame(now, generation));
  }

  _params(game) {
    return {
      game: game.id,
      rows: game.rows,
      cols: game.cols,
      start: game.start ?? game.path[0],
      algorithm: "warnsdorff",
      closed: game.closed,
      pruning: true,
      node_budget: NODE_BUDGET,
      time_limit: TIME_LIMIT,
    };
  }

  /** Draw everything that is left at once, then end as soon as the server has. */
  skip() {
    if (!this.active) return;
    if (this.state === "holding") {
      this._end();
      return;
    }
    this.skipping = true;
    this.skipButton.disabled = true;
    this.feed.setWindow(MAX_WINDOW);
    this._say(t("ui.showme.skipping"));
    this.panel.dataset.status = "skipping";
  }

  /** Stop the run (the server's task ends) and give the board back to the game. */
  cancel() {
    if (!this.active) return;
    this.feed.stop();
    this._finish({ status: "stopped" });
  }

  /** Forget the socket (a language switch: the server picks the language at connect). */
  disconnect() {
    this.cancel();
    this.connection?.close();
    this.connection = null;
  }

  // -- pacing and drawing ------------------------------------------------------------------
  _frame(now, generation) {
    if (generation !== this.generation || this.state !== "running") return;
    const { player, clock } = this;
    if (this.skipping) {
      clock.runToEnd(now);
    } else {
      const rate = Math.min(MAX_RATE, BASE_RATE * 2 ** ((now - this.startedAt) / DOUBLING_MS));
      clock.setSpeed(rate, now);
      this.feed.setWindow(rate / 2); // about half a second of drawing in flight
    }
    try {
      seekPlayers([player], clock.target(now), now + FRAME_BUDGET_MS);
      clock.tick(now, player.pos);
      this._draw(now);
    } catch (err) {
      this.feed.stop();
      this._fail(err);
      return;
    }
    if (player.finished) this._settle();
    else this.frame = requestAnimationFrame((next) => this._frame(next, generation));
  }

  _draw(now) {
    const { player, board } = this;
    const state = board.state;
    // Until the search re-enters the player's square (and after it backs out of it), the
    // board shows the player's own path.
    if (player.depth >= this.own.length) setPath(state, player.path, player.depth);
    else setPath(state, this.own);
    const view = lastEventView(player);
    markSearch(state, { ...view, dead: view.back });
    board.draw({ flash: true });
    followPlayer(this.stack, player);
    this.stackPanel.draw({ fast: this.skipping || this.clock.fast });
    if (player.pos !== this.shownPos) {
      this.shownPos = player.pos;
      this.panel.dataset.events = String(player.pos);
      this.nodes.textContent = t("ui.showme.nodes", { nodes: formatNumber(player.moves) });
      const text = this.skipping
        ? null
        : narrateEvent(view, player, {
            algorithm: "warnsdorff",
            onward: (sq) => onward(state, sq),
          });
      if (text !== null && now - this.narratedAt >= NARRATE_MS) {
        this.narratedAt = now;
        this._say(text);
      }
    }
  }

  /** Every event is drawn and the run is over: show the outcome briefly, then end. */
  _settle() {
    markSearch(this.board.state, {}); // the outcome, without the last choice's marks
    this.board.draw();
    if (this.player.done.status === "found" && !this.skipping) {
      this._setState("holding");
      this._say(this._resultText(this._result()));
      this.holdTimer = setTimeout(() => this._end(), HOLD_MS);
      return;
    }
    this._end();
  }

  _end() {
    if (this.active && this.player?.done) this._finish(this._result());
  }

  _result() {
    const { done } = this.player;
    const nodes = done.nodes;
    if (done.status === "found" && done.tour) {
      // the whole tour, the game's path first; a full closed path's next move is the start
      const { length } = this.own;
      const sq = done.tour.length > length ? done.tour[length] : done.tour[0];
      const cols = this.game.cols;
      return { status: "found", next: [Math.floor(sq / cols), sq % cols], nodes };
    }
    if (done.status === "exhausted" || done.status === "budget") {
      return { status: done.status, limit: done.limit, nodes };
    }
    return { status: "stopped" };
  }

  _resultText(result) {
    const nodes = formatNumber(result.nodes ?? 0);
    switch (result.status) {
      case "found":
        return t("ui.showme.found", { nodes, square: squareName(...result.next, this.game.rows) });
      case "exhausted":
        return t("ui.showme.exhausted", { nodes });
      case "budget":
        return t(result.limit === "time" ? "ui.showme.budget.time" : "ui.showme.budget", { nodes });
      case "error":
        return t("ui.showme.error", { message: result.message });
      default:
        return t("ui.showme.stopped");
    }
  }

  _fail(err) {
    if (this.active) this._finish({ status: "error", message: err?.message || String(err) });
  }

  /** Hand the outcome over (the page draws its game again), give the focus back. */
  _finish(result) {
    this.generation++;
    cancelAnimationFrame(this.frame);
    clearTimeout(this.holdTimer);
    this.feed.stop();
    this.player = null;
    const hadFocus = this.panel.contains(document.activeElement);
    this.panel.hidden = true;
    this._setState("idle");
    result.text = this._resultText(result);
    this.onEnd(result);
    if (hadFocus && !this.button.disabled) this.button.focus({ preventScroll: true });
  }

  _setState(state) {
    this.state = state;
    this.panel.dataset.status = state;
    if (state === "idle") delete this.board.root.dataset.showme;
    else this.board.root.dataset.showme = state;
    this.onChange(state);
  }

  _say(text) {
    if (this.text.textContent !== text) this.text.textContent = text;
  }
}

/** `promise`, or a rejection with `message` after `ms` (then `onLate` undoes it). */
function withTimeout(promise, ms, message, onLate) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      onLate();
      reject(new Error(message));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
