// One watched search: its board, counters, depth chart, narration and status badge, and
// the stream that feeds it. The Watch page has one lane, two in race mode; a class room's
// lane has no stream of its own: it shows the player the room's follower keeps (`show`).

import { Board } from "../board/board.js";
import { markSearch, onward, setHeat, setHoles, setPath } from "../board/state.js";
import { formatNumber, t } from "../core/i18n.js";
import { searchNodeBudget } from "../core/limits.js";
import { nameOf } from "../core/squares.js";
import { StackPanel } from "../stack/panel.js";
import { createStack, followPlayer, frameView } from "../stack/state.js";
import { DepthColumns } from "../stream/columns.js";
import { RunFeed } from "../stream/feed.js";
import { lastEventView } from "../stream/last-event.js";
import { narrateDone, narrateEvent } from "../stream/narrate.js";
import { runParams } from "./setup.js";
import { DepthChart, Stats } from "./stats.js";

const NARRATE_MS = 250; // playing fast, the narration changes at most this often

export class Lane {
  /** input: the board takes squares (picking the start); `board.onSquare` gets them. */
  constructor(root, { input = true } = {}) {
    this.root = root;
    this.board = new Board(root.querySelector('[data-role="board"]'), {
      kind: "watch",
      input,
      heat: true,
    });
    this.stats = new Stats(root);
    this.chart = new DepthChart(root.querySelector('[data-role="chart"]'));
    this.narration = root.querySelector('[data-role="narration"]');
    this.badge = root.querySelector('[data-role="badge"]');
    this.algorithmLabel = root.querySelector('[data-role="algorithm"]');
    this.historyNote = root.querySelector('[data-role="history-note"]');
    this.progressLine = root.querySelector('[data-role="progress"]');
    const stackRoot = root.querySelector('[data-role="stack"]');
    this.stackPanel = stackRoot && new StackPanel(stackRoot, { onSelect: () => this.redraw() });
    this.stack = null;
    this.feed = new RunFeed({
      onDone: (msg) => {
        this.root.dataset.serverNodes = msg.nodes;
        this.root.dataset.serverBacktracks = msg.backtracks;
        this.changed = true;
      },
      onError: (err) => this._fail(err),
      onProgress: (msg) => this._progress(msg),
      onSnapshot: (player, snapshot) => this._land(player, snapshot),
    });
    this.onLanded = null; // (snapshot) => ..., the page moves its clock to the seek's index
    this.player = null;
    this.settings = null;
    this.error = null;
    this.heat = false;
    this.overlay = null; // heat drawn instead of the search's (the class quiz's tally)
    this.narrated = "";
    this.narratedAt = 0;
    this.changed = true;
    this.tags = "";
  }

  /** An empty board of the chosen size with its start square (before a run). */
  preview(settings) {
    this.detach();
    this._endSeek();
    delete this.root.dataset.runMs;
    this.settings = settings;
    this.player = null;
    this.error = null;
    if (!this.board.resize(settings.rows, settings.cols)) this.board.clear();
    setHoles(this.board.state, settings.holes ?? []);
    this.board.state.start = settings.start;
    this.board.state.closed = settings.closed;
    this.board.draw();
    this.setAlgorithm(settings.algorithm);
    this._newStack(settings, 0);
    this.chart.reset(settings.rows * settings.cols);
    this.chart.draw();
    this.stats.reset();
    this.stats.show(emptyPlayer(settings));
    this._setStatus("idle");
    this.say(t("watch.ui.narr.pick"));
  }

  /** Move the start square (picking it before a run). */
  setStart(sq) {
    this.settings.start = sq;
    this.board.state.start = sq;
    this.board.draw();
  }

  setAlgorithm(algorithm) {
    this.root.dataset.algorithm = algorithm;
    this.algorithmLabel.dataset.i18n = `watch.ui.algo.${algorithm}`;
    this.algorithmLabel.textContent = t(`watch.ui.algo.${algorithm}`);
  }

  /** Start a run on `connection`; resolves once the server acknowledged it. */
  async start(connection, settings, window) {
    this.preview(settings);
    this._setStatus("connecting");
    this.say(t("watch.ui.narr.connecting"));
    let player;
    try {
      // the server's cap, from the page: ⏭ reaches the end of the lesson's 8x8 plain search
      const params = { ...runParams(settings), node_budget: searchNodeBudget() };
      player = await this.feed.start(connection, params, { window });
    } catch (err) {
      this._fail(err);
      throw err;
    }
    if (!player) return null; // detached meanwhile
    this.player = player;
    this._newStack(settings, this.feed.ack.prefix.length);
    this.startedAt = performance.now();
    player.onNewEvent = (depth) => this.chart.push(depth);
    this._setStatus("running");
    this.say(t("watch.ui.narr.ready", { square: this.name(this.feed.ack.start) }));
    this.changed = true;
    return player;
  }

  /**
   * Show `player`, made elsewhere (a class room's stream), and `columns` (DepthColumns kept
   * up to date with it) as its depth chart. No run: whoever made the player moves it.
   */
  show(settings, player, columns) {
    const shown = this.settings;
    const same =
      shown &&
      shown.rows === settings.rows &&
      shown.cols === settings.cols &&
      shown.start === settings.start &&
      String(shown.holes ?? []) === String(settings.holes ?? []);
    if (!same) this.preview(settings);
    this.detach();
    if (this.player !== player) this._newStack(settings, 0);
    this.settings = settings;
    this.setAlgorithm(settings.algorithm);
    this.player = player;
    this.error = null;
    this.startedAt ??= performance.now();
    this.chart.use(columns);
    this.changed = true;
  }

  /** Stop the run (if any) and forget it. */
  detach() {
    this.feed.stop();
  }

  /** Whether this lane's run can ask the server for any index (a fresh run). */
  get seekable() {
    return this.error === null && this.feed.seekable;
  }

  /** Whether a seek is on its way (the server computing towards it). */
  get seeking() {
    return this.root.dataset.seeking === "true";
  }

  /**
   * Ask the server to stand at `index` (null: the end of the search): it computes there,
   * saying how far it got meanwhile, then the lane shows its snapshot.
   */
  async seek(index) {
    if (!this.seekable) return;
    this.root.dataset.seeking = "true";
    this._progress({ index: this.player?.received ?? 0, nodes: this.player?.moves ?? 0 }, index);
    try {
      await this.feed.seek(index);
    } catch (err) {
      this._endSeek();
      this._fail(err);
    }
  }

  /** How far the server's computing has got (a `progress` message, or the seek's start). */
  _progress(msg, target = this.feed.seeking) {
    const words =
      target === null
        ? t("watch.ui.end.computing", {
            n: formatNumber(msg.index),
            nodes: formatNumber(msg.nodes),
          })
        : t("watch.ui.end.seeking", { n: formatNumber(msg.index), target: formatNumber(target) });
    this.progressLine.hidden = false;
    this.progressLine.textContent = words;
    this.root.dataset.progress = String(msg.index);
  }

  _endSeek() {
    this.root.dataset.seeking = "false";
    this.progressLine.hidden = true;
  }

  /** A seek landed: show the snapshot's player, its heat map and depth chart. */
  _land(player, snapshot) {
    const columns = new DepthColumns();
    columns.reset(player.squares);
    columns.load(snapshot.chart);
    player.onNewEvent = (depth) => columns.push(depth);
    this.chart.use(columns);
    this.player = player;
    this.changed = true;
    this._endSeek();
    this.onLanded?.(snapshot);
  }

  /**
   * Count a frame of playback, `dt` seconds ending at `now` (ms): the elapsed time and the
   * events per second move while the page's clock plays this lane's run. Every page that
   * plays lanes calls it once a frame, whoever drives its clock.
   */
  countPlayback(now, dt, playing) {
    if (playing && this.active) this.stats.tick(now, dt, this.player.frontier);
    else if (this.stats.idle()) this.changed = true;
  }

  /** Keep about `window` events in flight. */
  setWindow(window) {
    this.feed.setWindow(window);
  }

  get active() {
    return this.player !== null && !this.player.finished && this.error === null;
  }

  get finished() {
    return this.player !== null && (this.player.finished || this.error !== null);
  }

  name(sq) {
    return nameOf(sq, this.settings.rows, this.settings.cols);
  }

  setHeat(on) {
    this.heat = on;
    this.changed = true;
    if (this.player) this.draw(performance.now());
  }

  /** Counts per square (a Uint32Array) drawn as the board's heat instead, or null. */
  setOverlay(heat) {
    this.overlay = heat;
    this.changed = true;
    if (this.player) this.draw(performance.now());
  }

  /** A square ringed on the board (a class quiz's revealed answer), or -1: none. */
  setAnswer(sq) {
    if (sq === this.answer) return;
    this.answer = sq;
    this.changed = true;
    if (this.player) this.draw(performance.now());
  }

  // -- drawing ------------------------------------------------------------------------------
  /** Redraw the board, counters, chart and narration; `fast` throttles the narration. */
  draw(now, { fast = false } = {}) {
    const { player, board } = this;
    if (!player) return;
    const state = board.state;
    setPath(state, player.path, player.depth);
    setHeat(state, this.overlay ?? (this.heat ? player.entered : null));
    state.hint = this.answer ?? -1;
    const view = lastEventView(player);
    const ended = player.finished && player.done;
    if (this.stack) followPlayer(this.stack, player);
    const frame = this._selectedFrame();
    state.frame = frame ? frame.square : -1;
    if (frame) markSearch(state, frameMarks(frame));
    else markSearch(state, ended ? {} : { ...view, dead: view.back });
    state.status = ended ? player.done.status : "";
    board.draw({ flash: !fast });
    const count = (sq) => onward(state, sq);
    let text = narrateEvent(view, player, { algorithm: this.settings.algorithm, onward: count });
    this.tags = codeTags(view);
    if (ended) {
      text = narrateDone(player.done, player, this.settings.start);
      if (player.done.status === "found") this.tags = "finish";
    }
    if (this.error) text = this.error;
    this.stats.show(player);
    this.chart.draw(player.pos);
    this.stackPanel?.draw({ fast });
    this.historyNote.hidden = player.historyStart === player.origin;
    if (text !== null && (!fast || now - this.narratedAt > NARRATE_MS || player.finished)) {
      this.say(text);
      this.narratedAt = now;
    }
    this.changed = false;
  }

  /** Redraw now (a frame of the stack panel was selected). */
  redraw() {
    this.changed = true;
    if (this.player) this.draw(performance.now());
  }

  /** The call stack of a new run (or preview): `given` squares are a game's, not searched. */
  _newStack(settings, given) {
    if (!this.stackPanel) return;
    const { rows, cols, algorithm } = settings;
    this.stack = createStack({ rows, cols, algorithm, given });
    this.stackPanel.use(this.stack);
    this.stackPanel.draw({ force: true });
  }

  /** The view of the frame selected in the stack panel, or null. */
  _selectedFrame() {
    const d = this.stackPanel?.selected ?? -1;
    return d >= 0 && d < this.stack.depth ? frameView(this.stack, d) : null;
  }

  /** Re-render texts after a language switch. */
  relabel() {
    this.stackPanel?.relabel();
    this.setAlgorithm(this.root.dataset.algorithm || "seed");
    this._setStatus(this.root.dataset.status || "idle", { force: true });
    this.stats.shown = {};
    this.narratedAt = 0;
    this.board.draw({ relabel: true });
    if (this.player) this.draw(performance.now());
    else this.say(t("watch.ui.narr.pick"));
  }

  /** The badge: the run's outcome once finished, else whether it plays. */
  updateStatus(playing) {
    if (this.error !== null || !this.player) return;
    if (!this.player.finished) {
      this._setStatus(playing ? "running" : "paused");
      return;
    }
    // From the acknowledgement to the last event drawn (read by the browser benchmark).
    this.root.dataset.runMs ||= (performance.now() - this.startedAt).toFixed(1);
    this._setStatus(this.player.done.status);
  }

  _fail(err) {
    this.error = err?.message || String(err);
    this._setStatus("error");
    this.say(this.error);
    this.changed = true;
  }

  _setStatus(status, { force = false } = {}) {
    if (this.root.dataset.status === status && !force) return;
    this.root.dataset.status = status;
    this.badge.dataset.i18n = `watch.ui.status.${status}`;
    this.badge.textContent = t(`watch.ui.status.${status}`);
  }

  /** The narration line (`text` as is). */
  say(text) {
    if (this.narrated === text) return;
    this.narrated = text;
    this.narration.textContent = text;
  }
}

/** The code panel's lines for the event `view`: what the algorithm's code does there. */
function codeTags(view) {
  if (view.move >= 0) return view.candidates.length ? "recurse mark next sort" : "mark next sort";
  return view.back >= 0 ? "reset check" : "";
}

/** A selected stack frame's candidates as the board marks them (failed ones as tried). */
function frameMarks(frame) {
  const candidates = frame.candidates.map((c) => c.square);
  const counts = frame.candidates.some((c) => c.count !== null)
    ? frame.candidates.map((c) => c.count)
    : null;
  const tried = frame.candidates.filter((c) => c.state === "failed").length;
  return { candidates, counts, tried };
}

function emptyPlayer(settings) {
  const squares = settings.rows * settings.cols;
  return { moves: 0, backtracks: 0, depth: 0, maxDepth: 0, pos: 0, received: 0, squares };
}
