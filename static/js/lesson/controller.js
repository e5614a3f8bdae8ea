// The lesson page's controller: stands the page at a place {chapter, step} of the lesson.
// Each chapter's demo is a /watch run (race chapters two) played by one playback clock; a
// step jumps to its event index, or plays there at its speed, and says its narration.
//
// `goTo(chapter, step)` is the one input, whoever calls it: the page's buttons and keys, the
// address ("#dfs/2"), or a class room that drives the lesson from the teacher's page;
// `onChange({chapter, step, id})` tells them where the lesson stands.

import { formatNumber, t } from "../core/i18n.js";
import { countPlayback, drawLanes, FrameLoop, followClock } from "../lanes/frame-loop.js";
import { raceVerdict, startRace } from "../lanes/race.js";
import { windowFor } from "../lanes/speed.js";
import { PlaybackClock, shownIndex } from "../stream/clock.js";
import { clampPlace, demoSettings } from "./chapters.js";
import { showMoves } from "./moves.js";

const FREE_PLAY_SPEED = 10; // events per second when the viewer presses play mid-step
const BUSY_RETRIES = 8; // a chapter's runs end within a second: the next chapter waits for them
const BUSY_WAIT_MS = 250;

export class LessonController {
  /**
   * chapters: server/lesson/chapters.json's; lanes: two lanes/lane.js Lanes (the second for
   * races); code: a lanes/code-panel.js CodePanel; connection: a WatchConnection;
   * view: {where, title, text, error, verdict} elements.
   */
  constructor({ chapters, lanes, code, connection, view }) {
    this.chapters = chapters;
    this.lanes = lanes;
    this.code = code;
    this.connection = connection;
    this.view = view;
    this.clock = new PlaybackClock();
    this.place = null;
    this.demo = -1; // the chapter whose demo runs
    this.stopAt = null; // the event index the playing clock stops at
    this.generation = 0; // counts goTo calls: a step applies only if still the last one
    this.demoGeneration = 0; // counts demo starts: a start retries only if still wanted
    this.demoStart = Promise.resolve();
    this.huge = null;
    this.onChange = null;
    this.onPlaying = null; // (playing) => ..., when the clock starts or stops
    this.practice = null; // the page's practice (practice/practice.js): its hook runs each frame
    this.wasPlaying = false;
    this.loop = new FrameLoop((now, dt) => this.frame(now, dt)); // the pages' one loop
  }

  get chapter() {
    return this.chapters[this.place.chapter];
  }

  get step() {
    return this.chapter.steps[this.place.step];
  }

  /**
   * Stand at chapter `chapter`, step `step` (clamped); resolves once its demo started.
   * A chapter's demo starts once (`this.demoStart`), and every step of it waits for that
   * start: a step pressed while its chapter is still starting must not give up the start.
   */
  async goTo(chapter, step) {
    const place = clampPlace(this.chapters, { chapter, step });
    const generation = ++this.generation;
    this.place = place;
    this.say();
    this.onChange?.({ ...place, id: this.chapter.id });
    if (this.demo !== place.chapter) {
      this.demo = place.chapter;
      this.demoStart = this.startDemo(this.chapter, ++this.demoGeneration);
    }
    try {
      await this.demoStart;
    } catch (err) {
      if (generation === this.generation) this.fail(err);
      return;
    }
    if (generation !== this.generation) return; // moved on meanwhile
    this.applyStep(this.step);
  }

  /**
   * Start the chapter's demo: one lane, or two for a race. `demo` names this start: it
   * retries while no other chapter's demo was asked for since.
   */
  async startDemo(chapter, demo) {
    const settings = demoSettings(chapter);
    this.stopAll();
    this.view.error.hidden = true;
    this.view.verdict.hidden = true;
    const [a, b] = this.lanes;
    b.root.hidden = !settings.race;
    a.root.closest("[data-mode]").dataset.mode = settings.race ? "race" : "single";
    a.preview(settings);
    if (settings.race) b.preview({ ...settings, algorithm: settings.algorithmB });
    this.code.configure({ algorithm: settings.algorithm });
    this.code.highlight("");
    const window = windowFor(null);
    for (let attempt = 0; ; attempt++) {
      try {
        if (settings.race) await startRace(this.connection, this.lanes, settings, window);
        else await a.start(this.connection, settings, window);
        return;
      } catch (err) {
        // The previous chapter's runs still count until their tasks end (docs/protocol.md).
        const busy = err?.code === "too-many-runs" && attempt < BUSY_RETRIES;
        if (!busy || demo !== this.demoGeneration) throw err;
        await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS));
        if (demo !== this.demoGeneration) return;
      }
    }
  }

  /** Jump to the step's event index, or play there at its speed. */
  applyStep(step) {
    const now = performance.now();
    const shown = shownIndex(this.players());
    this.stopAt = null;
    this.clock.toEnd = false;
    if (step.at === "end") {
      if (step.speed === undefined || step.speed === null) this.clock.runToEnd(now);
      else {
        this.clock.speed = step.speed;
        this.clock.play(shown, now);
      }
    } else if (step.speed === undefined || shown >= step.at) {
      this.clock.pause(step.at);
    } else {
      this.clock.speed = step.speed;
      this.clock.play(shown, now);
      this.stopAt = step.at;
    }
    this.huge = null;
    if (step.huge) this.fetchHuge(step.huge);
    this.redraw();
  }

  /** Play from where the demo stands (or pause); the step's stop no longer holds. */
  togglePlay() {
    const shown = shownIndex(this.players());
    if (this.clock.playing) this.clock.pause(shown);
    else {
      this.clock.speed ??= FREE_PLAY_SPEED;
      this.clock.play(shown, performance.now());
      this.stopAt = null;
    }
    this.redraw();
  }

  /** Run the demo to its end as fast as it draws. */
  runToEnd() {
    this.stopAt = null;
    this.clock.runToEnd(performance.now());
    this.redraw();
  }

  /** Step one event forwards (+1) or back (-1), paused. */
  stepEvent(direction) {
    const shown = shownIndex(this.players());
    if (direction > 0) this.clock.step(shown);
    else this.clock.back(shown);
    this.stopAt = null;
    this.redraw();
  }

  async fetchHuge(side) {
    const generation = this.generation;
    try {
      const response = await fetch(`/lesson/huge?side=${side}`);
      const body = await response.json();
      if (!response.ok) throw new Error(body.error);
      if (generation !== this.generation) return;
      this.huge = body;
      this.say();
    } catch (err) {
      if (generation === this.generation) this.fail(err);
    }
  }

  fail(err) {
    this.view.error.textContent = err?.message || String(err);
    this.view.error.hidden = false;
  }

  /** The narration of the current step (again, after a language switch). */
  say() {
    if (!this.place) return;
    const { chapter, step } = this.place;
    const current = this.chapter;
    this.view.where.textContent = t("lesson.ui.where", {
      chapter: chapter + 1,
      chapters: this.chapters.length,
      step: step + 1,
      steps: current.steps.length,
    });
    this.view.title.textContent = t(`lesson.${current.id}.title`);
    const huge = this.huge;
    const params = huge
      ? { squares: formatNumber(huge.squares), ms: formatNumber(huge.ms), side: huge.rows }
      : {};
    const text = this.step.huge && !huge ? t("lesson.ui.building") : t(this.step.key, params);
    this.view.text.textContent = text;
    this.view.text.dataset.key = this.step.key;
  }

  players() {
    return this.activeLanes()
      .filter((lane) => lane.player)
      .map((lane) => lane.player);
  }

  activeLanes() {
    return this.lanes.filter((lane) => !lane.root.hidden);
  }

  stopAll() {
    for (const lane of this.lanes) lane.detach();
    this.clock.pause(0);
    this.stopAt = null;
  }

  // -------------------------------------------------------------- every frame
  /** Start drawing: one frame per animation frame, as long as the page lives. */
  run() {
    this.loop.start();
  }

  /** A frame at `now` now, not at the next animation frame (after a change; tests). */
  tick(now) {
    this.loop.frame(now);
  }

  /** The loop's frame: stop where the step stops, end a finished demo, draw. */
  frame(now, dt) {
    const current = this.activeLanes().filter((lane) => lane.player);
    if (!current.length) {
      this.practice?.frame(now, current); // a question whose demo went (another chapter) closes
      return false; // nothing to draw: the loop may sleep
    }
    const { clock } = this;
    if (this.stopAt !== null && clock.target(now) >= this.stopAt) {
      clock.pause(this.stopAt);
      this.stopAt = null;
    }
    this.practice?.frame(now, current); // it may stop the clock before the step's stop
    const moved = followClock(clock, current, now);
    if (clock.playing && current.every((lane) => lane.player.finished || lane.error)) {
      clock.pause(shownIndex(current.map((lane) => lane.player)));
      this.showVerdict(current);
    }
    countPlayback(current, now, dt, clock.playing);
    const moves = this.step?.show === "moves";
    drawLanes(current, now, {
      playing: clock.playing,
      fast: clock.fast,
      all: moved || clock.playing,
      drawn: (lane) => showMoves(lane.board, moves ? lane.player.head : -1),
    });
    this.code.highlight(current[0].tags);
    if (this.clock.playing !== this.wasPlaying) {
      this.wasPlaying = this.clock.playing;
      this.onPlaying?.(this.wasPlaying);
    }
    return moved || clock.playing; // else the loop may sleep
  }

  redraw() {
    for (const lane of this.lanes) lane.changed = true;
    this.tick(performance.now());
  }

  showVerdict(current) {
    const verdict = current.length > 1 && raceVerdict(current);
    if (!verdict) return;
    this.view.verdict.textContent = verdict.text;
    this.view.verdict.hidden = false;
  }

  /** Re-render what the controller wrote after a language switch. */
  relabel() {
    for (const lane of this.lanes) lane.relabel();
    this.code.configure({});
    this.say();
    if (!this.view.verdict.hidden) this.showVerdict(this.activeLanes());
  }
}
