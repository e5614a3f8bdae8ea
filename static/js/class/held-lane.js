// One lane of a class room's demo as a page holds it (follow.js): a Player built from a
// snapshot, the feed's events after it, its depth chart, and its end once known. A room
// shows one search, or a lesson's race of two searches played by one index
// (server/stream/race.py): there a lane that ended before the class's index stands on its
// last event, and its end comes with the message that carries that event (`ends`).
// No DOM here.

import { carriesOnward } from "../core/orderings.js";
import { DepthColumns } from "../stream/columns.js";
import { decodeBatch } from "../stream/decode.js";
import { Player } from "../stream/player.js";

const HISTORY_INTS = 400_000; // tens of thousands of events to step back through, on a phone

export class HeldLane {
  /** A lane standing on `snapshot` (its own part of a race's snapshot) of `algorithm`. */
  constructor(snapshot, { rows, cols, algorithm }) {
    this.counts = carriesOnward(algorithm); // moves carry their sort's counts
    this.squares = rows * cols;
    this.player = Player.fromSnapshot(snapshot, {
      rows,
      cols,
      counts: this.counts,
      historyInts: HISTORY_INTS,
    });
    const columns = new DepthColumns();
    columns.reset(rows * cols);
    columns.load(snapshot.chart);
    this.player.onNewEvent = (depth) => columns.push(depth);
    this.columns = columns;
    this.end = null; // {status, total, ...} once this lane's search has ended
  }

  /** Whether all of this lane's events are held (it can stand anywhere past its end). */
  get complete() {
    return this.end !== null && this.player.received >= this.end.total;
  }

  /** The index this lane stands on when the class is at `index`. */
  standing(index) {
    return this.end ? Math.min(index, this.end.total) : index;
  }

  holds(index) {
    return this.player.holds(this.standing(index));
  }

  /** A feed's (or an overlapping snapshot's) events from `at`: new ones, 0, or -1 (a hole). */
  append(at, events) {
    if (this.complete) return 0; // a lane that has ended is sent nothing more
    return this.player.append(at, this.decode(events));
  }

  decode(events) {
    return decodeBatch(events, { counts: this.counts, squares: this.squares });
  }

  learnEnd(end) {
    if (end && !this.end) this.end = end;
  }

  /** Stand where the class is (or as near as held); true if the position moved. */
  seek(target, clock) {
    const player = this.player;
    let want = Math.min(Math.max(this.standing(target), player.historyStart), player.received);
    // Playing, a few events ahead of the clock (a late answer) is not worth a step back.
    if (
      clock.playing &&
      clock.speed &&
      want < player.pos &&
      player.pos - want <= Math.max(2, clock.speed / 4)
    ) {
      want = player.pos;
    }
    const moved = player.seek(want) !== 0;
    if (this.complete && !player.done) player.finish(this.end);
    return moved;
  }
}
