"""A room's demo on the stored checkpoints, for a process that does not run its search.

Any process answers a member's ``sync`` (a late joiner, a reconnect) and finds a quiz
question, but only the lease's owner computes the room's search
(server/classroom/feed.py).  Elsewhere, a :class:`Replica` rebuilds the demo's
:class:`~server.stream.race.Race` (a timeline per lane) from the checkpoints the owner
stored, and moves each lane at most two checkpoint spacings past its last one: bounded
work, never a replay from event 0.  Its memory counts against the room's opener
(:class:`~.room_budget.RoomBudget`).
"""

from __future__ import annotations

import threading

from ..stream.race import Race
from ..stream.timeline import Timeline
from . import clock, lease
from .room_budget import RoomBudget


def stored_checkpoints(room) -> list[list]:
    """The checkpoints stored for each lane of the room's current demo."""
    return [
        lease.load_checkpoints(room.code, room.gen, lane)
        for lane in range(len(clock.demos_of(room)))
    ]


def race_of(room, stored: list[list] | None = None) -> Race:
    """The room's current demo, resumed from its stored checkpoints (a takeover, a replica)."""
    if stored is None:
        stored = stored_checkpoints(room)
    demos = clock.demos_of(room)
    return Race([Timeline(demo, states) for demo, states in zip(demos, stored, strict=True)])


class Replica:
    """One room's replica demo in this process (the room's current demo's)."""

    def __init__(self, budget: RoomBudget) -> None:
        self.budget = budget
        self._timeline: Race | None = None
        self._gen: int | None = None  # the demo generation ``_timeline`` shows
        self._lock = threading.Lock()

    @property
    def timeline(self) -> Race | None:
        """The replica as it stands (None before the first read)."""
        return self._timeline

    def at(self, room, upto: int) -> Race:
        """The demo, computed towards ``upto`` as far as the rule allows."""
        with self._lock:
            replica = self._timeline if self._gen == room.gen else None
            if replica is None or upto > replica.frontier + replica.spacing:
                stored = stored_checkpoints(room)
                if replica is None or replica.stored_past(stored):
                    if replica is not None:
                        replica.close()
                    replica = race_of(room, stored)
                    self._timeline, self._gen = replica, room.gen
            replica.reach(upto, room.frontier)
            self.budget.address = room.address or ""
            self.budget.count("replica", replica)
            return replica

    def close(self) -> None:
        with self._lock:
            if self._timeline is not None:
                self._timeline.close()
            self.budget.count("replica", None)
