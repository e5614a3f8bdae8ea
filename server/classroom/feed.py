"""A class room's demo (one search, or a lesson's race of two), streamed to the whole room.

Every process that has members of a room runs a :class:`RoomFeed` for it, but only
the one holding the room's lease (``class_rooms.owner``, renewed every second, lost
after :data:`LEASE_SECONDS`, server/classroom/lease.py) runs the search: its
:class:`~server.stream.race.Race` (a timeline per search) computes ahead of the class, stores
checkpoints in the database and broadcasts to the Socket.IO room (through the message
queue, to members on every process), paced as server/classroom/pacing.py says:

* ``feed`` ``{gen, at, events}``: the encoded events from index ``at`` on: while the
  class plays, a little ahead of where it is, so a play shows at once everywhere;
  while it is paused, nothing past its index (a quiz question is asked where the
  class is, and nobody may hold the answer: see :func:`.lease.claim_sent`);
* ``snapshot`` ``{gen, index, at, path, ..., events}``: where a viewer must stand
  when the class jumped (a seek, "jump to the end"), and, while the demo plays
  faster than :data:`.pacing.STREAM_MAX_SPEED`, a keyframe a few times a second
  instead of every event (nobody can follow thousands of moves a second; a phone on
  school Wi-Fi should not have to receive them);
* ``state`` once the search has ended, so everyone knows the end.

The owner's search is one of the server's searches, paid for by the address that
opened the room (:class:`~.room_budget.RoomBudget`): a slice that gets no search slot, or
whose opener is out of search time or memory, waits for the next tick.

The others watch the lease and take the search over when the owner is gone: they
resume it from the stored checkpoints, and the class goes on from the same index.
Any process answers a member's ``sync`` (a late joiner, a reconnect) from the owner's
timeline or from a :class:`~.replica.Replica` of it.

No Flask here: the web layer passes ``emit``, ``start_task`` and ``in_context``.
"""

from __future__ import annotations

import logging
import random
import threading
import time

from ..db import is_busy
from ..engine import questions
from ..stream.race import Race
from ..stream.timeline import SNAPSHOT_TAIL
from . import clock, lease, quiz, rooms
from .messages import ClassError
from .pacing import end_total, lead, lookahead, streaming
from .replica import Replica, race_of
from .room_budget import RoomBudget

LEASE_SECONDS = 3.0  # a lease not renewed for this long can be taken over
RENEW_EVERY = 1.0
WATCH_EVERY = 0.5  # how often a process without the lease looks at it
PLAY_TICK = 0.25  # the owner's pace while the class plays (the feed leads by 2 s)
FAST_TICK = 0.2  # keyframes: five a second
IDLE_TICK = 0.25  # paused: how soon a control from another process is noticed
SLICE_SECONDS = 0.1  # computing done between two ticks
KEYFRAME_DELAY = 0.4  # a run to the end shorter than this sends only where it ended
FEED_BATCH = 1_000  # events per feed message at most
REPORT_EVERY = 1.0  # seconds between progress records while streaming
RUN_TO_END = 10**12

log = logging.getLogger(__name__)


def where_the_class_is(room, feed: RoomFeed | None) -> tuple[dict, dict | None]:
    """The room's state now and the snapshot at its index: what a member joining is given,
    in the join's answer and in the students' page rendered before it.  Without the room's
    feed on this process there is no snapshot (the join brings it)."""
    state = clock.public_state(room, rooms.now())
    return state, (feed.read(room, state["index"]) if feed is not None else None)


class RoomFeed:
    """This process's part in one room's demo: its search when it holds the lease."""

    def __init__(self, hub, code: str) -> None:
        self.hub = hub
        self.code = code
        self.owner = False
        self._lease_at = 0.0
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self.timeline: Race | None = None  # the owner's, for ``gen``
        self.gen: int | None = None
        self.settings: dict | None = None
        self.budget = RoomBudget(hub.searches, hub.memory)  # who pays for its search
        self._held_back = False  # this tick's slice had to wait (no slot, time or memory)
        self.sent: int | None = None  # the feed's next index (None: a snapshot comes first)
        self._claimed = (None, 0)  # (gen, upto): the class's high-water mark claimed here
        self._fast_since: float | None = None  # when the current fast play began
        self._keyframe: tuple = ()  # (gen, index) of the last keyframe sent
        self._keyframe_at = 0.0
        self._reported: tuple = ()
        self._reported_at = 0.0
        self.replica = Replica(self.budget)  # the reads while another process owns it
        self._unsaved: list = []  # (gen, checkpoint) the owner's timeline made outside a tick
        self._unsaved_lock = threading.Lock()
        self.finished = threading.Event()
        self.thread = hub.start_task(self._run)

    # -- control ---------------------------------------------------------------------------
    def wake(self) -> None:
        """Something changed in the room (a control, new settings): look now."""
        self._wake.set()

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def _run(self) -> None:
        threading.current_thread().name = f"class-feed-{self.code}"
        try:
            while not self._stopped.is_set():
                try:
                    delay = self.hub.in_context(self._tick)
                except Exception as err:
                    if is_busy(err):  # another writer held the database: the next tick
                        log.warning("class room %s: the database was busy", self.code)
                        delay = 1.0
                    elif self.hub.in_context(self._room_is_gone):
                        break  # closed under the tick (its rows went with it): not a failure
                    else:
                        log.exception("class room %s: the feed failed a tick", self.code)
                        delay = 1.0
                self._wake.wait(delay)
                self._wake.clear()
        finally:
            try:
                self.hub.in_context(self._retire)
            except Exception:  # pragma: no cover - the database went away
                log.exception("class room %s: giving the search up", self.code)
            self.finished.set()

    def _room_is_gone(self) -> bool:
        rooms.rollback()
        try:
            rooms.find_room(self.code, ttl=self.hub.ttl)
        except ClassError:
            self._stopped.set()
            return True
        return False

    def _retire(self) -> None:
        if self.owner:
            lease.release(self.code, self.hub.process)
            self.owner = False
        if self.timeline is not None:
            self.timeline.close()
        self.budget.count("owner", None)
        self.replica.close()

    # -- one tick ----------------------------------------------------------------------------
    def _tick(self) -> float:
        at = rooms.now()
        try:
            room = rooms.find_room(self.code, at, self.hub.ttl)
        except ClassError:  # closed or expired: nothing left to show
            self._stopped.set()
            return 0.0
        if not self.owner or at - self._lease_at >= RENEW_EVERY:
            was_owner = self.owner
            self.owner = lease.acquire(self.code, self.hub.process, at, LEASE_SECONDS)
            self._lease_at = at
            if self.owner and not was_owner:
                log.info("class room %s: this process runs its search now", self.code)
                self.sent = None  # members get a snapshot first: no gap after a takeover
        if not self.owner:
            return WATCH_EVERY
        if room.gen <= 1:  # nothing shown yet
            return IDLE_TICK
        self.budget.address = room.address or ""
        self._held_back = False
        delay = self._show(room, at)
        self.budget.count("owner", self.timeline)  # its size now, snapshots read included
        return max(delay, IDLE_TICK) if self._held_back else delay

    def _show(self, room, at: float) -> float:
        timeline = self._timeline_for(room)
        playing_on = room.held_at is not None and room.playing  # on to a question
        if playing_on and clock.stop_at_hold(self.code, room.gen, at):
            self.hub.broadcast_state(self.code)  # it stands there now: everyone is told
            room = rooms.find_room(self.code, at, self.hub.ttl)
        state = clock.public_state(room, at)
        if streaming(state):
            return self._stream(timeline, state, room.held_at)
        return self._keyframes(timeline, state)

    def _timeline_for(self, room) -> Race:
        if self.timeline is None or self.gen != room.gen:
            if self.timeline is not None:
                self.timeline.close()
            self.timeline = race_of(room)  # a takeover resumes; counted as the tick ends
            self.gen = room.gen
            self.settings = clock.settings_of(room)
            self.sent = None
            self._reported = ()
        return self.timeline

    def _stream(self, timeline: Race, state: dict, held: int | None) -> float:
        """Every event (ahead of the class while it plays); a snapshot when it jumped."""
        target = state["index"]
        ahead = lead(state, timeline.end["total"] if timeline.end is not None else None)
        want = target + ahead
        if held is not None:  # an open question: nothing past it
            want = min(want, held)
        # paused, the search stays ahead of what the class was sent: a question is ready
        computed_from = target if state["playing"] else max(target, self.sent or 0)
        self._extend(timeline, computed_from + lookahead(state))
        self._report(timeline, state)
        if timeline.frontier < target and timeline.end is None:
            # still computing towards a far index: show how far it got now and then
            self._fast_play()
            self._keyframe_if_due(timeline, timeline.frontier, ended=False)
            return 0.0
        jumped = (
            self.sent is None
            or target > self.sent + max(ahead, FEED_BATCH)  # forward past what was sent
            or target < self.sent - ahead - SNAPSHOT_TAIL  # back past what members hold
        )
        if jumped:
            index = min(target, timeline.frontier)
            allowed = self._claim(min(want, timeline.frontier))
            if allowed < index:
                return IDLE_TICK  # a question holds the class behind: the ask moves it
            snapshot = self._snapshot(timeline, index, allowed - index)
            self.sent = snapshot["at"] + snapshot["count"]
        else:
            if self.sent > want:  # the class went back: feed again from its index on
                self.sent = want
            stop = min(want, timeline.frontier)
            if stop > self.sent:
                stop = min(stop, self._claim(stop))
            while self.sent < stop:
                upto = min(stop, self.sent + FEED_BATCH)
                body = timeline.feed(self.sent, upto)
                self.hub.broadcast("feed", {"gen": self.gen, **body}, self.code)
                self.sent = upto
        return PLAY_TICK if state["playing"] else IDLE_TICK

    def _keyframes(self, timeline: Race, state: dict) -> float:
        """Playing fast (or to the end): compute a slice, then show where the class is.

        A short run (a 6x6 jump to the end) sends no keyframe at all, only where it
        ended (with the events before it, to step back); a long one shows its progress
        five times a second, and nothing once it has stopped moving.
        """
        self._fast_play()
        run_to_end = state["speed"] is None
        self._extend(timeline, RUN_TO_END if run_to_end else state["index"])
        self._report(timeline, state, every=FAST_TICK if run_to_end else REPORT_EVERY)
        index = timeline.frontier if run_to_end else min(state["index"], timeline.frontier)
        ended = timeline.end is not None and index == timeline.end["total"]
        self._keyframe_if_due(timeline, index, ended=ended)
        if run_to_end and timeline.end is None:
            return 0.0  # computing to the end: no rest between slices (keyframes stay 5/s)
        return FAST_TICK

    def _extend(self, timeline: Race, upto: int) -> None:
        """One slice of the search towards ``upto``, its checkpoints stored: as a search of
        the room's opener (a slot, its budget and memory), or ``_held_back`` to wait."""
        if timeline.end is None and timeline.frontier < upto:
            self._held_back = not self.budget.slice(timeline, upto, SLICE_SECONDS, self._save)
        self._save([])  # what a quiz question's search made meanwhile, if nothing else did

    def _fast_play(self) -> None:
        """Members are shown keyframes from now on (the feed restarts with a snapshot)."""
        if self.sent is not None or self._fast_since is None:
            self._fast_since = time.monotonic()
        self.sent = None

    def _keyframe_if_due(self, timeline: Race, index: int, *, ended: bool) -> None:
        """A keyframe at ``index``: at most five a second, none in a short run's first
        moments, none repeated; where a run ended, with the events before it."""
        at = time.monotonic()
        shown = (self.gen, index)
        if shown == self._keyframe:
            return
        if not ended and (
            at - self._fast_since < KEYFRAME_DELAY or at - self._keyframe_at < FAST_TICK
        ):
            return
        if self._claim(min(index, timeline.frontier)) < min(index, timeline.frontier):
            return  # a question asked meanwhile holds the class behind
        self._snapshot(timeline, index, 0, keyframe=not ended, tail=SNAPSHOT_TAIL * ended)
        self._keyframe, self._keyframe_at = shown, at

    def _claim(self, upto: int) -> int:
        """How far members may be sent (the room's high-water mark, once per new reach)."""
        gen, claimed = self._claimed
        if gen == self.gen and upto <= claimed:
            return upto
        allowed = lease.claim_sent(self.code, self.gen, upto)
        if allowed >= upto:
            self._claimed = (self.gen, upto)
        return allowed

    # -- output --------------------------------------------------------------------------------
    def _snapshot(
        self, timeline: Race, index: int, ahead: int, *, keyframe=False, tail=SNAPSHOT_TAIL
    ) -> dict:
        snapshot = timeline.snapshot(index, tail=tail, ahead=ahead)
        self.hub.broadcast("snapshot", self._labelled(snapshot, keyframe), self.code)
        return snapshot

    def _labelled(self, snapshot: dict, keyframe: bool) -> dict:
        """A snapshot says which demo it belongs to: it may arrive before that demo's state."""
        return {"gen": self.gen, "settings": self.settings, "keyframe": keyframe, **snapshot}

    def _save(self, states) -> None:
        with self._unsaved_lock:  # made while a question was looked for (find_question)
            states = [state for gen, state in self._unsaved if gen == self.gen] + list(states)
            self._unsaved.clear()
        if states:
            for lane, made, spacing in self.timeline.checkpoint_groups(states):
                lease.save_checkpoints(self.code, self.gen, lane, made, spacing)

    def _report(self, timeline: Race, state: dict, every: float = REPORT_EVERY) -> None:
        """Record the search's progress (and its end) where every process reads the room."""
        progress = (self.gen, timeline.frontier, timeline.end is not None)
        if progress == self._reported:
            return
        at = time.monotonic()
        ended = timeline.end is not None and not (self._reported and self._reported[2])
        if not ended and at - self._reported_at < every:
            return
        if lease.record_progress(self.code, self.gen, timeline.frontier, timeline.end):
            self._reported, self._reported_at = progress, at
            if ended:  # everyone learns the end, with the room's new state
                self.hub.broadcast_state(self.code)

    # -- reads for any member, on any process ---------------------------------------------------
    def read(self, room, index: int) -> dict | None:
        """The snapshot a member needs to stand at ``index`` of the room's demo now.

        Never past what the feed may send: the class's index (and the feed's lead while
        it plays), and the open question's index; what it carries counts as sent.
        """
        if room.gen <= 1:
            return None
        code, gen = room.code, room.gen
        state = clock.public_state(room, rooms.now())
        ahead = lead(state, end_total(state))
        index = min(index, state["index"] + ahead)
        snapshot = self.peek(room, index, ahead)
        allowed = lease.claim_sent(code, gen, snapshot["at"] + snapshot["count"])
        if allowed < snapshot["at"] + snapshot["count"]:  # a question holds the class there
            index = min(index, allowed)
            snapshot = self.peek(room, index, allowed - index)
        return {"gen": gen, "settings": state["settings"], "keyframe": False, **snapshot}

    def peek(self, room, index: int, ahead: int) -> dict:
        """The demo at ``index`` with up to ``ahead`` events after it, for the server's
        own eyes (:meth:`read` is what members get)."""
        timeline = self.timeline if self.owner and self.gen == room.gen else None
        if timeline is None:
            timeline = self.replica.at(room, index + ahead)
        return timeline.snapshot(index, ahead=ahead)

    def find_question(self, room, start: int, seconds: float, kind: str = "next") -> quiz.Found:
        """The first position at or after ``start`` where a question of ``kind`` can be
        asked about the room's search, computing the search there if it has not got there.

        Bounded: a run of backtracks is never longer than the board has squares, so a
        move comes within a window of twice that (or the search ends: ``cannot-ask``);
        computing towards a far ``start`` stops after ``seconds`` (``busy``).
        What the owner's timeline computes here is stored by the feed's next tick.
        """
        owner = self.owner and self.gen == room.gen and self.timeline is not None
        timeline = self.timeline if owner else self.replica.at(room, start)
        asked = timeline.first  # a race's quiz is about its first lane
        counts = asked.demo.counts
        board = asked.board
        closed = bool(clock.settings_of(room).get("closed"))
        rng = random.Random(f"{room.code}:{room.gen}:{start}:{kind}")
        window = 2 * board.rows * board.cols + 2
        for _attempt in range(3):
            upto = start + window
            if timeline.end is None and timeline.frontier < upto:
                made = timeline.extend(upto, seconds=seconds)
                if owner and made:
                    with self._unsaved_lock:
                        self._unsaved.extend((room.gen, state) for state in made)
                if timeline.end is None and timeline.frontier < upto:
                    raise ClassError("busy", "class.error.busy.computing")
            ended = asked.end is not None and upto >= asked.end["total"]
            snapshot = asked.snapshot(start, tail=0, ahead=window)
            found = quiz.first_question(
                snapshot, counts, board, kind, closed=closed, ended=ended, rng=rng, seconds=seconds
            )
            if found is not None and found is not questions.MORE:
                return found
            if ended or kind in quiz.WHERE_THE_CLASS_IS:
                break
            start = upto
        raise ClassError("cannot-ask", quiz.cannot_ask_key(kind))
