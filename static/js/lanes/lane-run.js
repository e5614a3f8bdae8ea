// The run a lane (lane.js) plays on /watch and /lesson: started with the page's settings
// and the server's node cap, sought (the server computes to an index or to the end, says
// how far it got meanwhile, then sends a snapshot that replaces the lane's player), and
// stopped. A class room's lane has none: it shows the player the room's follower keeps.

import { searchNodeBudget } from "../core/limits.js";
import { DepthColumns } from "../stream/columns.js";
import { RunFeed } from "../stream/feed.js";
import { runParams } from "./setup.js";

export class LaneRun {
  /** lane: the Lane it feeds (its player, depth chart, words and status). */
  constructor(lane) {
    this.lane = lane;
    this.feed = new RunFeed({
      onDone: (msg) => {
        lane.root.dataset.serverNodes = msg.nodes;
        lane.root.dataset.serverBacktracks = msg.backtracks;
        lane.changed = true;
      },
      onError: (err) => lane.fail(err),
      onProgress: (msg) => lane.words.progress(msg, this.feed.seeking),
      onSnapshot: (player, snapshot) => this._land(player, snapshot),
    });
  }

  /** The server's acknowledgement of the run (its effective settings), once started. */
  get ack() {
    return this.feed.ack;
  }

  /** Whether the run can ask the server for any index (a fresh run). */
  get seekable() {
    return this.feed.seekable;
  }

  /**
   * Start a run of lane `settings` on `connection`; resolves to its Player once the server
   * acknowledged it (null: stopped meanwhile), rejects when the server refused it.
   */
  start(connection, settings, window) {
    // the server's cap, from the page: ⏭ reaches the end of the lesson's 8x8 plain search
    const params = { ...runParams(settings), node_budget: searchNodeBudget() };
    return this.feed.start(connection, params, { window });
  }

  /** Ask the server to stand at `index` (null: the end), saying how far it has got. */
  async seek(index) {
    const { lane } = this;
    lane.root.dataset.seeking = "true";
    const from = { index: lane.player?.received ?? 0, nodes: lane.player?.moves ?? 0 };
    lane.words.progress(from, index);
    try {
      await this.feed.seek(index);
    } catch (err) {
      this.endSeek();
      lane.fail(err);
    }
  }

  endSeek() {
    this.lane.root.dataset.seeking = "false";
    this.lane.words.endProgress();
  }

  /** A seek landed: the lane shows the snapshot's player, its heat map and depth chart. */
  _land(player, snapshot) {
    const columns = new DepthColumns();
    columns.reset(player.squares);
    columns.load(snapshot.chart);
    player.onNewEvent = (depth) => columns.push(depth);
    const { lane } = this;
    lane.chart.use(columns);
    lane.player = player;
    lane.changed = true;
    this.endSeek();
    lane.onLanded?.(snapshot);
  }

  /** Keep about `window` events in flight. */
  setWindow(window) {
    this.feed.setWindow(window);
  }

  /** Stop the run (if any) and forget it. */
  stop() {
    this.feed.stop();
  }
}
