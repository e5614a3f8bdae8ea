// The Watch page's controller: pick a board, a start square and an algorithm, then watch
// every move and every backtrack of the search, at any speed, forwards or backwards. This
// sets the runs up and starts them; playback.js plays them. Credit flows back to the
// server only for consumed events, so pausing here pauses the search there. The
// controller is given its elements and parts (watch/main.js), so
// tests/js/watch-controller.test.js drives it without a DOM.

import { t } from "../core/i18n.js";
import { MAX_SHAPE_SIDE } from "../core/shape.js";
import { nameOf } from "../core/squares.js";
import { startRace } from "../lanes/race.js";
import { windowFor } from "../lanes/speed.js";
import { WatchPlayback } from "./playback.js";

export class WatchController {
  /**
   * view: {page, formError, raceResult, startName} elements; readForm(previous): the
   * settings form's settings (a lane's, with `race` and `algorithmB`), keeping `previous`'s
   * start on the same board; lanes: two Lanes (lanes/lane.js), the second for races; code:
   * a CodePanel; transport(actions): the transport bar driving `actions`
   * (lanes/transport.js); connect(): a WatchConnection; now(): ms, the performance clock.
   */
  constructor({ view, readForm, lanes, code, transport, connect, now = () => performance.now() }) {
    Object.assign(this, { view, readForm, lanes, code, connect, now });
    this.page = view.page;
    this.connection = null;
    this.settings = null; // the running (or previewed) settings
    this.starting = false;
    this.playback = new WatchPlayback({
      page: view.page,
      raceResult: view.raceResult,
      code,
      transport,
      all: lanes,
      lanes: () => this.activeLanes(),
      race: () => Boolean(this.settings?.race),
      canRestart: () => Boolean(this.settings) && !this.starting,
      restart: () => this.start(),
      now,
    });
    this.clock = this.playback.clock;
    this.transport = this.playback.transport;
    for (const lane of lanes) lane.board.onSquare = (sq) => this.pickStart(sq);
  }

  /** The page's first settings: the form's, from the address's start ([row, col]) if it fits. */
  open(start = null) {
    const settings = this.readForm(null);
    if (start !== null && start[0] < settings.rows && start[1] < settings.cols) {
      settings.start = start[0] * settings.cols + start[1];
    }
    this.settings = settings;
    this.preview();
    this.connection = this._connect();
  }

  /** Draw every frame from now on. */
  run() {
    this.playback.loop.start();
  }

  // ---------------------------------------------------------------- settings
  activeLanes() {
    return this.settings?.race ? this.lanes : this.lanes.slice(0, 1);
  }

  /** Stop the runs and show the form's board, start square and algorithm. */
  preview() {
    this.stopAll();
    const settings = this.readForm(this.settings);
    this.settings = settings;
    const { page, raceResult, formError } = this.view;
    page.dataset.mode = settings.race ? "race" : "single";
    page.dataset.phase = "setup";
    const [a, b] = this.lanes;
    b.root.hidden = !settings.race;
    a.preview(settings);
    if (settings.race) b.preview({ ...settings, algorithm: settings.algorithmB });
    this.showStart();
    this.code.configure({ algorithm: settings.algorithm });
    this.code.highlight("");
    raceResult.hidden = true;
    formError.hidden = true;
    if (settings.shapeError) this.showFormError(shapeErrorText(settings.shapeError));
    this.playback.showControls();
  }

  showStart() {
    const { start, rows, cols } = this.settings;
    this.view.startName.textContent = nameOf(start, rows, cols);
  }

  /** A square of the board picked before a run: the start square. */
  pickStart(sq) {
    if (this.starting || this.activeLanes().some((lane) => lane.active)) return; // read-only
    if (this.settings.holes?.includes(sq)) return; // a hole is no square to start from
    this.settings.start = sq;
    this.preview();
  }

  stopAll() {
    for (const lane of this.lanes) lane.detach();
    this.clock.pause(0);
  }

  /** Start the form's runs (its button and the transport's restart). */
  async start() {
    if (this.starting) return;
    this.starting = true;
    this.preview();
    const { settings, page } = this;
    if (settings.shapeError) {
      this.starting = false;
      return;
    }
    page.dataset.phase = "running";
    this.connection ||= this._connect();
    const window = windowFor(this.clock.speed);
    try {
      const { connection, lanes } = this;
      const started = settings.race
        ? startRace(connection, lanes, settings, window)
        : lanes[0].start(connection, settings, window);
      await this.playback.whileStarting(started);
      this.clock.play(0, this.now());
      bringIntoView(this.lanes[0].root);
    } catch (err) {
      page.dataset.phase = "setup";
      this.showFormError(err?.message || String(err));
    } finally {
      this.starting = false;
      this.playback.showControls();
    }
  }

  _connect() {
    const connection = this.connect();
    connection.onError = (err) => this.showFormError(err.message);
    return connection;
  }

  showFormError(message) {
    this.view.formError.textContent = message;
    this.view.formError.hidden = false;
  }

  setHeat(on) {
    for (const lane of this.lanes) lane.setHeat(on);
  }

  redraw() {
    this.playback.redraw();
  }

  /** Re-render what the controller wrote, after a language switch. */
  relabel() {
    for (const lane of this.lanes) lane.relabel();
    this.code.configure({});
    this.playback.relabel();
  }
}

/** Why the shape field cannot be read, in words (the class puzzle's words: the same codes). */
function shapeErrorText(code) {
  return t(`class.error.bad-puzzle.${code}`, { max: MAX_SHAPE_SIDE, start: "" });
}

/** A lane that just started, scrolled to when it is off screen or low on it. */
function bringIntoView(root) {
  const top = root.getBoundingClientRect().top;
  if (top < 0 || top > globalThis.innerHeight * 0.6) {
    root.scrollIntoView({ block: "start", behavior: "smooth" });
  }
}
