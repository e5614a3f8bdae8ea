// Following a class room's demo (docs/protocol.md, "Class rooms"). The server runs one
// search per room and streams it; this keeps what a page needs to stand on the event the
// class is at. No DOM here: the student's and the teacher's pages draw it (stage.js).
//
// - `state` messages are ordered by (gen, seq); while the class plays at a speed its index
//   moves on by itself, never past the search's end nor an open quiz question (`hold`).
// - One Player per lane (held-lane.js), built from the last useful `snapshot` (join, sync,
//   broadcast), takes the `feed` events after it; a snapshot that overlaps what is held only
//   adds its events. A lesson's race has two lanes, played by the one index.
// - When the page cannot stand where the class is (a hole in the feed, a snapshot that
//   did not come), it asks `sync`: one at a time, at most once a second.
// - The teacher's page applies its own controls at once (`intend`) until the server's
//   answer (`settle`) says where the class is.
// - Where the class is, is a playback clock (stream/clock.js) the server sets: its state
//   (or the teacher's control on the way) says the index, whether it plays and how fast.

import { PlaybackClock } from "../stream/clock.js";
import { HeldLane } from "./held-lane.js";

export const SYNC_AFTER_MS = 600; // out of reach this long, and nothing on the way: sync
export const SYNC_EVERY_MS = 1000; // at most one sync a second

export class RoomFollower {
  /** sync(payload) => Promise of the `sync` acknowledgement; now() => ms (performance clock). */
  constructor({ sync, now = () => performance.now() }) {
    this.sendSync = sync;
    this.now = now;
    this.state = null; // the room's latest state
    this.stateAt = 0; // when it arrived
    this.intent = null; // the teacher's control not acknowledged yet: {seq, gen, index, playing, speed, at}
    this.clock = new PlaybackClock(); // where the class is: the intent, else the room's state
    this.held = []; // what the page can show, per lane (HeldLane): a snapshot and the events after it
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
      this.held = [];
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

  /**
   * A snapshot, kept if it lets the page stand nearer the class's index than it can now.
   * A race's carries the class's range (`index`, `at`, `count`) and each lane's own.
   */
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
    const parts = snapshot.lanes ?? [snapshot];
    const target = this.target();
    const held = this.held;
    if (held.length && held.every((lane, i) => lane.player.holds(parts[i].at))) {
      // The same events as those held from `at` on: take the new ones, keep the history.
      for (const [i, lane] of held.entries()) lane.append(parts[i].at, parts[i].events);
      this._learnEnds(snapshot.ends);
      return true;
    }
    if (held.length && !this._refreshes(snapshot, target)) return false;
    const { rows, cols, algorithm, race } = state.settings;
    const algorithms = race ? [algorithm, race] : [algorithm];
    this.held = parts.map(
      (part, i) => new HeldLane(part, { rows, cols, algorithm: algorithms[i] }),
    );
    this._learnEnds(snapshot.ends);
    this.tally.snapshots++;
    return true;
  }

  /** Whether a snapshot not overlapping what is held shows the class's index better. */
  _refreshes({ at, count, index }, target) {
    if (at <= target && target <= at + count) return true; // it reaches the class's index
    if (this.held.length > 1) return !this.reaches; // a race: held lanes that reach it stay
    const player = this.player;
    const near = Math.min(Math.max(target, player.historyStart), player.received);
    // Where the page would stand on the first event it holds (a keyframe: no move to
    // mark), a snapshot of that same index with the events before it shows more.
    const fuller = index === near && near === player.historyStart && at < index;
    return fuller || (!player.holds(target) && Math.abs(target - index) < Math.abs(target - near));
  }

  _learnEnds(ends) {
    if (!ends) return;
    for (const [i, lane] of this.held.entries()) lane.learnEnd(ends[i]);
  }

  /** The first lane's player and depth chart: the page's own lane (a race's second: `held`). */
  get player() {
    return this.held[0]?.player ?? null;
  }

  get columns() {
    return this.held[0]?.columns ?? null;
  }

  /**
   * The room's feed `{gen, at, events}` (a race's: `{gen, at, lanes, ends}`): appended to
   * what is held; a hole asks for a sync.
   */
  addFeed(feed) {
    const held = this.held;
    if (!feed || !this.state || feed.gen !== this.state.gen || !held.length) return;
    const parts = feed.lanes ?? [feed.events];
    const before = this._received();
    const added = held.map((lane, i) => lane.append(feed.at, parts[i]));
    if (added.some((n) => n < 0)) {
      this.holeSeen = true;
      this.tally.holes++;
      return;
    }
    this._learnEnds(feed.ends);
    this._computed(this._received());
    if (added.some((n) => n > 0) && this.target() > before) this.progressAt = this.now();
  }

  /** How far the events held reach (a race's: its longest lane's). */
  _received() {
    return Math.max(...this.held.map((lane) => lane.player.received));
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
    return Boolean(end && this.held.length && this.target() >= end.total && this.reaches);
  }

  /** Whether the page can show the class's index now (in every lane). */
  get reaches() {
    return this._holds(this.target());
  }

  _holds(index) {
    return this.held.length > 0 && this.held.every((lane) => lane.holds(index));
  }

  // -- every frame -----------------------------------------------------------------------------
  /** Stand where the class is (or as near as what is held allows); sync when stuck. */
  tick(now = this.now()) {
    const state = this.state;
    if (!state || state.gen <= 1) return false;
    const target = this.target(now);
    let moved = false;
    // one search: the room's end is its end (a race's lanes learn theirs from the messages)
    if (this.held.length === 1) this.held[0].learnEnd(state.end);
    for (const lane of this.held) moved = lane.seek(target, this.clock) || moved;
    this._maybeSync(now, target);
    return moved;
  }

  _maybeSync(now, target) {
    if (!this.connected || this._holds(target)) {
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
  _computed(index) {
    if (index > this.computed) this.computed = index;
  }
}
