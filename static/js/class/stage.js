// Drawing a class room's demo, the same on the student's and the teacher's page: every
// frame of the pages' one loop (lanes/frame-loop.js), the follower stands where the class
// is and the lane redraws what changed. A line under the board says how far the server's
// search has got while the page waits for it.
//
// The page's root element says what it shows in data-* attributes (read by the tests):
// data-gen, data-pos (the event shown), data-target (the class's index), data-from (the
// first event it can step back to), data-path (depth and a hash of the path), data-nodes,
// data-follow (waiting | catching-up | playing | to-the-end | paused | ended), data-race (a
// lesson's race: the second search's algorithm, drawn on the `second` lane beside the first,
// with data-race-pos and data-race-path).

import { setData, setProp } from "../core/dom.js";
import { formatNumber, t } from "../core/i18n.js";
import { drawLanes } from "../lanes/frame-loop.js";
import { raceVerdict } from "../lanes/race.js";
import { laneSettings } from "../lanes/setup.js";

const PROGRESS_AFTER_MS = 250; // out of reach for less than this: not worth a line

export class Stage {
  /**
   * page: the root element; lane: a Lane (lanes/lane.js); follower: a RoomFollower; code: a
   * CodePanel (lanes/code-panel.js) that shows the demo's program and lights its lines, or
   * none (the students' page); second: the Lane a lesson's race draws its second search on.
   */
  constructor({ page, lane, follower, code = null, second = null }) {
    Object.assign(this, { page, lane, follower, code, second });
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
    this._setUp({ gen, settings });
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
      this._setUp(state);
    }
    const lanes = this._lanes();
    if (this.drawing) {
      for (const [i, shown] of lanes.entries()) {
        const held = follower.held[i];
        if (held && held.player !== shown.player) {
          shown.show(laneSettings(this._settings(state, i)), held.player, held.columns);
        }
      }
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
      drawLanes(
        lanes.filter((shown) => shown.player),
        now,
        {
          playing,
          fast: playing && clock.fast,
          all: moved || phase !== this.phase,
          drawn: (shown) => this._expose(shown),
        },
      );
      this.code?.highlight(lane.tags);
    }
    this.phase = phase;
    this.reveal();
    setData(this.page, "gen", state?.gen ?? 0);
    setData(this.page, "follow", phase);
    setData(this.page, "target", follower.target(now));
    // what the clock follows: the room's state (its seq), or the teacher's control on the
    // way (the intent's seq); a page stuck short of the class says which here
    setData(this.page, "seq", state?.seq ?? 0);
    setData(this.page, "intent", follower.intent?.seq ?? "");
    this._showProgress(now, phase);
    return phase;
  }

  /** The lanes shown: the first, and the second while the demo is a lesson's race. */
  _lanes(settings = this.follower.state?.settings) {
    const raced = this.second && settings?.race;
    return raced ? [this.lane, this.second] : [this.lane];
  }

  /** Lane `i`'s settings: the room's, a race's second search with its own algorithm. */
  _settings(state, i) {
    const { race, ...settings } = state.settings;
    return i === 0 ? settings : { ...settings, algorithm: race };
  }

  /** A new demo: its board on each lane (the second shown only for a race) while it loads. */
  _setUp(state) {
    const race = this.second ? state.settings.race : null;
    setData(this.page, "race", race ?? "");
    if (this.second) this.second.root.hidden = !race;
    for (const [i, shown] of this._lanes(state.settings).entries()) {
      shown.preview(laneSettings(this._settings(state, i)));
      shown.say(t(state.gen > 1 ? "class.ui.loading" : "class.ui.waiting"));
    }
  }

  /** A race's verdict once both lanes stand on their ends (lanes/race.js), else null. */
  get verdict() {
    return this._lanes().length > 1 ? raceVerdict(this._lanes()) : null;
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

  _expose(shown) {
    const { page, follower } = this;
    const player = shown.player;
    if (shown !== this.lane) {
      setData(page, "racePos", player.pos);
      setData(page, "racePath", pathDigest(player));
      return;
    }
    setData(page, "pos", player.pos);
    setData(page, "from", player.historyStart);
    setData(page, "nodes", player.moves);
    setData(page, "path", pathDigest(player));
    setData(page, "snapshots", follower.tally.snapshots);
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
