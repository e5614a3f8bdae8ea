"""A class room's search as one of the server's searches, paid for by the room's opener.

A room's feed (server/classroom/feed.py) computes the room's demo in slices.  Each slice
(with storing the checkpoints it made) takes one of the process's search slots and is
charged to the search budget of the client address that opened the room
(server/limits/budget.py), and the room's timelines are *pinned* in the memory budget
under that address (server/limits/memory.py): rooms opened from one address share that
address's CPU and memory with its other searches.  A slice that gets no slot, or whose
address is out of search time or memory, is not computed: the feed waits for its next
tick (the class waits, the server does not).

No Flask, no database: the feed passes its timeline and how to store checkpoints.
"""

from __future__ import annotations

from collections.abc import Callable

from ..limits.budget import Refused, Searches
from ..limits.memory import Kept, MemoryBudget
from ..stream.race import Race

SLOT_WAIT = 0.1  # how long a slice waits for a search slot before the next tick tries


class RoomBudget:
    """The process's search slots, search budget and memory budget, as one room uses them:
    in the name of ``address``, the client address that opened the room."""

    def __init__(self, searches: Searches | None, memory: MemoryBudget | None) -> None:
        self.searches = searches
        self.memory = memory
        self.address = ""
        self._pinned: dict[str, Kept] = {}  # "owner" / "replica": its timeline, counted

    def slice(
        self, timeline: Race, upto: int, seconds: float, save: Callable[[list], None]
    ) -> bool:
        """One slice of ``timeline`` towards ``upto`` (about ``seconds``), its checkpoints
        given to ``save``, as one search of the opener; False when it must wait: no slot
        came, the opener has no search time left, or its rooms fill its memory share."""
        if self.memory is not None and not self.memory.has_room(self.address):
            return False  # the opener's rooms fill its share: they stop growing

        def work() -> None:  # storing the checkpoints is part of the search's cost
            save(timeline.extend(upto, seconds=seconds))

        try:
            if self.searches is None:
                work()
            else:
                self.searches.attempt(self.address, work, SLOT_WAIT)
        except Refused:
            return False
        self.count("owner", timeline)
        return True

    def count(self, which: str, timeline: Race | None) -> None:
        """Count ``timeline`` as the room's ``which`` ("owner", "replica") in the memory
        budget, at its size now; None: it is gone."""
        memory = self.memory
        if memory is None:
            return
        pinned = self._pinned.pop(which, None)
        if timeline is None:
            memory.forget(pinned)
            return
        if pinned is None:
            pinned, evicted = memory.pin(self.address, timeline.nbytes)
        else:
            evicted = memory.resize(pinned, timeline.nbytes)
        self._pinned[which] = pinned
        memory.evict(evicted)
