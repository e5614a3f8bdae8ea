// A lane's words (lane.js): the algorithm's name, the status badge, the narration line and
// the line saying how far the server's computing has got. The root says the algorithm and
// the status in data-algorithm and data-status (read by the tests and the page's CSS).

import { formatNumber, t } from "../core/i18n.js";

export class LaneWords {
  constructor(root) {
    this.root = root;
    const role = (name) => root.querySelector(`[data-role="${name}"]`);
    this.narration = role("narration");
    this.badge = role("badge");
    this.algorithmLabel = role("algorithm");
    this.progressLine = role("progress");
    this.narrated = "";
  }

  algorithm(algorithm) {
    this.root.dataset.algorithm = algorithm;
    this.algorithmLabel.dataset.i18n = `watch.ui.algo.${algorithm}`;
    this.algorithmLabel.textContent = t(`watch.ui.algo.${algorithm}`);
  }

  /** The badge: idle, connecting, running, paused, error, or how the run ended. */
  status(status, { force = false } = {}) {
    if (this.root.dataset.status === status && !force) return;
    this.root.dataset.status = status;
    this.badge.dataset.i18n = `watch.ui.status.${status}`;
    this.badge.textContent = t(`watch.ui.status.${status}`);
  }

  /** The narration line (`text` as is). */
  say(text) {
    if (this.narrated === text) return;
    this.narrated = text;
    this.narration.textContent = text;
  }

  /** How far the server has computed: `msg` {index, nodes} towards `target` (null: the end). */
  progress(msg, target) {
    const words =
      target === null
        ? t("watch.ui.end.computing", {
            n: formatNumber(msg.index),
            nodes: formatNumber(msg.nodes),
          })
        : t("watch.ui.end.seeking", { n: formatNumber(msg.index), target: formatNumber(target) });
    this.progressLine.hidden = false;
    this.progressLine.textContent = words;
    this.root.dataset.progress = String(msg.index);
  }

  endProgress() {
    this.progressLine.hidden = true;
  }

  /** Say the algorithm and the status again, in the page's language now. */
  relabel() {
    this.algorithm(this.root.dataset.algorithm || "seed");
    this.status(this.root.dataset.status || "idle", { force: true });
  }
}
