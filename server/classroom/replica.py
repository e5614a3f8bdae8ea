"""A room's demo on the stored checkpoints, for a process that does not run its search.

Any process answers a member's ``sync`` (a late joiner, a reconnect) and finds a quiz
question, but only the lease's owner computes the room's search
(server/classroom/feed.py).  Elsewhere, a :class:`Replica` rebuilds the demo's
:class:`~server.stream.timeline.Timeline` from the checkpoints the owner stored, and
moves it at most two checkpoint spacings past the last one: bounded work, never a
replay from event 0.  Its memory counts against the room's opener
(:class:`~.room_budget.RoomBudget`).
"""

from __future__ import annotations

import threading

from ..stream.timeline import Timeline
from . import clock, lease
from .room_budget import RoomBudget


class Replica:
    """One room's replica timeline in this process (the room's current demo's)."""

    def __init__(self, budget: RoomBudget) -> None:
        self.budget = budget
        self._timeline: Timeline | None = None
        self._gen: int | None = None  # the demo generation ``_timeline`` shows
        self._lock = threading.Lock()

    @property
    def timeline(self) -> Timeline | None:
        """The replica as it stands (None before the first read)."""
        return self._timeline

    def at(self, room, upto: int) -> Timeline:
        """The demo's timeline, computed towards ``upto`` as far as the rule allows."""
        with self._lock:
            replica = self._timeline if self._gen == room.gen else None
            if replica is None or upto > replica.frontier + replica.spacing:
                states = lease.load_checkpoints(room.code, room.gen)
                if replica is None or (states and states[-1].index > replica.frontier):
                    if replica is not None:
                        replica.close()
                    replica = Timeline(clock.demo_of(room), states)
                    self._timeline, self._gen = replica, room.gen
            latest = replica.latest_checkpoint
            replica.extend(min(upto, max(room.frontier, latest + 2 * replica.spacing)))
            self.budget.address = room.address or ""
            self.budget.count("replica", replica)
            return replica

    def close(self) -> None:
        with self._lock:
            if self._timeline is not None:
                self._timeline.close()
            self.budget.count("replica", None)
