// One watched run: its socket run, event player, board, counters, chart and narration.
// The single view has one lane; race mode has two fed by the same clock. A class room's
// lane has no run of its own: it shows players made from the room's stream (`show`).

import { formatNumber, t } from "../i18n.js";
import { BoardView } from "./board.js";
import { decodeBatch, eventCandidates, squareLabel } from "./decode.js";
import { Player } from "./player.js";
import { runParams } from "./setup.js";
import { DepthChart, Stats } from "./stats.js";

const KNIGHT = [
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
];

export class Lane {
  constructor(root) {
    this.root = root;
    this.board = new BoardView(root.querySelector('[data-role="board"]'));
    this.stats = new Stats(root);
    this.chart = new DepthChart(root.querySelector('[data-role="chart"]'));
    this.narration = root.querySelector('[data-role="narration"]');
    this.badge = root.querySelector('[data-role="badge"]');
    this.algorithmLabel = root.querySelector('[data-role="algorithm"]');
    this.historyNote = root.querySelector('[data-role="history-note"]');
    this.player = null;
    this.run = null;
    this.settings = null;
    this.error = null;
    this.generation = 0;
    this.narrated = "";
    this.narratedAt = 0;
    this.changed = true;
    this.redrawAll = false; // the player was replaced: every square is redrawn
  }

  /** Show an empty board of the chosen size (before a run, while picking the start). */
  preview(settings) {
    this.detach();
    delete this.root.dataset.runMs;
    this.settings = settings;
    this.player = null;
    this.error = null;
    if (this.board.rows !== settings.rows || this.board.cols !== settings.cols) {
      this.board.build(settings.rows, settings.cols);
    } else {
      this.board.build(settings.rows, settings.cols); // clears every mark
    }
    this.board.setStart(settings.start);
    this.setAlgorithm(settings.algorithm);
    this.chart.reset(settings.rows * settings.cols);
    this.chart.draw();
    this.stats.reset();
    this._setStatus("idle");
    this._say(t("watch.ui.narr.pick"));
    this.stats.show(emptyPlayer(settings));
  }

  setAlgorithm(algorithm) {
    this.root.dataset.algorithm = algorithm;
    this.algorithmLabel.dataset.i18n = `watch.ui.algo.${algorithm}`;
    this.algorithmLabel.textContent = t(`watch.ui.algo.${algorithm}`);
  }

  /** Start a run on `connection`; resolves when the server acknowledged it. */
  async start(connection, settings, window) {
    this.preview(settings);
    const generation = ++this.generation;
    this._setStatus("connecting");
    this._say(t("watch.ui.narr.connecting"));
    const params = runParams(settings);
    const handlers = {
      batch: (msg) => generation === this.generation && this._onBatch(msg),
      done: (msg) => generation === this.generation && this._onDone(msg),
      error: (err) => generation === this.generation && this._onError(err),
    };
    let run;
    try {
      run = await connection.start(params, handlers, { window });
    } catch (err) {
      if (generation === this.generation) this._onError(err);
      throw err;
    }
    if (generation !== this.generation) {
      run.stop();
      return null;
    }
    this.run = run;
    this.startedAt = performance.now();
    const { ack } = run;
    this.player = new Player({
      rows: ack.rows,
      cols: ack.cols,
      path: ack.prefix || [],
      counts: Boolean(ack.counts),
    });
    this.player.onFrontier = (n) => this.run?.consumed(n);
    const chart = this.chart;
    this.player.onNewEvent = (depth) => chart.push(depth);
    for (const [kind, msg] of this.early || []) (kind === "done" ? this._onDone(msg) : this._onBatch(msg));
    this.early = null;
    this._setStatus("running");
    this._say(t("watch.ui.narr.ready", { square: this.name(ack.start) }));
    this.changed = true;
    return run;
  }

  /**
   * Show `player`, made elsewhere (a class room's stream), and `columns` (DepthColumns kept
   * up to date with it) as its depth chart. No run: whoever made the player moves it.
   */
  show(settings, player, columns) {
    const shown = this.settings;
    const same = shown && shown.rows === settings.rows && shown.cols === settings.cols && shown.start === settings.start;
    if (!same) this.preview(settings);
    this.detach();
    this.settings = settings;
    this.setAlgorithm(settings.algorithm);
    this.player = player;
    this.error = null;
    this.startedAt ??= performance.now();
    this.chart.use(columns);
    this.redrawAll = true;
    this.changed = true;
  }

  /** Stop the run (if any) and forget it. */
  detach() {
    this.generation++;
    this.run?.stop();
    this.run = null;
    this.early = null;
  }

  get active() {
    return this.player !== null && !this.player.finished && this.error === null;
  }

  get finished() {
    return this.player !== null && (this.player.finished || this.error !== null);
  }

  name(sq) {
    return squareLabel(sq, this.settings.rows, this.settings.cols);
  }

  // -- drawing ------------------------------------------------------------------------------
  /** Redraw board, counters, chart and narration; `fast` throttles the narration. */
  draw(now, { fast = false } = {}) {
    const player = this.player;
    if (!player) return;
    const last = player.lastEvent();
    const view = { cands: [], counts: null, tried: 0, dead: -1 };
    let tags = "";
    let text = null;
    if (last && last.data[last.off] >= 0) {
      const sq = last.data[last.off];
      const { squares, counts } = eventCandidates(last.data, last.off, player.counts);
      const at = squares.indexOf(sq);
      view.cands = squares;
      view.counts = counts ?? squares.map((c) => this.onward(c));
      view.tried = at; // candidates before `sq` were tried already
      if (squares.length === 0) {
        tags = "mark next sort";
        text =
          this.settings.algorithm === "construct" && player.depth > 1
            ? t("watch.ui.narr.place", { n: player.depth, square: this.name(sq) })
            : t("watch.ui.narr.start", { square: this.name(sq) });
      } else {
        tags = "recurse mark next sort";
        const n = counts ? counts[at] : this.onward(sq);
        text = t(n === 1 ? "watch.ui.narr.try.one" : "watch.ui.narr.try", {
          square: this.name(sq),
          n,
        });
      }
    } else if (last) {
      const sq = -1 - last.data[last.off];
      view.dead = sq;
      tags = "reset check";
      text =
        player.depth > 0
          ? t("watch.ui.narr.back", { square: this.name(sq), to: this.name(player.head) })
          : t("watch.ui.narr.back.root", { square: this.name(sq) });
    }
    if (player.finished && player.done) {
      text = this._doneText(player.done);
      if (player.done.status === "found") tags = "finish";
      view.cands = [];
      view.dead = -1;
    }
    if (this.error) text = this.error;
    this.board.draw(player, view, { full: this.redrawAll });
    this.redrawAll = false;
    this.stats.show(player);
    this.chart.draw(player.pos);
    this.historyNote.hidden = player.historyStart === player.origin;
    if (text !== null && (!fast || now - this.narratedAt > 250 || player.finished)) {
      this._say(text);
      this.narratedAt = now;
    }
    this.tags = tags;
    this.changed = false;
  }

  /** The onward-move count of `sq` now: its unvisited knight neighbours. */
  onward(sq) {
    const { rows, cols, order } = this.player;
    const r = Math.floor(sq / cols);
    const c = sq % cols;
    let n = 0;
    for (const [dr, dc] of KNIGHT) {
      const rr = r + dr;
      const cc = c + dc;
      if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && order[rr * cols + cc] === 0) n++;
    }
    return n;
  }

  /** Re-render texts after a language switch. */
  relabel() {
    this.setAlgorithm(this.root.dataset.algorithm || "seed");
    this._setStatus(this.root.dataset.status || "idle");
    this.stats.shown = {};
    this.narratedAt = 0;
    if (this.player) this.draw(performance.now());
    else this._say(t("watch.ui.narr.pick"));
  }

  // -- socket input -------------------------------------------------------------------------
  _onBatch(msg) {
    if (!this.player) {
      (this.early ||= []).push(["batch", msg]); // a batch racing the acknowledgement
      return;
    }
    try {
      this.player.push(decodeBatch(msg.events, { counts: this.player.counts, squares: this.player.squares }));
    } catch (err) {
      this._onError(err);
    }
    this.changed = true;
  }

  _onDone(msg) {
    if (!this.player) {
      (this.early ||= []).push(["done", msg]);
      return;
    }
    this.player.finish(msg);
    this.root.dataset.serverNodes = msg.nodes;
    this.root.dataset.serverBacktracks = msg.backtracks;
    this.changed = true;
  }

  _onError(err) {
    this.error = err?.message || String(err);
    this._setStatus("error");
    this._say(this.error);
    this.run = null;
    this.changed = true;
  }

  _doneText(done) {
    const params = {
      squares: formatNumber(this.player.squares),
      nodes: formatNumber(done.nodes),
      backtracks: formatNumber(done.backtracks),
      square: this.name(this.settings.start),
    };
    if (done.status === "budget") {
      return t(done.limit === "time" ? "watch.ui.narr.budget.time" : "watch.ui.narr.budget", params);
    }
    return t(`watch.ui.narr.${done.status}`, params);
  }

  /** Status shown on the badge; `finish` also sets it from the run's outcome. */
  updateStatus(playing) {
    if (this.error !== null || !this.player) return;
    if (this.player.finished) {
      if (!this.root.dataset.runMs) {
        // From the acknowledgement to the last event drawn (read by the browser benchmark).
        this.root.dataset.runMs = (performance.now() - this.startedAt).toFixed(1);
      }
      this._setStatus(this.player.done.status);
    }
    else this._setStatus(playing ? "running" : "paused");
  }

  _setStatus(status) {
    if (this.root.dataset.status === status && this.badge.dataset.i18n === `watch.ui.status.${status}`) {
      return;
    }
    this.root.dataset.status = status;
    this.badge.dataset.i18n = `watch.ui.status.${status}`;
    this.badge.textContent = t(`watch.ui.status.${status}`);
  }

  _say(text) {
    if (this.narrated === text) return;
    this.narrated = text;
    this.narration.textContent = text;
  }
}

function emptyPlayer(settings) {
  return {
    moves: 0,
    backtracks: 0,
    depth: 0,
    maxDepth: 0,
    pos: 0,
    received: 0,
    squares: settings.rows * settings.cols,
  };
}
