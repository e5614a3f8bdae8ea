// The teacher's transport bar in a class room (lanes/transport.js, as on /watch): play and
// pause, step, step back, run to the end, speed and seek. Each sends a control
// (controls.js) from where the class is; the bar shows the follower's clock: the teacher's
// own control at once, then the room's state.

import { Transport } from "../lanes/transport.js";
import { DRAG_SEND_MS } from "./controls.js";

export class ClassTransport {
  /** active() => whether the lane shows the class's demo (not the teacher's preview). */
  constructor({ page, follower, controls, active }) {
    Object.assign(this, { page, follower, controls, active });
    this.shown = "";
    this.pausedAtSeq = -1;
    const here = () => this.follower.target();
    const total = () => this.follower.state?.end?.total ?? Number.POSITIVE_INFINITY;
    const drag = (done) => (done ? {} : { throttle: DRAG_SEND_MS });
    this.bar = new Transport({
      play: () => this.move(here(), !this.playing),
      step: () => this.move(Math.min(here() + 1, total()), false),
      back: () => this.move(Math.max(0, here() - 1), false),
      end: () => this.move(here(), true, null),
      speed: (_, { done }) => this.move(here(), this.playing, this.speed, drag(done)),
      seek: (index, { done }) => this.move(index, false, this.speed, drag(done)),
    });
  }

  /** The slider's speed as a control wants it: events per second, or null (run to the end). */
  get speed() {
    return this.bar.speed;
  }

  /** Put a state's speed on the slider (a reload). */
  set speed(speed) {
    if (speed) this.bar.speed = speed;
  }

  /** Say the speed in the page's language (once its words are loaded). */
  showSpeed() {
    this.bar.showSpeed();
  }

  get playing() {
    return this.follower.clock.playing && !this.follower.atEnd;
  }

  /** The last index the class can be sent to: the end, or as far as the search has got. */
  get last() {
    const end = this.follower.state?.end;
    return end ? end.total : Math.max(this.follower.computed, this.follower.target());
  }

  move(index, playing, speed = this.speed, options = {}) {
    if (this.active()) this.controls.control({ index, playing, speed }, options);
  }

  /**
   * Every frame: pause at the end, then show the clock on the bar. An open quiz question
   * holds the class (`state.hold`): nothing moves it until the reveal.
   */
  update(phase) {
    if (phase === "ended") this._pauseAtEnd();
    const { follower, controls } = this;
    const state = follower.state;
    const held = state?.hold !== null && state?.hold !== undefined;
    const shown = this.active() && (state?.gen ?? 0) > 1;
    const free = shown && !held;
    const target = shown ? follower.target() : 0;
    const { last, playing } = this;
    const atEnd = follower.atEnd;
    const speed = follower.clock.speed;
    const key = [shown, held, target, last, playing, atEnd, speed, controls.pending].join();
    if (key === this.shown) return;
    this.shown = key;
    this.bar.show({
      playing: shown && playing,
      enabled: {
        back: free && target > 0,
        step: free && !(state.end && target >= last),
        end: free && !atEnd && !(playing && speed === null),
        play: free && (!atEnd || playing),
      },
      seek: free ? { min: 0, max: last, value: target } : null,
    });
    this.page.dataset.playing = String(shown && playing);
    this.page.dataset.pending = String(controls.pending);
  }

  /**
   * The demo reached its end while playing: pause there (as the Watch page does), which
   * also stops the server's keyframes. Once per control of the teacher's.
   */
  _pauseAtEnd() {
    const { follower, controls } = this;
    if (!follower.clock.playing || controls.pending > 0 || controls.seq === this.pausedAtSeq) {
      return;
    }
    this.move(follower.state.end.total, false);
    this.pausedAtSeq = controls.seq;
  }
}
