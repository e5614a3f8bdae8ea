// The practice for one person on /watch and /lesson: while the page's clock plays at a
// speed one can follow, it picks a moment some seconds of playback ahead, stops the clock
// exactly there (before the next event is shown: the answer is not on the board yet),
// asks a question of a kind that fits (questions.js), takes the answer, says whether it
// was right with the why, keeps the streak, and plays on when the student continues.
// Everything is the page's own: no server, no class room. No DOM (tests/js/practice.test.js;
// card.js draws it). `frame(now, lanes)` is the hook both pages' frames call before their
// players follow the clock.

import { MARK } from "../board/state.js";
import { answerWay, tapTargets } from "../quiz/quiz-kinds.js";
import { whyMarks } from "../quiz/quiz-why.js";
import { askAt, PRACTICE_KINDS, SearchPosition } from "./questions.js";

export const GAP_S = [8, 20]; // seconds of playback from one question to the next, at random
export const MIN_EVENTS = 10; // and at least this many events
const SCAN = 512; // positions one frame tries, past the stop, for a question that fits
const STORAGE_KEY = "practice.streak";

export class Practice {
  /**
   * clock: the page's PlaybackClock; storage: where the streak is kept (localStorage);
   * random(): [0, 1); onChange(): the practice changed (the card draws it).
   */
  constructor({ clock, storage = globalThis.localStorage, random = Math.random, onChange }) {
    Object.assign(this, { clock, storage, random });
    this.onChange = onChange ?? (() => {});
    this.kinds = PRACTICE_KINDS; // the kinds it may ask (a test narrows them)
    this.gap = GAP_S;
    this.minEvents = MIN_EVENTS;
    this.state = "off"; // off | waiting | open (asked) | answered
    this.waitingFor = "play"; // waiting: for the clock to play, or for a slower "speed"
    this.question = null; // questions.js's, with `question` numbering it (the answer pad's key)
    this.lane = null; // the lane asked about
    this.player = null; // its player when asked: another is a restart
    this.mine = null; // the student's answer
    this.stop = null; // the event index of the next question, planned...
    this.planned = null; // ...for this {player, speed}
    this.asked = 0;
    ({ streak: this.streak, best: this.best } = this._load());
  }

  get on() {
    return this.state !== "off";
  }

  /** Switch the practice on or off (off forgets an open question). */
  setOn(on) {
    if (on === this.on) return;
    this._close(on ? "waiting" : "off");
  }

  /** Whether the student answered right (null: not answered). */
  get right() {
    return this.state === "answered" ? this.mine === this.question.answer : null;
  }

  // ------------------------------------------------------------ every frame
  /**
   * The hook of the pages' frames, before the players follow the clock: a seek, step,
   * play or restart by the student closes an open question, uncounted; while the clock
   * plays at a bounded speed, the clock stops at the planned question. `lanes`: those
   * that play; the first is asked about.
   */
  frame(now, lanes) {
    if (!this.on) return;
    const lane = lanes[0];
    if (this.state !== "waiting") {
      const { clock } = this;
      const moved = clock.playing || clock.index !== this.question.index;
      if (moved || lane?.player !== this.player) this._close("waiting");
      return;
    }
    const player = lane?.player;
    const { clock } = this;
    const waitingFor = clock.speed === null || clock.unbounded ? "speed" : "play";
    if (waitingFor !== this.waitingFor) {
      this.waitingFor = waitingFor;
      this.onChange();
    }
    if (!player || !clock.playing || clock.unbounded || !(clock.speed > 0)) return;
    const planned = this.planned;
    if (planned?.player !== player || planned.speed !== clock.speed || this.stop < player.pos) {
      this._plan(player, clock.speed);
    }
    const target = Math.floor(clock.target(now));
    if (target < this.stop) return;
    const pos = SearchPosition.of(player, lane.settings?.holes ?? []);
    while (pos.index < this.stop && pos.advance()) {}
    if (pos.index < this.stop) return; // not received yet: the clock waits for it too
    // the first position from the stop on, as far as the clock has come, where one fits
    const until = Math.min(target, pos.index + SCAN);
    for (;;) {
      const question = askAt(pos, { kinds: this.kinds, random: this.random });
      if (question) {
        clock.pause(pos.index);
        this._ask(question, lane);
        return;
      }
      if (pos.index >= until || !pos.advance()) break;
    }
    this.stop = pos.index + 1;
  }

  _plan(player, speed) {
    const [low, high] = this.gap;
    const seconds = low + this.random() * (high - low);
    this.stop = player.pos + Math.max(this.minEvents, Math.round(seconds * speed));
    this.planned = { player, speed };
  }

  _ask(question, lane) {
    this.question = { ...question, question: ++this.asked };
    Object.assign(this, { lane, player: lane.player, mine: null, state: "open" });
    this.onChange();
  }

  /** Forget the question (uncounted unless answered) and wait for the next, or stop. */
  _close(state) {
    Object.assign(this, { state, question: null, mine: null, planned: null, stop: null });
    this.onChange();
  }

  // ------------------------------------------------------------ the student
  /** The student's answer `value` (a square or a number); false when none is asked. */
  answer(value) {
    if (this.state !== "open") return false;
    this.mine = value;
    this.state = "answered";
    this.streak = this.right ? this.streak + 1 : 0;
    this.best = Math.max(this.best, this.streak);
    this._save();
    this.onChange();
    return true;
  }

  /** A square tapped on `lane`'s board: the answer when the question is one (true). */
  tapped(lane, sq) {
    if (this.state !== "open" || lane !== this.lane) return false;
    if (answerWay(this.question) !== "square") return false;
    if (this.targets().includes(sq)) this.answer(sq);
    return true; // the board is the question's while it is open
  }

  /** The squares a square question may be answered with (no hole among them). */
  targets() {
    const { rows, cols, holes = [] } = this.lane.settings;
    return tapTargets(this.question, rows, cols, holes);
  }

  /** Continue: play on from the question (skipped, uncounted, if not answered). */
  proceed(now) {
    if (this.state !== "open" && this.state !== "answered") return;
    const { index } = this.question;
    this._close("waiting");
    this.clock.play(index, now);
  }

  /**
   * The marks the lane shows ({marks, ring}, Lane.setQuizMarks), null: its own. Asked: the
   * squares a square question takes, or the onward question's square; answered: the why
   * (quiz-why.js) and a wrong square struck.
   */
  marks() {
    const { question } = this;
    if (this.state === "open") {
      if (answerWay(question) === "square") {
        return { marks: this.targets().map((sq) => [sq, MARK.legal, -1]), ring: -1 };
      }
      const square = question.subject.square;
      return square === undefined ? null : { marks: [[square, MARK.candidate, -1]], ring: square };
    }
    if (this.state !== "answered") return null;
    const { rows, cols } = this.lane.settings;
    const { marks, ring } = whyMarks(question, question.why, { rows, cols });
    if (answerWay(question) === "square" && !this.right) {
      // the wrong square struck, its onward count kept when the why shows one
      const at = marks.findIndex(([sq]) => sq === this.mine);
      if (at >= 0) marks[at] = [this.mine, MARK.dead, marks[at][2]];
      else marks.push([this.mine, MARK.dead, -1]);
    }
    return { marks, ring };
  }

  _load() {
    try {
      const saved = JSON.parse(this.storage?.getItem(STORAGE_KEY) ?? "{}");
      const count = (n) => (Number.isInteger(n) && n >= 0 ? n : 0);
      return {
        streak: count(saved.streak),
        best: Math.max(count(saved.best), count(saved.streak)),
      };
    } catch {
      return { streak: 0, best: 0 }; // storage refused or spoilt: start again
    }
  }

  _save() {
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify({ streak: this.streak, best: this.best }));
    } catch {
      // storage refused (a private window's quota): the streak lives as long as the page
    }
  }
}
