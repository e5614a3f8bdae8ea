// Drawing a class room's demo, the same on the student's and the teacher's page: every
// frame of the pages' one loop (lanes/frame-loop.js), the follower stands where the class
// is and the lane redraws what changed. A line under the board says how far the server's
// search has got while the page waits for it.
//
// The page's root element says what it shows in data-* attributes (read by the tests):
// data-gen, data-pos (the event shown), data-target (the class's index), data-from (the
// first event it can step back to), data-path (depth and a hash of the path), data-nodes,
// data-follow (waiting | catching-up | playing | to-the-end | paused | ended).

import { setData, setProp } from "../core/dom.js";
import { formatNumber, t } from "../core/i18n.js";
import { drawLanes } from "../lanes/frame-loop.js";
import { laneSettings } from "../lanes/setup.js";

const PROGRESS_AFTER_MS = 250; // out of reach for less than this: not worth a line

export class Stage {
  /**
   * page: the root element; lane: a Lane (lanes/lane.js); follower: a RoomFollower; code: a
   * CodePanel (lanes/code-panel.js) that shows the demo's program and lights its lines, or
   * none (the students' page).
   */
  constructor({ page, lane, follower, code = null }) {
    Object.assign(this, { page, lane, follower, code });
    // The line under the board (templates/class_macros.html's `progress`).
    this.progress = {
      root: page.querySelector("#c-catchup"),
      text: page.querySelector("#c-catchup-text"),
      bar: page.querySelector("#c-catchup-bar"),
    };
    // The class's position as the server drew it into the page (templates/board_macros.html),
    // shown in the lane's board's place until the lane first draws.
    this.firstFrame = page.querySelector('[data-role="first-frame"]');
    this.drawing = true; // false while the teacher previews other settings on the lane
    this.gen = 0; // the generation the lane is set up for
    this.phase = "";
    this.lastPhase = ""; // the last frame's phase, drawn or not
    this.active = true; // whether the next frames have something to do
  }

  /**
   * Set the lane up for the room's demo as the page found it (`{gen, settings}`, rendered
   * with the page), so the board is built while the join is on its way, not after it.
   */
  prepare({ gen, settings }) {
    if (!this.drawing || gen <= 1 || this.gen === gen) return;
    this.gen = gen;
    this.lane.preview(laneSettings(settings));
    this.lane.say(t("class.ui.loading"));
  }

  /** Draw the stream again after the lane showed something else. */
  resume() {
    this.drawing = true;
    this.gen = 0;
  }

  /** One frame: follow the class, redraw what changed; returns the phase. */
  frame(now) {
    const { follower, lane } = this;
    const state = follower.state;
    if (this.drawing && state && this.gen !== state.gen) {
      this.gen = state.gen;
      this.code?.configure({ algorithm: state.settings.algorithm });
      lane.preview(laneSettings(state.settings));
      lane.say(t(state.gen > 1 ? "class.ui.loading" : "class.ui.waiting"));
    }
    if (this.drawing && follower.player && follower.player !== lane.player) {
      lane.show(laneSettings(state.settings), follower.player, follower.columns);
    }
    const moved = follower.tick(now);
    const phase = this._phase();
    // Whether the next frames have something to do: the class plays or is on its way, or
    // this frame moved; else the page's loop may sleep (a message or input wakes it).
    this.active = moved || phase !== this.lastPhase || !STILL.has(phase);
    this.lastPhase = phase;
    if (!this.drawing) return phase;
    if (lane.player) {
      const { clock } = follower;
      const playing = clock.playing && phase !== "ended";
      drawLanes([lane], now, {
        playing,
        fast: playing && clock.fast,
        all: moved || phase !== this.phase,
        drawn: () => this._expose(lane.player),
      });
      this.code?.highlight(lane.tags);
    }
    this.phase = phase;
    this.reveal();
    setData(this.page, "gen", state?.gen ?? 0);
    setData(this.page, "follow", phase);
    setData(this.page, "target", follower.target(now));
    this._showProgress(now, phase);
    return phase;
  }

  /**
   * The lane's own board in place of the server's first frame: called with the lane's first
   * frame, in the same task, so no paint shows a board in between.
   */
  reveal() {
    if (!this.firstFrame) return;
    this.firstFrame.remove();
    this.firstFrame = null;
    this.lane.board.root.hidden = false;
  }

  _phase() {
    const follower = this.follower;
    const state = follower.state;
    if (!state || state.gen <= 1) return "waiting";
    if (!follower.reaches) return "catching-up";
    if (follower.atEnd) return "ended";
    const clock = follower.clock;
    if (!clock.playing) return "paused";
    return clock.speed ? "playing" : "to-the-end";
  }

  _expose(player) {
    const page = this.page;
    setData(page, "pos", player.pos);
    setData(page, "from", player.historyStart);
    setData(page, "nodes", player.moves);
    setData(page, "path", pathDigest(player));
    setData(page, "snapshots", this.follower.tally.snapshots);
  }

  /** While the page waits for the search (or runs to its end): how far it has got. */
  _showProgress(now, phase) {
    const { root, text, bar } = this.progress;
    const follower = this.follower;
    const waited =
      follower.missingSince !== null && now - follower.missingSince >= PROGRESS_AFTER_MS;
    const show = this.drawing && (phase === "to-the-end" || (phase === "catching-up" && waited));
    setProp(root, "hidden", !show);
    if (!show) return;
    const target = follower.target(now);
    const computed = follower.computed;
    let words;
    if (phase === "to-the-end")
      words = t("class.ui.progress.to-the-end", { n: formatNumber(computed) });
    else if (computed < target)
      words = t("class.ui.progress.computing", { n: formatNumber(computed) });
    else words = t("class.ui.catching-up");
    if (text.textContent !== words) text.textContent = words;
    if (phase === "catching-up" && target > 0) bar.value = Math.min(1, computed / target);
    else bar.removeAttribute("value"); // running to an end nobody knows yet
  }
}

const STILL = new Set(["paused", "ended", "waiting"]); // phases in which nothing moves by itself

/** "depth:hash" of the path shown: two pages that show the same position show the same digest. */
export function pathDigest(player) {
  let hash = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < player.depth; i++) {
    hash ^= player.path[i];
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${player.depth}:${hash.toString(16)}`;
}
