// Playing the Watch page's runs: one playback clock (stream/clock.js) drives every lane in
// the pages' one frame loop (lanes/frame-loop.js): each frame the lanes' players move to the
// event index it says, then what changed is redrawn. The transport bar's buttons and
// sliders move the clock, or ask the server to stand where the page holds nothing (its
// checkpoints, or the end it computes). Given its elements and lanes: no DOM here.

import { setData } from "../core/dom.js";
import { countPlayback, drawLanes, FrameLoop, followClock } from "../lanes/frame-loop.js";
import { raceVerdict } from "../lanes/race.js";
import { windowFor } from "../lanes/speed.js";
import { PlaybackClock, seekPlayers, shownIndex } from "../stream/clock.js";

export class WatchPlayback {
  /**
   * page: the root element (data-phase, data-seeking); raceResult: the race's verdict line;
   * code: a CodePanel; transport(actions): the transport bar driving `actions`
   * (lanes/transport.js); all: the page's Lanes; lanes(): those that play (race mode: both);
   * race(): whether a race runs; canRestart(): whether ↻ can start the runs again;
   * restart(): start them; now(): ms, the performance clock.
   */
  constructor({ page, raceResult, code, transport, all, lanes, race, canRestart, restart, now }) {
    Object.assign(this, { page, raceResult, code, all, lanes, race, canRestart, now });
    this.clock = new PlaybackClock();
    this.practice = null; // the page's practice (practice/practice.js): its hook runs each frame
    // Set while the page's runs start (a race's second run may wait on the server): a jump
    // to the end made then would be undone by the clock starting from 0 once they are in.
    this.starting = false;
    this.loop = new FrameLoop((time, dt) => this.frame(time, dt));
    const ready =
      (action) =>
      (...args) =>
        this.starting ? undefined : action(...args);
    this.transport = transport({
      play: ready(() => this.togglePlay()),
      step: ready(() => this.stepForward()),
      back: ready(() => this.stepBack()),
      end: ready(() => this.runToEnd()),
      restart,
      speed: (speed) => this.setSpeed(speed),
      seek: ready((index, { done }) => this.seekTo(index, { done })),
    });
    for (const lane of all) lane.onLanded = (snapshot) => this.landed(snapshot);
  }

  /** The lanes that play and have a run to show. */
  playingLanes() {
    return this.lanes().filter((lane) => lane.player);
  }

  players() {
    return this.playingLanes().map((lane) => lane.player);
  }

  // ---------------------------------------------------------------- every frame
  frame(now, dt) {
    const current = this.playingLanes();
    // before the players follow the clock: it may stop it short of the next event, and it
    // closes a question whose run went (a restart: no lane plays while it starts)
    this.practice?.frame(now, current);
    if (!current.length) return false; // nothing to draw: the loop may sleep
    const { clock } = this;
    const moved = followClock(clock, current, now);
    const { playing } = clock;
    countPlayback(current, now, dt, playing);
    const running = this.page.dataset.phase === "running";
    if (running && current.every((lane) => lane.finished)) this.finish(current);
    drawLanes(current, now, {
      playing: clock.playing,
      fast: clock.fast,
      all: moved || clock.playing,
    });
    this.code.highlight(current[0].tags);
    if (moved || playing) this.showControls();
    return moved || playing || current.some((lane) => lane.seeking); // else it may sleep
  }

  /** Every lane is done: stand at the end, say who won a race. */
  finish(current) {
    this.clock.pause(shownIndex(this.players()));
    this.page.dataset.phase = "finished";
    for (const lane of current) lane.updateStatus(false);
    const verdict = this.race() && raceVerdict(current);
    if (verdict) {
      this.raceResult.textContent = verdict.text;
      this.raceResult.hidden = false;
      this.all.forEach((lane, i) => {
        lane.root.dataset.winner = String(verdict.winner === i);
      });
    }
    this.showControls();
  }

  redraw() {
    const now = this.now();
    seekPlayers(this.players(), this.clock.target(now));
    for (const lane of this.lanes()) {
      lane.updateStatus(this.clock.playing);
      lane.draw(now);
    }
    this.code.highlight(this.lanes()[0].tags);
    this.showControls();
  }

  /** The race's verdict again (a language switch), if it is shown. */
  relabel() {
    const verdict = !this.raceResult.hidden && this.race() && raceVerdict(this.lanes());
    if (verdict) this.raceResult.textContent = verdict.text;
    this.transport.showSpeed();
    this.showControls();
  }

  // ---------------------------------------------------------------- the transport bar
  showControls() {
    const current = this.starting ? [] : this.playingLanes();
    const any = current.length > 0;
    const done = any && current.every((lane) => lane.finished);
    const player = current[0]?.player;
    const seekable = this.seekableLanes().length > 0;
    const seeking = current.some((lane) => lane.seeking);
    setData(this.page, "seeking", seeking);
    const back = current.some((l) => l.player.canStepBack || (seekable && l.player.pos > 0));
    this.transport.show({
      playing: this.clock.playing,
      enabled: {
        restart: this.canRestart(),
        back: !seeking && back,
        step: any && !seeking && !current.every((lane) => lane.player.finished || lane.error),
        end: any && !seeking && !done,
        play: any && (!done || this.clock.playing),
      },
      seek: player
        ? { min: seekable ? 0 : player.historyStart, max: player.received, value: player.pos }
        : null,
    });
  }

  /** Await `started` (the page's runs starting), with the transport's playback off meanwhile. */
  async whileStarting(started) {
    this.starting = true;
    this.showControls();
    try {
      return await started;
    } finally {
      this.starting = false;
    }
  }

  /** Lanes whose runs can ask the server for any index (fresh runs, not seeking already). */
  seekableLanes() {
    const current = this.playingLanes();
    return current.length && current.every((lane) => lane.seekable && !lane.seeking) ? current : [];
  }

  /** Ask the server to stand at `index` (null: the end): it computes, then sends snapshots. */
  seekOnServer(lanes, index) {
    this.pause();
    for (const lane of lanes) lane.seek(index);
    this.showControls();
  }

  /** A lane's seek landed: stand where it asked (at the end: the furthest lane's end). */
  landed(snapshot) {
    const atEnd = snapshot.end !== null && snapshot.index === snapshot.end.total;
    const shown = shownIndex(this.players());
    this.clock.pause(atEnd ? Math.max(snapshot.index, shown) : snapshot.index);
    this.reopen();
    this.redraw();
  }

  pause() {
    this.clock.pause(shownIndex(this.players()));
    for (const lane of this.lanes()) lane.stats.idle();
  }

  /** Stepping back from the end: the race is not over any more. */
  reopen() {
    if (this.page.dataset.phase === "finished") this.page.dataset.phase = "running";
    this.raceResult.hidden = true;
  }

  togglePlay() {
    if (this.clock.playing) this.pause();
    else if (this.lanes().some((lane) => lane.active)) {
      this.clock.play(shownIndex(this.players()), this.now());
      this.page.dataset.phase = "running";
    }
    this.redraw();
  }

  stepForward() {
    this.clock.step(shownIndex(this.players()));
    this.redraw();
  }

  stepBack() {
    const shown = shownIndex(this.players());
    const held = this.players().some((player) => player.canStepBack);
    const lanes = this.seekableLanes();
    if (!held && lanes.length && shown > 0) {
      this.seekOnServer(lanes, shown - 1); // before what the page holds: the server's checkpoints
      return;
    }
    this.clock.back(shown);
    this.reopen();
    this.redraw();
  }

  runToEnd() {
    const lanes = this.seekableLanes();
    if (lanes.length) {
      this.seekOnServer(lanes, null); // the server computes the end with its engine
      return;
    }
    this.clock.runToEnd(this.now());
    this.redraw();
  }

  setSpeed(speed) {
    this.clock.setSpeed(speed, this.now());
    for (const lane of this.all) lane.setWindow(windowFor(speed));
  }

  /** The seek slider: `done` once it is let go (a server seek waits for that). */
  seekTo(index, { done }) {
    const lanes = this.seekableLanes();
    const held = this.players().every((player) => player.holds(index));
    if (!held && lanes.length) {
      if (done) this.seekOnServer(lanes, index);
      return;
    }
    this.clock.pause(index);
    this.reopen();
    this.redraw();
  }
}
