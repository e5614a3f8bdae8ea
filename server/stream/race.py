"""A class room's demo as lanes played by one index: one search, or two raced.

The lesson's race chapters (seed against Warnsdorff, an article's program as written
against its correction) show two searches on the same board and start, both standing at
the same event index, as /watch's race view does.  A room serves them as one demo: a
:class:`Race` of one or two :class:`~server.stream.timeline.Timeline` lanes, which the
room's feed (server/classroom/feed.py), its replicas and its quiz use as they would one
timeline:

* its :attr:`Race.frontier` is as far as *every* lane is known (a lane that has ended is
  known at every index past its end), its :attr:`Race.end` comes once every lane has
  ended, with the longest lane's total: the class plays until the last lane stops;
* :meth:`Race.feed` and :meth:`Race.snapshot` give the wire's messages: one lane's as
  they always were; a race's with ``lanes`` (each lane's events, or its snapshot, which
  stands at its own end once it has ended) and ``ends`` (a lane's end, once the range
  sent reaches it: never sooner than its last event);
* the quiz asks about the first lane (:attr:`Race.first`).

Checkpoints are made per lane (:meth:`Race.extend` tags them with the lane's number);
:meth:`Race.checkpoint_groups` says what to store for each lane, at its own spacing.

Thread-safe as its timelines are; no Flask, no database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.walker import WalkerState
from .timeline import SNAPSHOT_TAIL, Timeline

PUBLIC_END = ("status", "total", "nodes", "backtracks", "limit")  # no tour: nobody's answer


def public_end(end: dict | None) -> dict | None:
    """A search's end as every member may see it (the path it found stays on the server)."""
    return None if end is None else {key: end[key] for key in PUBLIC_END}


class Race:
    """One or two timelines raced event for event; see the module docstring."""

    def __init__(self, lanes: Sequence[Timeline]) -> None:
        if not 1 <= len(lanes) <= 2:
            raise ValueError("a race has one lane or two")
        self.lanes = tuple(lanes)

    @property
    def first(self) -> Timeline:
        """The lane the quiz asks about (the room's own settings)."""
        return self.lanes[0]

    @property
    def raced(self) -> bool:
        return len(self.lanes) > 1

    # -- computing ------------------------------------------------------------------------
    @property
    def frontier(self) -> int:
        """Events known in every lane: the least frontier of those still running."""
        running = [lane.frontier for lane in self.lanes if lane.end is None]
        if running:
            return min(running)
        return max(lane.end["total"] for lane in self.lanes)

    @property
    def end(self) -> dict | None:
        """Once every lane has ended: the first lane's end, with the longest total."""
        if any(lane.end is None for lane in self.lanes):
            return None
        total = max(lane.end["total"] for lane in self.lanes)
        return {**self.first.end, "total": total}

    def extend(self, upto: int, *, seconds: float | None = None) -> list[tuple[int, WalkerState]]:
        """Every running lane towards ``upto`` (a slice's time shared between them);
        the checkpoints made, each with its lane's number."""
        running = [
            number
            for number, lane in enumerate(self.lanes)
            if lane.end is None and lane.frontier < upto
        ]
        made: list[tuple[int, WalkerState]] = []
        for number in running:
            share = None if seconds is None else seconds / len(running)
            made += [(number, state) for state in self.lanes[number].extend(upto, seconds=share)]
        return made

    def checkpoint_groups(
        self, made: Iterable[tuple[int, WalkerState]]
    ) -> list[tuple[int, list[WalkerState], int]]:
        """``(lane, states, spacing)`` for every lane: what to store (its spacing says
        which of its stored checkpoints it still keeps)."""
        made = list(made)
        return [
            (number, [state for tag, state in made if tag == number], lane.spacing)
            for number, lane in enumerate(self.lanes)
        ]

    @property
    def spacing(self) -> int:
        return min(lane.spacing for lane in self.lanes)

    def reach(self, upto: int, known: int) -> None:
        """A replica's bounded work: each lane towards ``upto``, at most two of its
        spacings past its last checkpoint, or as far as the owner has got (``known``)."""
        for lane in self.lanes:
            if lane.end is None:
                lane.extend(min(upto, max(known, lane.latest_checkpoint + 2 * lane.spacing)))

    def stored_past(self, stored: Sequence[Sequence[WalkerState]]) -> bool:
        """Whether the stored checkpoints (per lane) reach past what a lane has computed."""
        return any(
            states and states[-1].index > lane.frontier
            for states, lane in zip(stored, self.lanes, strict=True)
        )

    # -- the wire -----------------------------------------------------------------------------
    def _ends(self, upto: int) -> list[dict | None]:
        return [
            public_end(lane.end) if lane.end is not None and lane.end["total"] <= upto else None
            for lane in self.lanes
        ]

    def feed(self, start: int, stop: int) -> dict:
        """The events ``[start, stop)`` as a ``feed`` message's body."""
        if not self.raced:
            return {"at": start, "events": self.first.events(start, stop)}
        return {
            "at": start,
            "lanes": [lane.events(start, stop) for lane in self.lanes],
            "ends": self._ends(stop),
        }

    def snapshot(self, index: int, *, tail: int = SNAPSHOT_TAIL, ahead: int = 0) -> dict:
        """What a member needs to stand at ``index``: a lane's snapshot, or for a race
        the class's range (``index``, ``at``, ``count``) and each lane's own."""
        if not self.raced:
            return self.first.snapshot(index, tail=tail, ahead=ahead)
        index = max(0, min(index, self.frontier))
        at = max(0, index - tail)
        stop = min(index + ahead, self.frontier)
        return {
            "index": index,
            "at": at,
            "count": stop - at,
            "lanes": [lane.snapshot(index, tail=tail, ahead=stop - index) for lane in self.lanes],
            "ends": self._ends(stop),
        }

    # -- memory ---------------------------------------------------------------------------------
    @property
    def nbytes(self) -> int:
        return sum(lane.nbytes for lane in self.lanes)

    def close(self) -> None:
        for lane in self.lanes:
            lane.close()
