// The transport bar shared by the Watch page and the class room's teacher page: the
// buttons and keys that drive playback, the play/pause button and the seek slider.

import { t } from "../i18n.js";

/** Wire every [data-action] button, and Space / → / ← / End, to `actions`. */
export function bindActions(actions) {
  for (const button of document.querySelectorAll("[data-action]")) {
    button.addEventListener("click", () => actions[button.dataset.action]());
  }

  document.addEventListener("keydown", (event) => {
    if (
      event.target.closest("input, select, textarea") ||
      event.altKey ||
      event.ctrlKey ||
      event.metaKey
    )
      return;
    const key = { " ": "play", ArrowRight: "step", ArrowLeft: "back", End: "end" }[event.key];
    if (!key || document.querySelector(`[data-action="${key}"]`).disabled) return;
    event.preventDefault();
    actions[key]();
  });
}

/** Show `playing` on the play/pause button. */
export function showPlaying(button, playing) {
  button.setAttribute("aria-pressed", String(playing));
  button.dataset.playing = String(playing);
  const label = playing ? t("watch.ui.pause") : t("watch.ui.play");
  button.setAttribute("aria-label", label);
  button.title = label;
}

/** Fit the seek slider to `player` (null: nothing to seek). */
export function showSeek(input, player) {
  if (player) {
    input.disabled = false;
    input.min = player.historyStart;
    input.max = player.received;
    if (document.activeElement !== input) input.value = player.pos;
  } else {
    input.disabled = true;
  }
}
