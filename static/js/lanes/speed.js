// The speed slider shared by the Watch page and the class room's teacher page: a log-scale
// slider of events per second whose last step is "as fast as it can draw", and the credit
// window that goes with a speed.

import { t } from "../core/i18n.js";
import { MAX_WINDOW } from "../stream/connection.js";

export const MAX_SPEED_STEP = 100; // the slider's last step: as fast as the browser can draw

/** Slider step -> events per second (1 .. 10,000, log scale); the last step is null. */
export function stepToSpeed(step) {
  if (step >= MAX_SPEED_STEP) return null;
  return Math.max(1, Math.round(10 ** ((step * 4) / (MAX_SPEED_STEP - 1))));
}

/** Events per second -> slider step; no speed (null, 0) is the last step. */
export function speedToStep(speed) {
  if (!speed) return MAX_SPEED_STEP;
  const step = Math.round((Math.log10(speed) * (MAX_SPEED_STEP - 1)) / 4);
  return Math.max(0, Math.min(MAX_SPEED_STEP - 1, step));
}

/** Credit to keep in flight: about two seconds of playback, within the protocol's bounds. */
export function windowFor(speed) {
  return speed === null ? MAX_WINDOW : Math.max(1000, Math.min(MAX_WINDOW, speed * 2));
}

/** The slider's label for `speed` events per second (null: as fast as it can draw). */
export function speedLabel(speed) {
  return speed === null ? t("watch.ui.speed.max") : t("watch.ui.speed.rate", { n: speed });
}
