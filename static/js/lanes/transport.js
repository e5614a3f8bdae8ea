// The transport bar shared by the Watch page and the class room's teacher page: the
// buttons and keys that drive playback (Space, → and ←, End), the speed slider and the
// seek slider. What they do is the page's (`actions`); the bar only shows what it is told.

import { setAttr, setData, setProp } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { speedLabel, speedToStep, stepToSpeed } from "./speed.js";

const $ = (selector) => document.querySelector(selector);
const KEYS = { " ": "play", ArrowRight: "step", ArrowLeft: "back", End: "end" };

export class Transport {
  /**
   * actions: {play, step, back, end, restart?}() for the buttons and keys, speed(speed,
   * {done}) for the speed slider, seek(index, {done}) for the seek slider; `done` is false
   * while a slider is being dragged.
   */
  constructor(actions) {
    this.actions = actions;
    this.speedInput = $("#w-speed");
    this.speedOut = $("#w-speed-out");
    this.seekInput = $("#w-seek");
    this.buttons = {};
    for (const button of document.querySelectorAll("[data-action]")) {
      this.buttons[button.dataset.action] = button;
      button.addEventListener("click", () => actions[button.dataset.action]());
    }
    document.addEventListener("keydown", (event) => {
      const key = KEYS[event.key];
      if (!key || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      // a field's own keys (the code lab's editor is a contenteditable)
      if (event.target.closest("input, select, textarea, [role=grid], [contenteditable]")) return;
      if (this.buttons[key].disabled) return;
      event.preventDefault();
      actions[key]();
    });
    this.speedInput.addEventListener("input", () => {
      this.showSpeed();
      actions.speed(this.speed, { done: false });
    });
    this.speedInput.addEventListener("change", () => actions.speed(this.speed, { done: true }));
    const seek = (done) => actions.seek(Number(this.seekInput.value), { done });
    this.seekInput.addEventListener("input", () => seek(false));
    this.seekInput.addEventListener("change", () => seek(true));
    this.showSpeed();
  }

  /** The slider's speed in events per second; null on its last step (as fast as it draws). */
  get speed() {
    return stepToSpeed(Number(this.speedInput.value));
  }

  set speed(speed) {
    this.speedInput.value = speedToStep(speed);
    this.showSpeed();
  }

  showSpeed() {
    this.speedOut.textContent = speedLabel(this.speed);
  }

  /**
   * Show the playback: `playing`; which buttons work (`enabled`: {back, step, end, play,
   * restart}); the seek slider's range and position ({min, max, value}, or null: off).
   */
  show({ playing, enabled, seek }) {
    for (const [action, on] of Object.entries(enabled)) {
      if (this.buttons[action]) setProp(this.buttons[action], "disabled", !on);
    }
    const play = this.buttons.play;
    setAttr(play, "aria-pressed", playing);
    setData(play, "playing", playing);
    const label = playing ? t("watch.ui.pause") : t("watch.ui.play");
    setAttr(play, "aria-label", label);
    setProp(play, "title", label);
    const input = this.seekInput;
    setProp(input, "disabled", !seek);
    if (!seek) return;
    setProp(input, "min", String(seek.min));
    setProp(input, "max", String(seek.max));
    if (document.activeElement !== input) setProp(input, "value", String(seek.value));
  }
}
