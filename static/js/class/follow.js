// Following a class room's demo (docs/protocol.md, "Class rooms"). The server runs one
// search per room and streams it; this keeps what a page needs to stand on the event the
// class is at. No DOM here: the student's and the teacher's pages draw it (stage.js).
//
// - `state` messages are ordered by (gen, seq); while the class plays at a speed its index
//   moves on by itself, never past the search's end nor an open quiz question (`hold`).
// - One Player, built from the last useful `snapshot` (join, sync, broadcast), takes the
//   `feed` events after it; a snapshot that overlaps what is held only adds its events.
// - When the page cannot stand where the class is (a hole in the feed, a snapshot that
//   did not come), it asks `sync`: one at a time, at most once a second.
// - The teacher's page applies its own controls at once (`intend`) until the server's
//   answer (`settle`) says where the class is.
// - Where the class is, is a playback clock (stream/clock.js) the server sets: its state
//   (or the teacher's control on the way) says the index, whether it plays and how fast.

import { carriesOnward } from "../core/orderings.js";
import { PlaybackClock } from "../stream/clock.js";
import { DepthColumns } from "../stream/columns.js";
import { decodeBatch } from "../stream/decode.js";
import { Player } from "../stream/player.js";

export const SYNC_AFTER_MS = 600; // out of reach this long, and nothing on the way: sync
export const SYNC_EVERY_MS = 1000; // at most one sync a second
const HISTORY_INTS = 400_000; // tens of thousands of events to step back through, on a phone

export class RoomFollower {
  /** sync(payload) => Promise of the `sync` acknowledgement; now() => ms (performance clock). */
  constructor({ sync, now = () => performance.now() }) {
    this.sendSync = sync;
    this.now = now;
    this.state = null; // the room's latest state
    this.stateAt = 0; // when it arrived
    this.intent = null; // the teacher's control not acknowledged yet: {seq, gen, index, playing, speed, at}
    this.clock = new PlaybackClock(); // where the class is: the intent, else the room's state
    this.player = null; // what the page can show: a snapshot and the events after it
    this.columns = null; // the depth chart that goes with the player
    this.computed = 0; // how far the search is known to have got in this generation
    this.pending = null; // a snapshot of a generation whose state has not arrived yet
    this.connected = false;
    this.missingSince = null; // since when the class's index has been out of reach
    this.progressAt = -Infinity; // the last snapshot, or feed that brought the index nearer
    this.holeSeen = false;
    this.syncing = false;
    this.syncedAt = -Infinity;
    this.tally = { snapshots: 0, syncs: 0, holes: 0 }; // shown in the page's data-* (tests)
  }

  // -- input ------------------------------------------------------------------------------
  /**
   * A newer state replaces the one held (a new generation drops what was held). `at`: when
   * the server stated it (a page's own rendering of the room arrives long before it is read).
   */
  adoptState(next, at = this.now()) {
    const old = this.state;
    if (!next || (old && (next.gen < old.gen || (next.gen === old.gen && next.seq <= old.seq))))
      return false;
    this.state = next;
    this.stateAt = at;
    const intent = this.intent;
    if (intent && (next.control_seq >= intent.seq || next.gen !== intent.gen)) this.intent = null;
    this._syncClock();
    if (!old || old.gen !== next.gen) {
      this.player = null;
      this.columns = null;
      this.computed = 0;
      this.missingSince = null;
      this.holeSeen = false;
      const pending = this.pending;
      this.pending = null;
      if (pending?.gen === next.gen) this.adoptSnapshot(pending);
    }
    this._computed(next.end ? next.end.total : next.frontier);
    return true;
  }

  /** A snapshot, kept if it lets the page stand nearer the class's index than it can now. */
  adoptSnapshot(snapshot) {
    const state = this.state;
    if (!snapshot || !state || snapshot.gen < state.gen) return false;
    if (snapshot.gen > state.gen) {
      this.pending = snapshot; // its state is on the way
      return false;
    }
    this.progressAt = this.now();
    this.holeSeen = false; // what it holds starts at or before what was missing
    this._computed(snapshot.at + snapshot.count);
    const { at, count, index } = snapshot;
    const target = this.target();
    const player = this.player;
    if (player?.holds(at)) {
      // The same events as those held from `at` on: take the new ones, keep the history.
      player.append(at, this._decode(snapshot.events));
      return true;
    }
    if (player) {
      const reaches = at <= target && target <= at + count;
      const near = Math.min(Math.max(target, player.historyStart), player.received);
      // Where the page would stand on the first event it holds (a keyframe: no move to
      // mark), a snapshot of that same index with the events before it shows more.
      const fuller = index === near && near === player.historyStart && at < index;
      if (
        !reaches &&
        !fuller &&
        (player.holds(target) || Math.abs(target - index) >= Math.abs(target - near))
      )
        return false;
    }
    const { rows, cols } = state.settings;
    this.player = Player.fromSnapshot(snapshot, {
      rows,
      cols,
      counts: this._countsOnward(),
      historyInts: HISTORY_INTS,
    });
    const columns = new DepthColumns();
    columns.reset(rows * cols);
    columns.load(snapshot.chart);
    this.player.onNewEvent = (depth) => columns.push(depth);
    this.columns = columns;
    this.tally.snapshots++;
    return true;
  }

  /** The room's feed `{gen, at, events}`: appended to what is held; a hole asks for a sync. */
  addFeed(feed) {
    const player = this.player;
    if (!feed || !this.state || feed.gen !== this.state.gen || !player) return;
    const before = player.received;
    const added = player.append(feed.at, this._decode(feed.events));
    if (added < 0) {
      this.holeSeen = true;
      this.tally.holes++;
      return;
    }
    this._computed(player.received);
    if (added > 0 && this.target() > before) this.progressAt = this.now();
  }

  /** The teacher's control `{seq, gen, index, playing, speed}`, shown before the server answers. */
  intend(control) {
    this.intent = { ...control, at: this.now() };
    this._syncClock();
  }

  /** The server's answer to the control numbered `seq`: where the class really is. */
  settle(seq, ack) {
    const state = ack?.ok ? ack.state : ack?.error?.state;
    if (state) this.adoptState(state);
    if (!ack?.ok && this.intent?.seq === seq) {
      this.intent = null; // refused: the room's state stands
      this._syncClock();
    }
  }

  setConnected(connected) {
    this.connected = connected;
    if (!connected) this.missingSince = null;
  }

  // -- where the class is ----------------------------------------------------------------------
  /** Follow the teacher's unacknowledged control, else the room's state. */
  _syncClock() {
    const { intent, state } = this;
    if (intent && state && intent.gen === state.gen) this.clock.set(intent);
    else if (state) this.clock.set({ ...state, at: this.stateAt });
  }

  /** The event index the class is at `now`. */
  target(now = this.now()) {
    const { state, clock } = this;
    if (!state || state.gen <= 1) return 0;
    const index = clock.target(now);
    // As fast as it goes: as far as the search has got.
    let at = Number.isFinite(index) ? Math.floor(index) : Math.max(clock.index, this.computed);
    if (state.end) at = Math.min(at, state.end.total);
    // An open quiz question holds the class: a class playing on to it stops there.
    if (state.hold !== null && state.hold !== undefined) at = Math.min(at, state.hold);
    return at;
  }

  get atEnd() {
    const end = this.state?.end;
    return Boolean(end && this.player && this.player.pos >= end.total);
  }

  /** Whether the page can show the class's index now. */
  get reaches() {
    return Boolean(this.player?.holds(this.target()));
  }

  // -- every frame -----------------------------------------------------------------------------
  /** Stand where the class is (or as near as what is held allows); sync when stuck. */
  tick(now = this.now()) {
    const state = this.state;
    if (!state || state.gen <= 1) return false;
    const target = this.target(now);
    const player = this.player;
    let moved = false;
    if (player) {
      let want = Math.min(Math.max(target, player.historyStart), player.received);
      const clock = this.clock;
      // Playing, a few events ahead of the clock (a late answer) is not worth a step back.
      if (
        clock.playing &&
        clock.speed &&
        want < player.pos &&
        player.pos - want <= Math.max(2, clock.speed / 4)
      ) {
        want = player.pos;
      }
      moved = player.seek(want) !== 0;
      if (state.end && player.received >= state.end.total && !player.done) player.finish(state.end);
    }
    this._maybeSync(now, target);
    return moved;
  }

  _maybeSync(now, target) {
    if (!this.connected || this.player?.holds(target)) {
      this.missingSince = null;
      if (!this.holeSeen) return;
    } else if (this.missingSince === null) {
      this.missingSince = now;
    }
    const stuck =
      this.missingSince !== null &&
      now - this.missingSince >= SYNC_AFTER_MS &&
      now - this.progressAt >= SYNC_AFTER_MS;
    if (
      !(stuck || this.holeSeen) ||
      !this.connected ||
      this.syncing ||
      now - this.syncedAt < SYNC_EVERY_MS
    )
      return;
    this.syncing = true;
    this.syncedAt = now;
    this.holeSeen = false;
    this.tally.syncs++;
    const gen = this.state.gen;
    Promise.resolve(this.sendSync({ gen, index: target }))
      .then((ack) => {
        if (ack?.ok) {
          this.adoptState(ack.state);
          this.adoptSnapshot(ack.snapshot);
        } else if (ack?.error?.state) {
          this.adoptState(ack.error.state); // stale: a new demo
        }
      })
      .finally(() => {
        this.syncing = false;
      });
  }

  // -- internals -------------------------------------------------------------------------------
  _countsOnward() {
    return carriesOnward(this.state.settings.algorithm); // moves carry their sort's counts
  }

  _decode(events) {
    const { rows, cols } = this.state.settings;
    return decodeBatch(events, { counts: this._countsOnward(), squares: rows * cols });
  }

  _computed(index) {
    if (index > this.computed) this.computed = index;
  }
}
