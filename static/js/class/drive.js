// The teacher's transport bar in a class room: play/pause, step, step back, run to the end,
// speed and seek. Each sends a control (controls.js) from where the class is; the bar shows
// the follower's clock: the teacher's own control at once, then the room's state.

import { speedLabel, speedToStep, stepToSpeed } from "../watch/speed.js";
import { bindActions, showPlaying } from "../watch/transport.js";
import { DRAG_SEND_MS } from "./controls.js";

const $ = (selector) => document.querySelector(selector);

export class ClassTransport {
  /** active() => whether the lane shows the class's demo (not the teacher's preview). */
  constructor({ page, follower, controls, active }) {
    this.page = page;
    this.follower = follower;
    this.controls = controls;
    this.active = active;
    this.speedInput = $("#w-speed");
    this.speedOut = $("#w-speed-out");
    this.seekInput = $("#w-seek");
    this.playButton = $('[data-action="play"]');
    this.shown = "";
    this.pausedAtSeq = -1;
    const here = () => this.follower.target();
    bindActions({
      play: () => this.move(here(), !this.playing),
      step: () => this.move(Math.min(here() + 1, this.follower.state?.end?.total ?? Infinity), false),
      back: () => this.move(Math.max(0, here() - 1), false),
      end: () => this.move(here(), true, null),
    });
    this.speedInput.addEventListener("input", () => {
      this.showSpeed();
      this.move(here(), this.playing, this.speed, { throttle: DRAG_SEND_MS });
    });
    const seek = (options) => this.move(Number(this.seekInput.value), false, this.speed, options);
    this.seekInput.addEventListener("input", () => seek({ throttle: DRAG_SEND_MS }));
    this.seekInput.addEventListener("change", () => seek({}));
    this.showSpeed();
  }

  /** The slider's speed as a control wants it: events per second, or null (its last step: run to the end). */
  get speed() {
    const rate = stepToSpeed(Number(this.speedInput.value));
    return Number.isFinite(rate) ? rate : null;
  }

  /** Put a state's speed on the slider (a reload). */
  set speed(rate) {
    if (rate) this.speedInput.value = speedToStep(rate);
    this.showSpeed();
  }

  showSpeed() {
    this.speedOut.textContent = speedLabel(stepToSpeed(Number(this.speedInput.value)));
  }

  get playing() {
    return Boolean(this.follower.clock?.playing) && !this.follower.atEnd;
  }

  /** The last index the class can be sent to: the end, or as far as the search has got. */
  get last() {
    const end = this.follower.state?.end;
    return end ? end.total : Math.max(this.follower.computed, this.follower.target());
  }

  move(index, playing, speed = this.speed, options = {}) {
    if (this.active()) this.controls.control({ index, playing, speed }, options);
  }

  /** Every frame: pause at the end, then show the clock on the bar. */
  update(phase) {
    if (phase === "ended") this._pauseAtEnd();
    const follower = this.follower;
    const shown = this.active() && (follower.state?.gen ?? 0) > 1;
    const target = shown ? follower.target() : 0;
    const { last, playing } = this;
    const atEnd = follower.atEnd;
    const key = [shown, target, last, playing, atEnd, follower.clock?.speed, this.controls.pending].join();
    if (key === this.shown) return;
    this.shown = key;
    const button = (action) => $(`[data-action="${action}"]`);
    button("back").disabled = !shown || target <= 0;
    button("step").disabled = !shown || Boolean(follower.state.end && target >= last);
    button("end").disabled = !shown || atEnd || (playing && follower.clock.speed === null);
    this.playButton.disabled = !shown || (atEnd && !playing);
    showPlaying(this.playButton, shown && playing);
    const seek = this.seekInput;
    seek.disabled = !shown;
    seek.min = 0;
    seek.max = last;
    if (document.activeElement !== seek) seek.value = target;
    this.page.dataset.playing = String(shown && playing);
    this.page.dataset.pending = String(this.controls.pending);
  }

  /**
   * The demo reached its end while playing: pause there (as the Watch page does), which
   * also stops the server's keyframes. Once per control of the teacher's.
   */
  _pauseAtEnd() {
    const { follower, controls } = this;
    if (!follower.clock?.playing || controls.pending > 0 || controls.seq === this.pausedAtSeq) return;
    this.move(follower.state.end.total, false);
    this.pausedAtSeq = controls.seq;
  }
}
