// The speed slider shared by the Watch page and the class room's teacher page: a log-scale
// slider of events per second, the credit window that goes with a speed, and the clock's
// share of a frame.

import { t } from "../i18n.js";
import { MAX_WINDOW } from "./connection.js";

export const MAX_SPEED_STEP = 100; // the slider's last step: as fast as the browser can draw
export const FRAME_BUDGET_MS = 10; // time a max-speed frame may spend consuming events

/** Slider step -> events per second (1 .. 10,000, log scale); the last step is Infinity. */
export function stepToSpeed(step) {
  if (step >= MAX_SPEED_STEP) return Infinity;
  return Math.max(1, Math.round(10 ** ((step * 4) / (MAX_SPEED_STEP - 1))));
}

/** Events per second -> slider step; no speed (null, 0) is the last step. */
export function speedToStep(speed) {
  if (!speed) return MAX_SPEED_STEP;
  return Math.max(
    0,
    Math.min(MAX_SPEED_STEP - 1, Math.round((Math.log10(speed) * (MAX_SPEED_STEP - 1)) / 4)),
  );
}

/** Credit to keep in flight: about two seconds of playback, within the protocol's bounds. */
export function windowFor(rate) {
  return Number.isFinite(rate) ? Math.max(1000, Math.min(MAX_WINDOW, rate * 2)) : MAX_WINDOW;
}

/** The slider's label for `rate` events per second. */
export function speedLabel(rate) {
  return Number.isFinite(rate) ? t("watch.ui.speed.rate", { n: rate }) : t("watch.ui.speed.max");
}

/**
 * Let the clock consume this frame's share of events at `rate` per second.
 * `advance(n)` moves the player(s) up to n events and returns how many it used; `carry` is
 * the fractional events owed from earlier frames. Returns the new carry and whether
 * anything moved.
 */
export function consume(rate, now, dt, carry, advance) {
  let moved = false;
  if (Number.isFinite(rate)) {
    carry = Math.min(carry + rate * dt, Math.max(1, rate * 0.25));
    const n = Math.floor(carry);
    if (n > 0) {
      const used = advance(n);
      if (used > 0) carry -= n; // an empty buffer does not bank events
      moved = used > 0;
    }
  } else {
    const until = now + FRAME_BUDGET_MS;
    let used;
    do {
      used = advance(4096);
      moved ||= used > 0;
    } while (used > 0 && performance.now() < until);
  }
  return { carry, moved };
}
