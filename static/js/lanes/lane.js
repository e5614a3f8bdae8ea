// One watched search: its board, counters, depth chart, narration and status badge
// (lane-words.js), and the run that feeds it (lane-run.js). The Watch page has one lane, two
// in race mode; a class room's lane has no run of its own: it shows the player the room's
// follower keeps (`show`).

import { Board } from "../board/board.js";
import { setHoles } from "../board/state.js";
import { setProp } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { nameOf } from "../core/squares.js";
import { StackPanel } from "../stack/panel.js";
import { createStack, followPlayer, frameView } from "../stack/state.js";
import { LaneRun } from "./lane-run.js";
import { LaneWords } from "./lane-words.js";
import { describePosition, emptyPlayer, markPosition } from "./position.js";
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
    this.words = new LaneWords(root);
    this.historyNote = root.querySelector('[data-role="history-note"]');
    const stackRoot = root.querySelector('[data-role="stack"]');
    this.stackPanel = stackRoot && new StackPanel(stackRoot, { onSelect: () => this.redraw() });
    this.stack = null;
    this.run = new LaneRun(this);
    this.onLanded = null; // (snapshot) => ..., the page moves its clock to the seek's index
    this.player = null;
    this.settings = null;
    this.error = null;
    this.heat = false;
    this.overlay = null; // heat drawn instead of the search's (the class quiz's tally)
    this.quizMarks = null; // a class quiz's why, drawn instead of the search's marks
    this.narratedAt = 0;
    this.changed = true;
    this.tags = "";
  }

  /** An empty board of the chosen size with its start square (before a run). */
  preview(settings) {
    this.detach();
    this.run.endSeek();
    delete this.root.dataset.runMs;
    this.settings = settings;
    this.player = null;
    this.error = null;
    if (!this.board.resize(settings.rows, settings.cols)) this.board.clear();
    setHoles(this.board.state, settings.holes ?? []);
    this.board.state.start = settings.start;
    this.board.state.closed = settings.closed;
    this.board.draw();
    this.words.algorithm(settings.algorithm);
    this._newStack(settings, 0);
    this.chart.reset(settings.rows * settings.cols);
    this.chart.draw();
    this.stats.reset();
    this.stats.show(emptyPlayer(settings));
    this.words.status("idle");
    this.say(t("watch.ui.narr.pick"));
  }

  /** Move the start square (picking it before a run). */
  setStart(sq) {
    this.settings.start = sq;
    this.board.state.start = sq;
    this.board.draw();
  }

  /** Start a run on `connection`; resolves once the server acknowledged it. */
  async start(connection, settings, window) {
    this.preview(settings);
    this.words.status("connecting");
    this.say(t("watch.ui.narr.connecting"));
    let player;
    try {
      player = await this.run.start(connection, settings, window);
    } catch (err) {
      this.fail(err);
      throw err;
    }
    if (!player) return null; // detached meanwhile
    this.player = player;
    const { ack } = this.run;
    this._newStack(settings, ack.prefix.length);
    this.startedAt = performance.now();
    player.onNewEvent = (depth) => this.chart.push(depth);
    this.words.status("running");
    this.say(t("watch.ui.narr.ready", { square: this.name(ack.start) }));
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
    this.words.algorithm(settings.algorithm);
    this.player = player;
    this.error = null;
    this.startedAt ??= performance.now();
    this.chart.use(columns);
    this.changed = true;
  }

  /** Stop the run (if any) and forget it. */
  detach() {
    this.run.stop();
  }

  /** Whether this lane's run can ask the server for any index (a fresh run). */
  get seekable() {
    return this.error === null && this.run.seekable;
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
    if (this.seekable) await this.run.seek(index);
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
    this.run.setWindow(window);
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

  /** A class quiz's why on the board ({marks, ring}: quiz-why.js whyMarks), or null: none. */
  setQuizMarks(marks) {
    if (marks === this.quizMarks || (!marks && !this.quizMarks)) return;
    this.quizMarks = marks;
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
    if (this.stack) followPlayer(this.stack, player);
    const view = markPosition(board.state, player, {
      heat: this.overlay ?? (this.heat ? player.entered : null),
      answer: this.answer ?? -1,
      frame: this._selectedFrame(),
      quiz: this.quizMarks ?? null,
    });
    board.draw({ flash: !fast });
    const said = describePosition(board.state, view, player, this.settings);
    this.tags = said.tags;
    const text = this.error ? this.error : said.text;
    this.stats.show(player);
    this.chart.draw(player.pos);
    this.stackPanel?.draw({ fast });
    setProp(this.historyNote, "hidden", player.historyStart === player.origin);
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
    // a code lab run brings its program's rule as its own table (lab/main.js)
    const { rows, cols, algorithm, orderings } = settings;
    this.stack = createStack({ rows, cols, algorithm, given, orderings });
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
    this.words.relabel();
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
      this.words.status(playing ? "running" : "paused");
      return;
    }
    // From the acknowledgement to the last event drawn (read by the browser benchmark).
    this.root.dataset.runMs ||= (performance.now() - this.startedAt).toFixed(1);
    this.words.status(this.player.done.status);
  }

  /** The run failed: `err`'s words in the narration, the badge says so. */
  fail(err) {
    this.error = err?.message || String(err);
    this.words.status("error");
    this.say(this.error);
    this.changed = true;
  }

  /** The narration line (`text` as is). */
  say(text) {
    this.words.say(text);
  }
}
